"""Undo that puts things back (docs/adr/0032): restore and the batch revert, through the library."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from workspace_kit import fresh_workspace

from memory_review.discarded import discarded_candidates
from memory_review.errors import ConflictError, NotFoundError
from memory_review.events import EventDraft
from memory_review.proposal import parse_proposals
from memory_review.record_io import memory_sha256
from memory_review.workspace import Workspace

ACTOR = "alice"


def proposal(memory_id: str = "pref-tabs", body: str = "Use 4 spaces.") -> dict:
    return {
        "op": "create",
        "scope": "project",
        "memory": {"id": memory_id, "type": "preference", "description": f"About {memory_id}", "body": body},
        "rationale": "the user said so",
        "evidence": [{"quote": "use 4 spaces", "session_id": "s1", "turn_id": "t1"}],
    }


def propose(ws: Workspace, *docs: dict) -> list[str]:
    return [s.candidate.id for s in ws.propose(parse_proposals(json.dumps(list(docs)).encode()))]


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def verified(ws: Workspace) -> None:
    problems = [p for report in ws.verify() for p in report.problems]
    assert problems == []


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return fresh_workspace(tmp_path, "project")


def test_restore_of_an_apply_puts_the_same_candidate_back_and_the_memory_away(ws: Workspace) -> None:
    [cid] = propose(ws, proposal())
    proposed = ws.show(cid).candidate
    [applied] = ws.apply([cid], actor=ACTOR)
    events = ws.restore([cid], actor=ACTOR)
    assert [e.type for e in events] == ["memory.reverted", "candidate.restored"]
    assert events[0].more is True and events[1].more is None  # one batch: one commit point
    assert events[0].reverts == events[1].reverts == applied.seq
    assert ws.memories() == [] and ws.replay() == {}
    [pending] = ws.list_candidates()
    assert pending.candidate == proposed and pending.flags == proposed.flags
    assert ws.show(cid).status == "pending"
    verified(ws)
    ws.apply([cid], actor=ACTOR)  # a restored candidate is reviewed afresh: verify's meaning check accepts it
    assert [m.id for m in ws.memories()] == ["pref-tabs"]
    verified(ws)


def test_restore_of_a_discard_reopens_it_and_no_longer_flags_a_repeat(ws: Workspace) -> None:
    [cid] = propose(ws, proposal())
    [discard] = ws.discard([cid], actor=ACTOR, reason="not now")
    [event] = ws.restore([cid], actor=ACTOR)
    assert event.type == "candidate.restored" and event.reverts == discard.seq
    assert [s.candidate.id for s in ws.list_candidates()] == [cid]
    assert discarded_candidates(ws.project) == []
    [again] = propose(ws, proposal())
    assert "previously-discarded" not in ws.show(again).flags
    verified(ws)


def test_restore_of_an_update_brings_back_the_exact_version_before(ws: Workspace) -> None:
    [first] = propose(ws, proposal())
    ws.apply([first], actor=ACTOR)
    original = memory_sha256(ws.project.view().memory("pref-tabs"))
    [update] = propose(ws, proposal(body="Use 2 spaces."))
    ws.apply([update], actor=ACTOR)
    ws.restore([update], actor=ACTOR)
    assert memory_sha256(ws.project.view().memory("pref-tabs")) == original
    [pending] = ws.list_candidates()
    assert pending.candidate.id == update and "stale-base" not in pending.flags
    verified(ws)


def test_restore_of_a_bulk_apply_is_one_batch_newest_first(ws: Workspace) -> None:
    ids = propose(ws, *(proposal(f"note-{i}", body=f"Note {i}.") for i in range(5)))
    ws.apply(ids, actor=ACTOR)
    head = ws.project.log().head().seq
    events = ws.restore(ids, actor=ACTOR)
    assert len(events) == 10 and [e.more for e in events][-1] is None and all(e.more for e in events[:-1])
    assert events[0].seq == head + 1
    assert [e.candidate for e in events if e.type == "candidate.restored"] == ids[::-1]
    assert sorted(s.candidate.id for s in ws.list_candidates()) == sorted(ids)
    assert ws.memories() == []
    verified(ws)


def test_restore_conflicts_when_the_memory_moved_on_and_writes_nothing(ws: Workspace) -> None:
    [first] = propose(ws, proposal())
    ws.apply([first], actor=ACTOR)
    [later] = propose(ws, proposal(body="Use tabs."))
    ws.apply([later], actor=ACTOR)
    before = snapshot(ws.project.root)
    with pytest.raises(ConflictError):
        ws.restore([first], actor=ACTOR)
    assert snapshot(ws.project.root) == before
    events = ws.restore([first], actor=ACTOR, force=True)
    assert events[0].forced is True and ws.memories() == []
    assert first in {s.candidate.id for s in ws.list_candidates()}
    verified(ws)


def test_restore_refuses_pending_and_unknown_candidates(ws: Workspace) -> None:
    [cid] = propose(ws, proposal())
    with pytest.raises(ConflictError, match="pending"):
        ws.restore([cid], actor=ACTOR)
    with pytest.raises(NotFoundError):
        ws.restore(["cand_01JAAAAAAAAAAAAAAAAAAAAAAA"], actor=ACTOR)


def test_revert_many_is_one_batch_and_all_or_nothing(ws: Workspace) -> None:
    ids = propose(ws, *(proposal(f"note-{i}", body=f"Note {i}.") for i in range(4)))
    applied = ws.apply(ids, actor=ACTOR)
    [later] = propose(ws, {**proposal("note-0", body="Changed.")})
    ws.apply([later], actor=ACTOR)
    before = snapshot(ws.project.root)
    with pytest.raises(ConflictError):
        ws.revert_many([e.seq for e in applied], actor=ACTOR)  # note-0 moved on: nothing is reverted
    assert snapshot(ws.project.root) == before
    events = ws.revert_many([e.seq for e in applied[1:]] + [ids[1]], actor=ACTOR)  # a seq and its candidate
    assert [e.reverts for e in events] == [e.seq for e in applied[1:]][::-1]
    assert all(e.more for e in events[:-1]) and events[-1].more is None
    assert [m.id for m in ws.memories()] == ["note-0"]
    verified(ws)


def test_verify_names_a_restore_of_a_candidate_that_was_not_resolved(ws: Workspace) -> None:
    [cid] = propose(ws, proposal())
    record = ws.log(type="candidate.created")[0].record
    with ws.project.transact():
        ws.project.log().append(
            [EventDraft(type="candidate.restored", actor=ACTOR, candidate=cid, reverts=1, record=record)]
        )
    problems = [p for report in ws.verify() for p in report.problems]
    assert any("candidate.restored for candidate" in p and "not resolved" in p for p in problems)


def test_restore_after_a_revert_only_reopens_the_candidate(ws: Workspace) -> None:
    [cid] = propose(ws, proposal())
    [applied] = ws.apply([cid], actor=ACTOR)
    ws.revert(applied.seq, actor=ACTOR)  # the memory is already as it was before the apply
    [event] = ws.restore([cid], actor=ACTOR)
    assert event.type == "candidate.restored" and event.reverts == applied.seq
    assert [s.candidate.id for s in ws.list_candidates()] == [cid]
    verified(ws)
