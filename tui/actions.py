"""What each decision in the UI does to the workspace, and how it is undone.

An :class:`Operation` is one person's decision as a function of the workspace;
running it returns an :class:`Outcome` with a message and, when the decision
can be taken back, the operation that takes it back. Every operation calls the
library's public ``Workspace`` methods, so every change goes through the one
commit path and lands in the event log. No Textual here: the app runs these in
a worker thread and only shows the outcome.

Undo is always a new, recorded decision, never a rewrite of history, and it
restores the state before the decision (docs/adr/0032):

- apply    -> ``Workspace.restore``: the memory reverted and the same candidates pending again,
              one batch however many were applied (``memory.reverted`` + ``candidate.restored``)
- discard  -> ``Workspace.restore``: the same candidates pending again (``candidate.restored``)
- delete   -> revert the ``memory.deleted`` event
- revert   -> revert the revert
- edit     -> edit back to the previous record (another ``candidate.edited``)
- move     -> move it back (ADR 0154: a new candidate in the first store, the record edited back if the
              move edited it)

Each undo's label names what it undoes ("undo apply of 3"): the key bar shows it.

Redo is the same idea once more: an undo's outcome carries the operation that makes the original
decision again ("redo apply of 3": apply the same candidates again, a new ``candidate.applied``),
and that one's outcome carries the undo again. Nothing is replayed from memory; each step is a new
recorded decision, so history and replay show undo and redo as they happened.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memory_review.candidate import Candidate
from memory_review.errors import NotFoundError
from memory_review.events import MEMORY_TYPES
from memory_review.models import DurableScope, Scope, durable_scope
from memory_review.proposal import ProposedMemory
from memory_review.workspace import Workspace


@dataclass(frozen=True)
class Outcome:
    """What a finished operation reports: a message for the person and how to undo it."""

    message: str
    undo: Operation | None = None


@dataclass(frozen=True)
class Operation:
    """One decision: ``run`` makes exactly the library calls it needs and returns the outcome."""

    label: str
    run: Callable[[Workspace], Outcome]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# --- candidates ---------------------------------------------------------------------------


def apply_op(candidates: Sequence[Candidate], *, actor: str) -> Operation:
    """Apply candidates (one batch per store); undone by restoring them (memory reverted, pending again)."""
    ids = [c.id for c in candidates]
    return _apply_ids_op(ids, actor=actor, label=f"apply {_plural(len(ids), 'candidate')}")


def _apply_ids_op(ids: list[str], *, actor: str, label: str) -> Operation:
    undo_label, redo_label = f"undo apply of {len(ids)}", f"redo apply of {len(ids)}"

    def run(ws: Workspace) -> Outcome:
        ws.apply(ids, actor=actor)
        redo = _apply_ids_op(ids, actor=actor, label=redo_label)
        return Outcome(
            f"applied {_plural(len(ids), 'candidate')}", restore_op(ids, actor=actor, label=undo_label, redo=redo)
        )

    return Operation(label, run)


def discard_op(candidates: Sequence[Candidate], *, actor: str, reason: str | None) -> Operation:
    """Discard candidates with an optional reason; undone by restoring them (the same ids, pending)."""
    ids = [c.id for c in candidates]
    return _discard_ids_op(
        ids, actor=actor, reason=(reason or "").strip() or None, label=f"discard {_plural(len(ids), 'candidate')}"
    )


def _discard_ids_op(ids: list[str], *, actor: str, reason: str | None, label: str) -> Operation:
    undo_label, redo_label = f"undo discard of {len(ids)}", f"redo discard of {len(ids)}"

    def run(ws: Workspace) -> Outcome:
        ws.discard(ids, actor=actor, reason=reason)
        redo = _discard_ids_op(ids, actor=actor, reason=reason, label=redo_label)
        return Outcome(
            f"discarded {_plural(len(ids), 'candidate')}", restore_op(ids, actor=actor, label=undo_label, redo=redo)
        )

    return Operation(label, run)


def restore_op(candidate_ids: Sequence[str], *, actor: str, label: str, redo: Operation | None = None) -> Operation:
    """Put resolved candidates back in the queue as they were, in one batch per store (``Workspace.restore``).

    ``redo`` is the decision to make again if this undo is itself taken back (its outcome's ``undo``).
    """
    ids = list(candidate_ids)

    def run(ws: Workspace) -> Outcome:
        events = ws.restore(ids, actor=actor)
        reverted = sum(1 for e in events if e.type == "memory.reverted")
        memory = f", {_plural(reverted, 'change')} reverted" if reverted else ""
        return Outcome(f"{label}: {_plural(len(ids), 'candidate')} pending again{memory} (recorded)", redo)

    return Operation(label, run)


def edit_op(candidate: Candidate, record: ProposedMemory, *, actor: str) -> Operation:
    """Replace the proposed record (``candidate.edited``); undone by editing it back."""
    previous = editable_record(candidate)

    def run(ws: Workspace) -> Outcome:
        ws.edit(candidate.id, record, actor=actor)
        undo = restore_record_op(candidate.id, previous, actor=actor, label="undo edit") if previous else None
        return Outcome(f"edited {record.id} (recorded as candidate.edited)", undo)

    return Operation(f"edit {record.id}", run)


def move_op(
    candidate: Candidate, scope: DurableScope, record: ProposedMemory | None, *, actor: str, label: str = "move"
) -> Operation:
    """File the candidate in the other store (``Workspace.move``), with its record edited first when
    ``record`` is given; undone by moving it back (a new candidate, the same record) and editing it back."""
    previous = editable_record(candidate) if record is not None else None
    back: DurableScope = candidate.scope

    def run(ws: Workspace) -> Outcome:
        if record is not None:
            ws.edit(candidate.id, record, actor=actor)
        moved = ws.move(candidate.id, scope, actor=actor).candidate
        undo = move_op(moved, back, previous, actor=actor, label=_inverse(label))
        return Outcome(f"{label}: {_names(moved)} to the {scope} store (recorded as a new candidate there)", undo)

    return Operation(label, run)


def _names(candidate: Candidate) -> str:
    return ", ".join(candidate.memory_ids())


def restore_record_op(candidate_id: str, record: ProposedMemory, *, actor: str, label: str) -> Operation:
    """Put an earlier proposed record back on a pending candidate (another ``candidate.edited``)."""

    def run(ws: Workspace) -> Outcome:
        current = editable_record(ws.show(candidate_id).candidate)
        ws.edit(candidate_id, record, actor=actor)
        inverse = _inverse(label)
        undo = restore_record_op(candidate_id, current, actor=actor, label=inverse) if current else None
        return Outcome(f"{label}: {record.id} restored (recorded as candidate.edited)", undo)

    return Operation(label, run)


def editable_record(candidate: Candidate) -> ProposedMemory | None:
    """The proposed record an editor starts from (the first change that has an ``after``)."""
    for change in candidate.changes:
        if change.after is not None:
            after = change.after
            return ProposedMemory(id=after.id, type=after.type, description=after.description, body=after.body)
    return None


def _inverse(label: str) -> str:
    """The label of what takes ``label`` back: "undo edit" <-> "redo edit", "revert" -> "undo revert"."""
    if label.startswith("undo "):
        return "redo " + label.removeprefix("undo ")
    if label.startswith("redo "):
        return "undo " + label.removeprefix("redo ")
    return f"undo {label}"


# --- memories and history -----------------------------------------------------------------


def delete_op(memory_id: str, scope: Scope, *, actor: str, reason: str | None = None) -> Operation:
    """Delete an approved memory (``memory.deleted``); undone by reverting the deletion."""

    def run(ws: Workspace) -> Outcome:
        durable = durable_scope(scope)  # a session memory is not deleted by a recorded event: refused here
        event = ws.delete(memory_id, actor=actor, scope=durable, reason=reason)
        return Outcome(
            f"deleted {scope} memory {memory_id} (recorded; u to undo)",
            revert_op(event.seq, durable, actor=actor, label="undo delete"),
        )

    return Operation(f"delete {memory_id}", run)


def revert_op(seq: int, scope: DurableScope, *, actor: str, force: bool = False, label: str = "revert") -> Operation:
    """Revert the change event ``seq`` of ``scope``'s log; undone by reverting the revert."""

    def run(ws: Workspace) -> Outcome:
        event = ws.revert(seq, actor=actor, scope=scope, force=force)
        forced = " (forced over a newer change)" if event.forced else ""
        undo = revert_op(event.seq, scope, actor=actor, label=_inverse(label))
        return Outcome(f"{label}: {scope} event {seq} reverted as event {event.seq}{forced}", undo)

    return Operation(f"{label} {scope} event {seq}", run)


def revert_last_change_op(memory_id: str, scope: Scope, *, actor: str) -> Operation:
    """Revert the newest event that changed ``memory_id`` in ``scope``."""

    def run(ws: Workspace) -> Outcome:
        durable = durable_scope(scope)  # a session memory has no log of its own: refused here
        changed = [e for e in ws.log(scope=durable, memory=memory_id) if e.type in MEMORY_TYPES]
        if not changed:
            raise NotFoundError(f"change of {scope} memory", memory_id)
        return revert_op(changed[-1].seq, durable, actor=actor).run(ws)

    return Operation(f"revert the last change of {memory_id}", run)
