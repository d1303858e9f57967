"""What each operation *means*, decided without touching the disk.

Each function takes a view of the store as it is now and returns a :class:`Plan`:
the event drafts to append, and nothing else. What they imply for the files (which
memories, candidates and session notes change) is the one fold's to say
(``memory_review.storage``, docs/adr/0023). The store (``store.py``) does the
locking, writing and fsyncing; nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from memory_review.candidate import (
    FLAG_PREVIOUSLY_DISCARDED,
    FLAG_SIMILAR,
    FLAG_STALE_BASE,
    FLAG_UNTRUSTED_SOURCE,
    Candidate,
    CandidateChange,
    CandidateOp,
    base_of,
    candidate_to_json,
    check_candidate_size,
    moved_away_reason,
    render_diff,
)
from memory_review.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from memory_review.events import RESTORED, Change, Event, EventDraft
from memory_review.limits import (
    MAX_ACTOR_CHARS,
    MAX_EVIDENCE_ITEMS,
    MAX_QUOTE_CHARS,
    MAX_RATIONALE_CHARS,
    MAX_REASON_CHARS,
    MAX_SOURCES,
    MAX_TURN_ID_CHARS,
)
from memory_review.models import DurableScope, Memory, Source
from memory_review.proposal import (
    ConsolidateProposal,
    DeleteProposal,
    Evidence,
    ProposedMemory,
    UpsertProposal,
    redacted,
    redacted_memory,
)
from memory_review.record_io import memory_sha256, memory_to_json, render_memory
from memory_review.safety import redact, redact_within, scan
from memory_review.storage import EMPTY, Folded, fold, fold_all


class View(Protocol):
    """What the rules may ask about the store's current state."""

    scope: DurableScope

    def memory(self, memory_id: str) -> Memory | None: ...

    def sha256(self, memory_id: str) -> str | None: ...


@dataclass
class Plan:
    """The outcome of a decision: the event drafts to append. What they mean is :meth:`folded`."""

    drafts: list[EventDraft] = field(default_factory=list)
    _folded: tuple[tuple[int, ...], Folded] | None = field(default=None, repr=False, compare=False)

    def folded(self) -> Folded:
        """What the drafts mean for the store's files, by the one fold (kept while the drafts stay the same)."""
        key = tuple(map(id, self.drafts))
        if self._folded is None or self._folded[0] != key:
            self._folded = (key, fold_all(EMPTY, self.drafts))
        return self._folded[1]

    @classmethod
    def of(cls, drafts: list[EventDraft], folded: Folded) -> Plan:
        """A plan whose drafts a caller already folded (e.g. step by step, to see its own earlier steps)."""
        return cls(drafts=drafts, _folded=(tuple(map(id, drafts)), folded))


class Overlay:
    """A view with a plan's pending changes on top, so a batch sees its own earlier steps."""

    def __init__(self, base: View, delta: Mapping[str, Memory | None]) -> None:
        self.scope = base.scope
        self._base = base
        self._delta = delta

    def memory(self, memory_id: str) -> Memory | None:
        if memory_id in self._delta:
            return self._delta[memory_id]
        return self._base.memory(memory_id)

    def sha256(self, memory_id: str) -> str | None:
        if memory_id in self._delta:
            current = self._delta[memory_id]
            return memory_sha256(current) if current else None
        return self._base.sha256(memory_id)


def require_person(actor: str) -> str:
    """Apply, discard, edit, revert and delete are a person's acts, never an agent's."""
    if not actor.strip() or actor.lower().startswith(("agent", "mcp", "hook")):
        raise PermissionDeniedError(
            f"only a person may do this, not {actor!r}",
            hint="agents can only propose; a person reviews with `memory-review`",
        )
    if len(actor) > MAX_ACTOR_CHARS or "\n" in actor:
        raise ValidationError(f"a person's name is one line of at most {MAX_ACTOR_CHARS} characters", field="actor")
    return actor


# --- propose ---------------------------------------------------------------------------


