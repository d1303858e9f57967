"""Git history of a store: each committed change also becomes a commit on ``refs/memory-review/<scope>``.

The commit's tree holds the store's shared files as they stand after the change —
``MEMORY.md``, the event log as append-only chunks under ``log/`` and the memory files
under ``memory/<shard>/`` (never the pending ``candidates/`` or the ``sessions/`` files),
written at the cost of the change (``history_tree``, docs/adr/0024) — and its message says what
changed, which candidate and who approved, ending in trailers that name the log
position it records. Commits are built with plumbing only (see ``gitrepo``).

The project store records into the project's own repository (when the project root
is a repository's top level); the user store into a bare repository of its own,
``<user store>/history.git``. History is a follow-up of the commit path: it runs
as a :class:`~memory_review.store.Store` observer under the store lock, a failure
is a warning, and the next change (or ``verify --repair --apply``, or ``sync``) records
everything the history missed in one commit. The event log stays the truth.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import orjson

from memory_review import gitrepo
from memory_review.errors import MemoryReviewError, NotFoundError, StorageError
from memory_review.events import Event, utc_timestamp
from memory_review.gitrepo import GitRepo, LogEntry, RefTip
from memory_review.history_tree import LocalLog, Position, TreeBuilder
from memory_review.manifest import Manifest
from memory_review.models import DurableScope
from memory_review.store import Store, log_errors
from memory_review.verify import StoreReport

HISTORY_TYPES = frozenset(
    {
        "candidate.applied",
        "candidate.edited",
        "candidate.discarded",
        "candidate.restored",
        "memory.reverted",
        "memory.deleted",
        "store.recovered",
        "sync.merged",
        "store.forgotten",
    }
)
"""Events that make a history commit (proposals, context builds and session writes wait for the next one)."""

USER_REPO_DIR = "history.git"
REF_PREFIX = "refs/memory-review/"
SEQ_TRAILER = "Memory-Review-Seq"
HEAD_TRAILER = "Memory-Review-Log-Head"
MAX_MESSAGE_LINES = 40
COMMIT_RE = re.compile(r"^[0-9a-f]{40}$")

Locator = Callable[[bool], GitRepo | None]


def history_ref(scope: DurableScope) -> str:
    """The ref holding a store's history."""
    return f"{REF_PREFIX}{scope}"


