"""Derived state of the agent hooks, under ``<store>/hooks/`` — bookkeeping, never memory.

::

    hooks/sessions/<session-id>.json   how far each transcript of a session has been read
    hooks/jobs/<session-id>.json       the latest model extraction asked for a session (ADR 0026)
    hooks/jobs/<session-id>.lock       held by the one background worker extracting that session
    hooks/jobs/<session-id>.done       the generation of the last job a worker finished for it
    hooks/errors.jsonl                 what went wrong inside a hook (``memory-review hook errors``)
    hooks/skipped.json                 the sibling sessions skipped, and why, as logged (each logged once)
    hooks/extract.lock                 one extraction at a time per project (filelock, never deleted)

Losing any of it loses nothing that matters: an offset only saves re-reading a
transcript (extraction dedups against pending, approved and discarded proposals
anyway), and the error log is diagnostics. So offsets are written by atomic
replace and the error log is appended and fsynced, but neither is hash-chained.

Every path here is opened through ``events.safe_fs`` (ADR 0020): a repository may commit
``hooks/errors.jsonl -> ~/.bashrc``; the append refuses a link, a FIFO or a second hard link,
and ``hooks/`` (and the project store holding it) must be real folders. Error text is redacted
before it is written (it may quote a prompt or a file).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

import orjson
from pydantic import Field
from pydantic import ValidationError as PydanticValidationError

from memory_review.errors import IntegrityError
from memory_review.events.durable import atomic_replace
from memory_review.events.safe_fs import append_fd, check_dir, make_dir, rename
from memory_review.file_reads import read_store_file, storage_errors
from memory_review.ids import check_session_id
from memory_review.integrations.agents import AgentName
from memory_review.locking import store_lock
from memory_review.models import Strict
from memory_review.paths import PROJECT_STORE_DIR

HOOKS_DIR = "hooks"
ERROR_LOG = "errors.jsonl"
SKIPPED_FILE = "skipped.json"
MAX_ERROR_LOG_BYTES = 512 * 1024  # then the log rotates to errors.jsonl.1 (one generation kept)
MAX_MESSAGE_CHARS = 2000
MAX_FIELD_CHARS = 200
MAX_OFFSETS_BYTES = 1024 * 1024


def hooks_dir(store_root: Path) -> Path:
    """The hooks' folder inside a store folder."""
    return store_root / HOOKS_DIR


# --- transcript offsets ---------------------------------------------------------------------


class TranscriptOffset(Strict):
    """How much of one transcript file was read: a turn count, the id of the last turn read, and the
    file's size and mtime then (an unchanged file is not parsed again)."""

    turns: int = Field(ge=0)
    last_turn: str | None = None
    size: int = Field(ge=0)
    mtime_ns: int = Field(ge=0)


class SessionOffsets(Strict):
    """Every transcript a session's hooks have read (a subagent may write its own file)."""

    v: Literal[1] = 1
    session: str
    transcripts: dict[str, TranscriptOffset] = Field(default_factory=dict)

    def of(self, transcript: Path) -> TranscriptOffset | None:
        """The offset recorded for ``transcript``, if any."""
        return self.transcripts.get(str(transcript))

    def with_offset(self, transcript: Path, offset: TranscriptOffset) -> SessionOffsets:
        """A copy with ``transcript``'s offset replaced."""
        return self.model_copy(update={"transcripts": {**self.transcripts, str(transcript): offset}})


class ExtractionJob(Strict):
    """An extraction a hook asked for: which transcript, with which extractor; ``generation`` tells
    a running worker that a newer request came in while it worked. ``heuristic`` is the pass across
    the project's other sessions (ADR 0046); the session's own turns were extracted by the hook."""

    v: Literal[1] = 1
    session: str
    transcript: str = Field(min_length=1, max_length=4096)
    extractor: Literal["heuristic", "claude", "codex", "gemini"]
    event: str = Field(default="Stop", max_length=64)
    generation: int = Field(ge=0)
    agent: AgentName = "claude-code"  # whose hook asked: its errors carry it


MAX_SKIPPED = 200  # the siblings one pass may skip are far fewer (extract.siblings bounds them)


class SkippedSiblings(Strict):
    """The sibling sessions the last pass across sessions skipped, each with its reason: each is logged once,
    not on every ``Stop`` (a flood of the same lines pushed real failures out of the rotated log)."""

    v: Literal[1] = 1
    skipped: dict[str, str] = Field(default_factory=dict, max_length=MAX_SKIPPED)


