"""The replay fold: durable memory state as a pure function of the events.

Every event that changes durable memory carries full before/after snapshots, so
folding the ``after`` of each change, in seq order, rebuilds the memory set at
any point of history. ``session.written`` events change session memory, which
lives with its session and is not part of a store's durable state: the fold skips
them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from .errors import ReplayError
from .model import Event


@dataclass
class ReplayState:
    """Durable memory after folding events up to and including ``seq``."""

    seq: int = 0
    memories: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Memory id -> full record (frontmatter fields + ``body``), as the log holds it."""


def apply_event(state: ReplayState, event: Event) -> ReplayState:
    """The state after ``event`` (``state`` is untouched). A change with ``after`` None deletes."""
    _check_order(state, event)
    memories = dict(state.memories)
    fold_changes(memories, event)
    return ReplayState(seq=event.seq, memories=memories)


def replay(events: Iterable[Event], *, at: int | None = None, initial: ReplayState | None = None) -> ReplayState:
    """Fold ``events`` (in seq order) onto ``initial`` (default: empty), up to and including ``at``.

    Events may skip seqs (e.g. only the memory-changing ones were read) but never go back.
    """
    start = initial or ReplayState()
    if at is not None and at < start.seq:
        raise ReplayError(f"cannot replay to seq {at}: the initial state is already at seq {start.seq}")
    seq, memories = start.seq, dict(start.memories)
    folded: set[str] = set()
    for event in events:
        if at is not None and event.seq > at:
            break
        if event.seq <= seq:
            _check_order(ReplayState(seq=seq), event)
        if event.changes and event.type != "session.written":
            fold_changes(memories, event, copy=False)
            folded.update(change.memory for change in event.changes)
        seq = event.seq
    # Private copies, once per memory rather than per change: a caller editing the state
    # must not edit the events it came from.
    for memory_id in folded & memories.keys():
        memories[memory_id] = _copy(memories[memory_id])
    return ReplayState(seq=seq, memories=memories)


def change_conflicts(memories: dict[str, dict[str, Any]], event: Event) -> list[str]:
    """Messages for changes of ``event`` whose ``before`` is not the replayed state (or [])."""
    if event.type == "session.written":
        return []
    return [
        f"change to memory {change.memory!r}: before does not match the state replayed from the log"
        for change in event.changes or ()
        if change.before != memories.get(change.memory)
    ]


def _check_order(state: ReplayState, event: Event) -> None:
    if event.seq <= state.seq:
        raise ReplayError(f"event seq {event.seq} folded onto a state already at seq {state.seq}")


def fold_changes(memories: dict[str, dict[str, Any]], event: Event, *, copy: bool = True) -> None:
    """Apply the durable-memory changes of ``event`` to ``memories`` in place.

    Each record is a private copy of the event's, unless ``copy`` is False: then ``memories``
    holds the event's own dicts, for callers that copy later or never hand the state out.
    """
    if event.type == "session.written":
        return
    for change in event.changes or ():
        if change.after is None:
            memories.pop(change.memory, None)
        else:
            memories[change.memory] = _copy(change.after) if copy else change.after


def _copy(record: dict[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = orjson.loads(orjson.dumps(record))
    return copied