class History:
    """The git history of one store: where it lives, recording into it, and reading it back."""

    def __init__(self, store: Store, locate: Locator) -> None:
        self.store = store
        self.ref = history_ref(store.scope)
        self._locate = locate
        self._repo: GitRepo | None = None
        self.local = LocalLog(store)

    @classmethod
    def of_project(cls, store: Store, root: Path) -> History:
        """Project history lives in the project's repository, if the project root is its top level."""
        return cls(store, lambda create: _project_repo(root))

    @classmethod
    def of_user(cls, store: Store) -> History:
        """User history lives in a bare repository inside the user store, made on first use."""
        path = store.root / USER_REPO_DIR
        return cls(store, lambda create: GitRepo.init_bare(path) if create or path.exists() else None)

    def repo(self, *, create: bool = False) -> GitRepo | None:
        """The repository (None: this store has none, e.g. a project that is not a git repository)."""
        if self._repo is None:
            self._repo = self._locate(create)
        return self._repo

    # --- recording (the caller holds the store lock) ---------------------------------------

    def observe(self, store: Store, events: list[Event]) -> None:
        """The store observer: record a commit when the batch holds a change worth one."""
        if any(event.type in HISTORY_TYPES for event in events):
            self.record()

    def record(self) -> str | None:
        """Commit the store's files if the history does not yet record the log's head; the new commit id."""
        repo = self.repo(create=True)
        if repo is None:
            return None
        manifest, head = self._checkpoint()
        tip = repo.ref_tip(self.ref)
        position = _position(tip)
        if position == head:
            return None
        new = self.local.since(repo, tip, position)
        events = new.events(self.store.log_path)
        tree = TreeBuilder(repo, self.store, manifest, tip).tree(new, events)
        parents = ([tip.commit] if tip else []) + _merged_commits(repo, events)
        message = describe(self.store.scope, manifest, events, restarted=new.restarted, head=head)
        gitrepo.step("history.before_commit")
        commit = repo.commit_tree(tree, parents, message, when=git_date(events[-1].ts if events else None))
        gitrepo.step("history.before_update_ref")
        repo.update_ref(self.ref, commit, tip.commit if tip else None)
        return commit

    def _checkpoint(self) -> tuple[Manifest, Position]:
        log = self.store.log()
        with log_errors(self.store.log_path):
            log.cut_torn_tail()  # we hold the lock: exactly what the next append would do
            head = log.head()
        if self.store.read_manifest() is None:
            raise StorageError(
                "git history waits: manifest.json is missing (the next command completes it)",
                path=self.store.manifest_path,
            )
        # The compacted manifest plus the tail past it, at the log's head (docs/adr/0029).
        return self.store.current_manifest(), Position(head.seq, head.hash)

    # --- reading -------------------------------------------------------------------------

    def position(self) -> Position | None:
        """The log position the history records now (None: no history yet)."""
        repo = self.repo()
        return _position(repo.ref_tip(self.ref)) if repo else None

    def entries(self, limit: int = 50) -> list[LogEntry]:
        """The newest history commits, newest first."""
        repo = self.repo()
        return repo.log(self.ref, limit) if repo else []

    def unrecorded(self) -> list[int]:
        """The seqs of the changes in the log the history does not record yet (only those that make a commit).

        Each line is read for its type alone, not decoded as an event: ``verify`` has decoded and checked
        every line already, and decoding them again here doubled a verify of a store whose history has not
        started (docs/adr/0053)."""
        if self.repo() is None and self.store.scope == "project":
            return []
        repo = self.repo()
        tip = repo.ref_tip(self.ref) if repo else None
        new = self.local.since(repo, tip, _position(tip))
        return [
            seq for seq, line in enumerate(new.missing, new.first_seq + new.since) if _type_of(line) in HISTORY_TYPES
        ]

    def check(self, report: StoreReport, *, repair: bool) -> None:
        """``verify``: note a history that lags the log; with ``repair``, record what it misses."""
        if not self.store.exists():
            return
        try:
            missing = self.unrecorded()
            if missing and repair:
                with self.store.transact():
                    commit = self.record()
                if commit:
                    report.repaired.append(
                        f"git history caught up ({len(missing)} change(s)) as {commit[:12]} on {self.ref}"
                    )
            elif missing:
                report.notes.append(
                    f"git history ({self.ref}) lacks {len(missing)} change(s), from seq "
                    f"{missing[0]}; the next change or `verify --repair --apply` records them"
                )
        except MemoryReviewError as exc:
            (report.problems if repair else report.notes).append(f"git history ({self.ref}): {exc}")


def _type_of(line: bytes) -> object:
    """An event line's type, or None when the line is no JSON object (verify's walk names such a line)."""
    try:
        fields = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    return fields.get("type") if isinstance(fields, dict) else None


def _project_repo(root: Path) -> GitRepo | None:
    top = gitrepo.toplevel(root)
    if top is None or top.resolve() != root.resolve():
        return None  # not a repository, or a sub-folder of one: its ref would clash with the top's
    try:
        return GitRepo.open(top)
    except NotFoundError:
        return None  # a .git file naming another repository's git dir: its refs are that one's


def _position(tip: RefTip | None) -> Position | None:
    return commit_position(tip.message) if tip is not None else None


def commit_position(message: str) -> Position:
    """The log position a history (or publication) commit's trailers record; seq -1 when they record none."""
    tip = RefTip("", message)
    seq = re.search(rf"^{SEQ_TRAILER}: (\d+)$", tip.message, re.MULTILINE)
    head = re.search(rf"^{HEAD_TRAILER}: ([0-9a-f]{{64}})$", tip.message, re.MULTILINE)
    # A foreign commit on our ref records nothing we know: history restarts on top of it.
    return Position(int(seq.group(1)), head.group(1)) if seq and head else Position(-1, "")


