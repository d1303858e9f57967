"""What a run of events means for the derived files: the last state of each memory, and of each candidate."""

from __future__ import annotations

from collections.abc import Iterable

from events import Event

from memory_review.candidate import Candidate, candidate_from_json
from memory_review.models import Memory
from memory_review.record_io import memory_from_json


def memory_delta(events: Iterable[Event]) -> dict[str, Memory | None]:
    """The last state each memory reaches in ``events`` (None: deleted). Session writes excluded."""
    delta: dict[str, Memory | None] = {}
    for event in events:
        if event.type == "session.written" or not event.changes:
            continue
        for change in event.changes:
            where = f"event {event.seq}"
            delta[change.memory] = memory_from_json(change.after, where=where) if change.after else None
    return delta


def candidate_delta(events: Iterable[Event]) -> tuple[list[Candidate], list[str]]:
    """Candidate files implied by ``events``: latest record of each still-pending one, and resolved ids."""
    latest: dict[str, Candidate] = {}
    resolved: list[str] = []
    for event in events:
        if event.type in ("candidate.created", "candidate.edited") and event.record is not None:
            latest[event.candidate] = candidate_from_json(event.record, where=f"event {event.seq}")
        elif event.type in ("candidate.applied", "candidate.discarded") and event.candidate:
            latest.pop(event.candidate, None)
            resolved.append(event.candidate)
    return list(latest.values()), resolved
