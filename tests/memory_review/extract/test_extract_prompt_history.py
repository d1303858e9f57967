"""Claude Code's prompt history (`~/.claude/history.jsonl`, ADR 0072), written in its documented shape: read for one
project only, through the reader, the heuristic and `memory-review extract` as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memory_review.errors import ValidationError
from memory_review.extract import detect_format, extract, read_transcript
from memory_review.extract.prompt_history import OTHER_PROJECT

RULE = "Don't mock the database in tests, use the docker fixture."
OTHER_RULE = "Never push to main without asking me."


def _record(display: str, project: Path | str, session: str | None = "s1", ms: int = 1759105062139) -> dict:
    record: dict = {"display": display, "pastedContents": {}, "timestamp": ms, "project": str(project)}
    if session is not None:
        record["sessionId"] = session
    return record


def _history(tmp_path: Path, records: list[dict | str]) -> Path:
    path = tmp_path / "history.jsonl"
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    return root


def test_only_the_projects_prompts_are_read(tmp_path: Path, project: Path) -> None:
    path = _history(
        tmp_path,
        [
            _record("fix the login bug", project),
            _record(OTHER_RULE, tmp_path / "other", session="s9"),
            _record(OTHER_RULE, str(project) + "-fork", session="s9"),  # a name that starts the same is another folder
            _record("add a test for it", project / "src" / "api", session="s2"),  # a folder inside the project
        ],
    )
    transcript = read_transcript(path, project=project)
    assert [t.text for t in transcript.turns] == ["fix the login bug", "add a test for it"]
    assert all(t.is_user_speaking for t in transcript.turns)
    assert [t.session_id for t in transcript.turns] == ["s1", "s2"]
    assert transcript.turns[0].timestamp == "2025-09-29T00:17:42.139000Z"
    assert [s.reason for s in transcript.skipped] == [OTHER_PROJECT, OTHER_PROJECT]
    assert transcript.format == "claude-history"


def test_read_with_no_project_every_record_is_a_turn(tmp_path: Path, project: Path) -> None:
    path = _history(tmp_path, [_record("fix it", project), _record(OTHER_RULE, tmp_path / "other")])
    assert [t.text for t in read_transcript(path).turns] == ["fix it", OTHER_RULE]


def test_the_projects_path_is_matched_as_written_and_resolved(tmp_path: Path, project: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(project, target_is_directory=True)
    path = _history(tmp_path, [_record("through the link", link), _record("as it is", project)])
    assert [t.text for t in read_transcript(path, project=project.resolve()).turns] == ["as it is"]
    assert [t.text for t in read_transcript(path, project=link).turns] == ["through the link", "as it is"]


def test_commands_pastes_and_bad_records_are_not_the_persons_words(tmp_path: Path, project: Path) -> None:
    path = _history(
        tmp_path,
        [
            _record("/clear", project),
            _record("/mcp:server-tools", project),
            {**_record("explain this [Pasted text #1 +3 lines]", project), "pastedContents": {"1": {"content": RULE}}},
            {"display": 42, "project": str(project)},
            {"type": "user", "message": {"role": "user", "content": RULE}},
            "not json {",
            _record("", project),
            {**_record("bad time", project), "timestamp": True},
            {**_record("a NUL in the folder", project), "project": str(project) + "\x00x"},
        ],
    )
    transcript = read_transcript(path, project=project, format="claude-history")  # a session record is among them
    assert [t.text for t in transcript.turns] == ["explain this [Pasted text #1 +3 lines]", "bad time"]
    assert transcript.turns[1].timestamp is None
    assert RULE not in json.dumps([t.text for t in transcript.turns])  # the paste is never read
    assert len(transcript.skipped) == 4  # 42, a session record, the broken line, the NUL; commands and blanks are not


def test_a_rule_said_in_two_of_the_projects_sessions_is_proposed(tmp_path: Path, project: Path) -> None:
    path = _history(
        tmp_path,
        [
            _record(RULE, project, session="s1"),
            _record("now fix the flaky test", project, session="s1"),
            _record(RULE, project / "api", session="s2"),
            _record(OTHER_RULE, tmp_path / "other", session="s3"),
            _record(OTHER_RULE, tmp_path / "other", session="s4"),
        ],
    )
    findings = extract(read_transcript(path, project=project))
    assert [f.quote for f in findings] == [RULE]
    assert [e.session_id for e in findings[0].evidence] == ["s1", "s2"]


def test_detection_tells_it_from_the_session_transcripts(tmp_path: Path, project: Path) -> None:
    path = _history(tmp_path, [_record("x", project)])
    assert detect_format(path) == "claude-history"
    session = tmp_path / "session.jsonl"
    session.write_text(
        json.dumps({"type": "user", "sessionId": "s", "message": {"role": "user", "content": "hi"}}) + "\n",
        encoding="utf-8",
    )
    assert detect_format(session) == "claude-code"
    generic = tmp_path / "generic.jsonl"
    generic.write_text(json.dumps({"role": "user", "content": "hi", "project": "p", "display": "d"}) + "\n")
    assert detect_format(generic) == "jsonl"


def _cli(args: list[str], cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "memory_review.cli", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


def test_extract_command_reads_this_projects_prompts_only(tmp_path: Path, project: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=project, check=True, timeout=60)
    path = _history(
        tmp_path,
        [
            _record(RULE, project, session="s1"),
            _record(RULE, project, session="s2"),
            _record(OTHER_RULE, tmp_path / "other", session="s3"),
            _record(OTHER_RULE, tmp_path / "other", session="s4"),
        ],
    )
    for extra in ([], ["--format", "claude-history"]):
        done = _cli(["extract", str(path), "--json", *extra], project, tmp_path / "home")
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout)
        assert (summary["format"], summary["user_turns"], summary["found"]) == ("claude-history", 2, 1)
        assert summary["other_projects"] == 2
    told = _cli(["extract", str(path)], project, tmp_path / "home")
    assert "2 prompt(s) of other projects in it, not read" in told.stdout, told.stdout
    listed = _cli(["list", "--json"], project, tmp_path / "home")
    assert listed.returncode == 0, listed.stderr
    assert "mock the database" in listed.stdout
    assert "push to main" not in listed.stdout


def test_codexs_prompt_history_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    path.write_text(json.dumps({"session_id": "019a", "ts": 1759105062, "text": OTHER_RULE}) + "\n", encoding="utf-8")
    with pytest.raises(ValidationError, match="names no project"):
        read_transcript(path)