def _merged_commits(repo: GitRepo, events: list[Event]) -> list[str]:
    """Teammates' history commits a sync merged: extra parents, so ``git log --graph`` shows the merge."""
    wanted = []
    for event in events:
        if event.type == "sync.merged" and event.sync:
            remotes = event.sync.get("remotes") or {}
            wanted += [sha for sha in remotes.values() if isinstance(sha, str) and COMMIT_RE.fullmatch(sha)]
    wanted = list(dict.fromkeys(wanted))
    # Only commits can be parents: a tag or tree a forged replica ref named (and an older sync
    # recorded before replica tips were checked) is left out, or every later commit would fail.
    kinds = repo.object_types(wanted)
    return [sha for sha in wanted if kinds.get(sha) == "commit"]


def git_date(ts: str | None) -> str:
    """The git date (``@<epoch> +0000``) of an event timestamp (None: now)."""
    # fromisoformat, not strptime: the same instant for an event's `...Z` stamp, without importing _strptime.
    moment = datetime.fromisoformat(ts or utc_timestamp())
    if moment.utcoffset() != timedelta(0):  # strptime's literal Z refused any other zone, and none
        raise ValueError(f"not a UTC timestamp: {ts!r}")
    return f"@{int(moment.timestamp())} +0000"


# --- the commit message ------------------------------------------------------------------


def describe(
    scope: DurableScope,
    manifest: Manifest,
    events: list[Event],
    *,
    restarted: bool = False,
    head: Position | None = None,
) -> str:
    """The message of a history commit: a subject, one line per change, and the position trailers."""
    changes = [e for e in events if e.type in HISTORY_TYPES]
    before = records_before(events)
    lines = [describe_event(e, before.get(e.seq)) for e in changes] if len(changes) > 1 else []
    if len(lines) > MAX_MESSAGE_LINES:
        lines = lines[:MAX_MESSAGE_LINES] + [f"... and {len(lines) - MAX_MESSAGE_LINES} more"]
    others = len(events) - len(changes)
    if others:
        lines.append(f"(+{others} other event(s): proposals, context builds, session notes)")
    if restarted:
        lines.insert(0, "The previous commit on this ref does not record this log; history restarts here.")
    body = "\n".join(lines)
    seq, line = (head.seq, head.head) if head else (manifest.log_seq, manifest.log_head)
    trailers = (
        f"Memory-Review-Store: {scope}\nMemory-Review-Origin: {manifest.origin}\n"
        f"{SEQ_TRAILER}: {seq}\n{HEAD_TRAILER}: {line}"
    )
    return f"{_subject(scope, changes, events, before)}\n\n" + (f"{body}\n\n" if body else "") + trailers + "\n"


def _subject(scope: DurableScope, changes: list[Event], events: list[Event], before: Mapping[int, Mapping]) -> str:
    if not changes:
        return f"memory-review ({scope}): record the log up to seq {events[-1].seq if events else 0}"
    first = describe_event(changes[0], before.get(changes[0].seq))
    more = f" (+{len(changes) - 1} more)" if len(changes) > 1 else ""
    return f"memory-review ({scope}): {first}{more}"[:200]


def describe_event(event: Event, before: Mapping | None = None) -> str:
    """One line for a person: what happened, to which memories, by whom (``before``: the record an edit replaced)."""
    raised = raise_of(event, before)
    if raised is not None:
        return f"#{event.seq} {event.candidate} {raised.describe()}"
    verb = {
        "candidate.applied": "apply",
        "candidate.edited": "edit",
        "candidate.discarded": "discard",
        "candidate.restored": "restore",
        "memory.reverted": "revert",
        "memory.deleted": "delete",
        "store.recovered": "repair",
        "sync.merged": "sync",
        "store.forgotten": "forget",
    }.get(event.type, event.type)
    what = [event.candidate] if event.candidate else []
    if event.reverts:
        what.append(f"#{event.reverts}")
    what += [_change_mark(c.before, c.after) + c.memory for c in event.changes or ()]
    if event.type == "sync.merged" and event.sync:
        what.append(_sync_summary(event.sync))
    reason = f" — {event.reason}" if event.reason else ""
    return " ".join([f"#{event.seq} {verb}", *what, f"by {event.actor}"]) + reason


def _change_mark(before: object, after: object) -> str:
    return "+" if before is None else "-" if after is None else "~"


