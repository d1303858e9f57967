"""An apply writes exactly what a person reviewed: checking each ``candidate.applied`` against its record.

A ``candidate.applied`` event is the only way a proposal becomes memory (docs/design.md §5). What it writes
must be the record of a ``candidate.created`` (or the latest ``candidate.edited``) of the same
candidate, earlier in the same log, with only the stamps the apply itself sets (who applied it,
from which candidate, when) changed; it must change exactly the memories that record names, and
delete exactly those it deletes. A correctly chained line that does anything else — applies a
candidate never proposed, or writes other content — was not made by ``apply``: the log's chain has
no key, so anyone who can write the file can append such a line (docs/reliability.md, ADR 0025).

:class:`ReviewedRecords` folds a log in one pass, keeping only the records of candidates still
pending, and returns an :class:`Unreviewed` for each apply that does not match. ``verify`` reports
them, ``sync`` refuses a replica holding one, and the trust review never trusts such a version.

A ``candidate.restored`` (undo, ADR 0032) reopens a candidate with a record that is reviewed afresh, so
it must be the record the candidate had when it was resolved: a forged one (another body, its warning
flags taken off) is reported itself, and the apply that follows it is unreviewed (ADR 0040).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from memory_review.events import RESTORED, Event

STAMPS = frozenset({"applied_by", "applied_from", "updated_at", "created_at"})
"""The fields ``rules.apply`` sets on the reviewed record as it writes it; everything else must match."""
RECORD_TYPES = frozenset({"candidate.created", "candidate.edited", RESTORED})
"""A restored candidate is reviewed afresh: its next apply must write the record it was restored with."""

Reviewed = dict[str, dict[str, Any] | None]
"""A candidate's reviewed changes: memory id -> the record it writes (stamps removed), None for a delete."""


@dataclass(frozen=True)
class Unreviewed:
    """A ``candidate.applied`` whose changes are not the record a person reviewed."""

    seq: int
    candidate: str | None
    memories: tuple[str, ...]
    why: str
    kind: str = "candidate.applied"

    def message(self) -> str:
        return f"event {self.seq}: {self.kind} of {self.candidate!r} {self.why} (never served)"


class ReviewedRecords:
    """The reviewed records of pending candidates, folded event by event."""

    def __init__(self) -> None:
        self.pending: dict[str, Reviewed] = {}
        self._records: dict[str, dict[str, Any]] = {}  # the whole record of each pending candidate
        self._resolved: dict[str, bytes] = {}  # a resolved candidate -> the digest of its last record
        self._forged: set[str] = set()  # candidates reopened by a restore with a record they never had

    @classmethod
    def resumed(
        cls, records: dict[str, dict[str, Any]], resolved: dict[str, bytes], forged: set[str]
    ) -> ReviewedRecords:
        """The fold as :meth:`saved` left it (the records of pending candidates given back whole)."""
        folded = cls()
        folded._records = dict(records)
        folded.pending = {candidate: reviewed_changes(record) for candidate, record in records.items()}
        folded._resolved, folded._forged = dict(resolved), set(forged)
        return folded

    def saved(self) -> tuple[list[str], dict[str, bytes], set[str]]:
        """What :meth:`resumed` needs besides the pending records: their candidates, the resolved digests,
        the candidates a forged restore reopened."""
        return list(self._records), dict(self._resolved), set(self._forged)

    def check(self, event: Event) -> Unreviewed | None:
        """Fold ``event`` in; for a ``candidate.applied`` that does not match its record, say why."""
        kind, candidate = event.type, event.candidate
        if candidate is None:
            return None
        forged = self._check_restore(event) if kind == RESTORED else None
        if kind in RECORD_TYPES:
            if event.record is not None:
                self.pending[candidate] = reviewed_changes(event.record)
                self._records[candidate] = event.record
            return forged
        if kind == "candidate.discarded":
            self._resolve(candidate)
            return None
        if kind != "candidate.applied":
            return None
        why = mismatch(event, self._resolve(candidate))
        if candidate in self._forged:
            why = "writes a record only a forged candidate.restored gave it"
            self._forged.discard(candidate)
        if why is None:
            return None
        return Unreviewed(event.seq, candidate, tuple(c.memory for c in event.changes or ()), why)

    def _resolve(self, candidate: str) -> Reviewed | None:
        """A candidate applied or discarded: remember its last record's digest (a restore must give it back)."""
        record = self._records.pop(candidate, None)
        if record is not None:
            self._resolved[candidate] = record_digest(record)
        return self.pending.pop(candidate, None)

    def _check_restore(self, event: Event) -> Unreviewed | None:
        """A restore must reopen its candidate with the record it was resolved with (ADR 0040)."""
        candidate = event.candidate or ""
        had = self._resolved.pop(candidate, None)
        if had is not None and event.record is not None and record_digest(event.record) == had:
            self._forged.discard(candidate)
            return None
        self._forged.add(candidate)
        why = "restores a record the candidate never had" if had is not None else "restores a candidate never resolved"
        return Unreviewed(event.seq, candidate, (), why, kind=RESTORED)


def unreviewed_applies(events: Iterable[Event]) -> Iterator[Unreviewed]:
    """Every apply in ``events`` (a whole log, in order) that does not write its reviewed record."""
    records = ReviewedRecords()
    for event in events:
        found = records.check(event)
        if found is not None:
            yield found


def record_digest(record: dict[str, Any]) -> bytes:
    """A candidate record's identity, 16 bytes: computed once per resolved candidate, not per event."""
    return hashlib.blake2b(orjson.dumps(record, option=orjson.OPT_SORT_KEYS), digest_size=16).digest()


def reviewed_changes(record: dict[str, Any]) -> Reviewed:
    """What a candidate record (as ``candidate.created`` holds it) would write, stamps removed."""
    changes = record.get("changes")
    found: Reviewed = {}
    for change in changes if isinstance(changes, list) else ():
        if isinstance(change, dict) and isinstance(change.get("memory"), str):
            after = change.get("after")
            found[change["memory"]] = unstamped(after) if isinstance(after, dict) else None
    return found


def unstamped(record: dict[str, Any]) -> dict[str, Any]:
    """A memory record without the fields an apply sets."""
    return {k: v for k, v in record.items() if k not in STAMPS}


def mismatch(event: Event, reviewed: Reviewed | None) -> str | None:
    """Why an apply's changes are not ``reviewed`` (None: they are exactly it)."""
    if reviewed is None:
        return "for a candidate its log never proposed"
    written = {c.memory: c.after for c in event.changes or ()}
    if set(written) != set(reviewed):
        return f"changes memories {sorted(written)}, but the reviewed record names {sorted(reviewed)}"
    for memory_id in sorted(written):
        after, want = written[memory_id], reviewed[memory_id]
        if (after is None) != (want is None):
            done, meant = ("deletes", "writes") if after is None else ("writes", "deletes")
            return f"{done} memory {memory_id!r}, which the reviewed record {meant}"
        if after is None or want is None:
            continue
        if after.get("applied_from") != event.candidate or after.get("applied_by") != event.actor:
            return f"stamps memory {memory_id!r} as applied by someone or from something else"
        if unstamped(after) != want:
            return f"writes memory {memory_id!r} with content other than the reviewed record"
    return None
