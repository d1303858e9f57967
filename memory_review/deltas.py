"""What a run of events means for the derived files, as the shapes ``verify`` and the reliability kit use.

Adapters only: the meaning is the one fold's (``memory_review.storage``, docs/adr/0023). New code
calls :func:`memory_review.storage.fold_all` directly.
"""

from __future__ import annotations

from collections.abc import Iterable

from events import Event

from memory_review.candidate import Candidate
from memory_review.models import Memory
from memory_review.storage import EMPTY, fold_all


def memory_delta(events: Iterable[Event]) -> dict[str, Memory | None]:
    """The last state each memory reaches in ``events`` (None: deleted). Session writes excluded."""
    return dict(fold_all(EMPTY, events).memories)


def candidate_delta(events: Iterable[Event]) -> tuple[list[Candidate], list[str]]:
    """Candidates ``events`` leave pending (their latest record), and the ids they resolve."""
    folded = fold_all(EMPTY, events)
    return folded.pending(), folded.resolved()
