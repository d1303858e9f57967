"""A durable store and its one commit path (DESIGN §5).

Every change — propose, edit, apply, discard, revert, delete, session write —
goes through :meth:`Store.transact`::

    lock -> recover (roll the manifest forward from the log) -> decide (pure rules)
         -> write new memory files (O_EXCL, fsync, fsync dir)
         -> append the events (one fsync)                       <- the commit point
         -> candidate files, MEMORY.md, manifest.json (atomic replace)
         -> drop resolved candidate files, collect unreferenced memory files -> unlock

Readers take no lock: they read the manifest and, if the log has moved past it
(a writer died after its commit point), fold the missing events in memory.

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
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from events import Event, EventDraft, EventLog, EventNotFoundError, LogError, LogHead, LogIntegrityError
from events import faults
from events.durable import atomic_replace, fsync_dir, sync_directory, write_new_files
from events.safe_fs import check_dir, list_dir, make_dir, open_file, read_fd, unlink

from memory_review.candidate import MAX_CANDIDATE_BYTES, Candidate, decode_candidate, encode_candidate
from memory_review.errors import (
    IntegrityError,
    MemoryReviewError,
    NotFoundError,
    StorageError,
    ValidationError,
)
from memory_review.file_reads import read_regular_file, read_store_file, storage_error, storage_errors
from memory_review.ids import check_candidate_id, new_origin_id, shown
from memory_review.locking import DEFAULT_TIMEOUT, store_lock
from memory_review.manifest import (
    INDEX_MAX_BYTES,
    MAX_MANIFEST_BYTES,
    Manifest,
    ManifestEntry,
    ManifestLines,
    SortedIndexItems,
    decode_manifest,
    encode_manifest,
    render_index_lines,
)
from memory_review.models import Memory
from memory_review.record_io import parse_memory, render_memory
from memory_review.rules import Plan
from memory_review.sessions import SESSION_EVENT, SessionFileMismatch, SessionFiles
from memory_review.storage import EMPTY, Folded, fold_all
from memory_review.store_view import FileMovedUnderUs, StoreView, missing_file_error

T = TypeVar("T")

MEMORY_DIR = "memory"
CANDIDATE_DIR = "candidates"
TEMP_PREFIX = ".tmp"
LOG_ONLY = frozenset({"context.built"})
"""Event types that change no derived file: recorded by a log append alone, never a checkpoint."""
UNFINISHED = ".unfinished"
"""In ``memory/`` while a lock holder writes: the next one lists the folders for leftovers only if it is there."""


@dataclass
class CommitResult:
    """What a commit appended, and any trouble after its commit point (it still stands)."""

    events: list[Event]
    warnings: list[str] = field(default_factory=list)


class Store:
    """One self-contained store folder: manifest, memory files, candidates, the event log."""

    def __init__(self, root: Path, scope: str, *, lock_timeout: float = DEFAULT_TIMEOUT,
                 warnings: list[str] | None = None) -> None:
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
        # What past_checkpoint last found, by (manifest position, log head): a command reads it several times.
        self._past_cache: tuple[tuple[tuple[int, str], LogHead], list[Event]] | None = None
        # Entries of the memory files this commit wrote, so the checkpoint does not render them again.
        self._written: dict[str, tuple[Memory, ManifestEntry]] = {}
        self._index_items = SortedIndexItems()  # MEMORY.md's lines, kept sorted between checkpoints
        self._manifest_lines = ManifestLines()  # so a checkpoint encodes only the entries it changed
        self._referenced: tuple[Manifest, set[str]] | None = None
        self._all_listed: Manifest | None = None  # the last manifest this process checkpointed
        self._swept: Manifest | None = None  # what this lock holder's last full sweep left the store at
        self.unfinished_path = self.memory_dir / UNFINISHED
        self._unfinished = False  # whether the marker file is there (as far as this lock holder knows)
        self._debris_possible = False  # files written since the last finished checkpoint or full sweep
        # Called after each commit's checkpoint (e.g. git history); their failures become warnings.
        self.observers: list[Callable[[Store, list[Event]], None]] = []
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
        return StoreView(self, manifest, head, dict(fold_all(EMPTY, events).memories))

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
            raise IntegrityError("content does not match the sha256 in manifest.json (edited by hand?)",
                                 path=path, hint="run `memory-review verify` for details")
        memory = parse_memory(data, path=path)
        if memory.id != memory_id or memory.scope != self.scope:
            raise IntegrityError(f"holds {memory.scope} memory {memory.id!r}, manifest says "
                                 f"{self.scope} {memory_id!r}", path=path)
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
            names = sorted(p for p in list_dir(self.candidate_dir)
                           if p.endswith(".json") and not p.startswith(TEMP_PREFIX))
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
        folded = fold_all(EMPTY, self.past_checkpoint(manifest)[1])
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
        for memory_id, memory in fold_all(EMPTY, events).sessions.get(session_id, {}).items():
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

    def _roll_sessions(self, folded: Folded, manifest: Manifest) -> dict[str, str]:
        """Session files brought up to the fold; the sha256 of each written, for the checkpoint."""
        return self.sessions.roll_forward(folded.sessions, manifest.sessions or {}, self._session_history)

    def past_checkpoint(self, manifest: Manifest) -> tuple[LogHead, list[Event]]:
        """The log's head, and the events past ``manifest``'s position that change a derived file.

        An empty list with a head past the manifest is the at-rest state of :data:`LOG_ONLY` events
        (docs/adr/0023). Only the lines past the manifest are read (backward from the end), each
        chain-checked from the manifest's ``log_head``; the answer is kept for the same head.
        """
        position = (manifest.log_seq, manifest.log_head)
        with log_errors(self.log_path):
            log = self.log()
            head = log.head()
            cached = self._past_cache
            if cached is not None and cached[0] == (position, head):
                return head, cached[1]
            if head.seq < manifest.log_seq:
                raise IntegrityError(f"the log ends at seq {head.seq} but the manifest is at "
                                     f"{manifest.log_seq}: events were lost", path=self.log_path,
                                     hint="restore events.jsonl from a backup; `memory-review verify` explains")
            if head.seq == manifest.log_seq and head.hash != manifest.log_head:
                raise IntegrityError(f"log line {head.seq} does not match the manifest's log_head",
                                     path=self.log_path, hint="run `memory-review verify`")
            head, events = log.since(*position, skim=LOG_ONLY)
        self._past_cache = ((position, head), events)
        return head, events

    def at_rest(self, manifest: Manifest) -> bool:
        """Whether ``manifest`` is the current set: nothing but :data:`LOG_ONLY` events follow it."""
        return not self.past_checkpoint(manifest)[1]

    # --- the commit path ---------------------------------------------------------------

    @contextmanager
    def transact(self, *, sweep: bool = False) -> Iterator[Transaction]:
        """Lock, recover, and hand out a transaction whose ``commit`` is the one way to write.

        ``sweep`` lists every folder for leftovers even if no writer left the unfinished marker
        (``verify`` does, for debris of versions that wrote none).
        """
        with self.locked():
            manifest, head = self._recover(sweep=sweep)
            try:
                yield Transaction(self, manifest, head)
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

    def _recover(self, *, sweep: bool = False) -> tuple[Manifest, LogHead]:
        """Roll the manifest (and derived files) forward to the log's head; idempotent."""
        self._unfinished = os.path.lexists(self.unfinished_path)
        self._debris_possible = self._unfinished or sweep
        self._swept = None  # until this recovery has read the manifest, or swept
        with log_errors(self.log_path):
            # A dead writer's partial append (we hold the lock: nobody else is writing). Cutting it here
            # rather than at the next append lets `verify` pass right after recovery, like LevelDB does.
            self.log().cut_torn_tail()
        manifest = self.read_manifest()
        if manifest is None:
            head, events = self.past_checkpoint(Manifest(origin="0" * 16))
            return self._roll_forward(Manifest(origin=new_origin_id()), head, events), head
        if not self._debris_possible:
            # Every writer makes the unfinished marker before its first write and removes it once its
            # checkpoint is done: without it nothing can be left over, and 10,000 names need no listing.
            self._swept = manifest
        head, events = self.past_checkpoint(manifest)
        if events:
            return self._roll_forward(manifest, head, events), head
        if self._debris_possible:
            # A writer died before its commit point (or while collecting): its leftovers go now.
            self._collect_garbage(manifest)
        # Only LOG_ONLY events may follow the manifest now: the next commit's checkpoint moves past them.
        return manifest, head

    def _roll_forward(self, manifest: Manifest, head: LogHead, events: list[Event]) -> Manifest:
        folded = fold_all(EMPTY, events)
        self._write_memory_files(list(folded.memory_set().values()))
        return self._checkpoint_folded(manifest, head, folded)

    def _checkpoint_folded(self, manifest: Manifest, head: LogHead, folded: Folded) -> Manifest:
        """The checkpoint of ``manifest`` moved to ``head`` by what ``folded`` says changed."""
        sessions = self._roll_sessions(folded, manifest)
        return self._checkpoint(manifest, head, dict(folded.memories), folded.pending(), folded.resolved(),
                                sessions)

    def _begin_writes(self) -> None:
        """Mark the store unfinished before the first write, so a crash's leftovers are swept next time."""
        self._debris_possible = True
        if self._unfinished:
            return
        with storage_errors(self.unfinished_path), contextlib.suppress(FileExistsError):
            os.close(open_file(self.unfinished_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
        self._unfinished = True

    def _finish_writes(self) -> None:
        """Remove the unfinished marker once nothing can be left over (a checkpoint or full sweep finished)."""
        if self._unfinished and not self._debris_possible:
            # Not made durable, and a failure is not raised: a marker that stays costs one full sweep.
            with contextlib.suppress(OSError):
                unlink(self.unfinished_path)
            self._unfinished = False

    def _write_memory_files(self, memories: list[Memory]) -> None:
        """A new file per memory (O_EXCL, fsynced together), then ONE fsync of ``memory/``."""
        self._begin_writes()
        self._written = {}
        if not memories:
            return
        files: dict[str, bytes] = {}
        for memory in memories:
            data = render_memory(memory)
            sha = hashlib.sha256(data).hexdigest()
            name = f"{MEMORY_DIR}/{memory.id}-{sha[:12]}.md"
            files[name] = data
            self._written[memory.id] = (memory, ManifestEntry.of(name, sha, memory))
        with storage_errors(self.memory_dir):
            # Checked slugs in memory/, which the lock holder checked is no symlink; O_EXCL never
            # writes through a planted one.
            for path in write_new_files([(self.root / name, data) for name, data in files.items()]):
                name = f"{MEMORY_DIR}/{path.name}"
                if self._read_child(name) != files[name]:
                    # Unreferenced debris of a crashed write: same name, other bytes. Replace it whole.
                    atomic_replace(path, files[name])
            fsync_dir(self.memory_dir)

    def _entry(self, memory: Memory) -> ManifestEntry:
        """The manifest entry of ``memory``, reusing the render of the file just written for it."""
        written = self._written.get(memory.id)
        if written is not None and written[0] is memory:  # the same (frozen) object: the same bytes
            return written[1]
        data = render_memory(memory)
        sha = hashlib.sha256(data).hexdigest()
        return ManifestEntry.of(f"{MEMORY_DIR}/{memory.id}-{sha[:12]}.md", sha, memory)

    def _checkpoint(self, manifest: Manifest, head: LogHead, delta: dict[str, Memory | None],
                    put: list[Candidate], drop: list[str], sessions: dict[str, str] | None = None) -> Manifest:
        self._begin_writes()
        entries = dict(manifest.memories)
        for memory_id, memory in delta.items():
            if memory is None:
                entries.pop(memory_id, None)
            else:
                entries[memory_id] = self._entry(memory)
        listed, relisted = self._listed(manifest, entries)
        # What the kept MEMORY.md items and manifest lines need: which entries differ from which manifest.
        previous, changed = (None, ()) if relisted else (manifest, delta.keys())
        # Every part is already validated (entries are ManifestEntry objects, the head is the log's):
        # checking 10,000 entries again on each commit cost milliseconds.
        session_files = {**(manifest.sessions or {}), **(sessions or {})} or None
        updated = Manifest.model_construct(origin=manifest.origin, log_seq=head.seq, log_head=head.hash,
                                           memories=listed, sessions=session_files)
        with storage_errors(self.root):
            # Resolved candidates go BEFORE the manifest moves: the manifest is the checkpoint, so once it
            # names a seq, recovery redoes nothing up to it and a leftover file would stay "pending" forever.
            self._write_candidates(put, drop)
            # MEMORY.md and the manifest are renamed first, then one directory fsync makes both durable.
            self._write_index(updated, previous, changed)
            data = encode_manifest(updated, self._manifest_lines.lines(updated, previous, changed))
            atomic_replace(self.manifest_path, data, sync_dir=False)
            sync_directory(self.root, name="durable.atomic_replace.dir")
            self._manifest_cache = (data, updated)
            self._all_listed = updated
        self._collect_garbage(updated, swept=manifest, changed=delta.keys())
        self._debris_possible = False  # all this checkpoint wrote is referenced, all it replaced is gone
        return updated

    def _write_candidates(self, put: list[Candidate], drop: list[str]) -> None:
        """Write pending and unlink resolved candidate files, then ONE directory fsync makes all durable."""
        # A directory fsync per file costs 1,000 fsyncs for a bulk apply of 1,000. The fault points are
        # the same as remove_file's, so the crash and I/O-error matrices still stop and fail each step.
        for candidate in put:
            atomic_replace(self.candidate_dir / f"{candidate.id}.json", encode_candidate(candidate),
                           sync_dir=False)
        for candidate_id in drop:
            faults.point("durable.remove.before_unlink")
            unlink(self.candidate_dir / f"{candidate_id}.json")
            faults.point("durable.remove.after_unlink")
        if put or drop:
            sync_directory(self.candidate_dir, name="durable.remove.dir")

    def _listed(self, manifest: Manifest,
                entries: dict[str, ManifestEntry]) -> tuple[dict[str, ManifestEntry], bool]:
        """Entries from before the manifest listed type/description/updated_at get them from their file, once.

        Also says whether any entry changed so (MEMORY.md lists those fields).
        """
        if manifest is self._all_listed:
            return entries, False  # this process wrote that manifest: its entries are listed (or unreadable)
        listed, relisted = {}, False
        for memory_id, entry in entries.items():
            if not entry.listed:
                with contextlib.suppress(MemoryReviewError, FileMovedUnderUs):  # verify reports a bad file
                    entry = ManifestEntry.of(entry.file, entry.sha256, self.read_memory(memory_id, entry))
                    relisted = True
            listed[memory_id] = entry
        return listed, relisted

    def _write_index(self, manifest: Manifest, previous: Manifest | None, changed: Iterable[str]) -> None:
        """Replace MEMORY.md when its bytes change (the caller fsyncs the directory).

        From the manifest alone: parsing every memory file on every commit made a commit O(store
        size). It is a function of the entries, rewritten at every checkpoint that changes them, so a
        commit that changes none (propose, discard, context.built) leaves it as it is. ``changed``:
        the memories whose entries differ from ``previous`` (None: any may differ).
        """
        current = read_regular_file(self.index_path, INDEX_MAX_BYTES)
        if previous is not None and not changed and current is not None:
            self._index_items.carry(manifest, previous)
            return
        items = self._index_items.items(manifest, previous, changed)
        data = render_index_lines(items, presorted=True)
        if data != current:
            atomic_replace(self.index_path, data, sync_dir=False)

    def _referenced_names(self, manifest: Manifest) -> set[str]:
        """Memory file names ``manifest`` references; kept per manifest, as recovery and the checkpoint
        of the next commit ask for the same one (a 10,000-entry set costs ~8 ms)."""
        if self._referenced is None or self._referenced[0] is not manifest:
            self._referenced = (manifest, {e.file.rpartition("/")[2] for e in manifest.memories.values()})
        return self._referenced[1]

    def _collect_garbage(self, manifest: Manifest, *, swept: Manifest | None = None,
                         changed: Iterable[str] = ()) -> None:
        """Remove memory files no manifest entry names, and temp files left by crashes.

        ``swept`` is the manifest this commit started from: if this lock holder's recovery swept
        the store at it, only the old files of the ``changed`` memories can be unreferenced now,
        so the folders are not listed again (10,000 names, twice per commit otherwise).
        """
        if swept is not None and swept is self._swept:
            # A file name holds its memory's id, so only that memory's new entry could still name it.
            olds = ((swept.memories.get(mid), manifest.memories.get(mid)) for mid in changed)
            self._remove_memory_files([old.file.rpartition("/")[2] for old, new in olds
                                       if old is not None and (new is None or new.file != old.file)])
            self._swept = manifest
            return
        keep = self._referenced_names(manifest)
        with storage_errors(self.memory_dir):
            names = list_dir(self.memory_dir)  # none: the other folders may still hold a dead writer's temp files
        doomed = [n for n in names if n not in keep and (n.endswith(".md") or n.startswith(TEMP_PREFIX))]
        self._remove_memory_files(doomed)
        self._collect_temp_files()
        self._swept = manifest
        self._debris_possible = False

    def _remove_memory_files(self, doomed: list[str]) -> None:
        with storage_errors(self.memory_dir):
            for name in doomed:
                unlink(self.memory_dir / name)
            if doomed:
                fsync_dir(self.memory_dir)

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
    """Held inside :meth:`Store.transact`: a recovered view and the one way to commit a plan."""

    def __init__(self, store: Store, manifest: Manifest, head: LogHead) -> None:
        self.store = store
        self.manifest = manifest
        # The head may be past the manifest by LOG_ONLY events, which change nothing the view shows.
        self.view = StoreView(store, manifest, head, locked=True)

    def candidate(self, candidate_id: str) -> Candidate:
        """A pending candidate from its file: under the lock, after recovery, the files are current."""
        return self.store.candidate_file(candidate_id)

    def commit(self, plan: Plan) -> CommitResult:
        store = self.store
        folded = plan.folded()  # what the drafts mean, by the one fold: files before and after the commit point
        store._write_memory_files(list(folded.memory_set().values()))
        log = store.log(self.manifest.origin)
        with log_errors(store.log_path):
            events = log.append(plan.drafts, expect=self.view.head)
        # Past the commit point: the change stands even if a derived file cannot be written now.
        head = log.appended if log.appended is not None else self.view.head  # a plan without events
        result = CommitResult(events=events)
        try:
            self.manifest = store._checkpoint_folded(self.manifest, head, folded)
        except (StorageError, IntegrityError) as exc:
            result.warnings.append(
                f"the change is committed to the log, but updating derived files failed: {exc}; "
                "the next command (or `memory-review verify --repair`) completes it"
            )
        self._notify(events, result)
        return result

    def _notify(self, events: list[Event], result: CommitResult) -> None:
        for observer in self.store.observers:
            try:
                observer(self.store, events)
            except MemoryReviewError as exc:
                result.warnings.append(f"committed, but a follow-up step failed: {exc}")


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
        raise IntegrityError(exc.reason, path=path, line=exc.line,
                             hint="run `memory-review verify` to see every problem") from exc
    except EventNotFoundError as exc:
        raise NotFoundError("event", str(exc.seq)) from exc
    except OSError as exc:
        raise storage_error(exc, path) from exc
    except LogError as exc:
        raise IntegrityError(str(exc), path=path) from exc
