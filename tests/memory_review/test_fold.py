"""The one fold (issue 15, point 1; docs/adr/0023): fold-on-the-fly equals fold-from-scratch.

Random sequences of real operations (propose, edit, apply, discard, revert, delete, session
writes, context builds) run through the commit path against a real store. After each run:

- the store on disk — the manifest and the fold of the tail past it, the pending candidate files
  and the session files, written by the commit path's commits and compactions at a bound drawn
  from 1 (every commit compacts) to the real one (docs/adr/0029) — equals the fold of the whole
  log from the empty state, and so does the manifest alone once compacted;
- ``events.replay`` (the log package's record-level fold) gives the same durable memory;
- folding the log one event at a time with ``fold`` equals ``fold_all`` at once, and folding
  it in two parts at every split point equals folding it whole.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory_review.errors import ConflictError, NotFoundError, ValidationError
from memory_review.events import replay
from memory_review.proposal import ProposedMemory, parse_proposals
from memory_review.record_io import memory_to_json
from memory_review.storage import EMPTY, Folded, fold, fold_all
from memory_review.workspace import Workspace

ACTOR = "alice"
IDS = ("fact-a", "fact-b", "pref-c")
SESSIONS = ("sess-1", "sess-2")

operation = st.one_of(
    st.tuples(st.just("propose"), st.sampled_from(IDS), st.integers(0, 3)),
    st.tuples(st.just("propose-delete"), st.sampled_from(IDS), st.just(0)),
    st.tuples(st.just("edit"), st.integers(0, 5), st.integers(0, 3)),
    st.tuples(st.just("apply"), st.integers(0, 5), st.just(0)),
    st.tuples(st.just("apply-all"), st.just(0), st.just(0)),
    st.tuples(st.just("discard"), st.integers(0, 5), st.just(0)),
    st.tuples(st.just("revert"), st.integers(0, 30), st.just(0)),
    st.tuples(st.just("delete"), st.sampled_from(IDS), st.just(0)),
    st.tuples(st.just("session"), st.sampled_from(SESSIONS), st.integers(0, 3)),
    st.tuples(st.just("context"), st.sampled_from(SESSIONS), st.just(0)),
)


def _propose(ws: Workspace, doc: dict) -> None:
    ws.propose(parse_proposals(json.dumps({"scope": "project", "rationale": "said twice", **doc}).encode()))


def _pending_id(ws: Workspace, index: int) -> str | None:
    pending = ws.project.pending()
    return pending[index % len(pending)].id if pending else None


def _run(ws: Workspace, op: str, arg, n: int) -> None:
    if op == "propose":
        _propose(
            ws,
            {
                "op": "create",
                "memory": {"id": arg, "type": "fact", "description": f"{arg} v{n}", "body": f"{arg} says {n}."},
            },
        )
    elif op == "propose-delete":
        _propose(ws, {"op": "delete", "memory_id": arg})
    elif op == "edit" and (cid := _pending_id(ws, arg)):
        candidate = ws.project.candidate(cid)
        change = next((c for c in candidate.changes if c.after is not None), None)
        if change is not None:
            ws.edit(
                cid,
                ProposedMemory(
                    id=change.memory, type="convention", description=f"edited {n}", body=f"edited body {n}."
                ),
                actor=ACTOR,
            )
    elif op == "apply" and (cid := _pending_id(ws, arg)):
        ws.apply([cid], actor=ACTOR)
    elif op == "apply-all" and (pending := [c.id for c in ws.project.pending()]):
        ws.apply(pending, actor=ACTOR)
    elif op == "discard" and (cid := _pending_id(ws, arg)):
        ws.discard([cid], actor=ACTOR, reason="no")
    elif op == "revert":
        ws.revert(arg, actor=ACTOR, scope="project")
    elif op == "delete":
        ws.delete(arg, actor=ACTOR, scope="project")
    elif op == "session":
        ws.write_session_memory(
            arg, ProposedMemory(id=f"note-{n}", type="fact", description=f"note {n}", body=f"session note {n}.")
        )
    elif op == "context":
        ws.context(session=arg, now="2026-12-01T00:00:00Z")


def _on_disk(ws: Workspace, folded: Folded) -> tuple:
    store = ws.project
    sessions = {sid: store.session_memories(sid) for sid in folded.sessions}
    return ({m.id: m for m in store.view().memories()}, {c.id: c for c in store.pending()}, sessions)


def _from_scratch(folded: Folded) -> tuple:
    sessions = {sid: folded.session(sid) for sid in folded.sessions}
    return (folded.memory_set(), {c.id: c for c in folded.pending()}, sessions)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(operations=st.lists(operation, min_size=1, max_size=14), bound=st.sampled_from([1, 2, 3, 5, 64]))
def test_the_commit_path_leaves_what_the_fold_from_scratch_says(tmp_path_factory, operations, bound) -> None:
    root = tmp_path_factory.mktemp("fold")
    (root / "project").mkdir()
    ws = Workspace(root / "project", root / "home")
    ws.project.compact_after = bound
    ws.init()
    for op, arg, n in operations:
        try:
            _run(ws, op, arg, n)
        except (ConflictError, NotFoundError, ValidationError):
            pass  # refused, as the rules say: nothing was written, the fold must agree all the same
    events = list(ws.project.log())
    whole = fold_all(EMPTY, events)
    assert _on_disk(ws, whole) == _from_scratch(whole)
    assert ws.project.current_manifest().memories == ws.project.compact().memories  # compacted: the same
    assert ws.project.past_checkpoint(ws.project.read_manifest())[1] == []
    assert _on_disk(ws, whole) == _from_scratch(whole)
    # The events package's record-level replay says the same for durable memory.
    assert replay(events).memories == {mid: memory_to_json(m) for mid, m in whole.memory_set().items()}

    one_by_one = EMPTY
    for event in events:
        one_by_one = fold(one_by_one, event)
    assert one_by_one == whole
    for split in range(len(events) + 1):
        assert fold_all(fold_all(EMPTY, events[:split]), events[split:]) == whole


def test_fold_is_pure(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    ws = Workspace(tmp_path / "p", tmp_path / "home")
    _propose(ws, {"op": "create", "memory": {"id": "fact-a", "type": "fact", "description": "a", "body": "A."}})
    ws.apply([ws.project.pending()[0].id], actor=ACTOR)
    created, applied = list(ws.project.log())[-2:]
    before = fold(EMPTY, created)
    after = fold(before, applied)
    assert before == fold(EMPTY, created)  # untouched by the fold after it
    assert list(before.pending()) and not after.pending()
    assert after.resolved() == [created.candidate] and "fact-a" in after.memory_set()