def propose(
    view: View,
    proposal: UpsertProposal | DeleteProposal | ConsolidateProposal,
    *,
    candidate_id: str,
    now: str,
    discarded: Container[str] = frozenset(),
    flags: Iterable[str] = (),
) -> tuple[Candidate, Plan]:
    """Turn a proposal into a candidate and its ``candidate.created`` event; memory is untouched.

    Every free-text field is redacted first (the flags come from the text as sent). ``flags`` are
    warnings the caller knows of (an extractor's ``untrusted-source``); they only add.
    """
    proposal, text_flags = redacted(proposal)
    changes = _proposed_changes(view, proposal, candidate_id, now)
    op = _effective_op(proposal, changes)
    candidate = _candidate(proposal, op, changes, candidate_id, now, view.scope, text_flags)
    extra = set(flags) | ({FLAG_PREVIOUSLY_DISCARDED} if candidate.fingerprint() in discarded else set())
    if extra:
        candidate = candidate.model_copy(update={"flags": tuple(sorted(set(candidate.flags) | extra))})
    check_candidate_size(candidate)
    draft = EventDraft(
        type="candidate.created",
        actor=f"{proposal.proposer.kind}:{proposal.proposer.name}",
        session=proposal.session_id,
        candidate=candidate.id,
        record=candidate_to_json(candidate),
    )
    return candidate, Plan(drafts=[draft])


def _proposed_changes(view: View, proposal, candidate_id: str, now: str) -> tuple[CandidateChange, ...]:
    if isinstance(proposal, DeleteProposal):
        return (_deletion(view, proposal.memory_id),)
    if isinstance(proposal, UpsertProposal):
        return (_upsert(view, proposal, proposal.memory, candidate_id, now),)
    return _consolidation(view, proposal, candidate_id, now)


def _deletion(view: View, memory_id: str) -> CandidateChange:
    current = view.memory(memory_id)
    if current is None:
        raise NotFoundError(f"{view.scope} memory", memory_id)
    return CandidateChange(memory=memory_id, before=current, after=None)


def _upsert(view: View, proposal, proposed: ProposedMemory, candidate_id: str, now: str) -> CandidateChange:
    before = view.memory(proposed.id)
    after = proposed_record(before, proposed, proposal, view.scope, candidate_id, now)
    if before is not None and _same_content(before, after):
        raise ValidationError(f"memory {proposed.id!r} already says exactly this", field="memory")
    return CandidateChange(memory=proposed.id, before=before, after=after)


def _consolidation(view: View, proposal: ConsolidateProposal, candidate_id: str, now: str):
    """Results that differ from what is stored, and deletions of sources not kept as results."""
    result_ids = {r.id for r in proposal.results}
    changes = []
    for result in proposal.results:
        current = view.memory(result.id)
        if current is None or not _same_content(current, result):
            changes.append(_upsert(view, proposal, result, candidate_id, now))
    for source in proposal.sources:
        if source not in result_ids:
            changes.append(_deletion(view, source))
    if not changes:
        raise ValidationError("this consolidation would change nothing", field="results")
    return tuple(changes)


def proposed_record(
    before: Memory | None, proposed: ProposedMemory, proposal, scope: DurableScope, candidate_id: str, now: str
) -> Memory:
    """The memory file a proposal would produce (provenance is stamped again at apply)."""
    sources = tuple(
        Source(session_id=e.session_id, turn_id=e.turn_id, evidence=redact(e.quote)) for e in proposal.evidence
    )
    sessions = tuple(sorted({s.session_id for s in sources if s.session_id}))
    if before is not None:
        sources = _merge(before.sources, sources)[-MAX_SOURCES:]
        sessions = tuple(sorted(set(before.related_sessions) | set(sessions)))
    record = Memory(
        id=proposed.id,
        type=proposed.type,
        scope=scope,
        description=redact(proposed.description),
        body=redact(proposed.body),
        created_at=before.created_at if before else now,
        updated_at=now,
        applied_from=candidate_id,
        applied_by=None,
        sources=sources[-MAX_SOURCES:],
        related_sessions=sessions[-MAX_SOURCES:],
    )
    return _fitted(record, keep=len(proposal.evidence))


def _fitted(record: Memory, *, keep: int) -> Memory:
    """Drop the oldest inherited sources until the file fits; the new evidence is never dropped.

    Room is kept for the longest ``applied_by`` a person's name can stamp on it at apply time.
    """
    while True:
        try:
            render_memory(record.model_copy(update={"applied_by": "x" * MAX_ACTOR_CHARS}))
            return record
        except ValidationError:
            if len(record.sources) <= keep:
                raise  # the proposal itself is too big: the caller must shorten it
            record = record.model_copy(update={"sources": record.sources[1:]})


