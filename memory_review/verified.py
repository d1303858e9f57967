"""What a clean ``verify`` proved, kept for the next one: the incremental verify (docs/adr/0056).

A verify that found nothing wrong writes, beside the anchor of the log head (ADR 0025), in the user's
own store and never in a repository::

    <user store>/trust/<key>.verified
    <sha256 hex of the rest>\\n{"v": 1, "store": "/real/path/.memory-review", "scope": "project", ...}

It says how far the log was proved (its first ``length`` bytes, their sha256, the last line's seq and
line hash) and what a walk needs to go on from there without reading those lines again: the walk's
cross-event state (terminal, created, changed; each memory's record as the offset of the line that
holds it), the fold's (each memory's sha256, each pending candidate's record line), the reviewed
records' (each pending candidate's record line, each resolved one's digest), the session events' lines,
and the read index entries found equal to the store (a digest of each, by memory version) so they are
not computed again.

The next verify reads the log's first ``length`` bytes once: when their sha256 is the recorded one, every
recorded offset points into bytes this machine's verify checked, and only the lines after them are
decoded and checked. Anything else — no record, another format, store or version of the checks, a
damaged or oversized file, a log whose first bytes changed — is a full verify. Nothing here is ever read from the store
folder: a repository's writer can rewrite the log, not this file.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from memory_review.errors import MemoryReviewError
from memory_review.events.durable import atomic_replace, remove_temp_files
from memory_review.events.safe_fs import UnsafeFile, open_file, read_file
from memory_review.lean import index as read_index_layout
from memory_review.lean.files import store_key
from memory_review.models import DurableScope

if TYPE_CHECKING:
    from memory_review.store import Store

RECORD_VERSION: Literal[1] = 1
NO_RECORD = "no earlier clean verify recorded on this machine"
"""Why a first verify is full: the text output does not repeat it (``--json`` does)."""
TRUST_DIR = "trust"  # the folder of the anchors (memory_review.trust), which this module does not import
SUFFIX = ".verified"
MAX_RECORD_BYTES = 64 << 20
"""Past this a record is not read (a full verify runs): 1.5 MB at 4,000 memories, so ~15 MB at 40,000."""
MAX_ITEMS = 1 << 20

Hex64 = Annotated[str, StringConstraints(min_length=64, max_length=64)]
Hex32 = Annotated[str, StringConstraints(min_length=32, max_length=32)]
Key = Annotated[str, StringConstraints(max_length=256)]
Offset = Annotated[int, Field(ge=0)]


class VerifiedRecord(BaseModel):
    """The body of a ``.verified`` file: a clean verify's proof and the state to resume from."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    v: Literal[1]
    store: Annotated[str, StringConstraints(max_length=4096)]
    scope: DurableScope
    index_format: int
    """The read index's format when its entries were checked (``lean.index.VERSION``)."""
    code: Hex64
    """:func:`checks_digest` of the code that made the record: another version's checks walk it all again."""
    length: Offset
    """The log's first bytes that were proved: whole lines, the last one committed."""
    digest: Hex64
    """sha256 of those bytes."""
    lines: Offset
    seq: Offset
    hash: Hex64
    events: Offset
    terminal: Annotated[dict[Key, int], Field(max_length=MAX_ITEMS)]
    created: Annotated[list[Key], Field(max_length=MAX_ITEMS)]
    changed: Annotated[list[int], Field(max_length=MAX_ITEMS)]
    records: Annotated[dict[Key, Offset], Field(max_length=MAX_ITEMS)]
    """Memory id -> offset of the line whose change holds its record now (the walk's replay state)."""
    hashes: Annotated[dict[Key, Hex64], Field(max_length=MAX_ITEMS)]
    """Memory id -> sha256 of its current version, as the fold rendered it (the memory files' check)."""
    pending: Annotated[dict[Key, Offset], Field(max_length=MAX_ITEMS)]
    """Candidate pending in the fold -> offset of the line holding its record."""
    reviewed: Annotated[dict[Key, Offset], Field(max_length=MAX_ITEMS)]
    """Candidate pending for the reviewed-record check -> offset of the line holding its record."""
    resolved: Annotated[dict[Key, Hex32], Field(max_length=MAX_ITEMS)]
    """Resolved candidate -> digest of its last record (a restore must give it back)."""
    forged: Annotated[list[Key], Field(max_length=MAX_ITEMS)]
    sessions: Annotated[list[Offset], Field(max_length=MAX_ITEMS)]
    """Offsets of the ``session.written`` lines."""
    index: Annotated[dict[Key, tuple[Hex64, Hex32]], Field(max_length=MAX_ITEMS)]
    """Memory id -> (sha256 of the version, digest of its read index entry) found equal to the store."""


@dataclass
class Resuming:
    """An incremental verify's way in and out (``verify_store``).

    In: ``record``, what an earlier clean verify of this store proved (None: walk the whole log, and
    ``why`` says why). Out: ``proved``, what this verify's walk proved, for the caller to keep once
    everything else (the read index) is found clean too.
    """

    record: VerifiedRecord | None = None
    why: str = ""
    proved: dict[str, Any] | None = None


