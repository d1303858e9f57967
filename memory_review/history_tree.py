"""The tree of a history commit, written at the cost of the change (docs/adr/0024).

A history commit's tree is::

    MEMORY.md
    log/<first seq>.jsonl          the event log, in append-only chunks (history_log)
    memory/<shard>/<id>-<rev>.md   the approved memory files, <shard> = sha256(id)[:2]

Each commit starts from the one before it: the log's closed chunks are kept by id and only
the open chunk and the lines after it are read (from the local log, at the offset the
previous tree's chunk sizes give) and stored; only the shards holding a memory that changed
are written again, every other shard and chunk is the same tree or blob. So an apply stores
its memory file, one shard tree (a few dozen entries), ``memory/`` (256 entries at most),
the open chunk, ``log/``, ``MEMORY.md`` and the commit — however large the store.

The tree is built whole instead — every memory file listed from the manifest, the log
re-read and cut — when the previous commit cannot be continued that cheaply: none yet, one
written in the old single-``events.jsonl`` form, someone else's, a log that does not
continue it, or a change whose events do not name every memory they touch.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from memory_review.errors import IntegrityError
from memory_review.events import GENESIS, Event, decode_event, line_hash
from memory_review.events.safe_fs import open_file, read_fd, read_file, read_file_or
from memory_review.file_reads import storage_errors
from memory_review.gitrepo import GitRepo, ListedEntry, RefTip, TreeEntry
from memory_review.history_log import LOG_DIR, LogChunks, chunk_lines, split_lines
from memory_review.ids import safe_child
from memory_review.manifest import Manifest
from memory_review.store import MEMORY_DIR, Store, log_errors

FILE_MODE, TREE_MODE = "100644", "040000"
NAMED_CHANGES = frozenset(
    {
        "candidate.created",
        "candidate.edited",
        "candidate.applied",
        "candidate.discarded",
        "candidate.restored",
        "memory.reverted",
        "memory.deleted",
        "sync.merged",
        "context.built",
        "session.written",
    }
)
"""Events whose ``changes`` name every memory they touch: the only ones an incremental tree trusts."""
REV_SUFFIX = len("-0123456789ab.md")
INDEX_NAME = "MEMORY.md"
INDEX_LIMIT = 1 << 20
"""MEMORY.md is bounded to 25,000 bytes when written; a larger one is not ours to record."""
MEMORY_FILE_LIMIT = 1 << 20


def shard_of(memory_id: str) -> str:
    """The ``memory/`` sub-folder holding a memory's files: spread evenly, the same for every version."""
    return hashlib.sha256(memory_id.encode()).hexdigest()[:2]


def memory_id_of(file_name: str) -> str:
    """The memory id in a memory file name ``<id>-<rev>.md``."""
    return file_name[:-REV_SUFFIX]


class Position(NamedTuple):
    """The log position a history commit records (from its trailers)."""

    seq: int
    head: str


@dataclass
class NewLines:
    """The local log as the next commit needs it."""

    first_seq: int
    """The seq of ``lines[0]``: the open chunk's first event (1 when the log is cut whole)."""
    lines: list[bytes]
    """The open chunk's lines (or the whole log's), then every line the history lacks."""
    since: int
    """Index in ``lines`` of the first line the history lacks."""
    restarted: bool = False
    """The previous commit does not record this log (written by someone else, or the log was rewritten)."""
    previous: LogChunks | None = None
    """The previous commit's chunks, when this continues them."""

    @property
    def missing(self) -> list[bytes]:
        return self.lines[self.since :]

    def events(self, path: Path) -> list[Event]:
        """The events the history lacks, decoded."""
        with log_errors(path):
            return [
                decode_event(line, path=path, line_no=number)
                for number, line in enumerate(self.missing, self.first_seq + self.since)
            ]


