"""Reading the stores for the UI: a cheap change detector and the incremental candidate reader.

Everything here only reads; it runs in worker threads. Two costs shape it:

- Live refresh polls about once a second. :func:`fingerprint` is a handful of
  ``stat`` calls (log, manifest, candidate and session folders of both stores);
  every commit appends to a log, so a change anywhere changes the fingerprint.
- A queue of 10,000 pending candidates takes about a second to read and
  validate. The library's :class:`~memory_review.pending_files.PendingFiles`
  reads it in chunks and re-reads only changed files; :class:`PendingReader`
  runs each pass inside :meth:`PendingReader.reading`, a bulk read
  (:mod:`tui.bulk`), and adds the foreign memories to trust or refuse.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from memory_review.pending_files import CHUNK, PendingFiles, Problem, Stat, stat_of
from memory_review.tui.bulk import bulk_read
from memory_review.tui.foreign import foreign_states
from memory_review.workspace import CandidateState, Workspace

__all__ = ["PendingReader", "Problem", "fingerprint"]


def fingerprint(ws: Workspace) -> tuple[Stat, ...]:
    """A value that changes whenever either store changes (a few stat calls)."""
    return tuple(stat_of(path) for path in ws.watched_paths())


@dataclass
class PendingReader:
    """Pending candidates of both stores and the foreign memories, for the queue."""

    ws: Workspace
    lock: threading.Lock = field(default_factory=threading.Lock)
    """Held by whoever iterates :meth:`chunks` (loads run in worker threads); see :meth:`reading`."""
    _files: PendingFiles | None = None

    @property
    def problems(self) -> list[Problem]:
        return self._files.problems if self._files else []

    @property
    def decoded(self) -> int:
        """Files decoded (not taken from the cache) by the last pass."""
        return self._files.decoded if self._files else 0

    @contextmanager
    def reading(self) -> Iterator[PendingReader]:
        """Hold the reader for a pass of :meth:`chunks`, as a bulk read (:mod:`tui.bulk`)."""
        with self.lock, bulk_read() as read:
            yield self
            read.kept = self.decoded  # new this pass; cached ones were counted when they were read

    def chunks(self, size: int = CHUNK) -> Iterator[list[CandidateState]]:
        """Pending candidates with live flags (project store, then user; oldest first; in chunks of
        ``size``), then the memories no one here approved, to trust or refuse (ADR 0021)."""
        if self._files is None:
            self._files = self.ws.pending_files()
        yield from self._files.chunks(size, then=lambda: foreign_states(self.ws))
