"""The library's front door: the user and project stores of one project, and every operation on them.

Each public method is one CLI command (sqlite-utils style): the CLI parses,
calls one method with keyword arguments that mirror its flags, and renders.
The TUI, the MCP server and the hooks call the same methods.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memory_review import rules
from memory_review.candidate import (
    Candidate,
    CandidateState,
    candidate_from_json,
    live_flags,
    moved_to,
    tier_flag_ids,
)
from memory_review.discarded import DiscardedFingerprints
from memory_review.errors import ConflictError, MemoryReviewError, NotFoundError, ValidationError
from memory_review.events import CANDIDATE_TYPES, MEMORY_TYPES, RESTORED, TERMINAL_TYPES, Change, Event, EventDraft
from memory_review.history import History
from memory_review.ids import check_session_id, new_candidate_id
from memory_review.limits import MAX_SESSION_MEMORIES
from memory_review.locking import DEFAULT_TIMEOUT
from memory_review.models import OTHER_SCOPE, DurableScope, Memory, durable_scope, utc_now
from memory_review.paths import project_root, project_store_dir, user_store_dir
from memory_review.proposal import (
    ConsolidateProposal,
    DeleteProposal,
    Evidence,
    ProposedMemory,
    Proposer,
    UpsertProposal,
    check_session_ref,
    in_session,
    redacted_memory,
)
from memory_review.read_index import ReadIndex
from memory_review.record_io import memory_to_json
from memory_review.storage import EMPTY, fold_all
from memory_review.store import CommitResult, Store, Transaction, log_errors
from memory_review.trust import TrustRecords, decisions_of, revocations, session_notes_of
from memory_review.verified import Resuming, VerifiedRecords
from memory_review.verify import StoreReport, collector_paused, verify_store

if TYPE_CHECKING:
    from memory_review.extract.model_extractor import Progress
    from memory_review.extraction import Extractor
    from memory_review.gitrepo import LogEntry
    from memory_review.log_read import LoggedEvents
    from memory_review.pending_files import PendingFiles
    from memory_review.store_view import StoreView
    from memory_review.sync import StoreSync
    from memory_review.trust import Ledger
    from memory_review.trust_review import ForeignMemory

AnyProposal = UpsertProposal | DeleteProposal | ConsolidateProposal
Clean = tuple[Store, Resuming, dict[str, tuple[str, str]]]
"""A store a verify found clean, what its walk proved and the read index entries it checked (ADR 0056)."""
DURABLE: tuple[DurableScope, ...] = ("project", "user")


@dataclass(frozen=True)
class SessionSummary:
    """A session seen in the logs: how many events it left and what kinds."""

    session: str
    events: int
    first_ts: str
    last_ts: str
    types: dict[str, int]


def current_actor() -> str:
    """The person at the keyboard, for the ``actor`` of their decisions."""
    return os.environ.get("MEMORY_REVIEW_ACTOR") or _login_name()


def _login_name() -> str:
    try:
        import getpass

        return getpass.getuser() or "user"
    except (OSError, KeyError):
        return "user"


def _apart(project_store: Path, user_dir: Path) -> None:
    """Refuse a project whose store is the user store: ``MEMORY_REVIEW_HOME=~/.memory-review`` run in a home folder
    that is no repository (or an MCP client's root there). Each store then read the other's trust records as
    damaged, and project candidates landed in the user store (session 38's review)."""
    if os.path.realpath(project_store) == os.path.realpath(user_dir):
        raise ValidationError(
            f"the project store here would be the user store ({user_dir})",
            hint="run memory-review inside a project (a git repository), or give --project DIR; "
            "or keep $MEMORY_REVIEW_HOME out of a folder you use as a project",
        )


class Workspace:
    """The user store and the project store of one project root."""

    def __init__(self, root: Path, user_dir: Path, *, lock_timeout: float = DEFAULT_TIMEOUT) -> None:
        self.root = root
        _apart(project_store_dir(root), user_dir)
        # Trouble after a commit point (the change still stands), or a bad file a reader skipped.
        self.warnings: list[str] = []
        self.project = Store(project_store_dir(root), "project", lock_timeout=lock_timeout, warnings=self.warnings)
        self.user = Store(user_dir, "user", lock_timeout=lock_timeout, warnings=self.warnings)
        self.trust_records = TrustRecords(user_dir)  # outside every repository (docs/adr/0021)
        self.read_index = ReadIndex(user_dir)  # machine-local too: a repository cannot ship one (ADR 0030)
        self.verified = VerifiedRecords(user_dir)  # what clean verifies proved: beside the anchors (ADR 0056)
        for store in (self.project, self.user):
            store.compaction_observers.append(self.read_index)  # a compaction keeps the index current
        # Git history follows every commit (a failure is a warning; `verify --repair` catches it up).
        self.history: dict[DurableScope, History] = {
            "project": History.of_project(self.project, root),
            "user": History.of_user(self.user),
        }
        for scope, history in self.history.items():
            self.store(scope).observers.append(history.observe)

    @classmethod
    def open(
        cls, project: Path | None = None, *, cwd: Path | None = None, lock_timeout: float = DEFAULT_TIMEOUT
    ) -> Workspace:
        """Locate the stores from the user's own settings only (flag, env, cwd; never a repo file)."""
        return cls(project_root(project, cwd), user_store_dir(), lock_timeout=lock_timeout)

    def store(self, scope: DurableScope) -> Store:
        return self.project if durable_scope(scope) == "project" else self.user

    def store_dir(self, scope: DurableScope) -> Path:
        """Where the ``scope`` store lives (it may not exist yet)."""
        return self.store(scope).root

    def has_store(self, scope: DurableScope) -> bool:
        """Whether the ``scope`` store has been created (it has a log or a manifest)."""
        return self.store(scope).exists()

    def watched_paths(self) -> list[Path]:
        """What a change to either store touches: its log, manifest, candidate and session folders."""
        return [
            path
            for store in self._stores(None)
            for path in (store.log_path, store.manifest_path, store.candidate_dir, store.sessions.root)
        ]

    # --- set-up ------------------------------------------------------------------------

    def init(self, scopes: Sequence[DurableScope] = DURABLE) -> dict[DurableScope, bool]:
        """Create the stores (both by default) if missing; says which were new. A store made here is
        trusted from the start."""
        created = {scope: self.store(scope).init() for scope in scopes}
        for scope, new in created.items():
            if new:
                self.trust_records.start(self.store(scope))
                with self.store(scope).locked():
                    self.read_index.rebuild(self.store(scope))
        return created

    def ignore_project_store(self) -> str:
        """Add ``.memory-review/`` to the project's ``.gitignore`` (git work trees only); what happened."""
        from memory_review.gitignore import ignore_store

        return ignore_store(self.root)

    # --- proposing (the agent's way in) ------------------------------------------------

    def propose(
        self,
        proposals: Sequence[AnyProposal],
        flags: Sequence[Iterable[str]] | None = None,
        *,
        session: str | None = None,
        twin: Callable[[AnyProposal], CandidateState | None] | None = None,
    ) -> list[CandidateState]:
        """Turn proposals into pending candidates; all are validated before any is written.

        ``flags`` (one set per proposal) adds warnings the caller knows of, such as an extractor's.
        ``session`` (the caller's ``--session``) ties each candidate to that session.
        ``twin`` (the MCP server's "the same proposal again is the same candidate") is asked under the
        store's lock, so two processes proposing the same thing at once make one candidate: a proposal it
        finds a pending candidate for is not proposed, its result is that candidate.
        """
        if session is not None:
            proposals = [in_session(proposal, session) for proposal in proposals]
        by_scope: dict[DurableScope, list[tuple[AnyProposal, frozenset[str]]]] = {}
        for i, proposal in enumerate(proposals):
            extra = frozenset(flags[i]) if flags else frozenset()
            by_scope.setdefault(proposal.scope, []).append((proposal, extra))
        for scope, items in by_scope.items():
            self._plan_proposals(self.store(scope), items, dry_run=True)  # validation only: no twin is read
        results: list[CandidateState] = []
        for scope, items in by_scope.items():
            results.extend(self._plan_proposals(self.store(scope), items, dry_run=False, twin=twin))
        return results

    def _plan_proposals(
        self,
        store: Store,
        proposals: Sequence[tuple[AnyProposal, frozenset[str]]],
        *,
        dry_run: bool,
        twin: Callable[[AnyProposal], CandidateState | None] | None = None,
    ) -> list[CandidateState]:
        from memory_review.near_duplicates import NearDuplicates  # the propose path only, not every start-up

        with store.transact() as tx:
            # Only flags depend on it, so the all-or-nothing validation pass skips the log scan.
            discarded: Container[str] = frozenset() if dry_run else DiscardedFingerprints(store)
            twins = None if dry_run else NearDuplicates(store, tx.view)  # flags only, as above
            other = None if dry_run else self._other_hashes(store)  # the live tier flags the proposer is told of
            plan, made = rules.Plan(), []
            for proposal, extra in proposals:
                found = twin(proposal) if twin else None  # under the lock: no other writer adds one meanwhile
                if found is not None:
                    made.append(found)
                    continue
                near = twins.flags(proposal) if twins else frozenset()
                candidate, step = rules.propose(
                    tx.view,
                    proposal,
                    candidate_id=new_candidate_id(),
                    now=utc_now(),
                    discarded=discarded,
                    flags=extra | near,
                )
                if twins:
                    twins.add(candidate)
                made.append(CandidateState(candidate, "pending", live_flags(candidate, tx.view.sha256, other)))
                plan.drafts += step.drafts
            if not dry_run and plan.drafts:
                self.commit(tx, plan)
        return made

    def raise_candidates(self, raises: Sequence[tuple[str, Sequence[Evidence]]], *, actor: str) -> list[str]:
        """Raise pending candidates said again in another session (ADR 0050); the ids raised.

        ``raises``: candidate id and the new sessions' quotes. Each is read again under the store lock:
        one resolved (or raised) meanwhile is left as it is. A quote that does not fit is left out, the
        priority is raised all the same.
        """
        raised: list[str] = []
        for store in self._stores(None):
            if not store.exists():
                continue
            wanted = [(cid, quotes) for cid, quotes in raises if store.has_pending(cid)]
            if not wanted:
                continue
            with store.transact() as tx:
                plan = rules.Plan()
                for cid, quotes in wanted:
                    step = _raise_step(tx, cid, quotes, actor)
                    if step is not None:
                        plan.drafts += step.drafts
                        raised.append(cid)
                if plan.drafts:
                    self.commit(tx, plan)
        return raised

    # --- reading candidates -------------------------------------------------------------

    def pending_files(self) -> PendingFiles:
        """A reader of both stores' pending queues (project first) for a UI that re-reads it often:
        gives what :meth:`list_candidates` gives, re-reading only changed files (:mod:`memory_review.pending_files`)."""
        from memory_review.pending_files import PendingFiles

        return PendingFiles(self._stores(None), lambda scope: self.list_candidates(scope=scope))

    def list_candidates(self, *, scope: DurableScope | None = None) -> list[CandidateState]:
        """Pending candidates of both stores (project first), with live flags."""
        states = []
        for store in self._stores(scope):
            view = store.view(load=False)  # stale-base flags need hashes only: no memory file is read
            other = self._other_hashes(store)
            for candidate in store.pending():
                states.append(CandidateState(candidate, "pending", live_flags(candidate, view.sha256, other)))
        return states

    def show(self, candidate_id: str) -> CandidateState:
        """One candidate, pending or resolved (then from the log)."""
        for store in self._stores(None):
            try:
                candidate = store.candidate(candidate_id)
            except NotFoundError:
                continue
            return self._pending_state(store, candidate)
        for store in self._stores(None):
            found = _candidate_from_log(store, candidate_id)
            if found:
                return found
        raise NotFoundError("candidate", candidate_id)

    def similar(self, state: CandidateState, *, pending: bool = True) -> list[Memory]:
        """What a candidate's ``similar-to:`` flags name in its store, as it is now: the approved memory,
        else (``pending``: reading the queue) the record a pending candidate proposes for that id."""
        from memory_review.near_duplicates import similar_ids  # only `show` and the UI's details ask

        wanted = similar_ids(state.flags)
        store = self.store(state.candidate.scope)
        if not wanted or not store.exists():
            return []
        view = store.view(load=False)
        found = {mid: memory for mid in wanted if (memory := view.memory(mid)) is not None}
        if pending and len(found) < len(wanted):
            for candidate in store.pending():
                for change in candidate.changes:
                    if change.after is not None and change.memory in wanted and candidate.id != state.candidate.id:
                        found.setdefault(change.memory, change.after)
        return [found[mid] for mid in wanted if mid in found]

    def other_store(self, state: CandidateState) -> list[Memory]:
        """The approved memories of the other store that a candidate's ``overrides:``, ``overridden-by:`` and
        ``uncovers:`` flags name, as they are now: the one it would hide, or that hides it (docs/design.md §6)."""
        wanted = tier_flag_ids(state.flags)
        store = self.store(OTHER_SCOPE[state.candidate.scope])
        if not wanted or not store.exists():
            return []
        view = store.view(load=False)
        return [memory for mid in wanted if (memory := view.memory(mid)) is not None]

    def _pending_state(self, store: Store, candidate: Candidate) -> CandidateState:
        """A pending candidate of ``store`` with its live flags, from both stores as they are now."""
        return CandidateState(
            candidate, "pending", live_flags(candidate, store.view(load=False).sha256, self._other_hashes(store))
        )

    def _other_hashes(self, store: Store) -> Callable[[str], str | None] | None:
        """The hashes of the other durable store's memories, for the tier flags (None: it has none)."""
        other = self.store(OTHER_SCOPE[store.scope])
        return other.view(load=False).sha256 if other.exists() else None

    # --- a person's decisions -----------------------------------------------------------

    def apply(self, candidate_ids: Sequence[str], *, actor: str) -> list[Event]:
        """Apply candidates; per store, all in one batch (one lock, one log fsync) or none."""
        rules.require_person(actor)
        events: list[Event] = []
        for store, ids in self._group_pending(candidate_ids).items():
            with store.transact() as tx:
                candidates = [_pending_in(tx, cid) for cid in ids]
                events += self.commit(tx, rules.apply(tx.view, candidates, actor=actor, now=utc_now()))
        return events

    def discard(self, candidate_ids: Sequence[str], *, actor: str, reason: str | None = None) -> list[Event]:
        """Discard candidates (they stay in the log, and flag identical later proposals)."""
        rules.require_person(actor)
        events: list[Event] = []
        for store, ids in self._group_pending(candidate_ids).items():
            with store.transact() as tx:
                candidates = [_pending_in(tx, cid) for cid in ids]
                events += self.commit(tx, rules.discard(candidates, actor=actor, reason=reason))
        return events

    def edit(self, candidate_id: str, memory: ProposedMemory, *, actor: str) -> CandidateState:
        """Replace the proposed record of a pending candidate (recorded as ``candidate.edited``)."""
        from memory_review.near_duplicates import NearDuplicates  # as in propose: not every start-up

        rules.require_person(actor)
        store = self._store_of_pending(candidate_id)
        with store.transact() as tx:
            candidate = _pending_in(tx, candidate_id)
            twins = NearDuplicates(store, tx.view, skip=candidate_id)  # `propose`'s near-duplicates, found again
            plan = rules.edit(tx.view, candidate, memory, actor=actor, now=utc_now(), near=twins.edit_flags)
            self.commit(tx, plan)
        [updated] = plan.folded().pending()
        return self._pending_state(store, updated)

    def move(self, candidate_id: str, scope: DurableScope, *, actor: str) -> CandidateState:
        """File a pending new memory in the other store: a new candidate there, this one discarded (ADR 0154).

        Both stores are locked for the decision, user before project (one order for every process). The
        new candidate is committed first: a crash between the two commits leaves both pending, never none.
        """
        from memory_review.near_duplicates import NearDuplicates  # as in propose: not every start-up

        rules.require_person(actor)
        source = self._store_of_pending(candidate_id)
        target = self.store(scope)
        if source is target:
            raise ValidationError(f"candidate {candidate_id} is already in the {scope} store", field="scope")
        with self.user.transact() as user_tx, self.project.transact() as project_tx:
            source_tx, target_tx = (project_tx, user_tx) if scope == "user" else (user_tx, project_tx)
            candidate = _pending_in(source_tx, candidate_id)
            proposal = rules.move_proposal(candidate, scope)
            moved, plan = rules.move(
                target_tx.view,
                candidate,
                proposal,
                candidate_id=new_candidate_id(),
                actor=actor,
                now=utc_now(),
                discarded=DiscardedFingerprints(target),
                flags=NearDuplicates(target, target_tx.view).flags(proposal),
            )
            self.commit(target_tx, plan)
            self.commit(source_tx, rules.moved_away(candidate, moved, actor=actor))
        return self._pending_state(target, moved)

    def revert(self, target: int | str, *, actor: str, force: bool = False, scope: DurableScope | None = None) -> Event:
        """Undo an applied/reverted/deleted change by its seq (in ``scope``) or its candidate id."""
        return self.revert_many([target], actor=actor, force=force, scope=scope)[0]

    def revert_many(
        self, targets: Sequence[int | str], *, actor: str, force: bool = False, scope: DurableScope | None = None
    ) -> list[Event]:
        """Undo many changes (seqs in ``scope``, or candidate ids): per store one lock, one log batch.

        Newest first, so each revert sees what the later ones left; any conflict reverts nothing there.
        """
        rules.require_person(actor)
        events: list[Event] = []
        for store, seqs in self._locate_events(targets, scope).items():
            with store.transact() as tx:
                changed = _events_at(store, seqs)
                events += self.commit(tx, rules.revert(tx.view, changed, actor=actor, force=force))
        return events

    def restore(self, candidate_ids: Sequence[str], *, actor: str, force: bool = False) -> list[Event]:
        """Undo applies and discards: the same candidates pending again, as they were (docs/adr/0032).

        An applied one's memory is reverted in the same batch (a conflict if it changed since, unless
        ``force``); recorded as ``memory.reverted`` + ``candidate.restored``, per store one batch.
        """
        rules.require_person(actor)
        if not candidate_ids:
            raise ValidationError("give at least one candidate id")
        wanted = set(candidate_ids)
        events: list[Event] = []
        for store in self._stores(None):
            if not store.exists():
                continue
            with store.transact() as tx:
                found = _resolved_in(store, wanted)
                if found:
                    wanted -= found.keys()
                    newest_first = sorted(found.values(), key=lambda r: r.decision.seq, reverse=True)
                    events += self.commit(tx, rules.restore(tx.view, newest_first, actor=actor, force=force))
        for candidate_id in sorted(wanted):
            self._store_of_pending(candidate_id)  # NotFoundError when it exists nowhere
            raise ConflictError(f"candidate {candidate_id} is pending; there is no decision to undo")
        return events

    def delete(
        self, memory_id: str, *, actor: str, scope: DurableScope | None = None, reason: str | None = None
    ) -> Event:
        """Delete an approved memory (a recorded event; revertible)."""
        rules.require_person(actor)
        store = self._store_of_memory(memory_id, scope)
        with store.transact() as tx:
            return self.commit(tx, rules.delete(tx.view, memory_id, actor=actor, reason=reason))[0]

    def uncovered(self, memory_id: str) -> Memory | None:
        """The user memory ``memory_id`` when no project memory hides it from the merge by id (docs/design.md
        §6): after a delete, the one the deleted project memory hid, injected again."""
        if self.project.exists() and self.project.view(load=False).sha256(memory_id) is not None:
            return None
        return self.user.view(load=False).memory(memory_id) if self.user.exists() else None

    def commit(self, tx, plan: rules.Plan) -> list[Event]:
        """Commit a plan in an open transaction, keeping any after-commit warnings for the caller.

        What a person's decision grants (the versions an apply or revert writes, a trust
        decision) goes to the trust ledger first: after a crash past the commit point the
        ledger still knows it, and a ledger entry for a commit that never happened names
        a version a person approved all the same (docs/adr/0021).
        """
        self.trust_records.collect(tx.store)  # what a crashed ledger write left (we hold the lock)
        self.read_index.collect(tx.store)  # and a crashed index write
        decisions = decisions_of(plan)
        if decisions:
            self.trust_records.record(tx.store, decisions)
        replaced = revocations(plan, tx.view.sha256, tx.view.head.seq + 1)
        indexed = self.read_index.current(tx.store, tx.view)
        result: CommitResult = tx.commit(plan)
        self.warnings.extend(result.warnings)
        self._anchor(tx.store)
        if replaced:
            self._revoke(tx.store, replaced)
        self._index(tx.store, indexed, plan)
        return result.events

    def _reindex(self, store: Store) -> None:
        """Rebuild a store's read index from the store (under its lock), after a repair or a forget."""
        try:
            self.read_index.rebuild(store)
        except (MemoryReviewError, OSError) as exc:
            self.read_index.remove(store)  # never leave an old index (it may hold forgotten text)
            self.warnings.append(f"the read index was not rebuilt (prompts read the store instead): {exc}")

    def _index(self, store: Store, indexed, plan: rules.Plan) -> None:
        """After the commit point: the read index follows the change (derived; a failure is a warning)."""
        folded = plan.folded()
        try:
            self.read_index.after_commit(store, indexed, dict(folded.memories), set(folded.sessions))
        except (MemoryReviewError, OSError) as exc:
            self.warnings.append(
                f"committed, but the read index was not updated (prompts read the store "
                f"instead until the next commit): {exc}"
            )

    def _revoke(self, store: Store, replaced) -> None:
        """After the commit point: the versions it replaced are not brought back by the log alone (ADR 0025).

        Keyed by the commit's seq, so a reader whose view predates the commit still shows them; a crash
        before this write leaves them trusted (the limit docs/reliability.md names).
        """
        try:
            self.trust_records.record(store, replaced)
        except (MemoryReviewError, OSError) as exc:
            self.warnings.append(f"committed, but the versions it replaced are still trusted: {exc}")

    def _anchor(self, store: Store) -> None:
        """Anchor the log head outside the repository (ADR 0025), under the lock, after the commit point.

        The commit has happened: a failure here is a warning (the old anchor still holds; the log extends it).
        """
        try:
            with log_errors(store.log_path):
                head = store.log().head()
            self.trust_records.anchor_head(store, head)
        except (MemoryReviewError, OSError) as exc:
            self.warnings.append(f"committed, but the log head was not anchored: {exc}")

    def _anchor_of(self, store: Store, damaged: dict[str, str]):
        """The anchored head of ``store``; a damaged anchor goes to ``damaged`` (verify reports it)."""
        try:
            return self.trust_records.anchor(store)
        except MemoryReviewError as exc:
            damaged[store.scope] = str(exc)
            return None

    # --- session tier --------------------------------------------------------------------

    def write_session_memory(self, session_id: str, memory: ProposedMemory, *, actor: str = "agent") -> Memory:
        """The agent's direct write to its own session's memory (no review: it dies with the session)."""
        check_session_ref(session_id)
        store = self.project
        with store.transact() as tx:
            current = store.session_memories(session_id, from_log_if_damaged=True)  # ADR 0017
            before = current.get(memory.id)
            if before is None and len(current) >= MAX_SESSION_MEMORIES:
                raise ValidationError(
                    f"session {session_id} already holds {MAX_SESSION_MEMORIES} memories", field="session"
                )
            memory, _flags = redacted_memory(memory)
            now = utc_now()
            record = Memory(
                id=memory.id,
                type=memory.type,
                scope="session",
                description=memory.description,
                body=memory.body,
                created_at=before.created_at if before else now,
                updated_at=now,
                related_sessions=(session_id,),
            )
            change = Change(
                memory=memory.id, before=memory_to_json(before) if before else None, after=memory_to_json(record)
            )
            plan = rules.Plan(
                drafts=[EventDraft(type="session.written", actor=actor, session=session_id, changes=(change,))]
            )
            self.commit(tx, plan)
            self._note_session(store, plan)
        return record

    def _note_session(self, store: Store, plan: rules.Plan) -> None:
        """After the commit point: record the note as this machine's, the only notes served (F5, ADR 0021).

        A failure is a warning: the note is committed but not served, never the other way round.
        """
        try:
            self.trust_records.note_sessions(store, session_notes_of(plan))
        except (MemoryReviewError, OSError) as exc:
            self.warnings.append(f"committed, but this machine's record of the note failed (it is not served): {exc}")

    def session_memories(self, session_id: str) -> list[Memory]:
        """A session's own memories (only ever visible to that session): the notes this machine wrote.

        A cloned or copied store can hold notes for any session id; they are the repository's text, not
        this session's scratch notes, so a note is served only in the version this machine recorded as
        its commit wrote it (:class:`memory_review.trust.SessionNotes`).
        """
        memories = self.project.session_memories(check_session_id(session_id))
        if not memories:
            return []  # the record is read only when the session has notes
        noted = self.trust_records.session_notes(self.project)
        return sorted((m for m in memories.values() if noted.keeps(session_id, m)), key=lambda m: m.id)

    def promote(
        self, session_id: str, memory_id: str, *, scope: DurableScope, actor: str, rationale: str | None = None
    ) -> CandidateState:
        """Propose moving a session memory into the user or project store (a person still reviews it)."""
        rules.require_person(actor)
        found = self.project.session_memories(check_session_id(session_id)).get(memory_id)
        if found is None:
            raise NotFoundError(f"memory in session {session_id}", memory_id)
        proposal = UpsertProposal(
            op="create",
            scope=scope,
            session_id=session_id,
            memory=ProposedMemory(id=found.id, type=found.type, description=found.description, body=found.body),
            rationale=rationale or f"promoted from session {session_id} by {actor}",
            proposer=Proposer(kind="human", name=actor),
        )
        return self.propose([proposal])[0]

    # --- reading memory and history ------------------------------------------------------

    def memories(self, *, session: str | None = None) -> list[Memory]:
        """Approved memories as injection sees them: user, then project (which overrides), then session notes.

        Only those a person on this machine approved (the trust gate); see :meth:`foreign` for the rest.
        """
        merged: dict[str, Memory] = {}
        self.adopt_old_user_store()
        gate = self.trust_records.gate
        for scope in ("user", "project"):
            for memory in self.store(scope).read_consistently(lambda view: gate(view).memories()):
                merged[memory.id] = memory
        if session:
            for memory in self.session_memories(session):
                merged.setdefault(memory.id, memory)  # a session note never hides an approved one (merge_tiers)
        return [merged[k] for k in sorted(merged)]

    def stored_memories(self, scope: DurableScope) -> list[Memory]:
        """Every memory the ``scope`` store holds, approved here or not (:meth:`memories` is the gated set)."""
        store = self.store(scope)
        return store.read_consistently(lambda view: view.memories()) if store.exists() else []

    def log(
        self,
        *,
        scope: DurableScope = "project",
        session: str | None = None,
        type: str | None = None,
        memory: str | None = None,
        candidate: str | None = None,
    ) -> LoggedEvents:
        """Events of one store's log, filtered, and the raises among them (ADR 0050).

        ``session`` matches an event of that session, and also a raise whose new quotes come from it
        (a raise carries its candidate's first session); see :mod:`memory_review.log_read`."""
        from memory_review.log_read import read_log

        store = self.store(scope)
        with log_errors(store.log_path):
            return read_log(store.log(), session=session, type=type, memory=memory, candidate=candidate)

    def sessions(self) -> list[SessionSummary]:
        """Every session that left events in either log, a session that only raised a candidate included
        (a raise carries its candidate's first session; ADR 0050)."""
        from memory_review.log_read import read_log, sessions_of

        seen: dict[str, list[Event]] = {}
        for store in self._stores(None):
            with log_errors(store.log_path):
                logged = read_log(store.log())
                for event in logged:
                    for session in sessions_of(event, logged.raises):
                        seen.setdefault(session, []).append(event)
        return [_summary(sid, evs) for sid, evs in sorted(seen.items(), key=lambda kv: kv[1][0].ts)]

    def replay(self, *, at: int | None = None, scope: DurableScope = "project") -> dict[str, Memory]:
        """The memory set of a store as it was right after event ``at`` (default: now), from the log alone."""
        store = self.store(scope)
        with log_errors(store.log_path):
            state = fold_all(EMPTY, store.log().read(stop=at))  # the one fold, from empty (docs/adr/0023)
        return dict(sorted(state.memory_set().items()))

    def context(
        self,
        *,
        session: str | None = None,
        query: str | None = None,
        budget: int | None = None,
        selector=None,
        now: str | None = None,
    ):
        """The context block for a session (recorded as ``context.built`` when a session is given)."""
        from memory_review.context import context_for

        return context_for(self, session=session, query=query, budget=budget, selector=selector, now=now)

    def indexed_context(
        self, *, session: str | None = None, query: str | None = None, budget: int | None = None
    ) -> str | None:
        """The block :meth:`context` would give, from the read indexes (ADR 0030); None when only the full
        path can say (no index that provably describes the stores, a session with its own memories ...)."""
        from memory_review.context import DEFAULT_BUDGET
        from memory_review.lean.files import Fallback
        from memory_review.lean.hook import block_for

        if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 0):
            return None  # the full path names the problem
        try:
            found = block_for(
                self.root,
                session=session,
                query=query,
                user=self.user.root,
                budget=DEFAULT_BUDGET if budget is None else budget,
            )
        except (Fallback, OSError):
            return None
        return None if found is None else found.text

    def indexed_search(self, *, query: str, limit: int, session: str | None = None) -> list[Memory] | None:
        """What keyword matching picks from :meth:`memories` for ``query``, found through the read indexes
        (ADR 0030) and read from the files of the picked memories only; None when only the full path can say."""
        from memory_review.lean.files import Fallback
        from memory_review.lean.hook import search

        try:
            picked = search(self.root, session=session, query=query, limit=limit, user=self.user.root)
        except (Fallback, OSError):
            return None
        if picked is None:
            return None
        views = {
            scope: self.store(durable_scope(scope)).view(load=False) for scope in {scope for scope, _i, _s in picked}
        }
        found = []
        for scope, memory_id, sha in picked:
            memory = views[scope].memory(memory_id) if views[scope].sha256(memory_id) == sha else None
            if memory is None:
                return None  # the store moved since the index was read: the full path decides
            found.append(memory)
        return found

    def replay_session(self, session: str):
        """Every context ``session`` was given, rebuilt from the logs byte for byte."""
        from memory_review.context import replay_session

        return replay_session(self, check_session_id(session))

    def extract(
        self,
        path: Path | Sequence[Path],
        *,
        format: str | None = None,
        session: str | None = None,
        extractor: Extractor = "heuristic",
        progress: Progress | None = None,
    ):
        """Propose candidates found in a transcript, or in several session files read as one run (never memory).

        A model extractor tells ``progress`` ``(batch, batches)`` before each call when a long history needs
        several."""
        from memory_review.extraction import extract_transcript

        return extract_transcript(self, path, format=format, session=session, extractor=extractor, progress=progress)

    def import_memories(
        self, path: Path, *, format: str | None = None, scope: DurableScope | None = None, codex_chain: bool = False
    ):
        """Propose candidates from existing memory files: CLAUDE.md/AGENTS.md, auto memory, Cursor, Cline."""
        from memory_review.importers import import_memories

        return import_memories(self, path, format=format, scope=scope, codex_chain=codex_chain)

    def propose_consolidation(self, *, scope: DurableScope | None = None, threshold: int | None = None):
        """Propose ``consolidate`` candidates for near-duplicate (or, past ``threshold``, related) memories."""
        from memory_review.consolidate import DEFAULT_THRESHOLD, propose_consolidation

        chosen = DEFAULT_THRESHOLD if threshold is None else threshold
        return propose_consolidation(self, scope=scope, threshold=chosen)

    def verify(
        self, *, repair: bool = False, apply: bool = False, actor: str | None = None, full: bool = False
    ) -> list[StoreReport]:
        """Recover, then check both stores; with ``repair``, the plan to fold what is provably committed
        (docs/adr/0024), carried out (backed up first, recorded) only with ``apply``.

        Without ``full``, a store an earlier clean verify on this machine recorded is walked only past
        what it proved, when the log still begins with exactly those bytes (docs/adr/0056); a clean
        verify records what it proved. ``full`` walks every line and file (and records too)."""
        self._refuse_newer_formats(None)
        damaged: dict[str, str] = {}
        anchors = {store.scope: self._anchor_of(store, damaged) for store in self._stores(None)}
        if repair:
            from memory_review.repair import repair_store  # noqa: PLC0415 - rare: not every start-up

            who = actor or current_actor()
            reports = [
                repair_store(store, self.history[store.scope], actor=who, apply=apply, anchor=anchors[store.scope])
                for store in self._stores(None)
            ]
            if apply:
                for store in self._stores(None):  # a person repaired it: the log as it is now is the one to extend
                    if store.exists():
                        with store.locked():
                            self._anchor(store)
                            self._reindex(store)
        else:
            with collector_paused():  # the walk's memories and the index's entries alive: ADR 0061
                reports, clean = self._verify_stores(anchors, damaged, full=full)
                self._check_histories(reports, repair=False)
                for report in reports:
                    if report.ok and report.scope in clean:  # what a clean verify proved (ADR 0056)
                        store, resuming, digests = clean[report.scope]
                        self.verified.keep(store, resuming, digests, self.warnings)
            return self._collected(reports)
        self._check_histories(reports, repair=apply)
        return self._collected(reports)

    def _check_histories(self, reports: list[StoreReport], *, repair: bool) -> None:
        """The git history of each store against its log (a lagging history is a note, not damage)."""
        for report in reports:
            self.history[report.scope].check(report, repair=repair)

    def _collected(self, reports: list[StoreReport]) -> list[StoreReport]:
        """``reports``, once the leftovers of the ledger, the index and the record are collected."""
        for store in self._stores(None):
            if store.exists():
                with store.locked():  # recovery of the ledger's and the index's own leftovers (ADR 0021, 0030)
                    self.trust_records.collect(store)
                    self.read_index.collect(store)
                    self.verified.collect(store)
        return reports

    def _verify_stores(
        self, anchors: dict, damaged: dict[str, str], *, full: bool
    ) -> tuple[list[StoreReport], dict[str, Clean]]:
        """Each store checked, its read index too; and, by scope, what each clean one proved (to keep)."""
        reports: list[StoreReport] = []
        clean: dict[str, Clean] = {}
        for store in self._stores(None):
            known: dict[str, Memory] = {}
            resuming = self.verified.resuming(store, full=full)
            report = verify_store(store, anchor=anchors[store.scope], known=known, resuming=resuming)
            report.problems += [damaged[report.scope]] if report.scope in damaged else []
            if report.ok and store.exists():  # a damaged store is reported already; its index waits
                earlier = resuming.record.index if resuming.record is not None else None
                digests: dict[str, tuple[str, str]] = {}
                report.problems += self.read_index.problems(store, known, checked=earlier, digests=digests)
                if report.ok:
                    clean[store.scope] = (store, resuming, digests)
            reports.append(report)
        return reports, clean

    # --- forgetting a text that must not be kept (docs/adr/0019) -------------------------

    def forget(
        self,
        *,
        text: str | None = None,
        pattern: str | None = None,
        scope: DurableScope | None = None,
        reason: str,
        actor: str,
        dry_run: bool = True,
    ):
        """Take every match of ``text`` (or ``pattern``) out of the stores, their history and their git refs.

        A person's command. With ``dry_run`` (the default) it only reports what it found.
        """
        from memory_review.forget import ForgetResult, forget_store  # noqa: PLC0415 - rare: not every start-up
        from memory_review.forget_text import Needle  # noqa: PLC0415

        who = rules.require_person(actor)
        self._refuse_newer_formats(scope)
        needle = Needle.of(text=text, pattern=pattern)
        if not reason.strip() or needle.count(reason):
            raise ValidationError("say why in --reason, without the text being forgotten", field="reason")
        # bounded and redacted as every reason a person types (a leak's clean-up must not log the next secret)
        reason = rules.checked_reason(reason) or reason
        stores = []
        for store in self._stores(scope):
            before = _versions(store)
            stores.append(
                forget_store(store, self.history[store.scope], needle, actor=who, reason=reason, dry_run=dry_run)
            )
            if not dry_run:
                self._carry_trust_through_forget(store, before)
                if store.exists():
                    with store.locked():  # forget rewrote the log's lines: anchor the redacted log
                        self._anchor(store)
        if not dry_run and any(report.total for report in stores):
            for store in self._stores(None):  # every read index may hold the text: all are made again
                if not store.exists():
                    self.read_index.remove(store)
                    continue
                with store.locked():
                    self._reindex(store)
        return ForgetResult(dry_run=dry_run, stores=stores)

    def _carry_trust_through_forget(self, store: Store, before: dict[str, str]) -> None:
        """A person's decision about a memory holds for its redacted version; the old hash goes.

        Forget rewrites memory files, so their sha256 changes; the old hash is of text that held
        the secret and must not stay in the ledger either (docs/adr/0019, 0021).
        """
        after = _versions(store)
        moved = {
            old: (after[memory_id], memory_id)
            for memory_id, old in before.items()
            if after.get(memory_id) not in (None, old)
        }
        if not moved or not store.exists():
            return
        with store.locked():
            ledger = self.trust_records.ledger(store)
            if not ledger.exists:
                return
            for book in (ledger.trusted, ledger.refused):
                for old, (new, memory_id) in moved.items():
                    if book.pop(old, None) is not None:
                        book[new] = memory_id
            self.trust_records.write(ledger)

    # --- trust on first use (docs/adr/0021) ---------------------------------------------

    def adopt_old_user_store(self) -> None:
        """Adopt a user store from before trust records (its own memories), once; see ADR 0021."""
        if self.user.exists() and not self.trust_records.ledger(self.user).exists:
            self._adopt_user_store()

    def _adopt_user_store(self) -> None:
        from memory_review.trust_review import adoptable, trust_plan

        store = self.user
        with store.transact() as tx:
            if not self.trust_records.ledger(store).exists:  # nobody adopted it meanwhile
                found = adoptable(store, tx.view)
                if found:
                    self.commit(
                        tx,
                        trust_plan(
                            found,
                            actor=current_actor(),
                            reason="adopted: applied on this machine before trust records existed (ADR 0021)",
                        ),
                    )
                self.trust_records.start(store)

    def foreign(self, *, scope: DurableScope | None = None) -> list[ForeignMemory]:
        """Memories no person on this machine approved (cloned, copied or synced): never injected."""
        self.adopt_old_user_store()
        return [memory for store in self._stores(scope) for memory in self._foreign_in(store)]

    def _foreign_in(self, store: Store) -> list[ForeignMemory]:
        from memory_review.trust_review import foreign_memories

        elsewhere = functools.partial(self._served_ids, OTHER_SCOPE[store.scope])
        # The ledger after the view, as the gate reads it: what a view shows applied is in it by then.
        return store.read_consistently(
            lambda view: foreign_memories(store, view, self.trust_records.ledger(store), elsewhere)
        )

    def _served_ids(self, scope: DurableScope) -> frozenset[str]:
        """The ids of the memories the ``scope`` store serves now (the trust gate's): what a foreign memory of the
        other store would hide, or be hidden by, in the merge by id."""
        store = self.store(scope)
        if not store.exists():
            return frozenset()
        gate = self.trust_records.gate
        return store.read_consistently(lambda view: frozenset(gate(view).ids()))

    def _bulk_trustable(self, view: StoreView, ledger: Ledger) -> dict[str, str]:
        """What ``trust --all`` takes from a store: the undecided memories no flag holds for a person (a flagged
        one, one hiding a memory of the other store, one an unreviewed apply wrote must be named)."""
        from memory_review.trust_review import foreign_memories, held_for_review

        elsewhere = functools.partial(self._served_ids, OTHER_SCOPE[view.store.scope])
        found = foreign_memories(view.store, view, ledger, elsewhere)
        return {f.id: f.sha256 for f in found if not held_for_review(f)}

    def trust(
        self,
        memory_ids: Sequence[str] = (),
        *,
        actor: str,
        scope: DurableScope | None = None,
        everything: bool = False,
        reason: str | None = None,
    ) -> list[Event]:
        """Trust foreign memories by id (``everything``: all still undecided), recorded as ``memory.trusted``."""
        from memory_review.trust_review import trust_plan, untrusted

        rules.require_person(actor)
        if not memory_ids and not everything:
            raise ValidationError("give memory ids, or --all")
        reason = rules.checked_reason(reason)
        # By name, a refused memory can still be trusted (a change of mind); --all takes the undecided only.
        return self._decide(
            scope,
            self._bulk_trustable if everything else untrusted,
            memory_ids,
            everything,
            lambda chosen: trust_plan(chosen, actor=actor, reason=reason),
        )

    def refuse(
        self, memory_ids: Sequence[str], *, actor: str, scope: DurableScope | None = None, reason: str | None = None
    ) -> list[Event]:
        """Decline to trust foreign memories: never injected, not asked again (``memory.refused``)."""
        from memory_review.trust_review import refuse_plan, undecided

        rules.require_person(actor)
        if not memory_ids:
            raise ValidationError("give memory ids")
        reason = rules.checked_reason(reason)
        return self._decide(
            scope, undecided, memory_ids, False, lambda chosen: refuse_plan(chosen, actor=actor, reason=reason)
        )

    def _decide(
        self, scope: DurableScope | None, candidates_of, memory_ids: Sequence[str], everything: bool, plan_of
    ) -> list[Event]:
        """Commit ``plan_of(chosen)`` per store, ``chosen`` taken from ``candidates_of`` under the lock."""
        from memory_review.trust_review import check_named

        stores = self._stores(scope)
        if not everything:  # every name must be somewhere before anything is recorded
            known = set()
            for store in stores:
                known |= candidates_of(store.view(load=False), self.trust_records.ledger(store)).keys()
            check_named(known, memory_ids, scope=scope)
        events: list[Event] = []
        taken: set[str] = set()
        for store in stores:
            with store.transact() as tx:
                available = candidates_of(tx.view, self.trust_records.ledger(store))
                chosen = available if everything else {m: available[m] for m in memory_ids if m in available}
                if chosen:
                    events += self.commit(tx, plan_of(chosen))
                    taken |= chosen.keys()
        changed = [] if everything else [m for m in memory_ids if m not in taken]
        if changed:  # named before the lock, gone under it: the store changed meanwhile (a pull, a sync)
            decided = f"; decided: {', '.join(sorted(taken))}" if taken else "; nothing was decided"
            raise ConflictError(
                f"changed while waiting for the store lock: {', '.join(changed)}{decided}",
                hint="list them again (`memory-review trust list`) and name the versions waiting now",
            )
        return events

    def trust_moved(self, old_root: Path, *, actor: str) -> list[Event]:
        """Carry a person's trust decisions from where this project used to be (``trust --moved-from``).

        The ledger is keyed by the store's real path, so moving a project makes its store foreign;
        this takes over what was decided there, for the exact versions still here, recorded as events.
        """
        from memory_review.trust_review import moved_plan

        rules.require_person(actor)
        old_store = project_store_dir(Path(old_root).expanduser().absolute())
        if os.path.realpath(old_store) == os.path.realpath(self.project.root):
            raise ValidationError("that is this project's own folder", field="moved-from")
        old = self.trust_records.ledger_at(old_store, "project")
        if not old.exists:
            raise NotFoundError(
                "trust record for a project at",
                str(old_root),
                hint="give the folder the project was in when you trusted it",
            )
        with self.project.transact() as tx:
            plan = moved_plan(
                tx.view,
                self.trust_records.ledger(self.project),
                old,
                actor=actor,
                reason="moved: carried from this project's previous folder",
            )
            return self.commit(tx, plan) if plan else []

    def trust_remote(
        self, remote: str, *, actor: str, trusted: bool = True, scope: DurableScope | None = None
    ) -> list[Event]:
        """Let teammates' approvals arriving through ``remote`` count here (off by default; recorded)."""
        from memory_review.sync import REMOTE_RE
        from memory_review.trust_review import remote_plan

        rules.require_person(actor)
        if not REMOTE_RE.match(remote):
            raise ValidationError(f"not a git remote name: {remote!r}", field="remote")
        events: list[Event] = []
        for store in self._stores(scope):
            with store.transact() as tx:
                if (remote in self.trust_records.ledger(store).remotes) != trusted:
                    events += self.commit(tx, remote_plan(remote, trusted=trusted, actor=actor))
        return events

    def _trust_synced(self, remote: str, since: Mapping[DurableScope, int], actor: str) -> None:
        """After a sync: trust what it brought from ``remote`` where that remote's approvals count."""
        from memory_review.trust_review import foreign_memories, held_for_review, synced_since, trust_plan

        for store in self._stores(None):
            ledger = self.trust_records.ledger(store)
            if remote not in ledger.remotes or store.scope not in since:
                continue
            moved = synced_since(store, since[store.scope])
            elsewhere = functools.partial(self._served_ids, OTHER_SCOPE[store.scope])
            with store.transact() as tx:
                chosen = {
                    f.id: f.sha256
                    for f in foreign_memories(store, tx.view, ledger, elsewhere)
                    if f.id in moved and not held_for_review(f)
                }
                if chosen:
                    self.commit(
                        tx,
                        trust_plan(
                            chosen,
                            actor=actor,
                            reason=f"synced from {remote}, whose approvals count here (trust --remote)",
                        ),
                    )

    # --- git history and team sync (docs/adr/0007) -------------------------------------

    def git_log(self, *, scope: DurableScope = "project", limit: int = 50) -> list[LogEntry]:
        """The newest commits of a store's git history (``refs/memory-review/<scope>``)."""
        return self.history[self.store(scope).scope].entries(limit)

    def sync(
        self,
        remote: str | None = None,
        *,
        scope: DurableScope | None = None,
        actor: str | None = None,
        share_pending: bool = False,
    ) -> list[StoreSync]:
        """Fetch teammates' store histories through git ``remote`` (default ``origin``), merge, push ours.

        Only reviewed events are pushed; ``share_pending`` adds pending proposals (docs/adr/0018).
        """
        from memory_review.sync import sync_stores  # only `sync` needs it: not every command's start-up

        who = rules.require_person(actor or current_actor())
        histories = [self.history[store.scope] for store in self._stores(scope)]
        since = {store.scope: store.view(load=False).head.seq for store in self._stores(scope) if store.exists()}
        results = sync_stores(
            histories, remote or "origin", actor=who, explicit=scope is not None, share_pending=share_pending
        )
        for result in results:
            self.warnings.extend(result.warnings)
        # What arrived is foreign (reviewable with its flags) unless that remote's approvals count here.
        self._trust_synced(remote or "origin", since, who)
        return results

    # --- lookup helpers -----------------------------------------------------------------

    def _refuse_newer_formats(self, scope: DurableScope | None) -> None:
        """Before a command that may rewrite a store: refuse one a newer memory-review wrote."""
        from memory_review.manifest import refuse_newer_format

        for store in self._stores(scope):
            refuse_newer_format(store.manifest_path)

    def _stores(self, scope: DurableScope | None) -> list[Store]:
        return [self.store(scope)] if scope else [self.project, self.user]

    def _group_pending(self, candidate_ids: Sequence[str]) -> dict[Store, list[str]]:
        if not candidate_ids:
            raise ValidationError("give at least one candidate id")
        grouped: dict[Store, list[str]] = {}
        for cid in dict.fromkeys(candidate_ids):
            grouped.setdefault(self._store_of_pending(cid), []).append(cid)
        return grouped

    def _store_of_pending(self, candidate_id: str) -> Store:
        for store in self._stores(None):
            # Sees a candidate the log holds even when its file could not be written yet; the
            # transaction parses (and checks) the file itself.
            if store.has_pending(candidate_id):
                return store
        self.show(candidate_id)  # NotFoundError, or a resolved candidate:
        raise ConflictError(f"candidate {candidate_id} is no longer pending (see `memory-review show`)")

    def _store_of_memory(self, memory_id: str, scope: DurableScope | None) -> Store:
        for store in self._stores(scope):
            if store.view(load=False).sha256(memory_id) is not None:
                return store
        raise NotFoundError("memory", memory_id)

    def _locate_events(self, targets: Sequence[int | str], scope: DurableScope | None) -> dict[Store, list[int]]:
        """Each target's store and seq (a candidate id: its newest change); newest first per store."""
        if not targets:
            raise ValidationError("give at least one event seq or candidate id")
        located: dict[Store, set[int]] = {}
        by_candidate = [str(t) for t in targets if not (isinstance(t, int) or str(t).isdigit())]
        for target in targets:
            if isinstance(target, int) or str(target).isdigit():
                located.setdefault(self.store(scope or "project"), set()).add(int(target))
        found: dict[str, tuple[Store, int]] = {}
        for store in self._stores(scope) if by_candidate else ():
            newest: dict[str, int] = {}
            with log_errors(store.log_path):
                for event in store.log().read(type=MEMORY_TYPES):
                    if event.changes and event.candidate in by_candidate:
                        newest[event.candidate] = event.seq
            for candidate_id, seq in newest.items():
                found.setdefault(candidate_id, (store, seq))  # the first store that changed it, as before
        for candidate_id in by_candidate:
            if candidate_id not in found:
                raise NotFoundError("applied change for", candidate_id)
            store, seq = found[candidate_id]
            located.setdefault(store, set()).add(seq)
        return {store: sorted(seqs, reverse=True) for store, seqs in located.items()}


def _events_at(store: Store, seqs: Sequence[int]) -> list[Event]:
    """The events at ``seqs`` (in that order), read in one pass over the span they cover."""
    wanted = set(seqs)
    with log_errors(store.log_path):
        found = {e.seq: e for e in store.log().read(start=min(wanted), stop=max(wanted)) if e.seq in wanted}
    for seq in seqs:
        if seq not in found:
            raise NotFoundError("event", str(seq))
    return [found[seq] for seq in seqs]


def _resolved_in(store: Store, wanted: set[str]) -> dict[str, rules.Resolved]:
    """The candidates of ``wanted`` that stand resolved in ``store``'s log, with their last record."""
    records: dict[str, dict] = {}
    decisions: dict[str, Event | None] = {}
    with log_errors(store.log_path):
        for event in store.log().read(type=CANDIDATE_TYPES):
            if event.candidate not in wanted:
                continue
            if event.record is not None:
                records[event.candidate] = event.record
            decisions[event.candidate] = event if event.type in TERMINAL_TYPES else None
    return {
        cid: rules.Resolved(candidate_from_json(records[cid], where=f"{store.log_path} ({cid})"), decision)
        for cid, decision in decisions.items()
        if decision is not None and cid in records
    }


def _versions(store: Store) -> dict[str, str]:
    """Each memory id of ``store`` and the sha256 of its current file (empty for a missing store)."""
    if not store.exists():
        return {}
    view = store.view(load=False)
    return {memory_id: sha for memory_id in view.ids() if (sha := view.sha256(memory_id))}


def _pending_in(tx: Transaction, candidate_id: str) -> Candidate:
    try:
        return tx.candidate(candidate_id)
    except NotFoundError:
        raise ConflictError(f"candidate {candidate_id} was resolved by someone else meanwhile") from None


def _raise_step(tx: Transaction, candidate_id: str, quotes: Sequence[Evidence], actor: str) -> rules.Plan | None:
    try:
        candidate = tx.candidate(candidate_id)
    except NotFoundError:
        return None  # applied or discarded meanwhile: a resolved candidate is never raised
    try:
        return rules.raise_candidate(candidate, quotes, actor=actor)
    except ValidationError:
        return rules.raise_candidate(candidate, (), actor=actor)  # the quotes would not fit


def _candidate_from_log(store: Store, candidate_id: str) -> CandidateState | None:
    record, status, moved = None, "pending", None
    with log_errors(store.log_path):
        for event in store.log().read(candidate=candidate_id):
            if event.record is not None:
                record = event.record
            if event.type == "candidate.applied":
                status = "applied"
            elif event.type == "candidate.discarded":
                status, moved = "discarded", moved_to(event.reason)
            elif event.type == RESTORED:
                status, moved = "pending", None
    if record is None:
        return None
    candidate = candidate_from_json(record, where=f"{store.log_path} ({candidate_id})")
    return CandidateState(candidate, status, candidate.flags, moved_to=moved)


def _summary(session: str, events: list[Event]) -> SessionSummary:
    types: dict[str, int] = {}
    for event in events:
        types[event.type] = types.get(event.type, 0) + 1
    return SessionSummary(session, len(events), events[0].ts, events[-1].ts, types)
