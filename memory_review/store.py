"""A durable store and its one commit path (docs/design.md §5, docs/adr/0029).

Every change — propose, edit, apply, discard, revert, delete, session write —
goes through :meth:`Store.transact`::

    lock -> recover (cut a torn tail; upgrade an older format; compact if due) -> decide (pure rules)
         -> write new memory files (O_EXCL, fsync, fsync dir)
         -> append the events (one fsync)                       <- the commit point
         -> candidate files, MEMORY.md if it changes (atomic replace)
         -> past COMPACT_AFTER only: manifest.json from the fold, then collect unreferenced files -> unlock

``manifest.json`` is the compacted state and the chain-checked log past it the tail:
readers take no lock, read the manifest and fold the tail in memory (at most
:data:`COMPACT_AFTER` events' worth, read backward from the end). Nothing outside the
manifest and that tail is ever read as memory.

Reads never write (docs/adr/0023): a ``context.built`` event changes no derived
file, so :meth:`Store.record` only appends it (under the lock, fsynced) and leaves
the manifest behind the log. Events past the checkpoint that are only of the
:data:`LOG_ONLY` types are a legal, at-rest state: readers skim them (read backward
from the end, never the whole log) and the next commit's checkpoint moves past them.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar

from memory_review.candidate import MAX_CANDIDATE_BYTES, Candidate, decode_candidate, encode_candidate
from memory_review.errors import (
    IntegrityError,
    MemoryReviewError,
    NotFoundError,
    StorageError,
    ValidationError,
)
from memory_review.events import (
    Event,
    EventDraft,
    EventLog,
    EventNotFoundError,
    LogError,
    LogHead,
    LogIntegrityError,
    faults,
)
from memory_review.events.durable import atomic_replace, fsync_dir, sync_directory, write_new_files
from memory_review.events.safe_fs import check_dir, list_dir, make_dir, open_file, read_fd, unlink
from memory_review.file_reads import read_regular_file, read_store_file, storage_error, storage_errors
from memory_review.ids import check_candidate_id, new_origin_id, shown
from memory_review.locking import DEFAULT_TIMEOUT, store_lock
from memory_review.manifest import (
    INDEX_MAX_BYTES,
    MANIFEST_VERSION,
    MAX_MANIFEST_BYTES,
    Manifest,
    ManifestEntry,
    decode_manifest,
    encode_manifest,
    render_index_lines,
)
from memory_review.models import DurableScope, Memory
from memory_review.record_io import memory_from_json, memory_sha256, parse_memory, render_memory
from memory_review.rules import Plan
from memory_review.sessions import SESSION_EVENT, SessionFileMismatch, SessionFiles
from memory_review.storage import EMPTY, Folded, fold_all
from memory_review.store_backup import back_up
from memory_review.store_view import FileMovedUnderUs, StoreView, missing_file_error

T = TypeVar("T")
Noted = TypeVar("Noted")
"""What a compaction observer reads before a compaction and is handed back after it."""

MEMORY_DIR = "memory"
CANDIDATE_DIR = "candidates"
TEMP_PREFIX = ".tmp"
LOG_ONLY = frozenset({"context.built"})
"""Event types that change no derived file: recorded by a log append alone, never counted in the tail."""
UPGRADED: Final = "store.upgraded"
"""Records a format upgrade (from, to, where the backup is): docs/adr/0029, docs/upgrading.md."""
COMPACT_AFTER = 64
"""A commit compacts when the tail past the manifest weighs this much (:func:`tail_weight`, docs/adr/0029)."""
UNFINISHED = ".unfinished"
"""In ``memory/`` while a lock holder writes: the next one lists the folders for leftovers only if it is there."""


class CompactionObserver(Protocol[Noted]):
    """Told around each compaction, which keeps the set and moves the manifest (the read index, ADR 0030)."""

    def before_compaction(self, store: Store, head: LogHead) -> Noted | None:
        """What :meth:`after_compaction` needs (None: nothing to do), read before the manifest moves."""

    def after_compaction(self, store: Store, before: Noted) -> None:
        """The manifest at ``head`` is written; ``before`` is what :meth:`before_compaction` gave."""


@dataclass
class CommitResult:
    """What a commit appended, and any trouble after its commit point (it still stands)."""

    events: list[Event]
    warnings: list[str] = field(default_factory=list)


class Store:
    """One self-contained store folder: manifest, memory files, candidates, the event log."""

    def __init__(
        self,
        root: Path,
        scope: DurableScope,
        *,
        lock_timeout: float = DEFAULT_TIMEOUT,
        warnings: list[str] | None = None,
    ) -> None:
        self.root = root
        self._root_text = os.fspath(root)
        self.scope = scope
        self.lock_timeout = lock_timeout
        self.memory_dir = root / MEMORY_DIR
        self.candidate_dir = root / CANDIDATE_DIR
        self.manifest_path = root / "manifest.json"
        self.index_path = root / "MEMORY.md"
        self.lock_path = root / ".lock"
        self.log_path = root / "events.jsonl"
        self.sessions = SessionFiles(root / "sessions")
        # The last manifest read or written, by its exact bytes: a process reads the same manifest several
        # times per command (the UI on every poll), and validating 10,000 entries costs tens of ms.
        self._manifest_cache: tuple[bytes, Manifest] | None = None
        # What past_checkpoint last found, by (manifest position, log head, the log file's stamp): a command
        # reads it several times. The stamp (inode, size, mtime) makes a log changed in place read again.
        self._past_cache: tuple[tuple[tuple[int, str], LogHead, LogStamp], list[Event]] | None = None
        # The fold of the last tail handed out (that list, by identity, and its length): an apply reads the
        # same tail about seven times (finding the candidate's store, the transaction's view, the candidate,
        # the commit's MEMORY.md, the view after it, the history), and folding validates every record in it.
        self._fold_cache: tuple[list[Event], int, Folded] | None = None
        self.compact_after = COMPACT_AFTER  # the tail's bound (tests set others; docs/adr/0029)
        self.unfinished_path = self.memory_dir / UNFINISHED
        self._unfinished = False  # whether the marker file is there (as far as this lock holder knows)
        self._finishing = False  # whether this lock holder found the marker: a compaction completes that writer
        self._debris_possible = False  # files written since the last finished commit, compaction or sweep
        # Called after each commit's checkpoint (e.g. git history); their failures become warnings.
        self.observers: list[Callable[[Store, list[Event]], None]] = []
        # Told around each compaction (any path: a commit past the bound, recovery, compact()); failures warn.
        self.compaction_observers: list[CompactionObserver[Any]] = []
        # Trouble a reader worked around (a bad candidate file skipped): shared with the Workspace.
        self.warnings: list[str] = [] if warnings is None else warnings

    # --- layout ------------------------------------------------------------------------

    def exists(self) -> bool:
        return self.manifest_path.exists() or self.log_path.exists()

    def init(self) -> bool:
        """Create the folders and an empty manifest; True if the store did not exist before."""
        created = not self.exists()
        with self.transact():
            pass  # transact creates the folders; recovery writes the first manifest
        return created

    def check_folders(self) -> None:
        """UnsafeFileError unless the store's folders are real folders (or absent); see ADR 0020.

        A project store arrives by ``git clone``: its root and every folder in it may be a
        committed symlink. The user store's root is the user's own setting and may be a link.
        """
        with storage_errors(self.root):
            if self.scope == "project":
                check_dir(self.root)
            for folder in (self.memory_dir, self.candidate_dir, self.sessions.root, self.root / "hooks"):
                check_dir(folder)

    def _ensure_dirs(self) -> None:
        with storage_errors(self.root):
            if self.scope == "project":
                make_dir(self.root)  # inside the project root, which exists: never through a link
            else:
                self.root.mkdir(parents=True, exist_ok=True)
            self.check_folders()
            make_dir(self.memory_dir)
            make_dir(self.candidate_dir)

    # --- reading -----------------------------------------------------------------------

    def log(self, origin: str = "0" * 16) -> EventLog:
        self.check_folders()  # the log opens its file without following it; its folder is checked here
        return EventLog(self.log_path, origin=origin)

    def read_manifest(self) -> Manifest | None:
        """The checkpoint, or None for a store that has none yet."""
        self.check_folders()
        data = read_store_file(self.manifest_path, MAX_MANIFEST_BYTES)
        if data is None:
            return None
        cached = self._manifest_cache
        if cached is not None and cached[0] == data:
            return cached[1]
        manifest = decode_manifest(data, where=str(self.manifest_path))
        self._manifest_cache = (data, manifest)
        return manifest

    def view(self, *, load: bool = True) -> StoreView:
        """A lock-free read of the current set (rolling forward in memory if the log is ahead).

        With ``load`` every memory file is read and checked up front. Without it nothing is read
        until asked: ids, hashes and listing fields come from the manifest; to read only some
        memory files, use :meth:`read_consistently`.
        """
        if not load:
            return self._fresh_view()
        return self.read_consistently(_loaded)

    def read_consistently(self, read: Callable[[StoreView], T]) -> T:
        """``read(view)`` on a lock-free view; on a fresh view again if a writer collected a file it read."""
        missing = None
        for _attempt in range(5):
            try:
                return read(self._fresh_view())
            except FileMovedUnderUs as exc:
                missing = exc  # a writer replaced the manifest and collected a file mid-read
        assert missing is not None
        raise missing_file_error(missing)

    def _fresh_view(self) -> StoreView:
        manifest = self.read_manifest() or Manifest(origin="0" * 16)
        head, events = self.past_checkpoint(manifest)
        return StoreView(self, manifest, head, dict(self.folded(events).memories))

    def read_memory(self, memory_id: str, entry: ManifestEntry) -> Memory:
        """Load one memory file, checking its path, hash, schema, id and scope."""
        path = self.root / entry.file
        try:
            data = self._read_child(entry.file)
        except FileNotFoundError as exc:
            raise FileMovedUnderUs(path) from exc
        except OSError as exc:
            raise storage_error(exc, path) from exc
        if hashlib.sha256(data).hexdigest() != entry.sha256:
            raise IntegrityError(
                "content does not match the sha256 in manifest.json (edited by hand?)",
                path=path,
                hint="run `memory-review verify` for details",
            )
        return self.memory_in(memory_id, entry, data)

    def memory_in(self, memory_id: str, entry: ManifestEntry, data: bytes) -> Memory:
        """The memory the bytes of ``entry``'s file hold (their hash checked by the caller): schema, id, scope."""
        path = self.root / entry.file
        memory = parse_memory(data, path=path)
        if memory.id != memory_id or memory.scope != self.scope:
            raise IntegrityError(
                f"holds {memory.scope} memory {memory.id!r}, manifest says {self.scope} {memory_id!r}", path=path
            )
        return memory

    def _read_child(self, relative: str, limit: int | None = None) -> bytes:
        """The bytes of ``relative`` (``memory/…`` or ``candidates/…`` built from a checked id).

        Through ``events.safe_fs`` (ADR 0020): a symlink or FIFO is refused (UnsafeFile), never
        followed nor waited on; the folders were checked by the manifest read that named the file.
        """
        path = f"{self._root_text}/{relative}"  # no os.path.join: 10,000 bodies per query
        fd = open_file(path)
        try:
            return read_fd(fd, limit, path)
        finally:
            os.close(fd)

    def memory_body(self, memory_id: str, entry: ManifestEntry) -> str:
        """The body of a memory file without a YAML parse (keyword selection reads every body).

        Bytes that match the manifest's sha256 are exactly what ``render_memory`` wrote, and
        there each frontmatter value is one quoted line: the body is all after the first
        ``\\n---\\n``, less its one final newline. Anything else takes :meth:`read_memory`, which
        checks (and names) everything.
        """
        try:
            data = self._read_child(entry.file)
        except FileNotFoundError as exc:
            raise FileMovedUnderUs(self.root / entry.file) from exc
        except OSError as exc:
            raise storage_error(exc, self.root / entry.file) from exc
        if hashlib.sha256(data).hexdigest() != entry.sha256:
            return self.read_memory(memory_id, entry).body  # raises, naming the file
        _front, _fence, rest = data.decode("utf-8").partition("\n---\n")
        return rest[:-1]

    def pending(self) -> list[Candidate]:
        """Pending candidates, oldest first, rolled forward like :meth:`view`.

        A bad candidate file (a bad name, oversize, malformed, a FIFO or a link) is skipped with a
        warning naming it (escaped) in :attr:`warnings`: one bad file must not hide the queue.
        ``verify`` reports it as a problem.
        """
        put, drop = self._candidates_past_checkpoint()
        with storage_errors(self.candidate_dir):
            # A writer's in-flight (or a dead writer's) temp file ends in .json too: never a candidate.
            names = sorted(
                p for p in list_dir(self.candidate_dir) if p.endswith(".json") and not p.startswith(TEMP_PREFIX)
            )
        found = dict(put)
        for name in names:
            candidate_id = name[: -len(".json")]
            if candidate_id in found or candidate_id in drop:
                continue
            try:
                found[candidate_id] = self.candidate_file(candidate_id)
            except NotFoundError:
                continue  # resolved between listdir and read
            except MemoryReviewError as exc:
                self._warn(bad_candidate_warning(self.candidate_dir, name, exc))
        return [found[k] for k in sorted(found)]

    def _warn(self, message: str) -> None:
        if message not in self.warnings:  # several readers of one command meet the same bad file
            self.warnings.append(message)

    def candidate(self, candidate_id: str) -> Candidate:
        """One pending candidate by id, rolled forward like :meth:`view`."""
        check_candidate_id(candidate_id)
        put, drop = self._candidates_past_checkpoint()
        if candidate_id in drop:
            raise NotFoundError("pending candidate", candidate_id)
        return put.get(candidate_id) or self.candidate_file(candidate_id)

    def has_pending(self, candidate_id: str) -> bool:
        """Whether a candidate is pending here, rolled forward like :meth:`view`, without parsing its file."""
        check_candidate_id(candidate_id)  # before any path is built from it
        put, drop = self._candidates_past_checkpoint()
        if candidate_id in drop:
            return False
        return candidate_id in put or os.path.isfile(self.candidate_dir / f"{candidate_id}.json")

    def _candidates_past_checkpoint(self) -> tuple[dict[str, Candidate], set[str]]:
        """Candidates the log changed past the manifest's seq (a writer died or failed after its commit)."""
        # Without this, a commit whose candidate files could not be written yet would be reported as a
        # success while `list` still showed the old candidates (or an applied one as pending).
        manifest = self.read_manifest() or Manifest(origin="0" * 16)
        folded = self.folded(self.past_checkpoint(manifest)[1])
        return {c.id: c for c in folded.pending()}, set(folded.resolved())

    def candidate_file(self, candidate_id: str) -> Candidate:
        """The candidate its file holds, checked (NotFoundError: no such file), without the log's roll-forward."""
        check_candidate_id(candidate_id)
        relative = f"{CANDIDATE_DIR}/{candidate_id}.json"
        path = self.root / relative
        try:
            data = self._read_child(relative, MAX_CANDIDATE_BYTES)
        except FileNotFoundError as exc:
            raise NotFoundError("pending candidate", candidate_id) from exc
        except OSError as exc:
            raise storage_error(exc, path) from exc
        candidate = decode_candidate(data, where=str(path))
        if candidate.id != candidate_id or candidate.scope != self.scope:
            raise IntegrityError(f"file holds candidate {candidate.id} ({candidate.scope})", path=path)
        return candidate

    def session_memories(self, session_id: str, *, from_log_if_damaged: bool = False) -> dict[str, Memory]:
        """A session's memories, rolled forward like :meth:`view`: its file may lag the log after a failure.

        The file must hash to what the manifest records (docs/adr/0017), else it is not read: a
        SessionFileMismatch, or with ``from_log_if_damaged`` (a writer about to replace it) the
        memories the log's session events leave.
        """
        for attempt in (1, 2):  # a writer may replace the file and the manifest between our reads
            manifest = self.read_manifest() or Manifest(origin="0" * 16)
            events = self.past_checkpoint(manifest)[1]
            try:
                memories = self.sessions.read(session_id, (manifest.sessions or {}).get(session_id))
                break
            except SessionFileMismatch:
                ahead = any(e.type == SESSION_EVENT and e.session == session_id for e in events)
                if ahead or from_log_if_damaged:
                    # A failed checkpoint can leave the file ahead of the manifest: the log decides.
                    return self._session_from_log(session_id)
                if attempt == 2:
                    raise
        for memory_id, memory in self.folded(events).sessions.get(session_id, {}).items():
            if memory is None:
                memories.pop(memory_id, None)
            else:
                memories[memory_id] = memory
        return memories

    def _session_from_log(self, session_id: str) -> dict[str, Memory]:
        return fold_all(EMPTY, self._session_history(session_id)).session(session_id)

    def _session_history(self, session_id: str) -> list[Event]:
        with log_errors(self.log_path):
            return list(self.log().read(session=session_id, type=SESSION_EVENT))

    def past_checkpoint(self, manifest: Manifest) -> tuple[LogHead, list[Event]]:
        """The log's head, and the events past ``manifest``'s position that change a derived file.

        An empty list with a head past the manifest is the at-rest state of :data:`LOG_ONLY` events
        (docs/adr/0023). Only the lines past the manifest are read (backward from the end), each
        chain-checked from the manifest's ``log_head``; the answer is kept for the same head and the same
        file (any write to the log since, even one that keeps the head, reads it again).
        """
        position = (manifest.log_seq, manifest.log_head)
        with log_errors(self.log_path):
            stamp = log_stamp(self.log_path)  # before reading: a write after it only costs a read
            log = self.log()
            head = log.head()
            cached = self._past_cache
            if cached is not None and cached[0] == (position, head, stamp):
                return head, cached[1]
            if head.seq < manifest.log_seq:
                raise IntegrityError(
                    f"the log ends at seq {head.seq} but the manifest is at {manifest.log_seq}: events were lost",
                    path=self.log_path,
                    hint="restore events.jsonl from a backup; `memory-review verify` explains",
                )
            if head.seq == manifest.log_seq and head.hash != manifest.log_head:
                raise IntegrityError(
                    f"log line {head.seq} does not match the manifest's log_head",
                    path=self.log_path,
                    hint="run `memory-review verify`",
                )
            head, events = log.since(*position, skim=LOG_ONLY)
        self._past_cache = ((position, head, stamp), events)
        return head, events

    def at_rest(self, manifest: Manifest) -> bool:
        """Whether ``manifest`` is the current set: nothing but :data:`LOG_ONLY` events follow it."""
        return not self.past_checkpoint(manifest)[1]

    def current_manifest(self) -> Manifest:
        """The manifest a compaction at the log's head would write, built in memory (nothing is written).

        The manifest on disk plus the fold of the tail past it (docs/adr/0029): what the git history
        records and what tests and tools mean by "the store's entries now".
        """
        manifest = self.read_manifest() or Manifest(origin="0" * 16)
        head, tail = self.past_checkpoint(manifest)
        return compacted(manifest, head, self.folded(tail))

    def folded(self, tail: list[Event]) -> Folded:
        """``fold_all(EMPTY, tail)`` for a tail this store handed out (:meth:`past_checkpoint`, a
        transaction's): the last one is folded once and kept, as long as it is that list, unchanged.

        Callers never change a tail in place (a commit makes a new list), nor what its fold holds.
        """
        kept = self._fold_cache
        if kept is not None and kept[0] is tail and kept[1] == len(tail):
            return kept[2]
        folded = fold_all(EMPTY, tail)
        self._fold_cache = (tail, len(tail), folded)
        return folded

    def _committed(self, manifest: Manifest, head: LogHead, tail: list[Event], folded: Folded) -> None:
        """What a commit leaves, kept as :meth:`past_checkpoint` and :meth:`folded` would find it (under the
        lock, the log is the tail it started from plus what it appended): the history and the read index
        after the commit neither read the tail again nor fold it."""
        with log_errors(self.log_path):
            stamp = log_stamp(self.log_path)  # under the lock, right after the append: the file we wrote
        self._past_cache = (((manifest.log_seq, manifest.log_head), head, stamp), tail)
        self._fold_cache = (tail, len(tail), folded)

    # --- the commit path ---------------------------------------------------------------

    @contextmanager
    def transact(self, *, sweep: bool = False) -> Iterator[Transaction]:
        """Lock, recover, and hand out a transaction whose ``commit`` is the one way to write.

        ``sweep`` lists every folder for leftovers even if no writer left the unfinished marker
        (``verify`` does, for debris of versions that wrote none).
        """
        with self.locked():
            manifest, head, tail = self._recover(sweep=sweep)
            try:
                yield Transaction(self, manifest, head, tail)
            finally:
                self._finish_writes()  # keeps the marker if writes may have left something behind

    def record(self, drafts: list[EventDraft]) -> list[Event]:
        """Append :data:`LOG_ONLY` events: under the lock and fsynced, and nothing else (docs/adr/0023).

        No checkpoint follows: the manifest, MEMORY.md and every other file stay as they are, so a
        prompt that records what it was given costs one log line. A store with no manifest yet
        takes the full commit path once (its first checkpoint gives the store its origin).
        """
        if any(draft.type not in LOG_ONLY for draft in drafts):
            raise ValueError(f"record() appends only {sorted(LOG_ONLY)} events; others need a commit")
        if self.exists():
            with self.locked():
                manifest = self.read_manifest()
                if manifest is not None:
                    with log_errors(self.log_path):
                        return self.log(manifest.origin).append(drafts)
        with self.transact() as tx:
            return tx.commit(Plan(drafts=list(drafts))).events

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the store lock without recovering (repair needs this when the manifest is damaged)."""
        self._ensure_dirs()
        with store_lock(self.lock_path, self.lock_timeout):
            yield

    def compact(self) -> Manifest:
        """Fold the tail into ``manifest.json`` now, under the lock (tests, tools; commits do it past the bound)."""
        with self.transact() as tx:
            if tx.tail:
                tx.compact()
            return tx.manifest

    def _recover(self, *, sweep: bool = False) -> tuple[Manifest, LogHead, list[Event]]:
        """Cut a torn tail, upgrade an older format, compact when due; the manifest, head and tail past it.

        Nothing is rolled forward: the tail past the manifest is the append-only part of the
        checkpoint (docs/adr/0029). It is compacted when it is past :data:`COMPACT_AFTER` or when a
        writer may have left something unfinished (the marker); ``sweep`` (verify) lists the folders
        for temp files but never compacts: verify checks the manifest and its tail as they are.
        """
        self._unfinished = os.path.lexists(self.unfinished_path)
        self._finishing = self._unfinished  # a writer before us may not have written its derived files
        self._debris_possible = self._unfinished or sweep
        with log_errors(self.log_path):
            # A dead writer's partial append (we hold the lock: nobody else is writing). Cutting it here
            # rather than at the next append lets `verify` pass right after recovery, like LevelDB does.
            self.log().cut_torn_tail()
        manifest = self.read_manifest()
        if manifest is None:
            head, events = self.past_checkpoint(Manifest(origin="0" * 16))
            if head.seq == 0:
                self._refuse_orphaned_memory_files()
            return self._compact(Manifest(origin=new_origin_id()), head, events), head, []
        head, tail = self.past_checkpoint(manifest)
        if manifest.version < MANIFEST_VERSION:
            return self._upgrade(manifest, head, tail)
        if tail and (self._finishing or tail_weight(tail) >= self.compact_after):
            return self._compact(manifest, head, tail), head, []
        if self._debris_possible:  # with a tail only after a sweep: no marker, so temp files only
            # A writer died before its commit point (the marker): its leftovers go now. A sweep without
            # the marker collects temp files only: an unnamed memory file may be a lost log line's.
            self._collect_garbage(manifest, superseded=None if self._finishing else set())
        return manifest, head, tail

    def _refuse_orphaned_memory_files(self) -> None:
        """With no manifest and no log, memory files are data nobody can vouch for: never collected."""
        with storage_errors(self.memory_dir):
            names = [n for n in list_dir(self.memory_dir) if n.endswith(".md")]
        if names:
            raise IntegrityError(
                f"manifest.json and events.jsonl are both missing, but memory/ holds {len(names)} memory "
                "file(s); nothing was changed",
                path=self.root,
                hint="restore events.jsonl (a backup, or `memory-review verify --repair` from the git history); "
                "the memories are still in memory/",
            )

    def _upgrade(self, manifest: Manifest, head: LogHead, tail: list[Event]) -> tuple[Manifest, LogHead, list[Event]]:
        """An older store format becomes this one: backed up, recorded (``store.upgraded``), compacted.

        Idempotent: a crash after the event but before the new manifest finds the event in the tail
        and only compacts.
        """
        if not any(event.type == UPGRADED for event in tail):
            backup = back_up(self.root, "upgrade")
            draft = EventDraft(
                type=UPGRADED,
                actor="memory-review",
                reason=f"store format {manifest.version} -> {MANIFEST_VERSION}; the files before it are in {backup}",
            )
            tx = Transaction(self, manifest, head, tail)
            tx.commit(Plan(drafts=[draft]), compact=False)
            head, tail = tx.view.head, tx.tail
        listed = self._listed_entries(manifest)
        return self._compact(listed, head, tail), head, []

    def _listed_entries(self, manifest: Manifest) -> Manifest:
        """Entries of format-1 stores that predate type/description/updated_at get them from their file."""
        entries = {}
        for memory_id, entry in manifest.memories.items():
            if not entry.listed:
                with contextlib.suppress(MemoryReviewError, FileMovedUnderUs):  # verify reports a bad file
                    entry = ManifestEntry.of(entry.file, entry.sha256, self.read_memory(memory_id, entry))
            entries[memory_id] = entry
        return manifest.model_copy(update={"memories": entries})

    def _compact(
        self, manifest: Manifest, head: LogHead, tail: Iterable[Event], *, rewrite_damaged: bool = False
    ) -> Manifest:
        """Write the whole checkpoint from ``manifest`` and the fold of ``tail``, the plain way; then collect.

        A tail memory whose file is missing gets it from its log line (O_EXCL, as recovery always
        did); one present with other bytes was changed after its commit and is left for ``verify``
        to report, unless ``rewrite_damaged`` (repair). Each commit wrote its own candidate files,
        so they are written again only by repair or for a writer that may not have finished (the
        unfinished marker): a candidate file changed since is never blessed. Then session files are
        brought up to the fold, ``MEMORY.md`` and ``manifest.json`` renamed and made durable by one
        directory fsync, and only then is any file collected.
        """
        tail = list(tail)
        folded = fold_all(EMPTY, tail)  # a copy of the list: a compaction is rare, its fold not kept
        finish = rewrite_damaged or self._finishing
        told = [(o, o.before_compaction(self, head)) for o in self.compaction_observers]
        self._write_memory_files(list(folded.memory_set().values()), replace=rewrite_damaged)
        sessions = self._roll_sessions(folded, manifest)
        updated = compacted(manifest, head, folded, sessions)
        with storage_errors(self.root):
            # Resolved candidates go BEFORE the manifest moves past them: a leftover file would be pending.
            self._write_candidates(folded.pending() if finish else [], folded.resolved())
            self._write_index(updated.memories)
            data = encode_manifest(updated)
            atomic_replace(self.manifest_path, data, sync_dir=False)
            sync_directory(self.root, name="durable.atomic_replace.dir")
            self._manifest_cache = (data, updated)
        # Collected: the versions the old manifest and the tail named that the new one does not; any
        # other unnamed file only for a writer that died before its commit point, or in a repair.
        superseded = None if finish else files_of(manifest) | versions_named(tail)
        self._collect_garbage(updated, superseded=superseded)
        self._tell_compacted(told)
        return updated

    def _tell_compacted(self, told: list[tuple[CompactionObserver[Any], Any]]) -> None:
        for observer, before in told:
            if before is None:
                continue
            try:
                observer.after_compaction(self, before)
            except (MemoryReviewError, OSError) as exc:  # derived state: the compaction stands
                self._warn(f"compacted, but a follow-up step failed: {exc}")

    def _roll_sessions(self, folded: Folded, manifest: Manifest) -> dict[str, str]:
        """Session files brought up to the fold; the sha256 of each written, for the checkpoint."""
        return self.sessions.roll_forward(folded.sessions, manifest.sessions or {}, self._session_history)

    def _begin_writes(self) -> None:
        """Mark the store unfinished before the first write, so a crash's leftovers are swept next time."""
        self._debris_possible = True
        if self._unfinished:
            return
        with storage_errors(self.unfinished_path), contextlib.suppress(FileExistsError):
            os.close(open_file(self.unfinished_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
        self._unfinished = True

    def _finish_writes(self) -> None:
        """Remove the unfinished marker once nothing can be left over (a commit or compaction finished)."""
        if self._unfinished and not self._debris_possible:
            # Not made durable, and a failure is not raised: a marker that stays costs one full sweep.
            with contextlib.suppress(OSError):
                unlink(self.unfinished_path)
            self._unfinished = False

    def _write_memory_files(self, memories: list[Memory], *, replace: bool = True) -> None:
        """A new file per memory (O_EXCL, fsynced together), then ONE fsync of ``memory/``.

        ``replace``: a file of that name with other bytes is replaced whole (before the commit point
        it is unreferenced debris of a crashed write; in a repair, damage).
        """
        self._begin_writes()
        if not memories:
            return
        files = {memory_file(memory)[0]: render_memory(memory) for memory in memories}
        with storage_errors(self.memory_dir):
            # Checked slugs in memory/, which the lock holder checked is no symlink; O_EXCL never
            # writes through a planted one.
            for path in write_new_files([(self.root / name, data) for name, data in files.items()]):
                name = f"{MEMORY_DIR}/{path.name}"
                if replace and self._read_child(name) != files[name]:
                    # Unreferenced debris of a crashed write: same name, other bytes. Replace it whole.
                    atomic_replace(path, files[name])
            fsync_dir(self.memory_dir)

    def _write_candidates(self, put: list[Candidate], drop: list[str]) -> None:
        """Write pending and unlink resolved candidate files, then ONE directory fsync makes all durable."""
        # A directory fsync per file costs 1,000 fsyncs for a bulk apply of 1,000. The fault points are
        # the same as remove_file's, so the crash and I/O-error matrices still stop and fail each step.
        for candidate in put:
            atomic_replace(self.candidate_dir / f"{candidate.id}.json", encode_candidate(candidate), sync_dir=False)
        for candidate_id in drop:
            faults.point("durable.remove.before_unlink")
            unlink(self.candidate_dir / f"{candidate_id}.json")
            faults.point("durable.remove.after_unlink")
        if put or drop:
            sync_directory(self.candidate_dir, name="durable.remove.dir")

    def _write_index(self, entries: Mapping[str, ManifestEntry]) -> bool:
        """Replace MEMORY.md when its bytes change; whether it did (the caller fsyncs the directory).

        From the entries alone (they list type and description): parsing every memory file on
        every commit made a commit O(store size).
        """
        items = [(e.type, memory_id, e.description) for memory_id, e in entries.items() if e.type and e.description]
        data = render_index_lines(items)
        if data == read_regular_file(self.index_path, INDEX_MAX_BYTES):
            return False
        atomic_replace(self.index_path, data, sync_dir=False)
        return True

    def _collect_garbage(self, manifest: Manifest, *, superseded: set[str] | None) -> None:
        """Remove memory files ``manifest`` does not name, and temp files left by crashes (at compaction only).

        Called with the tail folded into ``manifest`` (or no tail). ``superseded``: the only unnamed
        memory files that may go (versions the log replaced); None: every unnamed one.
        """
        keep = files_of(manifest)
        with storage_errors(self.memory_dir):
            names = list_dir(self.memory_dir)
            doomed = [
                n
                for n in names
                if n not in keep
                and (n.startswith(TEMP_PREFIX) or (n.endswith(".md") and (superseded is None or n in superseded)))
            ]
            for name in doomed:
                unlink(self.memory_dir / name)
            if doomed:
                fsync_dir(self.memory_dir)
        self._collect_temp_files()
        self._debris_possible = False

    def _collect_temp_files(self) -> None:
        """Temp files of a crashed atomic replace in the other folders (manifest, MEMORY.md, candidates)."""
        # Only the lock holder writes temp files, and we hold the lock: any found belong to a dead process.
        for folder in (self.root, self.candidate_dir, self.sessions.root):
            with storage_errors(folder):
                doomed = [n for n in list_dir(folder) if n.startswith(TEMP_PREFIX)]
                for name in doomed:
                    unlink(folder / name)
                if doomed:
                    fsync_dir(folder)


class Transaction:
    """Held inside :meth:`Store.transact`: the manifest, the tail past it, and the one way to commit a plan."""

    def __init__(self, store: Store, manifest: Manifest, head: LogHead, tail: list[Event]) -> None:
        self.store = store
        self.manifest = manifest
        self.tail = tail  # the foldable events past the manifest (docs/adr/0029)
        self._set_view(head)

    def _set_view(self, head: LogHead) -> None:
        # The head may be past the tail by LOG_ONLY events, which change nothing the view shows.
        overlay = dict(self.store.folded(self.tail).memories)
        self.view = StoreView(self.store, self.manifest, head, overlay, locked=True)

    def candidate(self, candidate_id: str) -> Candidate:
        """A pending candidate: its file, unless the tail says otherwise (a write after a commit failed)."""
        check_candidate_id(candidate_id)
        folded = self.store.folded(self.tail)
        if candidate_id in folded.candidates:
            found = folded.candidates[candidate_id]
            if found is None:
                raise NotFoundError("pending candidate", candidate_id)
            return found
        return self.store.candidate_file(candidate_id)

    def commit(self, plan: Plan, *, compact: bool = True) -> CommitResult:
        """Memory files, the log batch (the commit point), then the candidate files and MEMORY.md it changes.

        ``manifest.json`` is rewritten only when the tail past it reaches :data:`COMPACT_AFTER`.
        """
        store = self.store
        folded = plan.folded()  # what the drafts mean, by the one fold: files before and after the commit point
        store._write_memory_files(list(folded.memory_set().values()))
        log = store.log(self.manifest.origin)
        with log_errors(store.log_path):
            events = log.append(plan.drafts, expect=self.view.head)
        # Past the commit point: the change stands even if a derived file cannot be written now.
        head = log.appended if log.appended is not None else self.view.head  # a plan without events
        before = store.folded(self.tail)
        self.tail = [*self.tail, *(event for event in events if event.type not in LOG_ONLY)]
        # The tail's fold goes on from the one before the commit: only what it appended is folded.
        store._committed(self.manifest, head, self.tail, fold_all(before, events) if events else before)
        result = CommitResult(events=events)
        try:
            compacting = compact and tail_weight(self.tail) >= store.compact_after
            self._write_changed(folded, head, index=not compacting)
            if compacting:
                self.compact(head)
        except (StorageError, IntegrityError) as exc:
            result.warnings.append(
                f"the change is committed to the log, but updating derived files failed: {exc}; "
                "the next command (or `memory-review verify --repair`) completes it"
            )
        self._set_view(head)
        self._notify(events, result)
        return result

    def compact(self, head: LogHead | None = None) -> None:
        """Fold the tail into the manifest now (the whole manifest, written from the fold)."""
        head = head or self.view.head
        self.manifest = self.store._compact(self.manifest, head, self.tail)
        self.tail = []
        self._set_view(head)

    def _write_changed(self, folded: Folded, head: LogHead, *, index: bool) -> None:
        """The derived files one commit changes: its candidates, and MEMORY.md if it moves (``index``)."""
        store = self.store
        with storage_errors(store.root):
            store._write_candidates(folded.pending(), folded.resolved())
            if index and folded.memories:
                now = compacted(self.manifest, head, store.folded(self.tail))
                if store._write_index(now.memories):
                    sync_directory(store.root, name="durable.atomic_replace.dir")
        # Every file this commit wrote is named by the tail; what it replaced is collected at compaction.
        store._debris_possible = False

    def _notify(self, events: list[Event], result: CommitResult) -> None:
        for observer in self.store.observers:
            try:
                observer(self.store, events)
            except MemoryReviewError as exc:
                result.warnings.append(f"committed, but a follow-up step failed: {exc}")


LogStamp = tuple[int, int, int] | None
"""The log file's inode, size and modification time (None: no file)."""


def log_stamp(path: Path) -> LogStamp:
    """What changes when the log file is written, replaced or removed (the link itself: never followed)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def tail_weight(tail: list[Event]) -> int:
    """How much a reader folds past the manifest: one per event, or per memory change for a larger one."""
    return sum(max(1, len(event.changes or ())) for event in tail)


def files_of(manifest: Manifest) -> set[str]:
    """The memory file names ``manifest`` lists."""
    return {entry.file.rpartition("/")[2] for entry in manifest.memories.values()}


def versions_named(events: Iterable[Event]) -> set[str]:
    """The memory file names of every version ``events`` write (the tail names versions by content hash)."""
    return {
        memory_file(memory_from_json(change.after))[0].rpartition("/")[2]
        for event in events
        if event.type != SESSION_EVENT
        for change in event.changes or ()
        if change.after
    }


def memory_file(memory: Memory) -> tuple[str, str]:
    """The content-addressed file name of ``memory`` (``memory/<id>-<sha12>.md``) and its sha256."""
    sha = memory_sha256(memory)
    return f"{MEMORY_DIR}/{memory.id}-{sha[:12]}.md", sha


def compacted(manifest: Manifest, head: LogHead, folded: Folded, sessions: Mapping[str, str] | None = None) -> Manifest:
    """``manifest`` with ``folded`` (the fold of the tail) in it, at ``head``, in this store format."""
    entries = dict(manifest.memories)
    for memory_id, memory in folded.memories.items():
        if memory is None:
            entries.pop(memory_id, None)
        else:
            name, sha = memory_file(memory)
            entries[memory_id] = ManifestEntry.of(name, sha, memory)
    session_files = {**(manifest.sessions or {}), **(sessions or {})} or None
    return Manifest(
        version=MANIFEST_VERSION,
        origin=manifest.origin,
        log_seq=head.seq,
        log_head=head.hash,
        memories=entries,
        sessions=session_files,
    )


def _loaded(view: StoreView) -> StoreView:
    view.memories()  # reads and checks every file now
    return view


def bad_candidate_warning(folder: Path, name: str, exc: MemoryReviewError) -> str:
    """The warning for a candidate file a reader skipped; a hostile name is shown escaped, never raw."""
    try:
        check_candidate_id(name[: -len(".json")])
    except ValidationError:
        return f"{folder}: {shown(name)} is not a candidate file name (skipped)"
    return f"bad candidate file (skipped): {exc}"


@contextmanager
def log_errors(path: Path) -> Iterator[None]:
    """Translate the log's own errors into ours: the one place that does."""
    try:
        yield
    except LogIntegrityError as exc:
        raise IntegrityError(
            exc.reason, path=path, line=exc.line, hint="run `memory-review verify` to see every problem"
        ) from exc
    except EventNotFoundError as exc:
        raise NotFoundError("event", str(exc.seq)) from exc
    except OSError as exc:
        raise storage_error(exc, path) from exc
    except LogError as exc:
        raise IntegrityError(str(exc), path=path) from exc