class HookState:
    """The offsets and the extraction lock of one store's hooks."""

    def __init__(self, store_root: Path, *, lock_timeout: float) -> None:
        self.root = hooks_dir(store_root)
        self.sessions = self.root / "sessions"
        self.jobs = self.root / "jobs"
        self.lock_timeout = lock_timeout

    def offsets(self, session: str) -> SessionOffsets:
        """The session's offsets (empty when none were saved); IntegrityError for a damaged file."""
        path = self._session_file(session)
        with storage_errors(self.root):
            _check_folders(self.root, self.sessions)
        data = read_store_file(path, MAX_OFFSETS_BYTES)
        if data is None:
            return SessionOffsets(session=session)
        try:
            offsets = SessionOffsets.model_validate(orjson.loads(data))
        except (orjson.JSONDecodeError, PydanticValidationError) as exc:
            raise IntegrityError(
                f"damaged hook offsets file: {exc}".splitlines()[0],
                path=path,
                hint="it is derived state: the hook starts this session over",
            ) from exc
        if offsets.session != session:
            raise IntegrityError(f"offsets file names session {offsets.session!r}", path=path)
        return offsets

    def save(self, offsets: SessionOffsets) -> None:
        """Replace the session's offsets file atomically."""
        path = self._session_file(offsets.session)
        data = orjson.dumps(offsets.model_dump(mode="json"), option=orjson.OPT_SORT_KEYS) + b"\n"
        with storage_errors(path):
            _make_folders(self.root, self.sessions)
            atomic_replace(path, data)  # a temp file (O_EXCL) renamed over the name: never writes through

    @contextmanager
    def extraction_lock(self, timeout: float | None = None) -> Iterator[None]:
        """One extraction per project at a time (Stop and SubagentStop may fire together)."""
        with storage_errors(self.root):
            _make_folders(self.root)
        with store_lock(self.root / "extract.lock", self.lock_timeout if timeout is None else timeout):
            yield

    def save_job(self, job: ExtractionJob) -> None:
        """Replace the session's job file atomically (the newest request wins; a running worker sees it)."""
        path = self._job_file(job.session, ".json")
        data = orjson.dumps(job.model_dump(mode="json"), option=orjson.OPT_SORT_KEYS) + b"\n"
        with storage_errors(path):
            _make_folders(self.root, self.jobs)
            atomic_replace(path, data)

    def job(self, session: str) -> ExtractionJob | None:
        """The session's latest job (None when none, or when the file is not one: it is derived state)."""
        with storage_errors(self.root):
            _check_folders(self.root, self.jobs)
        data = read_store_file(self._job_file(session, ".json"), MAX_OFFSETS_BYTES)
        if data is None:
            return None
        try:
            job = ExtractionJob.model_validate(orjson.loads(data))
        except (orjson.JSONDecodeError, PydanticValidationError):
            return None
        return job if job.session == session else None

    def save_done(self, job: ExtractionJob) -> None:
        """Say which job the worker finished (diagnostics, and what a test waits for)."""
        path = self._job_file(job.session, ".done")
        with storage_errors(path):
            _make_folders(self.root, self.jobs)
            atomic_replace(path, orjson.dumps({"generation": job.generation}) + b"\n")

    def done(self, session: str) -> int | None:
        """The generation of the last job finished for the session (None when none, or unreadable)."""
        with storage_errors(self.root):
            _check_folders(self.root, self.jobs)
        data = read_store_file(self._job_file(session, ".done"), MAX_OFFSETS_BYTES)
        try:
            value = orjson.loads(data) if data is not None else None
        except orjson.JSONDecodeError:
            return None
        generation = value.get("generation") if isinstance(value, dict) else None
        return generation if isinstance(generation, int) else None

    @contextmanager
    def worker_lock(self, session: str) -> Iterator[None]:
        """The session's worker lock, taken without waiting (LockTimeoutError: another worker has it)."""
        with storage_errors(self.root):
            _make_folders(self.root, self.jobs)
        with store_lock(self._job_file(session, ".lock"), 0):
            yield

    def skipped_siblings(self) -> dict[str, str]:
        """The siblings skipped, and why, as last logged (none when the file is absent or not one: derived state)."""
        with storage_errors(self.root):
            _check_folders(self.root)
        data = read_store_file(self.root / SKIPPED_FILE, MAX_OFFSETS_BYTES)
        try:
            return SkippedSiblings.model_validate(orjson.loads(data)).skipped if data is not None else {}
        except (orjson.JSONDecodeError, PydanticValidationError):
            return {}

    def save_skipped_siblings(self, skipped: dict[str, str]) -> None:
        """Replace the record of the siblings skipped (at most :data:`MAX_SKIPPED`, the first ones kept)."""
        path = self.root / SKIPPED_FILE
        data = orjson.dumps(SkippedSiblings(skipped=dict(list(skipped.items())[:MAX_SKIPPED])).model_dump(mode="json"))
        with storage_errors(path):
            _make_folders(self.root)
            atomic_replace(path, data + b"\n")

    def _job_file(self, session: str, suffix: str) -> Path:
        return self.jobs / f"{check_session_id(session)}{suffix}"

    def _session_file(self, session: str) -> Path:
        # A checked session id is a safe file name: letters, digits, '.', '-', '_', no leading dot.
        return self.sessions / f"{check_session_id(session)}.json"


