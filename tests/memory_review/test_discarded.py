"""`previously-discarded`: flagged exactly as by a full scan of the log, which runs only when it could match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from workspace_kit import fresh_workspace

from memory_review import discarded
from memory_review.proposal import parse_proposals
from memory_review.workspace import Workspace

FLAG = "previously-discarded"


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return fresh_workspace(tmp_path)


def _propose(ws: Workspace, memory_id: str, body: str):
    doc = {
        "op": "create",
        "scope": "project",
        "memory": {"id": memory_id, "type": "fact", "description": f"About {memory_id}", "body": body},
        "rationale": "the user said so",
        "evidence": [{"quote": "q", "session_id": "s1", "turn_id": "t1"}],
    }
    [state] = ws.propose(parse_proposals(json.dumps([doc]).encode()))
    return state


@pytest.mark.parametrize("body", ["Plain words.", 'Quotes " and \\ backslashes\nand lines', "中文 and émoji 🎉", ""])
def test_a_discarded_proposal_made_again_is_flagged(ws: Workspace, body: str) -> None:
    first = _propose(ws, "alpha", body)
    ws.discard([first.candidate.id], actor="alice", reason="no")
    assert FLAG in _propose(ws, "alpha", body).flags
    assert FLAG not in _propose(ws, "alpha", body + " More.").flags


def test_a_pending_twin_is_not_a_discarded_one(ws: Workspace) -> None:
    _propose(ws, "alpha", "Same body.")
    assert FLAG not in _propose(ws, "alpha", "Same body.").flags


def test_the_log_is_not_scanned_when_no_logged_body_could_match(ws: Workspace, monkeypatch) -> None:
    first = _propose(ws, "alpha", "Old body.")
    ws.discard([first.candidate.id], actor="alice")

    def scan(_store):
        raise AssertionError("scanned the log for a body it does not hold")

    monkeypatch.setattr(discarded, "discarded_candidates", scan)
    assert FLAG not in _propose(ws, "beta", "A body never logged before.").flags
