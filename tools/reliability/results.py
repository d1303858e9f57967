"""What a suite of trials found: counts for the published figures and every failure, in words.

Each suite (crash matrix, I/O matrix, recovery, concurrency, bad input, property
tests) returns one :class:`SuiteResult`. A failure is a sentence naming the
trial and what broke; the tests assert there are none, and the figures script
publishes the counts (and would publish the failures).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

KINDS = (
    ("LOST", "lost"),
    ("PHANTOM", "phantom"),
    ("MIXED", "mixed states"),
    ("SILENT SUCCESS", "silent successes"),
    ("temp file left", "leaked temp files"),
    ("DEADLOCK", "deadlocks"),
    ("NOT REJECTED", "not rejected"),
    ("STORE CHANGED", "store changed"),
)
"""Failure kinds the figures count by name, found by a marker in the problem's text."""


def kind_of(problem: str) -> str:
    """The counted kind of a problem: lost, phantom, mixed, ... or ``other violations``."""
    return next((kind for marker, kind in KINDS if marker in problem), "other violations")


@dataclass
class SuiteResult:
    """Counts and failures of one suite; ``rows`` holds a per-operation (or per-case) breakdown.

    ``zero`` names the counts this suite publishes as "must be zero"; they are
    counted from the problems of each trial (see :func:`kind_of`), so a zero is measured.
    """

    name: str
    zero: tuple[str, ...] = ()
    trials: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    rows: dict[str, Counter[str]] = field(default_factory=dict)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def row(self, key: str) -> Counter[str]:
        """The breakdown counter for ``key`` (created on first use)."""
        return self.rows.setdefault(key, Counter())

    def record(self, key: str, outcome: str, problems: list[str], *, trial: str) -> None:
        """Count one trial under ``key`` with its ``outcome``; its problems become failures."""
        self.trials += 1
        self.counts[outcome] += 1
        self.row(key)[outcome] += 1
        self.row(key)["trials"] += 1
        for kind in self.zero:
            self.counts[kind] += 0  # published even when nothing went wrong
        for kind in {kind_of(p) for p in problems}:
            self.counts[kind] += 1
        if problems:
            self.counts["failed"] += 1
            self.row(key)["failed"] += 1
            self.failures.extend(f"{trial}: {p}" for p in problems)

    def merge(self, other: SuiteResult) -> None:
        """Add ``other``'s trials, counts, rows and failures to this result."""
        self.trials += other.trials
        self.counts.update(other.counts)
        self.failures += other.failures
        self.notes += other.notes
        for key, row in other.rows.items():
            self.row(key).update(row)

    @property
    def ok(self) -> bool:
        return not self.failures

    def summary(self) -> str:
        """One line for a terminal."""
        counts = ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        status = "ok" if self.ok else f"{len(self.failures)} FAILURES"
        return f"{self.name}: {self.trials} trials ({counts}) in {self.seconds:.1f}s — {status}"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "zero": list(self.zero),
            "trials": self.trials,
            "counts": dict(self.counts),
            "rows": {k: dict(v) for k, v in self.rows.items()},
            "failures": self.failures,
            "seconds": round(self.seconds, 1),
            "notes": self.notes,
        }


@contextmanager
def timed(result: SuiteResult) -> Iterator[SuiteResult]:
    """Add the wall time of the block to ``result.seconds``."""
    start = time.monotonic()
    try:
        yield result
    finally:
        result.seconds += time.monotonic() - start