def _merge(old: Iterable, new: Iterable) -> tuple:
    merged = list(old)
    merged.extend(item for item in new if item not in merged)
    return tuple(merged)


def _same_content(a: Memory, b: Memory | ProposedMemory) -> bool:
    return (a.type, a.description, a.body) == (b.type, b.description, b.body)


def _effective_op(proposal, changes: tuple[CandidateChange, ...]) -> CandidateOp:
    if proposal.op in ("create", "update"):
        return "update" if changes[0].before is not None else "create"
    return proposal.op


def _candidate(
    proposal, op: CandidateOp, changes, candidate_id: str, now: str, scope: DurableScope, flags: frozenset[str]
) -> Candidate:
    """The candidate of a redacted proposal; ``flags`` were raised by its text as sent."""
    return Candidate(
        id=candidate_id,
        op=op,
        scope=scope,
        changes=changes,
        base=base_of(changes),
        diff=render_diff(changes),
        rationale=proposal.rationale,
        evidence=proposal.evidence,
        proposer=proposal.proposer,
        priority=proposal.priority,
        flags=tuple(sorted(flags)),
        session_id=proposal.session_id,
        created_at=now,
    )


# --- edit ------------------------------------------------------------------------------


NearFlags = Callable[[Sequence[CandidateChange]], Iterable[str]]
"""The ``similar-to:`` flags of a candidate's changes, as ``propose`` would raise them (``near_duplicates``)."""


def edit(
    view: View,
    candidate: Candidate,
    edited: ProposedMemory,
    *,
    actor: str,
    now: str,
    near: NearFlags | None = None,
) -> Plan:
    """A person rewrites the proposed record of a pending candidate; recorded as ``candidate.edited``.

    The flags are decided again (:func:`_revised`); ``near`` gives the edited records' near-duplicates."""
    require_person(actor)
    edited, edit_flags = redacted_memory(edited)  # a person can paste a secret too
    index, proposed = _editable_change(candidate, edited.id)
    change = candidate.changes[index]
    after = proposed.model_copy(
        update={
            "type": edited.type,
            "description": edited.description,
            "body": edited.body,
            "id": edited.id,
            "updated_at": now,
        }
    )
    after = Memory.model_validate(after.model_dump())
    render_memory(after)
    changes = list(candidate.changes)
    changes[index] = CandidateChange(memory=edited.id, before=change.before, after=after)
    if change.before is None and edited.id != change.memory and view.memory(edited.id) is not None:
        raise ConflictError(f"a memory {edited.id!r} already exists", memory_id=edited.id)
    revised = tuple(changes)
    near_flags = frozenset(near(revised)) if near is not None else frozenset()
    return _edited(_revised(candidate, revised, edit_flags | near_flags), actor=actor)


def _edited(updated: Candidate, *, actor: str) -> Plan:
    """The plan that records ``updated`` as the pending candidate's new record (``candidate.edited``)."""
    check_candidate_size(updated)
    draft = EventDraft(
        type="candidate.edited",
        actor=actor,
        session=updated.session_id,
        candidate=updated.id,
        record=candidate_to_json(updated),
    )
    return Plan(drafts=[draft])


def _editable_change(candidate: Candidate, memory_id: str) -> tuple[int, Memory]:
    """Which change an edit of ``memory_id`` rewrites, and the record it proposes."""
    editable = [(i, c.after) for i, c in enumerate(candidate.changes) if c.after is not None]
    if not editable:
        raise ValidationError(f"candidate {candidate.id} deletes a memory; there is no record to edit")
    for i, after in editable:
        if candidate.changes[i].memory == memory_id:
            return i, after
    if len(editable) == 1 and candidate.changes[editable[0][0]].before is None:
        return editable[0]  # a new memory may be renamed
    raise ValidationError(f"candidate {candidate.id} does not propose memory {memory_id!r}", field="id")


def _revised(candidate: Candidate, changes: tuple[CandidateChange, ...], edit_flags: frozenset[str]) -> Candidate:
    """The candidate with its edited changes and its flags decided again: what the new text raises (and
    ``edit_flags``: the edit's redactions and near-duplicates), what the rationale and evidence raise, and
    the flags no edit undoes. An edit does not change where the rest of the text came from
    (``untrusted-source``); the near-duplicates are the caller's to find again (``similar-to:``)."""
    texts = [f"{c.after.description}\n{c.after.body}" for c in changes if c.after]
    content_flags = set().union(edit_flags, *(scan(t) for t in texts))
    kept = {f for f in candidate.flags if f in _KEPT_BY_EDIT}
    evidence_flags = set().union(scan(candidate.rationale), *(scan(e.quote) for e in candidate.evidence))
    return candidate.model_copy(
        update={
            "changes": changes,
            "diff": render_diff(changes),
            "base": base_of(changes),
            "flags": tuple(sorted(content_flags | kept | evidence_flags)),
        }
    )


