"""The review queue's rows: one :class:`QueueEntry` per pending candidate, built off the UI thread.

A row (its cells, its search text, its sort key) costs about 8 µs to build, 80 ms
for 10,000 candidates, so the loader builds them in its worker thread and the UI
thread only merges and sorts (ADR 0014). :class:`EntryCache` reuses an entry
while its candidate object and flags stay the same: the reader hands back the
same ``Candidate`` for an unchanged file, so a refresh rebuilds only what changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memory_review.tui.format import (
    PRIORITY_RANK,
    Display,
    description,
    flag_marks,
    main_memory,
    proposer_text,
)
from memory_review.tui.widgets.row_table import Row
from memory_review.workspace import CandidateState

MARK = "●"
SHORT_PRIORITY = {"medium": "med"}
SCOPE_RANK = {"project": 0, "user": 1}


@dataclass(frozen=True)
class QueueEntry:
    """A pending candidate as the queue shows it: state, row cells, search text and sort key."""

    state: CandidateState
    cells: tuple[str, ...]
    haystack: str
    key: tuple[int, int, str, str]
    row: Row
    """The row unmarked; :meth:`marked_row` when the person has marked it."""
    fields: dict[str, str]
    """Its values for the filter's ``field:value`` terms (tui.widgets.filter_bar), lower case."""

    @property
    def id(self) -> str:
        return self.state.candidate.id

    def marked_row(self) -> Row:
        """The row with the mark in its first cell, in bold."""
        return Row(self.id, (MARK, *self.cells), style="bold")


def queue_entry(state: CandidateState, display: Display) -> QueueEntry:
    """The queue's entry for a pending candidate (pure: safe in a worker thread)."""
    c = state.candidate
    cells = (
        flag_marks(state.flags),
        c.scope,
        _types(state),
        c.op,
        main_memory(c),
        description(c),
        c.proposer.kind,
        c.created_at,  # a live cell: the table shows its age as it draws (tui.widgets.row_table)
        SHORT_PRIORITY.get(c.priority, c.priority),
    )
    haystack = " ".join(
        [
            c.id,
            *c.memory_ids(),
            *cells,
            proposer_text(c),
            c.priority,
            *state.flags,
            c.session_id or "",
        ]
    ).lower()
    key = (PRIORITY_RANK.get(c.priority, 1), SCOPE_RANK.get(c.scope, 2), c.created_at, c.id)
    fields = {
        "scope": c.scope,
        "type": _types(state),
        "op": c.op,
        "memory": " ".join(c.memory_ids()),
        "session": (c.session_id or "").lower(),
        "flag": " ".join(state.flags),
    }
    return QueueEntry(state, cells, haystack, key, Row(c.id, (" ", *cells)), fields)


class EntryCache:
    """The entries of the last pass by candidate id; used by one loader at a time."""

    def __init__(self) -> None:
        self._last: dict[str, QueueEntry] = {}

    def entry(self, state: CandidateState, display: Display) -> QueueEntry:
        """The last pass's entry if its candidate object and flags are the same, else a new one."""
        # Compared by identity: a deep comparison of 10,000 models would cost more than the rows.
        old = self._last.get(state.candidate.id)
        if old is not None and old.state.candidate is state.candidate and old.state.flags == state.flags:
            return old
        return queue_entry(state, display)

    def keep(self, entries: Iterable[QueueEntry]) -> None:
        """Remember a finished pass's entries (and forget the rest)."""
        self._last = {entry.id: entry for entry in entries}


def _types(state: CandidateState) -> str:
    c = state.candidate
    records = (ch.after or ch.before for ch in c.changes)
    types = {record.type for record in records if record is not None}
    return ",".join(sorted(types))
