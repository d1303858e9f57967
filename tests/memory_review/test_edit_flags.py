"""A person's edit decides the flags again without losing what the edit cannot change (review F5).

``untrusted-source`` says where the text came from; an edit of a word does not change that. ``similar-to:``
is found again against the store, as ``propose`` finds it, never against the candidate's own old record.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from workspace_kit import fresh_workspace

from memory_review.proposal import ProposedMemory, parse_proposals
from memory_review.workspace import CandidateState, Workspace

ACTOR = "alice"


def doc(memory_id: str, description: str, body: str) -> dict:
    memory = {"id": memory_id, "type": "preference", "description": description, "body": body}
    return {"op": "create", "scope": "project", "rationale": "from README the agent read", "memory": memory}


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    workspace = fresh_workspace(tmp_path, "project")
    [state] = workspace.propose(parse_proposals(json.dumps(doc("tabs", "Indent with tabs", BODY)).encode()))
    workspace.apply([state.candidate.id], actor=ACTOR)
    return workspace


BODY = "Use tabs for indentation in every file"


def proposed(ws: Workspace, description: str, body: str) -> CandidateState:
    [state] = ws.propose(parse_proposals(json.dumps(doc("spaces", description, body)).encode()), [{"untrusted-source"}])
    return state


def edited(ws: Workspace, state: CandidateState, description: str, body: str) -> tuple[str, ...]:
    record = ProposedMemory(id="spaces", type="preference", description=description, body=body)
    ws.edit(state.candidate.id, record, actor=ACTOR)
    [listed] = [s for s in ws.list_candidates() if s.candidate.id == state.candidate.id]
    return listed.flags


def test_a_small_edit_keeps_where_the_text_came_from_and_what_it_repeats(ws: Workspace) -> None:
    state = proposed(ws, "Indent with tabs always", BODY + " please")
    assert {"similar-to:tabs", "untrusted-source"} <= set(state.flags)
    assert {"similar-to:tabs", "untrusted-source"} <= set(edited(ws, state, "Indent with tabs always.", BODY))


def test_an_edit_that_says_something_else_loses_the_near_duplicate_not_the_source(ws: Workspace) -> None:
    state = proposed(ws, "Indent with tabs always", BODY + " please")
    flags = edited(ws, state, "Wrap lines at 100 characters", "The formatter wraps long lines at 100.")
    assert "untrusted-source" in flags and not any(f.startswith("similar-to:") for f in flags)
    flags = edited(ws, state, "Wrap lines at 100 characters.", "The formatter wraps long lines at 100.")
    assert not any(f.startswith("similar-to:") for f in flags)  # not "similar" to its own record before the edit
    assert edited(ws, state, "Indent with tabs always", BODY) == ("similar-to:tabs", "untrusted-source")
