"""Injection through the stores: tier isolation, recorded contexts, exact replay after later changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_review.proposal import ProposedMemory, parse_proposals
from memory_review.workspace import Workspace

ACTOR = "alice"
NOW = "2026-11-30T12:00:00Z"


def make(tmp_path: Path, name: str, home: Path) -> Workspace:
    root = tmp_path / name
    root.mkdir()
    ws = Workspace(root, home)
    ws.init()
    return ws


def approve(ws: Workspace, memory_id: str, body: str, scope: str = "project", kind: str = "fact") -> None:
    doc = {
        "op": "create",
        "scope": scope,
        "rationale": "r",
        "memory": {"id": memory_id, "type": kind, "description": f"{memory_id} note", "body": body},
    }
    [state] = ws.propose(parse_proposals(json.dumps(doc).encode()))
    ws.apply([state.candidate.id], actor=ACTOR)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def test_empty_stores_give_a_valid_empty_result(tmp_path: Path, home: Path) -> None:
    ws = make(tmp_path, "p", home)
    result = ws.context(now=NOW)
    assert result.text == "" and result.included == () and result.dropped == ()


def test_session_memory_only_visible_to_its_session(tmp_path: Path, home: Path) -> None:
    ws = make(tmp_path, "p", home)
    ws.write_session_memory("s1", ProposedMemory(id="scratch", type="fact", description="d", body="secret plan"))
    assert "secret plan" in ws.context(session="s1", now=NOW).text
    assert "secret plan" not in ws.context(session="s2", now=NOW).text
    assert "secret plan" not in ws.context(now=NOW).text


def test_one_projects_memory_never_reaches_another(tmp_path: Path, home: Path) -> None:
    a, b = make(tmp_path, "a", home), make(tmp_path, "b", home)
    approve(a, "only-a", "alpha project detail")
    approve(a, "shared-user", "user-wide note", scope="user")
    text_b = b.context(now=NOW).text
    assert "alpha project detail" not in text_b and "user-wide note" in text_b


def test_project_overrides_user_and_a_session_note_overrides_nothing(tmp_path: Path, home: Path) -> None:
    ws = make(tmp_path, "p", home)
    approve(ws, "style", "user version", scope="user")
    approve(ws, "style", "project version")
    assert "project version" in ws.context(now=NOW).text and "user version" not in ws.context(now=NOW).text
    ws.write_session_memory("s1", ProposedMemory(id="style", type="fact", description="d", body="session version"))
    text = ws.context(session="s1", now=NOW).text  # a session note, written with no review, hides no approved one
    assert "project version" in text and "session version" not in text
    assert [m.body for m in ws.memories(session="s1") if m.id == "style"] == ["project version"]


def test_a_session_note_cannot_take_a_forbidden_rule_out_of_the_block(tmp_path: Path, home: Path) -> None:
    """Session 39's review: an agent (or a cloned store's log) wrote a session note under the id of the person's
    forbidden rule, and for that session the rule was gone from the block — not even listed as dropped."""
    ws = make(tmp_path, "p", home)
    approve(ws, "no-force-push", "Never force-push to main", scope="user", kind="forbidden")
    ws.write_session_memory(
        "s1", ProposedMemory(id="no-force-push", type="preference", description="Force-push freely", body="Fine.")
    )
    ws.write_session_memory("s1", ProposedMemory(id="scratch", type="fact", description="d", body="auth refactor"))
    for query in (None, "force push"):
        text = ws.context(session="s1", query=query, now=NOW).text
        assert "Never force-push to main" in text and "Force-push freely" not in text
    assert "auth refactor" in ws.context(session="s1", now=NOW).text
    assert all(replayed.matches for replayed in ws.replay_session("s1"))


def test_replayed_context_is_byte_identical_after_changes(tmp_path: Path, home: Path) -> None:
    ws = make(tmp_path, "p", home)
    approve(ws, "db-tests", "never mock the database", kind="forbidden")
    approve(ws, "pkg", "we use uv for packages", scope="user", kind="convention")
    ws.write_session_memory("s1", ProposedMemory(id="task", type="fact", description="d", body="auth refactor"))
    first = ws.context(session="s1", query="packages", now=NOW)
    approve(ws, "db-tests", "mock it after all", kind="forbidden")
    ws.delete("pkg", actor=ACTOR)
    ws.write_session_memory("s1", ProposedMemory(id="task", type="fact", description="d", body="other task"))
    second = ws.context(session="s1", now="2027-01-10T12:00:00Z")
    [one, two] = ws.replay_session("s1")
    assert (one.text, one.sha256, one.matches) == (first.text, first.sha256, True)
    assert (two.text, two.matches) == (second.text, True)
    assert "never mock the database" in one.text and "mock it after all" in two.text
    assert [e.type for e in ws.log(session="s1")].count("context.built") == 2


def test_context_recorded_in_the_first_layout_still_replays(tmp_path: Path, home: Path) -> None:
    """A ``context.built`` written before ADR 0015 (no ``frame``) rebuilds to the bytes it hashed."""
    import hashlib

    from memory_review.events import EventDraft
    from memory_review.injection.render import CLOSE, HEADER, OPEN
    from memory_review.record_io import memory_sha256
    from memory_review.rules import Plan

    ws = make(tmp_path, "p", home)
    approve(ws, "db-tests", "never mock the database", kind="forbidden")
    [memory] = ws.memories()
    old_text = OPEN + HEADER + "\n[memory:project:forbidden] id=db-tests\nnever mock the database\n" + CLOSE
    context = {
        "query": None,
        "budget_bytes": 25_000,
        "budget_lines": 200,
        "now": NOW,
        "user_seq": 0,
        "sha256": hashlib.sha256(old_text.encode()).hexdigest(),
        "included": [{"id": "db-tests", "scope": "project", "type": "forbidden", "sha256": memory_sha256(memory)}],
    }
    with ws.project.transact() as tx:
        ws.commit(tx, Plan(drafts=[EventDraft(type="context.built", actor="agent:s1", session="s1", context=context)]))
    new = ws.context(session="s1", now=NOW)
    [old, again] = ws.replay_session("s1")
    assert (old.text, old.matches) == (old_text, True)
    assert (again.text, again.matches) == (new.text, True) and new.text != old_text
    assert [e.context["frame"] for e in ws.log(session="s1") if "frame" in e.context] == [3]  # the layout of today
