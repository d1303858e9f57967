"""Foreign memories in the review queue: rows of their own kind, decided by trust, not by apply (ADR 0021).

A memory no person on this machine approved (a cloned, copied or synced store)
is shown in the queue like a candidate that would create it — its text, where it
came from, its flags (the safety scan run again here, plus its own candidate's) —
so the same detail pane and the same flagged-apply confirmation serve it. ``a``
trusts it (``memory.trusted``), ``d`` refuses it (``memory.refused``: never
injected, not asked again). No Textual here; the screen only routes its decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memory_review.candidate import Candidate, CandidateChange, render_diff
from memory_review.ids import CROCKFORD
from memory_review.models import DurableScope
from memory_review.proposal import Proposer
from memory_review.trust_review import FROM_SYNC, ForeignMemory
from memory_review.tui.actions import Operation, Outcome, apply_op, discard_op
from memory_review.workspace import DURABLE, CandidateState, Workspace

FOREIGN = "foreign"


@dataclass(frozen=True)
class ForeignState(CandidateState):
    """A queue row for a foreign memory: a would-be ``create`` candidate, plus the memory it stands for."""

    foreign: ForeignMemory


def foreign_states(ws: Workspace) -> list[ForeignState]:
    """Every foreign memory of both stores, as queue rows."""
    return [foreign_state(f) for f in ws.foreign()]


def foreign_state(foreign: ForeignMemory) -> ForeignState:
    memory = foreign.memory
    changes = (CandidateChange(memory=memory.id, before=None, after=memory),)
    came = (
        "arrived by sync from a teammate"
        if foreign.source == FROM_SYNC
        else "came with the store (a clone, a copy or a pull), or predates trust records"
    )
    candidate = Candidate(
        id=_row_id(foreign.sha256),
        op="create",
        scope=foreign.scope,
        changes=changes,
        base={memory.id: None},
        diff=render_diff(changes),
        proposer=Proposer(kind="import", name=f"foreign:{foreign.source}"),
        rationale=f"Not approved on this machine: it {came} (applied by {memory.applied_by or 'unknown'}). "
        + (f"Its log's apply is not the reviewed record: {foreign.problem}. " if foreign.problem else "")
        + "a trusts this version and injects it; d refuses it for good.",
        flags=foreign.flags,
        created_at=memory.updated_at,
    )
    return ForeignState(candidate, FOREIGN, foreign.flags, foreign)


def _row_id(sha256: str) -> str:
    """A stable, candidate-shaped row id from the version's hash (never a real candidate's id)."""
    bits = int(sha256, 16) >> (256 - 130)
    return "cand_" + "".join(CROCKFORD[(bits >> (5 * i)) & 31] for i in reversed(range(26)))


def _split(states: Sequence[CandidateState]) -> tuple[list[ForeignState], list[CandidateState]]:
    foreign = [s for s in states if isinstance(s, ForeignState)]
    return foreign, [s for s in states if not isinstance(s, ForeignState)]


def decide_apply(states: Sequence[CandidateState], *, actor: str) -> Operation:
    """``a`` on the queue: apply the candidates, trust the foreign memories — each the version its row shows
    (``ID@SHA256``): one that changed since the queue was read is trusted in no version (session 39, F8)."""
    return _route(
        states,
        lambda cs: apply_op(cs, actor=actor),
        lambda ws, shown, scope: ws.trust([f"{f.id}@{f.sha256}" for f in shown], actor=actor, scope=scope),
        "trusted",
    )


def decide_discard(states: Sequence[CandidateState], *, actor: str, reason: str | None) -> Operation:
    """``d`` on the queue: discard the candidates, refuse the foreign memories."""
    why = (reason or "").strip() or None
    return _route(
        states,
        lambda cs: discard_op(cs, actor=actor, reason=reason),
        lambda ws, shown, scope: ws.refuse([f.id for f in shown], actor=actor, scope=scope, reason=why),
        "refused",
    )


def _route(
    states: Sequence[CandidateState],
    candidate_op: Callable[[list[Candidate]], Operation],
    decide: Callable[[Workspace, list[ForeignMemory], DurableScope], object],
    verb: str,
) -> Operation:
    foreign, candidates = _split(states)
    first = candidate_op([s.candidate for s in candidates]) if candidates else None
    if not foreign and first is not None:
        return first

    def run(ws: Workspace) -> Outcome:
        done = first.run(ws).message + "; " if first else ""
        for scope in DURABLE:
            shown = [s.foreign for s in foreign if s.foreign.scope == scope]
            if shown:
                decide(ws, shown, scope)
        return Outcome(f"{done}{verb} {len(foreign)} foreign memor{'y' if len(foreign) == 1 else 'ies'}")

    return Operation(f"{verb} {len(foreign)} foreign", run)
