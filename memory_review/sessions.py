"""The session tier: ``sessions/<session-id>.json`` under the project store.

Session memory is written directly by the agent's API (it is not durable and
needs no review), but every write is still a ``session.written`` event in the
project log, so a session's context can be rebuilt exactly later. The files are
derived from those events, like the manifest: a crash between the event and the
file is repaired by rolling forward.

A session file is checked like a memory file (docs/adr/0017): the manifest records
the sha256 of each session file the commit path wrote, and a file whose bytes do not
hash to it (hand-written, edited, or never written by any event) is an
IntegrityError, never read as memory. ``verify`` compares every file with the fold
of the log's session events.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import Field
from pydantic import ValidationError as PydanticValidationError

from memory_review.errors import IntegrityError, MemoryReviewError, StorageError
from memory_review.events import Event
from memory_review.events.durable import atomic_replace
from memory_review.events.safe_fs import check_dir, list_dir, make_dir
from memory_review.file_reads import read_store_file, storage_errors
from memory_review.ids import check_session_id
from memory_review.limits import MAX_SESSION_FILE_BYTES, MAX_SESSION_MEMORIES
from memory_review.models import Memory, Strict
from memory_review.record_io import memory_from_json, memory_to_json
from memory_review.storage.fold import EMPTY, SessionChanges, fold_all
from memory_review.storage.fold import SESSION_EVENT as SESSION_EVENT  # where readers of this tier look for it

Records = dict[str, dict[str, Any]]
"""A session's memories by id, each as its canonical JSON record."""
History = Callable[[str], Iterable[Event]]
"""Every ``session.written`` event of one session, from the start of the log."""


class SessionFile(Strict):
    """The memories one session wrote for itself."""

    version: Literal[1] = 1
    session_id: str
    memories: dict[str, dict[str, Any]] = Field(default={}, max_length=MAX_SESSION_MEMORIES)


class SessionFileMismatch(IntegrityError):
    """A session file whose bytes are not the ones the commit path recorded for it."""


