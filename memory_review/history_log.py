"""The event log inside a git history commit: append-only chunk files under ``log/`` (docs/adr/0024).

A history commit used to hold the whole log as one ``events.jsonl`` blob, so every apply
stored a new full copy (1.3 MB of ``.git`` per apply at 4,000 memories). Now the log is cut
into chunk files, ``log/<first seq, 10 digits>.jsonl``, each a run of whole lines. The cut
is a pure function of the log's bytes — a chunk closes after the line that brings it to
:data:`CHUNK_BYTES` or more — so appending lines changes only the last (open) chunk and adds
new ones: every closed chunk stays the same blob from commit to commit, and a commit costs
the open chunk, not the log.

Readers take either form: a tree with ``log/`` (these chunks, in name order), or one
``events.jsonl`` (histories written before, and every publication ``sync`` pushes).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO, NamedTuple

from memory_review.errors import IntegrityError
from memory_review.gitrepo import GitRepo, ListedEntry

LOG_DIR = "log"
LEGACY_LOG = "events.jsonl"
CHUNK_BYTES = 64 * 1024
"""A chunk closes once it holds this many bytes or more (one line may make it larger)."""
CHUNK_NAME_RE = re.compile(r"^(\d{10})\.jsonl$")


class Chunk(NamedTuple):
    """A run of whole log lines, starting at event ``first_seq``."""

    first_seq: int
    data: bytes

    @property
    def name(self) -> str:
        return chunk_name(self.first_seq)


def chunk_name(first_seq: int) -> str:
    """The file name of the chunk whose first line is event ``first_seq``."""
    return f"{first_seq:010d}.jsonl"


def split_lines(data: bytes) -> list[bytes]:
    """The whole lines of ``data``, each with its ``\\n`` (bytes after the last newline are left out)."""
    return [line + b"\n" for line in data.split(b"\n")[:-1]]


def chunk_lines(lines: Iterable[bytes], first_seq: int) -> list[Chunk]:
    """Cut consecutive lines (the first is event ``first_seq``) into chunks; the last one is open.

    Cutting a log whole and cutting it a batch at a time from its open chunk give the same chunks.
    """
    chunks: list[Chunk] = []
    current: list[bytes] = []
    size, start, seq = 0, first_seq, first_seq
    for line in lines:
        current.append(line)
        size += len(line)
        seq += 1
        if size >= CHUNK_BYTES:
            chunks.append(Chunk(start, b"".join(current)))
            current, size, start = [], 0, seq
    if current:
        chunks.append(Chunk(start, b"".join(current)))
    return chunks


class LogChunks(NamedTuple):
    """The chunk files of a history commit's ``log/``, in log order."""

    entries: tuple[ListedEntry, ...]

    @property
    def size(self) -> int:
        return sum(entry.size for entry in self.entries)

    @property
    def open(self) -> ListedEntry | None:
        """The last chunk: the one the next commit extends."""
        return self.entries[-1] if self.entries else None

    @property
    def closed_size(self) -> int:
        """Bytes of the log before the open chunk."""
        return self.size - (self.open.size if self.open else 0)

    def first_seq(self, entry: ListedEntry) -> int:
        found = CHUNK_NAME_RE.match(entry.name)
        assert found is not None, entry.name  # of() lists only names the pattern matches
        return int(found.group(1))

    @classmethod
    def of(cls, listed: Iterable[ListedEntry], *, where: str) -> LogChunks:
        """The chunks among ``listed`` (the entries of ``log/``), refused unless every name is a chunk's."""
        entries = sorted(listed, key=lambda entry: entry.name)
        for entry in entries:
            if entry.kind != "blob" or not CHUNK_NAME_RE.match(entry.name):
                raise IntegrityError(f"{where}: log/{entry.name} is not a log chunk")
        return cls(tuple(entries))


def log_size(repo: GitRepo, commit: str) -> int | None:
    """The bytes of the log ``commit``'s tree holds (None: it holds none), from object headers only."""
    chunks = _chunks(repo, commit)
    if chunks is not None:
        return chunks.size
    return repo.blob_size(commit, LEGACY_LOG)


def read_log(repo: GitRepo, commit: str) -> bytes | None:
    """The whole log ``commit``'s tree holds (None: none). Ask :func:`log_size` first where size matters."""
    chunks = _chunks(repo, commit)
    if chunks is None:
        return repo.read_blob(commit, LEGACY_LOG)
    objects = repo.read_objects([entry.sha for entry in chunks.entries])
    return b"".join(objects[entry.sha][1] for entry in chunks.entries)


@contextmanager
def stream_log(repo: GitRepo, commit: str) -> Iterator[IO[bytes]]:
    """The log of ``commit`` as a stream of lines (empty when it holds none). Check :func:`log_size` first."""
    if _chunks(repo, commit) is None and repo.blob_size(commit, LEGACY_LOG) is not None:
        with repo.stream_blob(commit, LEGACY_LOG) as stream:
            yield stream
        return
    yield io.BytesIO(read_log(repo, commit) or b"")


def log_lines(repo: GitRepo, commit: str) -> list[bytes]:
    """The log's lines (each with its ``\\n``) in ``commit``'s tree; none when it has no log."""
    return split_lines(read_log(repo, commit) or b"")


def _chunks(repo: GitRepo, commit: str) -> LogChunks | None:
    """The chunks of ``commit``'s ``log/`` (None: the tree has no ``log/`` folder)."""
    listed = repo.list_tree(commit, LOG_DIR)  # nothing when the tree has no log/ folder (a tree is never empty)
    return LogChunks.of(listed, where=f"commit {commit[:12]}") if listed else None