@dataclass
class LocalLog:
    """Reads the local log from the offset the previous history commit stopped at."""

    store: Store
    reads: list[int] = field(default_factory=list)
    """Bytes read per call (the tests hold a continued commit to reading only its tail)."""

    def since(self, repo: GitRepo | None, tip: RefTip | None, position: Position | None) -> NewLines:
        """The lines the next commit needs: the open chunk's and the new ones, or the whole log."""
        chunks = self._chunks(repo, tip) if position is not None and position.seq > 0 else None
        if position is not None and chunks is not None and chunks.open is not None:
            continued = self._continue(chunks, position)
            if continued is not None:
                return continued
        return self._whole(position)

    @staticmethod
    def _chunks(repo: GitRepo | None, tip: RefTip | None) -> LogChunks | None:
        if repo is None or tip is None:
            return None
        try:
            return LogChunks.of(repo.list_tree(tip.commit, LOG_DIR), where=f"commit {tip.commit[:12]}")
        except IntegrityError:
            return None  # not ours: history restarts on top of it

    def _continue(self, chunks: LogChunks, position: Position) -> NewLines | None:
        """The open chunk and the lines after it, if the local log continues what the tip records."""
        assert chunks.open is not None
        start = chunks.closed_size
        data = self._read_from(max(start - 1, 0))
        if start > 0:
            if data[:1] != b"\n":
                return None
            data = data[1:]
        recorded = data[: chunks.open.size]
        lines = split_lines(recorded)
        first = chunks.first_seq(chunks.open)
        if (
            len(recorded) != chunks.open.size
            or not lines
            or len(lines) != position.seq - first + 1
            or line_hash(lines[-1]) != position.head
        ):
            return None
        return NewLines(first, lines + split_lines(data[len(recorded) :]), len(lines), previous=chunks)

    def _whole(self, position: Position | None) -> NewLines:
        lines = split_lines(self._read_from(0))
        seq = position.seq if position else 0
        continues = position is None or (
            0 <= seq <= len(lines) and position.head == (GENESIS if seq == 0 else line_hash(lines[seq - 1]))
        )
        return NewLines(1, lines, seq if continues else 0, restarted=not continues)

    def _read_from(self, offset: int) -> bytes:
        self.store.check_folders()
        path = self.store.log_path
        with storage_errors(path):
            try:
                fd = open_file(path, single_link=True)  # never through a link, never a FIFO (ADR 0020)
            except FileNotFoundError:
                return b""
            try:
                os.lseek(fd, offset, os.SEEK_SET)
                data = read_fd(fd, path=path)
            finally:
                os.close(fd)
        self.reads.append(len(data))
        return data