class VerifiedRecords:
    """The records of clean verifies, one per store, under ``<user store>/trust/`` beside the anchors."""

    def __init__(self, user_dir: Path) -> None:
        self.folder = user_dir / TRUST_DIR

    def path(self, store: Store) -> Path:
        return self.folder / f"{store_key(store.root)[1]}{SUFFIX}"

    def resuming(self, store: Store, *, full: bool = False) -> Resuming:
        """What a verify of ``store`` may resume from (nothing with ``full``)."""
        if full:
            return Resuming(why="asked for with --full")
        if os.path.islink(self.folder):
            return Resuming(why=f"{self.folder} is a symlink; no record is read through one")
        record, why = read_record(self.path(store), store_key(store.root)[0], store.scope)
        return Resuming(record, why)

    def keep(self, store: Store, resuming: Resuming, digests: dict[str, tuple[str, str]], warnings: list[str]) -> None:
        """Record what a clean verify proved; a failure only costs the next verify its shortcut."""
        if resuming.proved is None:
            return
        try:
            record = VerifiedRecord(
                v=RECORD_VERSION,
                store=store_key(store.root)[0],
                scope=store.scope,
                index_format=read_index_layout.VERSION,
                code=checks_digest(),
                index=digests,
                **resuming.proved,
            )
            if record == resuming.record:
                return  # nothing new was proved: the record on disk says it already
            self._ensure_folder()
            write_record(self.path(store), record)
        except (ValidationError, MemoryReviewError, OSError) as exc:
            warnings.append(f"verified, but what it proved was not recorded (the next verify is full): {exc}")

    def collect(self, store: Store) -> None:
        """Remove temp files a crashed write of ``store``'s record left (under its lock)."""
        if os.path.isdir(self.folder) and not os.path.islink(self.folder):
            remove_temp_files(self.folder, (self.path(store).name,))

    def _ensure_folder(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if not stat.S_ISDIR(os.lstat(self.folder).st_mode):
            raise OSError(f"{self.folder} is not a real directory")


def read_record(path: Path, real: str, scope: DurableScope) -> tuple[VerifiedRecord | None, str]:
    """The record at ``path`` if it is a sound one of this store and format; else None and why not.

    Never raises for what is in the file: a missing, damaged, oversized, other-format or other-store
    record only means a full verify.
    """
    try:
        data = read_file(path, MAX_RECORD_BYTES)
    except FileNotFoundError:
        return None, NO_RECORD
    except (UnsafeFile, OSError) as exc:
        return None, f"the record of the last clean verify is unreadable ({exc})"
    head, _, body = data.partition(b"\n")
    if hashlib.sha256(body).hexdigest().encode() != head:
        return None, "the record of the last clean verify is damaged"
    try:
        record = VerifiedRecord.model_validate_json(body)
    except ValidationError:
        return None, "the record of the last clean verify is of another format"
    if record.store != real or record.scope != scope:
        return None, "the record of the last clean verify is of another store"
    if record.index_format != read_index_layout.VERSION:
        return None, "the record of the last clean verify is of another read index format"
    if record.code != checks_digest():
        return None, "the record of the last clean verify was made by another version of its checks"
    return record, ""


CHECKS = (
    "memory_review.events.model",
    "memory_review.events.replay",
    "memory_review.events.report",
    "memory_review.events.verify",
    "memory_review.candidate",
    "memory_review.models",
    "memory_review.record_io",
    "memory_review.reviewed",
    "memory_review.sessions",
    "memory_review.storage.fold",
    "memory_review.verify",
    "memory_review.verified",
    "memory_review.read_index",
    "memory_review.lean.index",
    "memory_review.lean.keywords",
    "memory_review.lean.rank",
    "memory_review.injection.render",
)
"""The modules whose code says what a verify checks and what a read index entry holds."""


@functools.cache
def checks_digest() -> str:
    """sha256 of the source of :data:`CHECKS`: a record is resumed from only by the code that made it, so a
    new rule (or a new entry shape) is applied to every line once, after an upgrade."""
    digest = hashlib.sha256()
    for name in CHECKS:
        module = importlib.import_module(name)
        source = getattr(module, "__file__", None)
        digest.update(name.encode() + b"\0" + (Path(source).read_bytes() if source else b"?") + b"\0")
    return digest.hexdigest()


def write_record(path: Path, record: VerifiedRecord) -> None:
    """Keep ``record`` (atomically; a record lost in a crash only means a full verify next time)."""
    body = record.model_dump_json().encode() + b"\n"
    atomic_replace(path, hashlib.sha256(body).hexdigest().encode() + b"\n" + body, sync_dir=False)


def proved_prefix(log_path: Path, record: VerifiedRecord) -> tuple[bytes, Any] | None:
    """The log's first ``record.length`` bytes, if they are the bytes the record proved, and the sha256
    that took them (a walk that goes on hashes the rest into it); else None."""
    try:
        fd = open_file(log_path, single_link=True)
    except (UnsafeFile, OSError):
        return None
    try:
        data = _read_exactly(fd, record.length)
    finally:
        os.close(fd)
    if data is None:
        return None
    hasher = hashlib.sha256(data)
    return (data, hasher) if hasher.hexdigest() == record.digest else None


def _read_exactly(fd: int, length: int) -> bytes | None:
    chunks, left = [], length
    while left:
        chunk = os.read(fd, min(left, 1 << 24))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
