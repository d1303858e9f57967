"""Repetition across session files (ADR 0033, 0041): two real Claude Code sessions read as one run.

The sessions are real (marot/spotter, MIT, ``../shared/data``), copied as they are; each gets one more
user record built from its own first user record (same session, same fields, a new uuid and text), so
the real reader, the real record shapes and the real session ids are what the extractor sees.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from memory_review.errors import ValidationError
from memory_review.workspace import Workspace

SESSIONS = ("short.jsonl", "tool_heavy.jsonl")
NAMED = "Don't touch `Spotter.Transcripts.Parser` while you fix this."  # a one-off about named code
RULE = "Always run mix format before you commit."  # a durable rule


def _session_saying(sessions: Path, tmp_path: Path, name: str, *texts: str) -> Path:
    """A copy of a real session with one more user turn per text, shaped like its first user record."""
    lines = (sessions / name).read_text(encoding="utf-8").splitlines()
    first = next(
        r for r in map(json.loads, lines) if r.get("type") == "user" and isinstance(r["message"]["content"], str)
    )
    for text in texts:
        record = {**first, "uuid": str(uuid.uuid4()), "message": {"role": "user", "content": text}}
        lines.append(json.dumps(record))
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _pending(ws: Workspace) -> list:
    return [s.candidate for s in ws.list_candidates()]


@pytest.fixture
def sessions(shared_data: Path) -> Path:
    """The real marot/spotter sessions (skipped with the reason when the shared data is absent)."""
    return shared_data / "transcripts" / "claude-code" / "marot-spotter"


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "project"
    root.mkdir()
    workspace = Workspace(root.resolve(), (tmp_path / "home").resolve())
    workspace.init()
    return workspace


def test_the_real_sessions_alone_propose_nothing(sessions: Path, ws: Workspace) -> None:
    summary = ws.extract([sessions / name for name in SESSIONS])
    assert summary.proposed == [] and _pending(ws) == []


def test_a_named_one_off_said_in_two_session_files_is_proposed_only_when_read_together(
    sessions: Path, ws: Workspace, tmp_path: Path
) -> None:
    files = [_session_saying(sessions, tmp_path, name, NAMED) for name in SESSIONS]
    for path in files:  # one file at a time: a task detail each time, kept aside
        assert ws.extract(path).proposed == []
    summary = ws.extract(files)
    [candidate] = _pending(ws)
    assert summary.proposed == [candidate.id]
    assert candidate.priority == "high" and candidate.scope == "project"
    session_ids = {e.session_id for e in candidate.evidence}
    assert len(session_ids) == 2 and all(NAMED in e.quote for e in candidate.evidence)


def test_a_rule_said_in_two_session_files_is_one_proposal_with_high_priority(
    sessions: Path, ws: Workspace, tmp_path: Path
) -> None:
    files = [_session_saying(sessions, tmp_path, name, RULE) for name in SESSIONS]
    ws.extract(files)
    [candidate] = _pending(ws)
    assert candidate.priority == "high" and "2 sessions" in candidate.rationale
    assert len({e.session_id for e in candidate.evidence}) == 2


def test_one_file_with_the_rule_is_medium_priority(sessions: Path, ws: Workspace, tmp_path: Path) -> None:
    ws.extract(_session_saying(sessions, tmp_path, SESSIONS[0], RULE))
    [candidate] = _pending(ws)
    assert candidate.priority != "high"


def test_session_override_with_several_files_is_refused(sessions: Path, ws: Workspace) -> None:
    with pytest.raises(ValidationError, match="one transcript"):
        ws.extract([sessions / name for name in SESSIONS], session="sess-x")