_KEPT_BY_EDIT = frozenset({FLAG_PREVIOUSLY_DISCARDED, FLAG_UNTRUSTED_SOURCE})


# --- move to the other store (ADR 0154) --------------------------------------------------


def move_proposal(candidate: Candidate, scope: DurableScope) -> UpsertProposal:
    """What a pending new memory proposes, as a proposal to the ``scope`` store: the same record, rationale,
    evidence, proposer, priority and session. A change to a memory its store holds cannot move."""
    if scope == candidate.scope:
        raise ValidationError(f"candidate {candidate.id} is already in the {scope} store", field="scope")
    record = candidate.movable_memory()
    return UpsertProposal(
        op="create",
        scope=scope,
        memory=ProposedMemory(id=record.id, type=record.type, description=record.description, body=record.body),
        rationale=candidate.rationale,
        evidence=candidate.evidence,
        proposer=candidate.proposer,
        priority=candidate.priority,
        session_id=candidate.session_id,
    )


def move(
    view: View,
    candidate: Candidate,
    proposal: UpsertProposal,
    *,
    candidate_id: str,
    actor: str,
    now: str,
    discarded: Container[str] = frozenset(),
    flags: Iterable[str] = (),
) -> tuple[Candidate, Plan]:
    """A person files a pending new memory in the other store (``view``'s) instead.

    The new candidate there proposes ``proposal`` (:func:`move_proposal`) with the warnings the candidate carries,
    less those its store decides (``flags``: the new store's near-duplicates); its ``candidate.created``
    is the person's, its reason names the candidate it replaces. The caller discards ``candidate``
    (:func:`moved_away`) as the same decision.
    """
    require_person(actor)
    if view.memory(proposal.memory.id) is not None:
        raise ConflictError(
            f"the {view.scope} store already has a memory {proposal.memory.id!r}",
            memory_id=proposal.memory.id,
            hint="edit the candidate's id first, then move it",
        )
    carried = {f for f in candidate.flags if f not in _STORE_FLAGS and not f.startswith(FLAG_SIMILAR)}
    moved, plan = propose(
        view, proposal, candidate_id=candidate_id, now=now, discarded=discarded, flags=carried | set(flags)
    )
    created = EventDraft(
        type="candidate.created",
        actor=actor,
        session=moved.session_id,
        candidate=moved.id,
        record=plan.drafts[0].record,
        reason=f"moved from candidate {candidate.id} of the {candidate.scope} store",
    )
    return moved, Plan(drafts=[created])


_STORE_FLAGS = frozenset({FLAG_PREVIOUSLY_DISCARDED, FLAG_STALE_BASE})
"""Warnings about what the candidate's own store holds: a move decides them again in the new store."""


def moved_away(candidate: Candidate, moved: Candidate, *, actor: str) -> Plan:
    """The other half of a move: ``candidate`` discarded in its store, the reason naming where it went."""
    return discard([candidate], actor=actor, reason=moved_away_reason(moved.scope, moved.id))


# --- raise (repetition across sessions, ADR 0050) --------------------------------------


def raise_candidate(candidate: Candidate, evidence: Sequence[Evidence], *, actor: str) -> Plan | None:
    """A rule said again in another session: the pending candidate at priority high, the new quotes added.

    Recorded as ``candidate.edited`` by the proposer (``actor``). Only review metadata and provenance
    change: priority, evidence, rationale, and the proposed record's sources; never its id, type,
    description or body, and never a flag taken off. None when it would change nothing (idempotent).
    """
    new = _new_sessions_quotes(candidate, evidence)
    if candidate.priority == "high" and not new:
        return None
    sessions = sorted({e.session_id for e in new if e.session_id})
    note = f" Said again in session {', '.join(sessions)}." if sessions else ""
    if candidate.priority != "high":
        note += f" Priority raised from {candidate.priority} to high (said in more than one session)."
    raised = candidate.model_copy(
        update={
            "priority": "high",
            "evidence": candidate.evidence + tuple(new),
            "rationale": redact_within(candidate.rationale + note, MAX_RATIONALE_CHARS),
            "flags": tuple(sorted(set(candidate.flags).union(*(scan(e.quote) for e in new)))),
        }
    )
    if len(raised.changes) == 1 and new:
        raised = _with_sources(raised, new)
    return _edited(raised, actor=actor)


