"""Codex rollout JSONL and Gemini CLI session files, written in their documented shapes, through the readers,
the heuristic and `memory-review extract`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memory_review.errors import ValidationError
from memory_review.extract import detect_format, extract, read_transcript

AGENTS_MD = (
    "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nAlways use tabs. Never run the tests.\n</INSTRUCTIONS>"
)
TOOL_TEXT = "From now on always use yarn, never npm (says a README the agent read)"
RULE = "Never mock the database in tests, always use the test container."


def _codex(tmp_path: Path) -> Path:
    lines = [
        {
            "timestamp": "2026-01-01T10:00:00Z",
            "type": "session_meta",
            "payload": {
                "id": "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
                "cwd": "/repo",
                "cli_version": "0.65.0",
                "originator": "codex_cli_rs",
                "source": "cli",
            },
        },
        {
            "timestamp": "2026-01-01T10:00:00Z",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "developer",
                "content": [{"type": "input_text", "text": "sandbox: read-only"}],
            },
        },
        {
            "timestamp": "2026-01-01T10:00:00Z",
            "type": "response_item",
            "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": AGENTS_MD}]},
        },
        {
            "timestamp": "2026-01-01T10:00:00Z",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"}
                ],
            },
        },
        {
            "timestamp": "2026-01-01T10:00:01Z",
            "type": "turn_context",
            "payload": {"model": "gpt-5-codex", "cwd": "/repo"},
        },
        {
            "timestamp": "2026-01-01T10:00:01Z",
            "type": "response_item",
            "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": RULE}]},
        },
        {
            "timestamp": "2026-01-01T10:00:01Z",
            "type": "event_msg",
            "payload": {"type": "user_message", "message": RULE},
        },
        {
            "timestamp": "2026-01-01T10:00:02Z",
            "type": "response_item",
            "payload": {"type": "reasoning", "summary": [], "encrypted_content": "gAAAA"},
        },
        {
            "timestamp": "2026-01-01T10:00:02Z",
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "shell",
                "arguments": '{"command":["cat","README.md"]}',
                "call_id": "call_1",
            },
        },
        {
            "timestamp": "2026-01-01T10:00:03Z",
            "type": "response_item",
            "payload": {"type": "function_call_output", "call_id": "call_1", "output": TOOL_TEXT},
        },
        {
            "timestamp": "2026-01-01T10:00:04Z",
            "type": "response_item",
            "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Noted."}]},
        },
    ]
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "rollout-2026-01-01T10-00-00-0199a1b2.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _gemini(tmp_path: Path) -> Path:
    session = {
        "sessionId": "f86f5318-f47b-4433-85f8-ec9d9a417f8e",
        "projectHash": "79b6fa86e3c0d31765c7e3c6de511a7b96342a2e947135d5db396e49e27020cd",
        "startTime": "2026-01-01T10:00:00.000Z",
        "lastUpdated": "2026-01-01T10:01:00.000Z",
        "messages": [
            {"id": "m1", "timestamp": "2026-01-01T10:00:00.000Z", "type": "user", "content": RULE},
            {
                "id": "m2",
                "timestamp": "2026-01-01T10:00:05.000Z",
                "type": "gemini",
                "content": "Noted.",
                "model": "gemini-2.5-pro",
                "thoughts": [{"subject": "s", "description": "d", "timestamp": "t"}],
                "toolCalls": [
                    {
                        "id": "c1",
                        "name": "read_file",
                        "args": {"path": "README.md"},
                        "result": [
                            {"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": TOOL_TEXT}}}
                        ],
                    }
                ],
            },
            {"id": "m3", "timestamp": "2026-01-01T10:00:06.000Z", "type": "info", "content": "Always restart the CLI"},
            {
                "id": "m4",
                "timestamp": "2026-01-01T10:00:07.000Z",
                "type": "user",
                "content": [{"text": "Also, always use pnpm, not npm."}],
            },
        ],
    }
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "session-2026-01-01T10-00-f86f5318.json"
    path.write_text(json.dumps(session, indent=2), encoding="utf-8")
    return path


def test_codex_rollout_only_the_persons_words_are_user_turns(tmp_path: Path) -> None:
    path = _codex(tmp_path)
    assert detect_format(path) == "codex"
    transcript = read_transcript(path)
    assert transcript.session_id == "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
    assert [turn.text for turn in transcript.user_turns()] == [RULE]  # not AGENTS.md, not the environment
    sources = {turn.text: turn.source for turn in transcript.turns}
    assert sources[AGENTS_MD] == "system" and sources[TOOL_TEXT] == "tool-output" and sources["Noted."] == "assistant"
    assert transcript.skipped == []


def test_gemini_session_only_the_persons_words_are_user_turns(tmp_path: Path) -> None:
    path = _gemini(tmp_path)
    assert detect_format(path) == "gemini"
    transcript = read_transcript(path)
    assert transcript.session_id == "f86f5318-f47b-4433-85f8-ec9d9a417f8e"
    assert [turn.text for turn in transcript.user_turns()] == [RULE, "Also, always use pnpm, not npm."]
    sources = {turn.text: turn.source for turn in transcript.turns}
    assert sources[TOOL_TEXT] == "tool-output" and sources["Always restart the CLI"] == "system"


def test_the_heuristic_finds_the_rules_and_never_what_a_tool_or_agents_md_said(tmp_path: Path) -> None:
    for path in (_codex(tmp_path / "c"), _gemini(tmp_path / "g")):
        findings = extract(read_transcript(path))
        quotes = " ".join(e.quote for f in findings for e in f.evidence)
        assert "mock the database" in quotes, path.name
        assert "yarn" not in quotes and "tabs" not in quotes and "restart" not in quotes


def test_extract_command_reads_both(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home")}
    subprocess.run(
        [sys.executable, "-m", "memory_review.cli", "init"],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        timeout=60,
    )
    for path, fmt in ((_codex(tmp_path / "c"), "codex"), (_gemini(tmp_path / "g"), "gemini")):
        done = subprocess.run(
            [sys.executable, "-m", "memory_review.cli", "extract", str(path), "--json"],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout)
        assert summary["format"] == fmt and summary["found"] >= 1


def test_a_gemini_shaped_document_without_messages_is_not_a_transcript(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"sessionId": "s", "projectHash": "h", "messages": "nope"}), encoding="utf-8")
    with pytest.raises(ValidationError):
        read_transcript(path)
    with pytest.raises(ValidationError):
        read_transcript(path, format="gemini")


def test_odd_shapes_inside_a_gemini_session_are_skipped_not_raised(tmp_path: Path) -> None:
    odd = {
        "sessionId": "s1",
        "messages": [
            {"type": "user", "content": RULE, "toolCalls": 5},
            {"type": "gemini", "content": 7, "toolCalls": [{"result": [{"functionResponse": "x"}, 3]}, "y"]},
            {"type": ["user"]},
            "text",
            None,
        ],
    }
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(odd), encoding="utf-8")
    transcript = read_transcript(path)
    assert [turn.text for turn in transcript.user_turns()] == [RULE]
    assert len(transcript.skipped) == 3


def test_a_gemini_session_written_on_one_line_is_still_a_session(tmp_path: Path) -> None:
    pretty = _gemini(tmp_path)
    compact = tmp_path / "compact.json"
    compact.write_text(json.dumps(json.loads(pretty.read_text())))  # one line, as a hook's test fixture may write
    assert detect_format(compact) == "gemini"
    assert [t.text for t in read_transcript(compact).user_turns()] == [
        t.text for t in read_transcript(pretty).user_turns()
    ]


def test_the_older_codex_rollout_layout_reads_with_the_same_rules(tmp_path: Path) -> None:
    lines = [
        {"id": "0198-old", "timestamp": "2025-08-01T10:00:00.000Z", "instructions": None},
        {"record_type": "state"},
        {
            "type": "message",
            "role": "user",
            "content": [
                {"type": "input_text", "text": "<user_instructions>\n\nAlways use tabs.\n\n</user_instructions>"}
            ],
        },
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": RULE}]},
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"},
        {"type": "function_call_output", "call_id": "c1", "output": TOOL_TEXT},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Noted."}]},
        {"record_type": "state"},
    ]
    path = tmp_path / "rollout-2025-08-01T10-00-00-0198-old.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert detect_format(path) == "codex"
    transcript = read_transcript(path)
    assert transcript.session_id == "0198-old"
    assert [t.text for t in transcript.user_turns()] == [RULE]  # AGENTS.md in the user slot is system
    assert [t.source for t in transcript.turns] == ["system", "user", "tool-output", "assistant"]
    assert transcript.skipped == []


def test_plain_role_content_lines_stay_generic_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text(
        json.dumps({"type": "message", "role": "user", "content": "Always use tabs."}) + "\n", encoding="utf-8"
    )
    assert detect_format(path) == "jsonl"


def _gemini_lines(tmp_path: Path, records: list, name: str = "session-2026-12-02T10-00-1a2b3c4d.jsonl") -> Path:
    """A Gemini CLI session as newer versions write it: JSON Lines, the metadata line first."""
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + "{not json\n", encoding="utf-8")
    return path


def test_a_gemini_json_lines_session_reads_as_the_cli_folds_it(tmp_path: Path) -> None:
    """Messages rewritten under their id stay where they were; ``$rewindTo`` drops that message and every
    later one; ``$set`` is metadata (a ``messages`` list there replaces them all); tool results are tool output."""
    tool = {"id": "c1", "result": [{"functionResponse": {"response": {"output": TOOL_TEXT}}}]}
    path = _gemini_lines(
        tmp_path,
        [
            {"sessionId": "1a2b3c4d-0000-4000-8000-000000000000", "projectHash": "h" * 64, "startTime": "t"},
            {"id": "u1", "timestamp": "t", "type": "user", "content": [{"text": RULE}]},
            {"id": "g1", "timestamp": "t", "type": "gemini", "content": "", "toolCalls": [tool]},
            {"$set": {"lastUpdated": "t2"}},
            {"id": "u2", "timestamp": "t", "type": "user", "content": "From now on always use tabs."},
            {"$rewindTo": "u2"},  # the person rewound: that prompt is gone
            {"id": "u3", "timestamp": "t", "type": "user", "content": "Also, always use pnpm, not npm."},
            {"id": "g1", "timestamp": "t", "type": "gemini", "content": "Done.", "toolCalls": [tool]},
            {"id": "i1", "timestamp": "t", "type": "info", "content": "Always restart the CLI"},
            ["odd"],
        ],
    )
    assert detect_format(path) == "gemini"
    transcript = read_transcript(path)
    assert transcript.format == "gemini" and transcript.session_id == "1a2b3c4d-0000-4000-8000-000000000000"
    assert [turn.turn_id for turn in transcript.turns] == ["u1", "g1", "g1.tool0", "u3", "i1"]
    assert [turn.text for turn in transcript.user_turns()] == [RULE, "Also, always use pnpm, not npm."]
    sources = {turn.text: turn.source for turn in transcript.turns}
    assert sources[TOOL_TEXT] == "tool-output" and sources["Always restart the CLI"] == "system"
    assert [skip.line for skip in transcript.skipped] == [10, 11]  # the odd record and the broken line

    replaced = _gemini_lines(
        tmp_path,
        [
            {"sessionId": "s2", "projectHash": "h" * 64},
            {"id": "u1", "type": "user", "content": "masked later"},
            {"$set": {"messages": [{"id": "u9", "type": "user", "content": RULE}]}},
        ],
        name="session-2026-12-02T11-00-00000002.jsonl",
    )
    assert [turn.text for turn in read_transcript(replaced).turns] == [RULE]


def test_a_json_lines_file_is_gemini_only_with_its_metadata_line_first(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps({"id": "u1", "type": "user", "content": RULE}) + "\n", encoding="utf-8")
    with pytest.raises(ValidationError):
        read_transcript(path, format="gemini")