def _sync_summary(sync: dict) -> str:
    remotes = sync.get("remotes") or {}
    conflicts = [str(c.get("memory")) for c in sync.get("conflicts") or []]
    closed = sync.get("closed") or []
    parts = [f"from {len(remotes)} other clone(s)"]
    parts += [f"conflict on {', '.join(conflicts)}"] if conflicts else []
    parts += [f"closed {len(closed)} settled conflict(s)"] if closed else []
    return f"({'; '.join(parts)})"


# --- a raise is not an edit (ADR 0050) ---------------------------------------------------


@dataclass(frozen=True)
class Raise:
    """A pending candidate raised by its proposer because the rule was found again in another session.

    Its fields, in order, are the ``raised`` object of ``log --json`` (``log_read.LoggedEvents``)."""

    proposer: str
    priority: str
    priority_changed: bool  # False: it was high already and only gained quotes
    sessions: tuple[str, ...]  # the sessions it was found again in (its new quotes)

    def describe(self) -> str:
        """``raised to high by heuristic:x (found again in session s2)``: what a person reads, not "edit"."""
        found = f"found again in session {', '.join(self.sessions)}" if self.sessions else "found again"
        if self.priority_changed:
            return f"raised to {self.priority} by {self.proposer} ({found})"
        return f"{found} by {self.proposer} (already {self.priority})"


def raise_of(event: Event, before: Mapping | None = None) -> Raise | None:
    """The raise a ``candidate.edited`` records, or None when it is a person's edit (or any other event).

    Derived from the event, as ADR 0050 decided (no event type of its own): the actor is the record's own
    proposer (``rules.edit`` refuses every agent and records a person's name; only ``rules.raise_candidate``
    writes the proposer), and, when ``before`` (the record it replaced) is known, the proposed text is
    unchanged. The new sessions are those of the evidence ``before`` had no quote from; without ``before``,
    every session of the evidence other than the candidate's own.
    """
    record = event.record
    if event.type != "candidate.edited" or not isinstance(record, Mapping):
        return None
    proposer = record.get("proposer")
    if not isinstance(proposer, Mapping) or event.actor != f"{proposer.get('kind')}:{proposer.get('name')}":
        return None
    if before is not None and _proposed_text(before) != _proposed_text(record):
        return None
    priority = str(record.get("priority") or "")
    known = _sessions(before) if before is not None else {record.get("session_id")}
    new = tuple(s for s in dict.fromkeys(_session_list(record)) if s not in known)
    # Without the record before, a raise to high is what rules.raise_candidate writes but for a repeat.
    changed = before.get("priority") != priority if before is not None else priority == "high"
    return Raise(event.actor, priority, changed, new)


def _proposed_text(record: Mapping) -> list[tuple[object, ...]]:
    changes = record.get("changes")
    fields = ("id", "type", "description", "body")
    out = []
    for change in changes if isinstance(changes, list) else ():
        after = change.get("after") if isinstance(change, Mapping) else None
        out.append(tuple(after.get(f) for f in fields) if isinstance(after, Mapping) else (None,))
    return out


def _session_list(record: Mapping) -> list[str]:
    evidence = record.get("evidence")
    items = evidence if isinstance(evidence, list) else ()
    return [str(e["session_id"]) for e in items if isinstance(e, Mapping) and e.get("session_id")]


def _sessions(record: Mapping) -> set[object]:
    return {record.get("session_id"), *_session_list(record)}


def raises(events: Iterable[Event]) -> dict[int, Raise]:
    """The raises among ``events`` (in log order), by seq, each read against the record it replaced there."""
    events = list(events)
    before = records_before(events)
    return {event.seq: found for event in events if (found := raise_of(event, before.get(event.seq)))}


def records_before(events: Iterable[Event]) -> dict[int, Mapping]:
    """For each ``candidate.edited`` among ``events`` (in log order), the record of that candidate before it."""
    latest: dict[str, Mapping] = {}
    before: dict[int, Mapping] = {}
    for event in events:
        if event.candidate and isinstance(event.record, Mapping):
            if event.type == "candidate.edited" and event.candidate in latest:
                before[event.seq] = latest[event.candidate]
            latest[event.candidate] = event.record
    return before