def encode_session(session_id: str, memories: Records) -> bytes:
    """A session file's bytes: its records in id order, sorted keys, indented, final newline."""
    doc = SessionFile(session_id=session_id, memories=dict(sorted(memories.items())))
    return orjson.dumps(doc.model_dump(mode="json"), option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"


def with_changes(memories: Records, changes: SessionChanges) -> Records:
    """A session's records with the fold's changes to them (docs/adr/0023: the fold says what events mean)."""
    updated = dict(memories)
    for memory_id, memory in changes.items():
        if memory is None:
            updated.pop(memory_id, None)
        else:
            updated[memory_id] = memory_to_json(memory)
    return updated


def session_states(events: Iterable[Event]) -> dict[str, Records]:
    """Every session's memories as the log's session events leave them (one pass of the fold)."""
    return {session_id: with_changes({}, changes) for session_id, changes in fold_all(EMPTY, events).sessions.items()}


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def note_sha256(memory: Memory) -> str:
    """The identity of one version of a session note: the sha256 of its record as a session file holds it.

    Not :func:`memory_review.record_io.memory_sha256`: rendering a memory file refuses what no memory file
    may hold, and a note a cloned store brought is only to be left out, never to stop the session's context.
    """
    return sha256_of(orjson.dumps(memory_to_json(memory), option=orjson.OPT_SORT_KEYS))


class SessionFiles:
    """The ``sessions/`` folder of a project store."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, session_id: str) -> Path:
        # A checked id is a plain file name; the folder is checked (never a link) before each use.
        return self.root / f"{check_session_id(session_id)}.json"

    def names(self) -> list[str]:
        """The stems of the ``.json`` files on disk, unchecked (``verify`` checks each)."""
        with storage_errors(self.root):
            names = list_dir(self.root)
        return sorted(n[: -len(".json")] for n in names if n.endswith(".json"))

    def raw(self, session_id: str) -> bytes | None:
        """The file's bytes, or None when there is none."""
        path = self.path(session_id)
        with storage_errors(self.root):
            check_dir(self.root)  # UnsafeFile for a symlinked folder, before a name in it is opened
        data = read_store_file(path, MAX_SESSION_FILE_BYTES + 1)
        if data is not None and len(data) > MAX_SESSION_FILE_BYTES:
            raise IntegrityError("session file is implausibly large", path=path)
        return data

    def read(self, session_id: str, recorded: str | None) -> dict[str, Memory]:
        """The session's memories by id, from a file whose sha256 is ``recorded`` (None: no file).

        Any other file is a :class:`SessionFileMismatch` naming it: it is never read as memory.
        """
        return {
            mid: memory_from_json(rec, where=f"{self.path(session_id)}:{mid}")
            for mid, rec in self._records(session_id, recorded).items()
        }

    def _records(self, session_id: str, recorded: str | None) -> Records:
        path = self.path(session_id)
        data = self.raw(session_id)
        if data is None and recorded is None:
            return {}
        if data is None:
            raise SessionFileMismatch(
                "session file is missing, but manifest.json records one",
                path=path,
                hint="run `memory-review verify --repair` to rebuild it from the log",
            )
        if sha256_of(data) != recorded:
            raise SessionFileMismatch(
                "session file does not match what the log wrote (edited or written outside memory-review?)",
                path=path,
                hint="run `memory-review verify`; `verify --repair --apply` rebuilds it from the log",
            )
        return _decode(data, path).memories

    def roll_forward(
        self, sessions: Mapping[str, SessionChanges], recorded: Mapping[str, str], history: History
    ) -> dict[str, str]:
        """Bring each session file the fold touched up to date with its changes.

        ``recorded`` holds the sha256 the manifest records for each file; a file that does not
        match it is rebuilt from the session's whole ``history`` (the log is the truth). Returns
        the sha256 of each file written.
        """
        return {
            session_id: self._apply(session_id, changes, recorded.get(session_id), history)
            for session_id, changes in sessions.items()
        }

    def _apply(self, session_id: str, changes: SessionChanges, recorded: str | None, history: History) -> str:
        try:
            memories = with_changes(self._records(session_id, recorded), changes)
        except SessionFileMismatch:
            # A failed checkpoint left the file ahead of the manifest, or someone wrote it by hand.
            memories = session_states(history(session_id)).get(session_id, {})
        return self.write(session_id, memories)

    def write(self, session_id: str, memories: Records) -> str:
        """Replace the session's file atomically; returns the sha256 of its bytes."""
        data = encode_session(session_id, memories)
        with storage_errors(self.root):
            make_dir(self.root)
        try:
            atomic_replace(self.path(session_id), data)
        except OSError as exc:
            raise StorageError(f"{self.path(session_id)}: {exc.strerror}", errno=exc.errno) from exc
        return sha256_of(data)


def session_problems(files: SessionFiles, expected: Mapping[str, Records], recorded: Mapping[str, str]) -> list[str]:
    """Where the session files and the manifest's record of them disagree with the log (for ``verify``)."""
    problems = []
    for name in sorted(set(files.names()) | set(expected) | set(recorded)):
        try:
            check_session_id(name)
        except MemoryReviewError as exc:  # a name no session event can have written
            problems.append(f"{files.root}: {name[:80]!r}.json is not a session file ({exc})")
            continue
        problems += _one_session(files, name, expected.get(name), recorded.get(name))
    return problems


def _one_session(files: SessionFiles, session_id: str, expected: Records | None, recorded: str | None) -> list[str]:
    path = files.path(session_id)
    want = encode_session(session_id, expected) if expected is not None else None
    have = files.raw(session_id)
    problems = []
    if want is None and have is not None:
        problems.append(f"{path}: no session event in the log wrote it (it is never injected)")
    elif want is not None and have is None:
        problems.append(f"{path}: missing; the log's session events wrote it")
    elif have != want:
        problems.append(f"{path}: disagrees with the log's session events (it is never injected)")
    if recorded != (sha256_of(want) if want is not None else None):
        problems.append(f"manifest.json: the sha256 it records for session {session_id} does not match the log")
    return problems


def _decode(data: bytes, path: Path) -> SessionFile:
    try:
        doc = SessionFile.model_validate(orjson.loads(data))
    except (orjson.JSONDecodeError, PydanticValidationError) as exc:
        raise IntegrityError(
            f"damaged session file: {exc}",
            path=path,
            hint="run `memory-review verify --repair` to rebuild it from the log",
        ) from exc
    if doc.session_id != path.stem:
        raise IntegrityError(f"session file names session {doc.session_id!r}", path=path)
    return doc
