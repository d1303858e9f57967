"""Property: a verify that resumes from a record finds exactly what ``verify --full`` finds (ADR 0056).

Random operations build a store, a clean verify records what it proved, more random operations follow,
and random forged lines are appended by hand after them (as anyone who can write the log could): the
incremental verify and the full one must report the same problems, counts and all.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples
from workspace_kit import fact_proposal, fresh_workspace

from memory_review.errors import MemoryReviewError
from memory_review.events import Change, EventDraft, EventLog
from memory_review.proposal import ProposedMemory
from memory_review.record_io import memory_to_json
from memory_review.workspace import Workspace

ACTOR = "alice"
SESSION = "0f8fad5b-d9cb-469f-a165-70867728950e"
IDS = ("a-note", "b-note", "c-note")

OPS = st.lists(
    st.tuples(
        st.sampled_from(["create", "update", "delete", "pend", "apply", "discard", "session", "compact"]),
        st.integers(0, 2),
    ),
    max_size=5,
)
FORGERIES = st.lists(
    st.tuples(
        st.sampled_from(["apply-pending", "apply-new", "delete-wrong", "discard-twice", "create-twice"]),
        st.integers(0, 2),
    ),
    max_size=2,
)


def _run(ws: Workspace, ops: list[tuple[str, int]], pending: list[str], step: int) -> None:
    for n, (op, i) in enumerate(ops):
        memory_id, have = IDS[i], {m.id for m in ws.memories()}
        body = f"{memory_id} body {step}.{n}"
        try:
            if op in ("create", "update", "pend"):
                kind = "update" if memory_id in have else "create"
                [state] = ws.propose([fact_proposal(memory_id, body, kind)])
                if op == "pend":
                    pending.append(state.candidate.id)
                else:
                    ws.apply([state.candidate.id], actor=ACTOR)
            elif op == "delete" and memory_id in have:
                ws.delete(memory_id, actor=ACTOR)
            elif op in ("apply", "discard") and pending:
                cid = pending.pop(i % len(pending))
                if op == "apply":
                    ws.apply([cid], actor=ACTOR)
                else:
                    ws.discard([cid], actor=ACTOR, reason="no")
            elif op == "compact":
                ws.project.compact()  # the checkpoint moves past the record: session files follow it
            elif op == "session":
                ws.write_session_memory(SESSION, ProposedMemory(id=memory_id, type="fact", description="s", body=body))
        except MemoryReviewError:
            pass  # a conflict (a stale base) is an outcome like any other


def _forge(ws: Workspace, forgeries: list[tuple[str, int]], pending: list[str]) -> None:
    log = EventLog(ws.project.log_path, origin=ws.project.read_manifest().origin)
    events = list(ws.project.log().read())
    memories = {m.id: m for m in ws.memories()}
    for kind, i in forgeries:
        memory_id = IDS[i]
        template = next(iter(memories.values()), None)
        if kind in ("apply-pending", "apply-new") and template is not None:
            cid = pending[i % len(pending)] if kind == "apply-pending" and pending else f"cand_01M8T0FORGED{i:014d}"
            after = {**memory_to_json(template), "id": memory_id, "body": "forged", "applied_from": cid}
            before = memory_to_json(memories[memory_id]) if memory_id in memories else None
            change = Change(memory=memory_id, before=before, after=after)
            log.append([EventDraft(type="candidate.applied", actor=ACTOR, candidate=cid, changes=(change,))])
        elif kind == "delete-wrong" and memory_id in memories:
            before = {**memory_to_json(memories[memory_id]), "body": "not what the log says"}
            change = Change(memory=memory_id, before=before, after=None)
            log.append([EventDraft(type="memory.deleted", actor=ACTOR, changes=(change,))])
        elif kind == "discard-twice":
            resolved = [e for e in events if e.type in ("candidate.applied", "candidate.discarded")]
            if resolved:
                cid = resolved[i % len(resolved)].candidate
                log.append([EventDraft(type="candidate.discarded", actor=ACTOR, candidate=cid, reason="again")])
        elif kind == "create-twice":
            created = [e for e in events if e.type == "candidate.created"]
            if created:
                first = created[i % len(created)]
                log.append(
                    [
                        EventDraft(
                            type="candidate.created", actor="agent", candidate=first.candidate, record=first.record
                        )
                    ]
                )


@settings(max_examples=examples(60), deadline=None)
@given(before=OPS, after=OPS, forgeries=FORGERIES)
def test_a_resumed_verify_finds_what_a_full_one_finds(before, after, forgeries) -> None:
    folder = Path(tempfile.mkdtemp(prefix="verify-ways-"))
    try:
        ws, pending = fresh_workspace(folder), []
        _run(ws, before, pending, 0)
        assert all(r.ok for r in Workspace(ws.root, ws.user.root).verify())  # records what it proved
        logged = ws.project.log_path.exists() and ws.project.log_path.stat().st_size > 0
        _run(ws, after, pending, 1)
        _forge(ws, forgeries, pending)
        resumed = [r for r in Workspace(ws.root, ws.user.root).verify() if r.scope == "project"][0]
        whole = [r for r in Workspace(ws.root, ws.user.root).verify(full=True) if r.scope == "project"][0]
        assert resumed.walk == ("incremental" if logged else "full"), resumed.walk_note  # an empty log: whole
        assert resumed.problems == whole.problems
        assert (resumed.events, resumed.memories, resumed.pending) == (whole.events, whole.memories, whole.pending)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