class TreeBuilder:
    """Writes the tree of the next history commit from the previous one and what changed."""

    def __init__(self, repo: GitRepo, store: Store, manifest: Manifest, tip: RefTip | None) -> None:
        self.repo, self.store, self.manifest, self.tip = repo, store, manifest, tip

    def tree(self, new: NewLines, events: list[Event]) -> str:
        """The id of the tree: ``MEMORY.md``, ``log/`` and ``memory/``."""
        incremental = new.previous is not None and all(e.type in NAMED_CHANGES for e in events)
        listed = self._tip_memory(events) if incremental else []
        shards = self._shards_changed(events, listed) if incremental else self._shards_whole()
        index = self._index()
        chunks = chunk_lines(new.lines, new.first_seq)
        fresh = [(shard, name, data) for shard, files in shards.items() for name, data in files.fresh.items()]
        # Every new blob in one git process: bytes already read and checked, never a path git would follow.
        ids = self.repo.hash_many([data for _s, _n, data in fresh] + [c.data for c in chunks] + index)
        for (shard, name, _data), sha in zip(fresh, ids, strict=False):
            shards[shard].known[name] = sha
        kept = [entry.entry() for entry in (new.previous.entries[:-1] if new.previous else ())]
        log = kept + [
            TreeEntry(FILE_MODE, "blob", sha, c.name) for c, sha in zip(chunks, ids[len(fresh) :], strict=False)
        ]
        filled = sorted((name, files.entries()) for name, files in shards.items() if files.known)
        with self.repo.tree_writer() as make_tree:  # one git process for every tree, in order
            shard_ids = {name: make_tree(entries) for name, entries in filled}
            top = [TreeEntry(TREE_MODE, "tree", make_tree(log), LOG_DIR)] if log else []  # an empty log: no log/
            memory = self._memory_entries(shards, shard_ids, listed)
            if memory:
                top.append(TreeEntry(TREE_MODE, "tree", make_tree(memory), MEMORY_DIR))
            if index:
                top.append(TreeEntry(FILE_MODE, "blob", ids[-1], INDEX_NAME))
            return make_tree(top)

    def _index(self) -> list[bytes]:
        """``MEMORY.md``'s bytes (none when the store has none yet)."""
        path = self.store.index_path
        with storage_errors(path):
            data = read_file_or(path, INDEX_LIMIT)
        return [] if data is None else [data]

    # --- memory files ----------------------------------------------------------------------

    def _tip_memory(self, events: list[Event]) -> list[ListedEntry]:
        """The previous commit's ``memory/`` in one listing: the contents of the shards the events touch
        (git lists a folder's contents in place of its entry when both are asked) and every other shard."""
        if self.tip is None:
            return []
        touched = sorted({shard_of(change.memory) for event in events for change in event.changes or ()})
        return self.repo.list_tree(self.tip.commit, MEMORY_DIR, *(f"{MEMORY_DIR}/{name}" for name in touched))

    def _shards_changed(self, events: list[Event], listed: list[ListedEntry]) -> dict[str, ShardFiles]:
        """The shards holding a memory the events changed, each as it must become (``listed``: the tip's)."""
        changed = {change.memory for event in events for change in event.changes or ()}
        touched = sorted({shard_of(memory_id) for memory_id in changed})
        shards = {name: ShardFiles() for name in touched}
        for entry in listed:
            parts = entry.path.split("/")
            if (
                len(parts) == 3
                and entry.kind == "blob"
                and parts[1] in shards
                and memory_id_of(entry.name) not in changed
            ):
                shards[parts[1]].known[entry.name] = entry.sha
        for memory_id in sorted(changed):
            if memory_id in self.manifest.memories:
                self._place(shards[shard_of(memory_id)], memory_id)
        return shards

    def _shards_whole(self) -> dict[str, ShardFiles]:
        """Every shard, from the manifest; files an earlier commit holds are reused by name."""
        recorded = self._recorded_files()
        shards: dict[str, ShardFiles] = {}
        for memory_id in self.manifest.memories:
            self._place(shards.setdefault(shard_of(memory_id), ShardFiles()), memory_id, recorded)
        return shards

    def _recorded_files(self) -> dict[str, str]:
        """Memory file name -> blob id in the previous commit, flat (old form) or sharded."""
        if self.tip is None or not self.manifest.memories:
            return {}
        out = self.repo.list_tree(self.tip.commit, MEMORY_DIR)
        files = {e.name: e.sha for e in out if e.kind == "blob"}
        folders = [e.path for e in out if e.kind == "tree"]
        for index in range(0, len(folders), 64):  # a shard's contents, a few at a time (never with memory/)
            files |= {
                e.name: e.sha
                for e in self.repo.list_tree(self.tip.commit, *folders[index : index + 64])
                if e.kind == "blob"
            }
        return files

    def _place(self, shard: ShardFiles, memory_id: str, recorded: dict[str, str] | None = None) -> None:
        entry = self.manifest.memories[memory_id]
        name = entry.file.rpartition("/")[2]
        if recorded is not None and name in recorded:
            shard.known[name] = recorded[name]  # names are content-addressed: no need to hash it again
        elif name not in shard.known:
            shard.fresh[name] = self._checked_file(entry.file, entry.sha256)

    def _checked_file(self, name: str, sha256: str) -> bytes:
        """A memory file the manifest names, refused if its bytes are not what the manifest says."""
        safe_child(self.store.root, name)  # refuses '..' and the like; the file itself is never followed:
        path = self.store.root / name
        with storage_errors(path):
            data = read_file(path, MEMORY_FILE_LIMIT)
        if hashlib.sha256(data).hexdigest() != sha256:
            raise IntegrityError("content does not match manifest.json; not recorded in git", path=path)
        return data

    @staticmethod
    def _memory_entries(
        shards: dict[str, ShardFiles], shard_ids: dict[str, str], listed: list[ListedEntry]
    ) -> list[TreeEntry]:
        """The entries of ``memory/``: the new shard trees, and (incrementally: ``listed``, the tip's) every
        other shard as it was."""
        entries = {name: TreeEntry(TREE_MODE, "tree", sha, name) for name, sha in shard_ids.items()}
        for entry in listed:
            if entry.kind == "tree" and entry.path.count("/") == 1 and entry.name not in shards:
                entries[entry.name] = entry.entry()
        return [entries[name] for name in sorted(entries)]


@dataclass
class ShardFiles:
    """The files of one ``memory/<shard>/`` folder: blobs already stored, and files still to hash."""

    known: dict[str, str] = field(default_factory=dict)
    """File name -> blob id."""
    fresh: dict[str, bytes] = field(default_factory=dict)
    """File name -> bytes, checked against the manifest, to store."""

    def entries(self) -> list[TreeEntry]:
        return [TreeEntry(FILE_MODE, "blob", sha, name) for name, sha in sorted(self.known.items())]
