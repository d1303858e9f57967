"""``memory-review sync [REMOTE]``: share a store's approved memory through an ordinary git remote (ADR 0007).

Every clone publishes its own store history (``refs/memory-review/<scope>``) as
``refs/memory-review/replicas/<scope>/<origin>`` on the remote, where ``origin`` is
the store's replica id; nobody else ever writes that ref. A sync:

1. fetches every replica ref into ``refs/memory-review/fetched/<remote>/<scope>/`` (no lock held);
2. under the store lock, records any history the store still lacks, reads each
   replica's ``events.jsonl`` from its commit, merges them with ``sync_merge``'s rules,
   and commits the outcome as one batch: a ``sync.merged`` event (the memories that
   moved, with full snapshots), the conflict candidates it opens and the ones it closes;
3. pushes this clone's history to its own replica ref, leased on what was fetched.

Each step leaves every clone valid: the fetch and the push change refs only, and the
merge is one commit of the ordinary commit path. Running sync again repeats whatever
was left undone and otherwise changes nothing. Pending candidates stay local: they
are never merged, only the log that records them travels.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memory_review import gitrepo
from memory_review.candidate import Candidate, CandidateChange, CandidateOp, base_of, candidate_to_json, render_diff
from memory_review.errors import ConflictError, MemoryReviewError, NotFoundError, ValidationError
from memory_review.events import GENESIS, Change, EventDraft
from memory_review.events.safe_fs import read_file_or
from memory_review.file_reads import storage_errors
from memory_review.gitrepo import GitRepo
from memory_review.history import USER_REPO_DIR, History, commit_position
from memory_review.ids import new_candidate_id
from memory_review.models import DurableScope, Memory, Strict, utc_now
from memory_review.proposal import Proposer
from memory_review.record_io import memory_to_json
from memory_review.rules import Plan, View
from memory_review.safety import scan
from memory_review.store import Transaction
from memory_review.sync_merge import (
    Graph,
    Head,
    Knowledge,
    Node,
    Outcome,
    SyncAdopt,
    SyncConflict,
    SyncNode,
    SyncRecord,
    know,
    merge_memory,
    new_nodes,
)
from memory_review.sync_publish import publication
from memory_review.sync_replicas import (
    LogLines,
    Replica,
    load_replicas,
    read_log,
    replica_manifest,
    replica_memory,
)

REPLICA_PREFIX = "refs/memory-review/replicas/"
FETCHED_PREFIX = "refs/memory-review/fetched/"
FLAG_SYNC_CONFLICT = "sync-conflict"
REMOTE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


class StoreSync(Strict):
    """What one sync did to one store."""

    scope: DurableScope
    remote: str
    status: str = "synced"
    """``synced``, or ``skipped`` (with ``reason``) for a store that has no such remote."""
    reason: str | None = None
    replicas: tuple[str, ...] = ()
    adopted: tuple[str, ...] = ()
    """Memories that changed here (teammates' changes, or agreed merges)."""
    conflicts: tuple[str, ...] = ()
    """Conflict candidates opened here, one per memory changed differently on both sides."""
    closed: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()
    """Memories other clones disagree on; nothing is taken until one of them resolves it."""
    skipped_replicas: tuple[str, ...] = ()
    event: int | None = None
    pushed: bool = False
    warnings: tuple[str, ...] = ()


@dataclass
class _Merge:
    """The outcome of merging every memory, gathered into one batch."""

    plan: Plan = field(default_factory=Plan)
    changes: list[Change] = field(default_factory=list)
    adopt: list[SyncAdopt] = field(default_factory=list)
    conflicts: list[SyncConflict] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    merged: list[tuple[str, str, Node]] = field(default_factory=list)
    """Merge versions made here: (memory, id, node)."""


# --- the whole sync of one store ----------------------------------------------------------------


def ready(history: History, remote: str) -> str | None:
    """Why ``history``'s store cannot sync through ``remote`` (None: it can)."""
    repo = history.repo()
    if repo is None:
        if history.store.scope == "project":
            return (
                "the project root is not the top level of a git repository (or its .git file names "
                "another repository's git directory)"
            )
        path = history.store.root / USER_REPO_DIR
        return (
            f"the user store has no git repository yet ({path}; made on its first change, or by "
            f"`git init --bare {path}`)"
        )
    if remote not in repo.remote_names():
        return f"no git remote {remote!r} in {repo.git_dir}"
    return None


def sync_store(history: History, remote: str, *, actor: str, share_pending: bool = False) -> StoreSync:
    """Fetch, merge and push one store through git remote ``remote``.

    What is pushed holds only what a person reviewed; ``share_pending`` adds the records
    of candidates still pending (docs/adr/0018).
    """
    target = _Target.of(history, remote)
    gitrepo.step("sync.before_fetch")
    target.repo.fetch(remote, f"+{REPLICA_PREFIX}{target.scope}/*:{target.fetched}*")
    gitrepo.step("sync.after_fetch")
    with history.store.transact() as tx:
        step = _merge_locked(tx, target, actor)
    gitrepo.step("sync.before_push")
    return step.report(pushed=_publish(target, step, share_pending=share_pending))


@dataclass(frozen=True)
class _Target:
    """Where one store syncs: its history, repository and remote, and the refs that follow from them."""

    history: History
    repo: GitRepo
    remote: str

    @classmethod
    def of(cls, history: History, remote: str) -> _Target:
        if not REMOTE_RE.fullmatch(remote):
            raise ValidationError(f"{remote!r} is not a git remote name", field="REMOTE")
        problem = ready(history, remote)
        repo = history.repo()
        if problem or repo is None:
            raise NotFoundError("git remote", remote, hint=problem or "")
        return cls(history, repo, remote)

    @property
    def scope(self) -> DurableScope:
        return self.history.store.scope

    @property
    def fetched(self) -> str:
        """Where the remote's replica refs land here (one per teammate's clone)."""
        return f"{FETCHED_PREFIX}{self.remote}/{self.scope}/"

    def published(self, origin: str) -> str:
        """This clone's own ref on the remote."""
        return f"{REPLICA_PREFIX}{self.scope}/{origin}"


@dataclass
class _Step:
    """What the locked part of a sync found and did."""

    target: _Target
    origin: str
    own: str | None
    """The commit our own replica ref had on the remote when fetched (None: never published)."""
    replicas: list[Replica]
    skipped: list[str]
    merge: _Merge
    event: int | None = None
    warnings: list[str] = field(default_factory=list)

    def report(self, *, pushed: bool) -> StoreSync:
        merge = self.merge
        return StoreSync(
            scope=self.target.scope,
            remote=self.target.remote,
            replicas=tuple(r.origin for r in self.replicas),
            adopted=tuple(a.memory for a in merge.adopt),
            conflicts=tuple(c.candidate for c in merge.conflicts),
            closed=tuple(merge.closed),
            waiting=tuple(merge.waiting),
            skipped_replicas=tuple(self.skipped),
            event=self.event,
            pushed=pushed,
            warnings=tuple(self.warnings),
        )


def _merge_locked(tx: Transaction, target: _Target, actor: str) -> _Step:
    """Under the store lock: catch history up, read every replica, merge, commit one batch."""
    store, origin = tx.store, tx.manifest.origin
    target.history.record()  # what we publish must hold everything the log does
    local = list(read_log(io.BytesIO(_local_bytes(store.log_path)), where=str(store.log_path)))
    tips = target.repo.refs_under(target.fetched)
    own = tips.pop(f"{target.fetched}{origin}", None)
    _check_own(target.repo, own, local, f"{target.remote}: {target.published(origin)}")
    replicas, skipped = load_replicas(
        target.repo, tips, target.fetched, target.scope, name_of=lambda o: f"{target.remote}: {target.published(o)}"
    )
    merge = plan_merge(tx.view, know(local), replicas, actor=actor, now=utc_now())
    step = _Step(target, origin, own, replicas, skipped, merge)
    step.event, step.warnings = _commit(tx, target.history, merge)
    return step


def sync_stores(
    histories: Sequence[History], remote: str, *, actor: str, explicit: bool, share_pending: bool = False
) -> list[StoreSync]:
    """Sync each store; without an explicit scope, a store with no such remote is skipped, not an error."""
    results, errors = [], []
    for history in histories:
        problem = ready(history, remote)
        if problem and not explicit:
            results.append(StoreSync(scope=history.store.scope, remote=remote, status="skipped", reason=problem))
            errors.append(problem)
            continue
        results.append(sync_store(history, remote, actor=actor, share_pending=share_pending))
    if all(r.status == "skipped" for r in results):
        raise NotFoundError("git remote", remote, hint="; ".join(errors))
    return results


def _commit(tx: Transaction, history: History, merge: _Merge) -> tuple[int | None, list[str]]:
    if not merge.plan.drafts:
        return None, []
    result = tx.commit(merge.plan)
    warnings = list(result.warnings)
    if warnings or history.observe not in tx.store.observers:
        try:
            history.record()  # a second chance for a history the observer could not write
        except MemoryReviewError as exc:
            warnings.append(f"the merge is committed, but git history failed: {exc}; sync again to publish it")
    return result.events[0].seq, warnings


def _publish(target: _Target, step: _Step, *, share_pending: bool) -> bool:
    """Push what this clone shares (sync_publish) to its own replica ref, leased on what the fetch saw."""
    repo = target.repo
    tip = repo.ref_tip(target.history.ref)
    if tip is None:
        return False
    previous = repo.ref_tip(f"{target.fetched}{step.origin}") if step.own else None
    shared = publication(repo, tip, previous, scope=target.scope, origin=step.origin, share_pending=share_pending)
    step.warnings += shared.warnings
    if shared.commit is None:
        return False
    repo.push(target.remote, shared.commit, target.published(step.origin), expect=step.own)
    return True


# --- reading our own log and replica ---------------------------------------------------------------


def _local_bytes(path: Path) -> bytes:
    with storage_errors(path):  # read like every read of the log (ADR 0020): no link, no FIFO, one name
        return read_file_or(path, default=b"", single_link=True) or b""  # b"": a store with no events yet


def _check_own(repo: GitRepo, own: str | None, local: LogLines, where: str) -> None:
    """Our replica ref on the remote must hold an older state of this very log, or someone else wrote it."""
    if own is None:
        return
    kind = repo.object_types([own]).get(own)
    if kind != "commit":  # git would peel a tag to its commit: not what we publish
        raise ConflictError(
            f"{where} names a {kind or 'missing object'}, not a commit: this store never wrote it",
            hint="delete that ref on the remote and sync again",
        )
    recorded = _published_position(repo, own, where)
    seq = recorded[0] if recorded else -1
    ours = GENESIS if seq == 0 else (local[seq - 1][1] if 0 < seq <= len(local) else None)
    if recorded is None or ours != recorded[1]:
        raise ConflictError(
            f"{where} holds a log this store never wrote: another clone publishes under "
            "the same replica id (was the store folder copied?)",
            hint="give one of the copies a fresh store (a new origin) and sync again",
        )


def _published_position(repo: GitRepo, commit: str, where: str) -> tuple[int, str] | None:
    """The log position a publication records: its trailers, else (older ones) its ``manifest.json``."""
    position = commit_position(repo.commit_message(commit))
    if position is not None and position.seq >= 0:
        return position.seq, position.head
    manifest = replica_manifest(repo, commit, where=where)
    return (manifest.log_seq, manifest.log_head) if manifest else None


# --- planning the merge (no I/O) -------------------------------------------------------------------


def plan_merge(view: View, local: Knowledge, replicas: Sequence[Replica], *, actor: str, now: str) -> _Merge:
    """Merge every memory any clone knows; the batch to commit (empty when nothing changes here)."""
    graph = Graph([local, *(r.known for r in replicas)])
    pending = {conflict.memory for conflict in local.conflicts.values()}
    memories = sorted(set(local.current).union(pending, *(r.known.current for r in replicas)))
    merge = _Merge()
    for memory_id in memories:
        ours = Head(local.head(memory_id), local.records.get(memory_id), "")
        theirs = [_head(r, memory_id) for r in replicas if memory_id in r.known.current]
        outcome = merge_memory(memory_id, graph, ours, theirs)
        _settle(view, local, memory_id, ours, outcome, merge, now)
    if merge.plan.drafts or merge.adopt or merge.closed:
        _finish(merge, graph, local, replicas, actor)
    return merge


def _head(replica: Replica, memory_id: str) -> Head:
    vid = replica.known.head(memory_id)
    return Head(vid, replica.known.records.get(memory_id), replica.origin, replica.known.provenance.get(vid))


def _arrival_flags(head: Head, after: Memory | None) -> set[str]:
    """The flags a teammate's version arrives with: its candidate's own, and what a fresh scan finds
    (a replica may have stripped them; docs/adr/0018)."""
    recorded = set(head.provenance.flags) if head.provenance else set()
    return recorded | (set(scan(f"{after.description}\n{after.body}")) if after else set())


def _settle(
    view: View, local: Knowledge, memory_id: str, ours: Head, outcome: Outcome, merge: _Merge, now: str
) -> None:
    wanted = (ours.id, outcome.head.id) if outcome.kind == "conflict" and outcome.head else None
    kept = False
    for candidate_id, conflict in sorted(local.conflicts.items()):
        if conflict.memory != memory_id:
            continue
        if (conflict.ours, conflict.theirs) == wanted:
            kept = True
        else:
            merge.closed.append(candidate_id)
    if outcome.kind == "adopt" and outcome.head:
        _adopt(view, memory_id, outcome, merge)
    elif outcome.kind == "conflict" and outcome.head and not kept:
        _open_conflict(view, memory_id, ours, outcome.head, merge, now)
    elif outcome.kind == "waiting":
        merge.waiting.append(memory_id)


def _adopt(view: View, memory_id: str, outcome: Outcome, merge: _Merge) -> None:
    head = outcome.head
    assert head is not None
    if outcome.node is not None:
        merge.merged.append((memory_id, head.id, outcome.node))
    current = view.memory(memory_id)
    record = head.record
    after = replica_memory(record, memory_id, view.scope, head.origin) if record is not None else None
    if head.origin:  # a teammate's version: say whose, which candidate, and its flags
        candidate = head.provenance.candidate if head.provenance else None
        merge.adopt.append(
            SyncAdopt(
                memory=memory_id,
                id=head.id,
                origin=head.origin,
                candidate=candidate,
                flags=tuple(sorted(_arrival_flags(head, after))),
            )
        )
    else:
        merge.adopt.append(SyncAdopt(memory=memory_id, id=head.id))
    before_json = memory_to_json(current) if current else None
    after_json = memory_to_json(after) if after else None
    if before_json != after_json:
        merge.changes.append(Change(memory=memory_id, before=before_json, after=after_json))


def _open_conflict(view: View, memory_id: str, ours: Head, theirs: Head, merge: _Merge, now: str) -> None:
    candidate = conflict_candidate(view, memory_id, theirs, candidate_id=new_candidate_id(), now=now)
    merge.conflicts.append(SyncConflict(memory=memory_id, candidate=candidate.id, ours=ours.id, theirs=theirs.id))
    merge.plan.drafts.append(
        EventDraft(
            type="candidate.created",
            actor=f"sync:{theirs.origin}",
            candidate=candidate.id,
            record=candidate_to_json(candidate),
        )
    )


def _finish(merge: _Merge, graph: Graph, local: Knowledge, replicas: Sequence[Replica], actor: str) -> None:
    """Put the ``sync.merged`` event first (it declares what the candidate events after it mean)."""
    nodes = new_nodes(graph, local)
    nodes += [SyncNode(memory=m, id=vid, parents=n.parents, key=n.key) for m, vid, n in merge.merged]
    record = SyncRecord(
        remotes={r.origin: r.commit for r in replicas},
        nodes=tuple(nodes),
        adopt=tuple(merge.adopt),
        conflicts=tuple(merge.conflicts),
        closed=tuple(merge.closed),
    )
    event = EventDraft(
        type="sync.merged", actor=actor, changes=tuple(merge.changes) or None, sync=record.model_dump(mode="json")
    )
    reason = "closed by sync: the conflict it offered no longer stands (settled elsewhere, or superseded)"
    closes = [EventDraft(type="candidate.discarded", actor=actor, candidate=cid, reason=reason) for cid in merge.closed]
    merge.plan.drafts[:0] = [event]
    merge.plan.drafts += closes


def conflict_candidate(view: View, memory_id: str, theirs: Head, *, candidate_id: str, now: str) -> Candidate:
    """A pending candidate offering their version over ours: apply takes theirs, discard keeps ours."""
    before = view.memory(memory_id)
    after = replica_memory(theirs.record, memory_id, view.scope, theirs.origin) if theirs.record else None
    changes = (CandidateChange(memory=memory_id, before=before, after=after),)
    op: CandidateOp = "create" if before is None else "delete" if after is None else "update"
    flags = {FLAG_SYNC_CONFLICT} | _arrival_flags(theirs, after)
    who = f" (approved by {after.applied_by})" if after and after.applied_by else ""
    said = f"their version: {after.description!r}{who}" if after else "they deleted it"
    rationale = (
        f"Sync conflict on {memory_id!r}: this clone and replica {theirs.origin} changed it "
        f"differently since they last agreed ({said}). Apply to take theirs, edit to combine both, "
        "or discard to keep yours. Nothing was picked automatically."
    )
    return Candidate(
        id=candidate_id,
        op=op,
        scope=view.scope,
        changes=changes,
        base=base_of(changes),
        diff=render_diff(changes),
        rationale=rationale,
        evidence=(),
        proposer=Proposer(kind="import", name=f"sync:{theirs.origin}"),
        priority="high",
        flags=tuple(sorted(flags)),
        session_id=None,
        created_at=now,
    )
