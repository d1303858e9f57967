"""`memory-review extract --extractor claude|codex|gemini` end to end: a real subprocess, a stand-in CLI,
real stores."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from agent_cli_kit import make_stand_in
from forkserver_kit import as_text, run_cli

from memory_review.workspace import Workspace

ANSWER = [
    {
        "name": "forbidden-mock-database",
        "type": "forbidden",
        "scope": "project",
        "description": "Never mock the database in tests",
        "body": "Never mock the database in tests; use the test container.",
    }
]


def _run(args: list[str], root: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return as_text(run_cli(args, env=env, cwd=root, timeout=120))  # forked past the start-up (forkserver_kit)


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root = tmp_path / "p"
    root.mkdir()
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home")}
    assert _run(["init"], root, env).returncode == 0
    return root, env


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_extract_through_each_cli_proposes_llm_candidates(project, claude_session, tmp_path: Path, agent: str) -> None:
    root, env = project
    stand_in = make_stand_in(tmp_path / "bin", agent)
    stand_in.act(answer=json.dumps(ANSWER), model="stand-in-model")
    session = claude_session(("user", "Never mock the database in tests, use the test container."))
    done = _run(
        ["extract", str(session), "--extractor", agent, "--json"],
        root,
        {**env, f"MEMORY_REVIEW_{agent.upper()}_CLI": str(stand_in.program)},
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["failure"] is None and len(summary["proposed"]) == 1
    ws = Workspace(root, tmp_path / "home")
    [state] = ws.list_candidates()
    assert state.candidate.proposer.kind == "llm"
    assert state.candidate.proposer.name == f"memory-review-{agent}-cli"
    assert state.candidate.proposer.model == (None if agent == "codex" else "stand-in-model")
    assert ws.memories() == []  # a candidate, never memory


def test_the_cli_named_in_the_persons_config_is_used(project, claude_session, tmp_path: Path) -> None:
    root, env = project
    stand_in = make_stand_in(tmp_path / "bin", "claude")
    stand_in.act(answer=json.dumps(ANSWER))
    (tmp_path / "home" / "config.json").write_text(
        json.dumps({"extractors": {"claude": {"command": str(stand_in.program), "model": "opus"}}}), encoding="utf-8"
    )
    session = claude_session(("user", "Never mock the database in tests, use the test container."))
    done = _run(["extract", str(session), "--extractor", "claude", "--json"], root, {**env, "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    [call] = stand_in.calls()
    assert call["argv"][call["argv"].index("--model") + 1] == "opus"


@pytest.mark.parametrize("scenario", [{"error": True}, {"exit": 1, "stdout": "garbage"}, {"tool": True}])
def test_a_failing_cli_is_recorded_in_hook_errors_and_proposes_nothing(
    project, claude_session, tmp_path: Path, scenario: dict
) -> None:
    root, env = project
    stand_in = make_stand_in(tmp_path / "bin", "claude")
    stand_in.act(**scenario)
    session = claude_session(("user", "Never mock the database in tests, use the test container."))
    done = _run(
        ["extract", str(session), "--extractor", "claude"],
        root,
        {**env, "MEMORY_REVIEW_CLAUDE_CLI": str(stand_in.program)},
    )
    assert done.returncode == 0, done.stderr
    assert "warning: claude extractor failed" in done.stdout
    errors = _run(["hook", "errors", "--json"], root, env)
    [entry] = json.loads(errors.stdout)
    assert entry["event"] == "model-extractor" and "claude extractor failed" in entry["message"]
    assert Workspace(root, tmp_path / "home").list_candidates() == []


def test_a_cli_not_on_path_is_a_recorded_failure_with_the_fix(project, claude_session) -> None:
    root, env = project
    session = claude_session(("user", "Never mock the database in tests."))
    env = {k: v for k, v in env.items() if not k.startswith("MEMORY_REVIEW_GEMINI")}
    done = _run(["extract", str(session), "--extractor", "gemini"], root, {**env, "PATH": "/nonexistent"})
    assert done.returncode == 0, done.stderr
    assert "MEMORY_REVIEW_GEMINI_CLI" in done.stdout


def test_a_long_history_is_read_in_several_calls_and_says_so(project, claude_session, tmp_path: Path) -> None:
    """ADR 0155: each call says which batch it is on stderr; a failed one keeps what the ones before it found."""
    root, env = project
    stand_in = make_stand_in(tmp_path / "bin", "claude")
    stand_in.act(per_call=[{"answer": json.dumps(ANSWER)}, {"error": True}])
    tasks = [
        f"Look at module m{n} and tell me what it does. " + " ".join(f"w{n}k{k}" for k in range(200)) for n in range(60)
    ]
    session = claude_session(
        ("user", "Never mock the database in tests, use the test container."), *[("user", t) for t in tasks]
    )
    done = _run(
        ["extract", str(session), "--extractor", "claude", "--json"],
        root,
        {**env, "MEMORY_REVIEW_CLAUDE_CLI": str(stand_in.program)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "asking claude: batch 1 of 2 of the statements",
        "asking claude: batch 2 of 2 of the statements",
    ]
    summary = json.loads(done.stdout)
    assert len(summary["proposed"]) == 1
    assert "batch 2 of 2: " in summary["failure"] and "what batch 1 found is kept" in summary["failure"]
    [entry] = json.loads(_run(["hook", "errors", "--json"], root, env).stdout)
    assert entry["message"] == summary["failure"]


def test_items_no_sentence_of_the_persons_backs_are_named_not_dropped_in_silence(
    project, claude_session, tmp_path: Path
) -> None:
    """ADR 0026 says they are listed; session 37's review found them in no output."""
    root, env = project
    stand_in = make_stand_in(tmp_path / "bin", "claude")
    invented = {
        "name": "deploy-fridays",
        "type": "convention",
        "scope": "project",
        "description": "Deploy on Fridays",
        "body": "Deploy on Fridays.",
    }
    stand_in.act(answer=json.dumps([*ANSWER, invented]))
    session = claude_session(("user", "Never mock the database in tests, use the test container."))
    done = _run(
        ["extract", str(session), "--extractor", "claude", "--json"],
        root,
        {**env, "MEMORY_REVIEW_CLAUDE_CLI": str(stand_in.program)},
    )
    summary = json.loads(done.stdout)
    assert len(summary["proposed"]) == 1 and summary["unsupported"] == ["deploy-fridays"]
    assert summary["failure"] is None  # not a failure: the hooks record none
    cli = {**env, "MEMORY_REVIEW_CLAUDE_CLI": str(stand_in.program)}
    shown = _run(["extract", str(session), "--extractor", "claude"], root, cli)
    assert "nothing you said backs: deploy-fridays" in shown.stdout


