"""What an event means for a store, written once (issue 15, point 1; docs/adr/0023).

``fold(state, event) -> state`` is the one definition. The same fold runs live and in
replay, the way eventsourcing's aggregates use one ``apply`` for both:

- the commit path folds the drafts it is about to append (which memory files to write
  before the commit point, which candidate and session files after it);
- recovery folds the events past the checkpoint, and so do the lock-free views;
- session views fold a session's ``session.written`` events;
- replay folds the log from the empty state, up to a seq.

A :class:`Folded` is what a run of events leaves, as a map per kind of derived file:
from :data:`EMPTY` over a whole log it *is* the store's state; over the events past a
checkpoint it is what to change in that checkpoint. Each record is validated as it is
folded, naming the event it came from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from memory_review.candidate import Candidate, candidate_from_json
from memory_review.events import RESTORED, TERMINAL_TYPES, EventDraft
from memory_review.models import Memory
from memory_review.record_io import hashed_memory_from_json, memory_from_json

SESSION_EVENT = "session.written"
CANDIDATE_RECORD_TYPES = frozenset({"candidate.created", "candidate.edited", RESTORED})
"""Events whose ``record`` is the candidate, pending from then on (a restore reopens a resolved one)."""

SessionChanges = Mapping[str, Memory | None]
"""One session's memories by id (None: removed)."""


@dataclass(frozen=True)
class Folded:
    """The derived state a run of events leaves: last version of each memory, candidate and session memory.

    ``None`` means the thing is gone at the end of the run (a deleted memory, a resolved
    candidate, a removed session memory), which a checkpoint must drop.
    """

    seq: int = 0
    memories: Mapping[str, Memory | None] = field(default_factory=dict)
    candidates: Mapping[str, Candidate | None] = field(default_factory=dict)
    sessions: Mapping[str, SessionChanges] = field(default_factory=dict)

    def memory_set(self) -> dict[str, Memory]:
        """The memories that exist at the end of the run (from EMPTY: the store's whole set)."""
        return {memory_id: memory for memory_id, memory in self.memories.items() if memory is not None}

    def pending(self) -> list[Candidate]:
        """Candidates still pending at the end of the run, in the order they were first seen."""
        return [candidate for candidate in self.candidates.values() if candidate is not None]

    def resolved(self) -> list[str]:
        """Candidates the run applied or discarded."""
        return [candidate_id for candidate_id, candidate in self.candidates.items() if candidate is None]

    def session(self, session_id: str) -> dict[str, Memory]:
        """The memories of one session at the end of the run (from EMPTY over its events: all of them)."""
        return {mid: memory for mid, memory in self.sessions.get(session_id, {}).items() if memory is not None}


EMPTY = Folded()


def fold(state: Folded, event: EventDraft) -> Folded:
    """The state after ``event`` (``state`` is untouched): the one definition of what an event means."""
    return fold_all(state, (event,))


def fold_all(state: Folded, events: Iterable[EventDraft]) -> Folded:
    """:func:`fold` over ``events`` in order, without copying the maps once per event."""
    folding = Folding(state)
    for event in events:
        folding.take(event)
    return folding.state()


class Folding:
    """:func:`fold_all` for a caller that is handed the events one at a time (``verify``'s walk of the log).

    The maps are this object's own copies, changed in place by :meth:`take`; :meth:`state` is the
    :class:`Folded` they hold so far.
    """

    def __init__(self, state: Folded = EMPTY, *, hashes: dict[str, str] | None = None) -> None:
        self.memories, self.candidates = dict(state.memories), dict(state.candidates)
        self.sessions = {session_id: dict(changes) for session_id, changes in state.sessions.items()}
        self.seq = state.seq
        self.hashes = hashes
        """When given: the sha256 of each memory the events taken leave (``memory_sha256``), kept from the
        rendering that checked it as it was folded, for memories these events wrote (not ``state``'s)."""

    def take(self, event: EventDraft) -> None:
        """Fold ``event`` in (the one definition: :func:`_apply`)."""
        _apply(event, self.memories, self.candidates, self.sessions, self.hashes)
        self.seq = getattr(event, "seq", self.seq)  # a draft has no seq yet

    def state(self) -> Folded:
        """What the events taken so far leave (it shares this object's maps: take no event after)."""
        return Folded(seq=self.seq, memories=self.memories, candidates=self.candidates, sessions=self.sessions)


def _apply(
    event: EventDraft,
    memories: dict[str, Memory | None],
    candidates: dict[str, Candidate | None],
    sessions: dict[str, dict[str, Memory | None]],
    hashes: dict[str, str] | None = None,
) -> None:
    where = f"event {event.seq}" if hasattr(event, "seq") else f"a {event.type} draft"
    if event.type == SESSION_EVENT:
        if event.session:  # session memory lives with its session, never in the durable set
            _changes(sessions.setdefault(event.session, {}), event, where)
    elif event.changes:
        _changes(memories, event, where, hashes)
    if event.type in CANDIDATE_RECORD_TYPES and event.record is not None and event.candidate:
        candidates[event.candidate] = candidate_from_json(event.record, where=where)
    elif event.type in TERMINAL_TYPES and event.candidate:
        candidates[event.candidate] = None


def _changes(
    target: dict[str, Memory | None], event: EventDraft, where: str, hashes: dict[str, str] | None = None
) -> None:
    for change in event.changes or ():
        if not change.after:
            target[change.memory] = None
            if hashes is not None:
                hashes.pop(change.memory, None)
        elif hashes is None:
            target[change.memory] = memory_from_json(change.after, where=where)
        else:
            target[change.memory], hashes[change.memory] = hashed_memory_from_json(change.after, where=where)