def _check_folders(*folders: Path) -> None:
    """UnsafeFile unless each folder is real (or absent), the project store holding hooks/ too."""
    store_root = folders[0].parent
    if store_root.name == PROJECT_STORE_DIR:  # a clone's; the user store root is the user's own setting
        check_dir(store_root)
    for folder in folders:
        check_dir(folder)


def _make_folders(*folders: Path) -> None:
    """Create the folders (their store exists) after checking the store root; UnsafeFile for a link."""
    _check_folders(folders[0])
    for folder in folders:
        make_dir(folder)


# --- the error log --------------------------------------------------------------------------


class HookError(Strict):
    """One failure inside a hook: the hook still exited 0 and added nothing."""

    ts: str
    agent: str = "claude-code"
    event: str | None = None
    session: str | None = None
    error: str
    message: str
    log: str | None = Field(default=None, description="the log file it was read from (set on reading)")


def log_error(folder: Path, entry: HookError) -> Path:
    """Append ``entry``, redacted, to ``folder/errors.jsonl`` (rotating a full log); the log's path.

    Raises OSError (UnsafeFile for a linked, FIFO or hard-linked log or folder): the caller falls
    back to stderr.
    """
    if folder.parent.name != PROJECT_STORE_DIR:
        folder.parent.mkdir(parents=True, exist_ok=True)  # the user store: the user's own setting
    _make_folders(folder)
    path = folder / ERROR_LOG
    line = _error_line(entry)
    fd = append_fd(path)
    try:
        if os.fstat(fd).st_size >= MAX_ERROR_LOG_BYTES:
            os.close(fd)
            fd = -1
            rename(path, path.with_name(ERROR_LOG + ".1"))  # in the checked folder: a name, never followed
            fd = append_fd(path)
        os.write(fd, line)  # one write of one short line with O_APPEND: concurrent hooks do not interleave
        os.fsync(fd)
    finally:
        if fd >= 0:
            os.close(fd)
    return path


def _error_line(entry: HookError) -> bytes:
    """The record as one JSON line, every text field redacted (an error may quote a prompt or a file)."""
    from memory_review.safety import redact  # only a failing hook pays for the secret patterns

    fields = {
        name: redact(value) if isinstance(value, str) else value
        for name, value in entry.model_dump(mode="json", exclude={"log"}).items()
    }
    fields["message"] = fields["message"][:MAX_MESSAGE_CHARS]
    for name in ("agent", "event", "session", "error"):  # a payload's own values: a 1 MB session id made the log
        if isinstance(fields.get(name), str):  # larger than its reader takes (session 37's last review)
            fields[name] = fields[name][:MAX_FIELD_CHARS]
    return orjson.dumps(fields, option=orjson.OPT_SORT_KEYS) + b"\n"


def read_errors(folder: Path) -> list[HookError]:
    """The entries of ``folder``'s error log (the rotated generation first); a bad line is an entry too."""
    entries: list[HookError] = []
    for path in (folder / (ERROR_LOG + ".1"), folder / ERROR_LOG):
        entries.extend(_read_log(path))
    return entries


def _read_log(path: Path) -> list[HookError]:
    with storage_errors(path):
        _check_folders(path.parent)
    data = read_store_file(path, MAX_ERROR_LOG_BYTES + 64 * 1024)  # a full log plus a last line or two
    if data is None:
        return []
    return [_entry(line, path, number) for number, line in enumerate(data.splitlines(), 1) if line.strip()]


def _entry(line: bytes, path: Path, number: int) -> HookError:
    try:
        return HookError.model_validate(orjson.loads(line)).model_copy(update={"log": str(path)})
    except (orjson.JSONDecodeError, PydanticValidationError):
        # A torn or foreign line is shown for what it is rather than hidden.
        return HookError(
            ts="", error="UnreadableLine", message=f"line {number} is not a hook error record", log=str(path)
        )
