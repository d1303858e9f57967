"""What the real agent CLIs printed when run here, replayed by the stand-ins (docs/adr/0051).

Claude Code 2.1.197, codex-cli 0.171.0 and Gemini CLI 0.61.0 were installed from npm and run with this
module's command lines, without a login and without a network. Each output below is what one of them
wrote (ids and paths shortened); the stand-in plays it back, so the parsers are held to the real shapes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from agent_cli_kit import make_stand_in

from memory_review.extract.cli_config import CliConfig, command_env
from memory_review.extract.model_extractor import extract_with_agent_cli
from memory_review.extract.readers import read_transcript

CLAUDE_NOT_LOGGED_IN = json.dumps(
    {
        "type": "result",
        "subtype": "success",
        "is_error": True,
        "api_error_status": None,
        "duration_ms": 70,
        "num_turns": 1,
        "result": "Not logged in · Please run /login",
        "stop_reason": "stop_sequence",
        "session_id": "03943d45",
        "total_cost_usd": 0,
        "modelUsage": {},
        "permission_denials": [],
        "terminal_reason": "completed",
    }
)
GEMINI_NO_AUTH_STDERR = (
    'Approval mode overridden to "default" because the current folder is not trusted.\n'
    "{\n"
    '  "session_id": "5a8762a7",\n'
    '  "error": {\n'
    '    "type": "Error",\n'
    '    "message": "Please set an Auth method in your ~/.gemini/settings.json or specify one of the following'
    ' environment variables before running: GEMINI_API_KEY, GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GENAI_USE_GCA",\n'
    '    "code": 41\n'
    "  }\n"
    "}\n"
)
GEMINI_NO_NETWORK_STDERR = (
    "Full report available at: /tmp/gemini-client-error-Turn.run-sendMessageStream.json"
    " Error: exception TypeError: fetch failed sending request\n"
    "    at file:///gemini-cli/bundle/chunk.js:267671:13\n"
    "    at async retryWithBackoff (file:///gemini-cli/bundle/chunk.js:308039:23)\n"
    "{\n"
    '  "session_id": "8280c042",\n'
    '  "error": {\n'
    '    "type": "Error",\n'
    '    "message": "exception TypeError: fetch failed sending request",\n'
    '    "code": 1\n'
    "  }\n"
    "}\n"
)
GEMINI_UNTRUSTED_STDERR = (
    "Gemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`, set the"
    " `GEMINI_CLI_TRUST_WORKSPACE=true` environment variable, or trust this directory in interactive mode.\n"
)
CODEX_RECONNECTING = [
    {"type": "thread.started", "thread_id": "01a23792"},
    {"type": "turn.started"},
    {
        "type": "error",
        "message": "Reconnecting... 2/5 (stream disconnected before completion: failed to lookup"
        " address information: Name does not resolve)",
    },
    {
        "type": "item.completed",
        "item": {
            "id": "item_0",
            "type": "error",
            "message": "Falling back from WebSockets to HTTPS transport. stream disconnected before completion",
        },
    },
    {"type": "error", "message": "Reconnecting... waiting for network (Connection failed: error sending request)"},
]
ITEM = {
    "name": "forbidden-mock-database",
    "type": "forbidden",
    "scope": "project",
    "description": "Never mock the database in tests",
    "body": "Never mock the database in tests; use the test container.",
}


def jsonl(events: list[dict]) -> str:
    return "".join(json.dumps(event) + "\n" for event in events)


@pytest.fixture
def session(claude_session) -> Path:
    return claude_session(("user", "Never mock the database in tests, use the test container."))


def test_claude_not_logged_in_is_said_as_claude_says_it(tmp_path: Path, session: Path) -> None:
    stand_in = make_stand_in(tmp_path / "bin", "claude")
    stand_in.act(exit=1, stdout=CLAUDE_NOT_LOGGED_IN)
    result = extract_with_agent_cli(read_transcript(session), CliConfig(agent="claude", program=str(stand_in.program)))
    assert result.failure is not None and result.failure.kind == "cli-error"
    assert result.failure.message == "claude reported an error: Not logged in · Please run /login"


@pytest.mark.parametrize(
    "stderr, code, said",
    [
        (GEMINI_NO_AUTH_STDERR, 41, "gemini reported an error: Please set an Auth method in your"),
        (GEMINI_NO_NETWORK_STDERR, 1, "gemini reported an error: exception TypeError: fetch failed sending request"),
        (GEMINI_UNTRUSTED_STDERR, 55, "gemini exited with status 55: Gemini CLI is not running in a trusted"),
    ],
)
def test_gemini_s_fatal_error_is_read_from_the_end_of_stderr(
    tmp_path: Path, session: Path, stderr: str, code: int, said: str
) -> None:
    stand_in = make_stand_in(tmp_path / "bin", "gemini")
    stand_in.act(exit=code, stdout="", stderr=stderr)
    result = extract_with_agent_cli(read_transcript(session), CliConfig(agent="gemini", program=str(stand_in.program)))
    assert result.failure is not None and result.failure.kind == "cli-error"
    assert result.failure.message.startswith(said), result.failure.message


def test_gemini_runs_with_its_empty_folder_trusted_so_plan_mode_holds(tmp_path: Path, session: Path) -> None:
    stand_in = make_stand_in(tmp_path / "bin", "gemini")
    extract_with_agent_cli(read_transcript(session), CliConfig(agent="gemini", program=str(stand_in.program)))
    [call] = stand_in.calls()
    assert call["trust"] == "true" and call["cwd_entries"] == []
    assert call["argv"][call["argv"].index("--approval-mode") + 1] == "plan"
    claude = make_stand_in(tmp_path / "claude-bin", "claude")
    extract_with_agent_cli(read_transcript(session), CliConfig(agent="claude", program=str(claude.program)))
    assert claude.calls()[0]["trust"] is None  # set for gemini's child only


def test_codex_reconnecting_then_answering_is_an_answer(tmp_path: Path, session: Path) -> None:
    stand_in = make_stand_in(tmp_path / "bin", "codex")
    answer = {"type": "item.completed", "item": {"id": "item_1", "type": "agent_message", "text": json.dumps([ITEM])}}
    done = {"type": "turn.completed", "usage": {"input_tokens": 10, "cached_input_tokens": 0, "output_tokens": 20}}
    stand_in.act(exit=0, stdout=jsonl([*CODEX_RECONNECTING, answer, done]))
    result = extract_with_agent_cli(read_transcript(session), CliConfig(agent="codex", program=str(stand_in.program)))
    assert result.failure is None, result.failure
    assert [f.memory.id for f in result.findings] == ["forbidden-mock-database"]


def test_codex_that_never_reconnects_is_stopped_and_says_why(tmp_path: Path, session: Path) -> None:
    stand_in = make_stand_in(tmp_path / "bin", "codex")
    stand_in.act(say=jsonl(CODEX_RECONNECTING), sleep=600)
    config = CliConfig(agent="codex", program=str(stand_in.program), timeout=2)
    result = extract_with_agent_cli(read_transcript(session), config)
    assert result.failure is not None and result.failure.kind == "timeout"
    assert result.failure.message.endswith(
        "the CLI was stopped; it last reported: Reconnecting... waiting for network (Connection failed: error sending"
        " request)"
    )


def test_codex_that_exits_mid_turn_names_its_last_error(tmp_path: Path, session: Path) -> None:
    stand_in = make_stand_in(tmp_path / "bin", "codex")
    stand_in.act(exit=0, stdout=jsonl(CODEX_RECONNECTING))
    result = extract_with_agent_cli(read_transcript(session), CliConfig(agent="codex", program=str(stand_in.program)))
    assert result.failure is not None and result.failure.kind == "truncated"
    assert "it last reported: Reconnecting... waiting for network" in result.failure.message


def test_extract_in_a_project_without_a_store_says_the_failure_and_creates_nothing(
    tmp_path: Path, session: Path
) -> None:
    stand_in = make_stand_in(tmp_path / "bin", "claude")
    stand_in.act(exit=1, stdout=CLAUDE_NOT_LOGGED_IN)
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path / "home"),
        "MEMORY_REVIEW_HOME": str(tmp_path / "user"),
        command_env("claude"): str(stand_in.program),
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "memory_review.cli",
            "--project",
            str(project),
            "extract",
            "--extractor",
            "claude",
            str(session),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout + done.stderr
    assert "claude reported an error: Not logged in · Please run /login" in out
    assert "not kept for `memory-review hook errors`: this project has no store yet" in out
    assert sorted(p.name for p in project.iterdir()) == [".git"]
