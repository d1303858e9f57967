"""Repetition across sessions raises a pending candidate (ADR 0050) — pure, no store access.

The plan skips a finding the reviewer already has pending. When that finding was said in a session the
pending candidate has no quote from, the rule has been said again in another session: the strongest
durable signal (ADR 0033). :func:`raises` says which pending candidates to raise and with which new
quotes; the store raises them (``rules.raise_candidate``) as a ``candidate.edited`` by the proposer.

Never raised: a candidate with no session at all (an agent's proposal with no session cannot be told
apart from the session the finding is from), a candidate flagged ``previously-discarded`` (a person
discarded that rule once; repetition does not push it up the queue), a finding flagged
``untrusted-source``. At most one quote per new session, and never past the evidence list's limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memory_review.extract.finding import FLAG_UNTRUSTED, Finding
from memory_review.extract.plan import FLAG_PREVIOUSLY_DISCARDED, SkippedFinding
from memory_review.limits import MAX_EVIDENCE_ITEMS
from memory_review.proposal import Evidence, Priority

PENDING_REASONS = frozenset({"already pending review", "near-duplicate of a pending candidate"})


@dataclass(frozen=True)
class PendingRef:
    """What a raise needs to know of one pending candidate."""

    candidate: str
    memories: frozenset[str]
    sessions: frozenset[str]
    priority: Priority
    evidence: int
    flags: frozenset[str]


@dataclass(frozen=True)
class PlannedRaise:
    """A pending candidate to raise to high priority, with the quotes of the sessions new to it."""

    candidate: str
    evidence: tuple[Evidence, ...]
    finding: Finding


def pending_ref(
    candidate: str,
    *,
    memories: Iterable[str],
    evidence: Sequence[Evidence],
    session_id: str | None,
    priority: Priority,
    flags: Iterable[str],
) -> PendingRef:
    """A :class:`PendingRef`; its sessions are those its evidence names and its own ``session_id``."""
    sessions = {e.session_id for e in evidence if e.session_id} | ({session_id} if session_id else set())
    return PendingRef(
        candidate=candidate,
        memories=frozenset(memories),
        sessions=frozenset(sessions),
        priority=priority,
        evidence=len(evidence),
        flags=frozenset(flags),
    )


def raises(skipped: Sequence[SkippedFinding], pending: Sequence[PendingRef]) -> list[PlannedRaise]:
    """The raises the skipped findings of one plan call for: one per candidate, in the order first met."""
    by_memory: dict[str, PendingRef] = {}
    for each in pending:
        for memory in each.memories:
            by_memory.setdefault(memory, each)  # the oldest candidate proposing that memory
    planned: dict[str, PlannedRaise] = {}
    for item in skipped:
        ref = by_memory.get(item.matched_id)
        if ref is None or not _may_raise(item, ref):
            continue
        earlier = planned.get(ref.candidate)
        added = earlier.evidence if earlier else ()
        new = _new_quotes(item.finding.evidence, ref, added)
        if new is None:
            continue
        planned[ref.candidate] = PlannedRaise(ref.candidate, added + new, earlier.finding if earlier else item.finding)
    return [p for p in planned.values() if p.evidence or pending_priority(pending, p.candidate) != "high"]


def _may_raise(item: SkippedFinding, ref: PendingRef) -> bool:
    return (
        item.reason in PENDING_REASONS
        and bool(ref.sessions)
        and FLAG_PREVIOUSLY_DISCARDED not in ref.flags
        and FLAG_UNTRUSTED not in item.finding.flags
    )


def _new_quotes(
    evidence: Sequence[Evidence], ref: PendingRef, added: tuple[Evidence, ...]
) -> tuple[Evidence, ...] | None:
    """One quote per session new to the candidate, within the room left; None when no session is new."""
    seen = set(ref.sessions) | {e.session_id for e in added if e.session_id}
    room = MAX_EVIDENCE_ITEMS - ref.evidence - len(added)
    new: list[Evidence] = []
    found_new = False
    for quote in evidence:
        if quote.session_id is None or quote.session_id in seen:
            continue
        found_new = True
        seen.add(quote.session_id)
        if len(new) < room:
            new.append(quote)
    return tuple(new) if found_new else None


def pending_priority(pending: Sequence[PendingRef], candidate: str) -> Priority | None:
    """The priority a pending candidate has now (None: not among ``pending``)."""
    return next((ref.priority for ref in pending if ref.candidate == candidate), None)
