"""Bulk reads in worker threads: the cycle collector paused while they run, what they keep frozen.

Reading 10,000 candidates or a 12,000-event log makes hundreds of thousands of
objects the cycle collector tracks, and each of its full passes walks every one
(150-370 ms each on the benchmark machine, four or five of them in one load, in
whichever thread allocates next - often the UI's). None of these objects is in a
reference cycle (pydantic models, tuples, dicts, strings); reference counting
frees them as soon as they are dropped, so pausing the collector frees nothing
later. After a read that keeps at least :data:`FREEZE_AFTER` records, everything
alive is frozen (``gc.freeze``): later full passes skip it, and a key press never
waits for one. See ADR 0014.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

FREEZE_AFTER = 1_000
"""Records a read must keep to count as bulk, whose objects are frozen after it."""


@dataclass
class BulkRead:
    """What the reader tells :func:`bulk_read` before it ends: how many records it keeps."""

    kept: int = 0


@contextmanager
def bulk_read() -> Iterator[BulkRead]:
    """The collector paused while inside; everything alive frozen after a bulk read."""
    with _collector_paused():
        read = BulkRead()
        yield read
        if read.kept >= FREEZE_AFTER:
            gc.freeze()


class _CollectorPause:
    """``gc`` disabled while any thread is inside; restored as found when the last one leaves."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._inside = 0
        self._was_enabled = False

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            if self._inside == 0:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._inside += 1
        try:
            yield
        finally:
            with self._lock:
                self._inside -= 1
                if self._inside == 0 and self._was_enabled:
                    gc.enable()


_collector_paused = _CollectorPause()