def _new_sessions_quotes(candidate: Candidate, evidence: Sequence[Evidence]) -> list[Evidence]:
    """One redacted quote per session the candidate has none from, within its evidence limit.

    Decided again on the candidate as it is under the lock: a raise by another process meanwhile has
    already added its session, so the same session is never quoted twice.
    """
    have = {e.session_id for e in candidate.evidence} | {candidate.session_id}
    room = MAX_EVIDENCE_ITEMS - len(candidate.evidence)
    new: list[Evidence] = []
    for quote in evidence:
        if quote.session_id and quote.session_id not in have and len(new) < room:
            have.add(quote.session_id)
            new.append(_redacted_quote(quote))
    return new


def _redacted_quote(evidence: Evidence) -> Evidence:
    turn = evidence.turn_id and redact_within(evidence.turn_id, MAX_TURN_ID_CHARS)
    return evidence.model_copy(update={"quote": redact_within(evidence.quote, MAX_QUOTE_CHARS), "turn_id": turn})


def _with_sources(candidate: Candidate, new: Sequence[Evidence]) -> Candidate:
    """The one proposed record with the new quotes among its sources (oldest dropped to fit)."""
    [change] = candidate.changes
    if change.after is None:
        return candidate
    after = change.after
    added = tuple(Source(session_id=e.session_id, turn_id=e.turn_id, evidence=e.quote) for e in new)
    sources = _merge(after.sources, added)[-MAX_SOURCES:]
    sessions = tuple(sorted(set(after.related_sessions) | {s.session_id for s in added if s.session_id}))
    record = after.model_copy(update={"sources": sources, "related_sessions": sessions[-MAX_SOURCES:]})
    record = _fitted(Memory.model_validate(record.model_dump()), keep=min(len(added), MAX_SOURCES))
    changes = (CandidateChange(memory=change.memory, before=change.before, after=record),)
    return candidate.model_copy(update={"changes": changes, "diff": render_diff(changes)})


# --- apply / discard -------------------------------------------------------------------


def apply(view: View, candidates: Sequence[Candidate], *, actor: str, now: str) -> Plan:
    """Apply candidates in order; any stale base is a ConflictError and nothing is planned."""
    require_person(actor)
    drafts: list[EventDraft] = []
    folded = EMPTY
    for candidate in candidates:
        overlay = Overlay(view, folded.memories)  # the batch's earlier applies, by the fold
        changes = [_applied_change(overlay, candidate, c, actor, now) for c in candidate.changes]
        draft = EventDraft(
            type="candidate.applied",
            actor=actor,
            session=candidate.session_id,
            candidate=candidate.id,
            changes=tuple(changes),
        )
        drafts.append(draft)
        folded = fold(folded, draft)
    return Plan.of(drafts, folded)


def _applied_change(view: View, candidate: Candidate, change: CandidateChange, actor: str, now: str) -> Change:
    current = view.memory(change.memory)  # first: a file that fails its manifest hash is an IntegrityError
    if view.sha256(change.memory) != candidate.base.get(change.memory):
        raise ConflictError(
            f"memory {change.memory!r} changed since candidate {candidate.id} was proposed",
            memory_id=change.memory,
            hint="the candidate is kept; review the new state, then edit or discard it",
        )
    after = None
    if change.after is not None:
        after = change.after.model_copy(
            update={
                "applied_by": actor,
                "applied_from": candidate.id,
                "updated_at": now,
                "created_at": current.created_at if current else now,
            }
        )
    return Change(memory=change.memory, before=_json(current), after=_json(after))


def discard(candidates: Sequence[Candidate], *, actor: str, reason: str | None) -> Plan:
    """Discard candidates; they stay in the log and flag identical later proposals."""
    require_person(actor)
    return Plan(
        drafts=[
            EventDraft(
                type="candidate.discarded",
                actor=actor,
                session=candidate.session_id,
                candidate=candidate.id,
                reason=checked_reason(reason),
            )
            for candidate in candidates
        ]
    )