def _is_error_reply(text: str) -> str:
    return json.dumps({"type": "result", "subtype": "success", "is_error": True, "result": text, "session_id": "s1"})


_DSN = "postgres://admin:S3cretPassw0rd" + "Q" * 40 + "@db.internal:5432/prod"


@pytest.mark.parametrize(
    ("scenario", "secret"),
    [
        # Session 38's review: the CLI's words were cut to 500 characters, then redacted; a key on the cut was kept.
        ({"exit": 0, "stdout": _is_error_reply("E" * 400 + " could not connect to " + _DSN)}, "S3cretPassw0rd"),
        # ... and its stderr was shown on the terminal as it came.
        ({"exit": 3, "stderr": "auth failed for AKIAQ7WE9RT1YU3IO5PA\n"}, "AKIAQ7WE9RT1YU3IO5PA"),
        ({"exit": 3, "stderr": "x" * 240 + " " + _DSN + "\n"}, "S3cretPassw0rd"),
    ],
    ids=["is-error-text-on-the-cut", "stderr", "stderr-on-the-cut"],
)
def test_a_cli_failure_holding_a_key_is_redacted_on_screen_and_on_disk(
    project, claude_session, tmp_path: Path, scenario: dict, secret: str
) -> None:
    root, env = project
    stand_in = make_stand_in(tmp_path / "bin", "claude")
    stand_in.act(**scenario)
    session = claude_session(("user", "Never mock the database in tests, use the test container."))
    done = _run(
        ["extract", str(session), "--extractor", "claude"],
        root,
        {**env, "MEMORY_REVIEW_CLAUDE_CLI": str(stand_in.program)},
    )
    assert "claude" in done.stderr + done.stdout and "[REDACTED:" in done.stderr + done.stdout
    assert secret not in done.stdout + done.stderr
    written = [p for folder in (root, tmp_path / "home") for p in folder.rglob("*") if p.is_file()]
    assert any("errors" in p.name for p in written)
    assert [p for p in written if secret.encode() in p.read_bytes()] == []


def test_a_model_name_holding_a_key_on_its_cut_is_redacted(project, claude_session, tmp_path: Path) -> None:
    root, env = project
    stand_in = make_stand_in(tmp_path / "bin", "claude")
    secret = "S3cretPassw0rd" + "Q" * 70
    stand_in.act(answer=json.dumps(ANSWER), model=f"model via postgres://u:{secret}@db/x")  # the @ past 100
    session = claude_session(("user", "Never mock the database in tests, use the test container."))
    done = _run(
        ["extract", str(session), "--extractor", "claude"],
        root,
        {**env, "MEMORY_REVIEW_CLAUDE_CLI": str(stand_in.program)},
    )
    assert done.returncode == 0, done.stderr
    [state] = Workspace(root, tmp_path / "home").list_candidates()
    assert state.candidate.proposer.model is not None and "[REDACTED:url-credentials]" in state.candidate.proposer.model
    written = [p for folder in (root, tmp_path / "home") for p in folder.rglob("*") if p.is_file()]
    assert [p for p in written if b"S3cretPassw0rd" in p.read_bytes()] == []