# --- revert / delete -------------------------------------------------------------------


def revert(view: View, events: Sequence[Event], *, actor: str, force: bool = False) -> Plan:
    """Restore the ``before`` of every change each event made, in the order given (newest first to undo
    a run of changes); each step sees the batch's earlier ones. Refuse if memory moved on, unless forced."""
    require_person(actor)
    drafts: list[EventDraft] = []
    folded = EMPTY
    for event in events:
        draft = _revert_draft(Overlay(view, folded.memories), event, actor=actor, force=force)
        drafts.append(draft)
        folded = fold(folded, draft)
    return Plan.of(drafts, folded)


def _revert_draft(view: View, event: Event, *, actor: str, force: bool) -> EventDraft:
    if not event.changes or event.type == "session.written":
        raise ValidationError(f"event {event.seq} ({event.type}) changed no memory; nothing to revert")
    changes, overwrote = [], False
    for change in event.changes:
        current = view.memory(change.memory)
        if _json(current) == change.before:
            continue
        if _json(current) != change.after:
            if not force:
                raise ConflictError(
                    f"memory {change.memory!r} changed after event {event.seq}",
                    memory_id=change.memory,
                    hint="use --force to overwrite it (the overwrite is recorded)",
                )
            overwrote = True
        changes.append(Change(memory=change.memory, before=_json(current), after=change.before))
    if not changes:
        raise ConflictError(f"event {event.seq} is already undone: memory is as it was before it")
    return EventDraft(
        type="memory.reverted",
        actor=actor,
        session=event.session,
        candidate=event.candidate,
        reverts=event.seq,
        changes=tuple(changes),
        forced=True if overwrote else None,
    )


def _undone(view: View, event: Event) -> bool:
    """Whether memory is already as it was before ``event`` (a `revert` undid the apply earlier)."""
    return all(_json(view.memory(change.memory)) == change.before for change in event.changes or ())


class Resolved(NamedTuple):
    """A resolved candidate as the log holds it: its last record and the event that resolved it."""

    candidate: Candidate
    decision: Event
    """The ``candidate.applied`` or ``candidate.discarded`` a restore undoes."""


def restore(view: View, resolved: Sequence[Resolved], *, actor: str, force: bool = False) -> Plan:
    """Undo applies and discards: each candidate pending again, exactly as it was (docs/adr/0032).

    An applied candidate's memory changes are reverted first (``memory.reverted``), then the
    candidate is reopened (``candidate.restored``, naming the decision it undoes), all in one
    plan. Give them newest decision first, so each revert sees the state the later ones left.
    """
    require_person(actor)
    drafts: list[EventDraft] = []
    folded = EMPTY
    for item in resolved:
        steps = []
        overlay = Overlay(view, folded.memories)
        if item.decision.type == "candidate.applied" and not _undone(overlay, item.decision):
            steps.append(_revert_draft(overlay, item.decision, actor=actor, force=force))
        steps.append(
            EventDraft(
                type=RESTORED,
                actor=actor,
                session=item.candidate.session_id,
                candidate=item.candidate.id,
                reverts=item.decision.seq,
                record=candidate_to_json(item.candidate),
            )
        )
        drafts += steps
        folded = fold_all(folded, steps)
    return Plan.of(drafts, folded)


def delete(view: View, memory_id: str, *, actor: str, reason: str | None = None) -> Plan:
    """Delete an approved memory by a recorded event (never a bare file removal)."""
    require_person(actor)
    current = view.memory(memory_id)
    if current is None:
        raise NotFoundError(f"{view.scope} memory", memory_id)
    change = Change(memory=memory_id, before=_json(current), after=None)
    draft = EventDraft(type="memory.deleted", actor=actor, changes=(change,), reason=checked_reason(reason))
    return Plan(drafts=[draft])


def checked_reason(reason: str | None) -> str | None:
    """A reason a person typed (discard, delete, trust, refuse, forget) as stored: bounded, secrets redacted, None
    when blank."""
    if reason is None or not reason.strip():
        return None
    if len(reason) > MAX_REASON_CHARS:
        raise ValidationError(
            f"the reason is {len(reason)} characters; at most {MAX_REASON_CHARS} are allowed", field="reason"
        )
    return redact_within(reason, MAX_REASON_CHARS)


def _json(memory: Memory | None) -> dict | None:
    return memory_to_json(memory) if memory is not None else None
