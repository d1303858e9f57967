"""The end of a store's log, read and appended to without the ``events`` package (ADR 0030, ADR 0023).

:func:`head_past` reads backward from the end only the lines after a known position, checks that
the line there hashes to what was recorded and that every later line continues the chain, and
accepts only ``context.built`` lines after it: those change nothing a reader shows. Anything
else (a commit, a torn tail, a line that does not chain) is :class:`Fallback`, and the full path,
which cuts torn tails and names damaged lines, answers instead.

:func:`append_context` appends one ``context.built`` line the way ``EventLog.append`` does: under
the store lock (the same ``flock`` that ``filelock`` takes), one write, one fsync, the file cut back
if either fails. The line is ``encode_event``'s bytes for the same event: orjson, sorted keys, no
null field. The harness's fault points fire here too when the harness armed this process (its
``sitecustomize`` imports ``events.faults``); nothing else ever imports it on this path.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from memory_review.lean.files import Fallback, open_regular

GENESIS = "0" * 64
SKIMMED = "context.built"
FIRST_CHUNK = 64 * 1024
MAX_TAIL_BYTES = 64 * 1024 * 1024
Head = tuple[int, str]


def head_past(log_path: Path, at: Head) -> Head:
    """The log's head, given that nothing but ``context.built`` follows event ``at``; Fallback otherwise."""
    fd = open_regular(log_path)
    if fd is None:
        if at == (0, GENESIS):
            return at
        raise Fallback("the log is gone")
    try:
        return _head_past(fd, at)
    finally:
        os.close(fd)


def _head_past(fd: int, at: Head) -> Head:
    lines = _lines_from(fd, os.fstat(fd).st_size, at[0])
    prev = GENESIS
    if at[0] > 0:
        first = lines.pop(0)  # _find checked it is a plain committed event with seq at[0]
        if _hash(first) != at[1]:
            raise Fallback("the log no longer holds the event the index was made at")
        prev = at[1]
    elif at[1] != GENESIS:
        raise Fallback("an empty log position with a hash")
    seq = at[0]
    for line in lines:
        raw = _event(line)
        if raw["type"] != SKIMMED or raw["seq"] != seq + 1 or raw["prev"] != prev:
            raise Fallback("the log moved past the index")
        seq, prev = seq + 1, _hash(line)
    return seq, prev


def _lines_from(fd: int, size: int, seq: int) -> list[bytes]:
    """The complete lines from event ``seq`` (from the start for 0) to the end, oldest first."""
    chunk = FIRST_CHUNK
    while True:
        start = max(0, size - chunk)
        data = os.pread(fd, size - start, start)
        if data and not data.endswith(b"\n"):
            raise Fallback("the log ends in a torn line")
        lines = data.split(b"\n")[:-1]
        if start > 0:
            lines = lines[1:]  # the first piece may begin mid-line
        found = _find(lines, seq)
        if found is not None:
            return lines[found:]
        if start == 0:
            raise Fallback(f"the log holds no event {seq}")
        if chunk >= MAX_TAIL_BYTES:
            raise Fallback("too much log past the index")
        chunk *= 4


def _find(lines: list[bytes], seq: int) -> int | None:
    """Where event ``seq`` is in ``lines`` (0 for seq 0 when they start the file), scanning from the end."""
    if seq == 0:
        return None
    for index in range(len(lines) - 1, -1, -1):
        found = _event(lines[index])["seq"]
        if found == seq:
            return index
        if found < seq:
            raise Fallback("the log skips the event the index was made at")
    return None


def _event(line: bytes) -> dict[str, Any]:
    """The chain fields of one line, shaped as a committed single event; Fallback otherwise."""
    try:
        raw = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise Fallback("a log line is not JSON") from exc
    if (
        not isinstance(raw, dict)
        or raw.get("v") != 1
        or type(raw.get("seq")) is not int
        or type(raw.get("prev")) is not str
        or type(raw.get("type")) is not str
        or "more" in raw
    ):
        raise Fallback("a log line is not a plain committed event")
    return raw


def _hash(line: bytes) -> str:
    """``events.line_hash`` of a line split off without its ``\n``."""
    return hashlib.sha256(line + b"\n").hexdigest()


def utc_timestamp() -> str:
    """An event ``ts``, as ``events.utc_timestamp`` writes it: UTC, microseconds, ``Z``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# --- appending one context.built line ---------------------------------------------------------------


def append_context(store_dir: Path, fields: dict[str, Any], *, origin: str, timeout: float) -> Head:
    """Append one ``context.built`` event (``fields``: type, actor, session, context) under the lock."""
    with _store_lock(store_dir / ".lock", timeout):
        fd = open_regular(store_dir / "events.jsonl", os.O_RDWR | os.O_APPEND)
        if fd is None:
            raise Fallback("the store has no log yet")
        try:
            size = os.fstat(fd).st_size
            seq, prev = _last(fd, size)
            event = {**fields, "v": 1, "seq": seq + 1, "prev": prev, "ts": utc_timestamp(), "origin": origin}
            line = orjson.dumps(event, option=orjson.OPT_SORT_KEYS) + b"\n"
            _commit(fd, line, size)
            return seq + 1, _hash(line[:-1])
        finally:
            os.close(fd)


def _last(fd: int, size: int) -> Head:
    if size == 0:
        return 0, GENESIS
    chunk = FIRST_CHUNK
    while True:
        start = max(0, size - chunk)
        data = os.pread(fd, size - start, start)
        if not data.endswith(b"\n"):
            raise Fallback("the log ends in a torn line")  # the full path cuts it first
        lines = data.split(b"\n")[:-1]
        if len(lines) > 1 or start == 0:
            return _event(lines[-1])["seq"], _hash(lines[-1])
        if chunk >= MAX_TAIL_BYTES:
            raise Fallback("a log line longer than the tail read")
        chunk *= 4


def _commit(fd: int, line: bytes, size: int) -> None:
    faults = sys.modules.get("memory_review.events.faults")  # present only when the test harness armed this process
    try:
        if faults is not None:
            faults.write_point("log.append.before_write", fd, line)
        view = memoryview(line)
        while view:
            view = view[os.write(fd, view) :]
        if faults is not None:
            faults.point("log.append.after_write")
            faults.point("log.append.before_fsync")
        os.fsync(fd)
        if faults is not None:
            faults.point("log.append.after_fsync")
    except BaseException:
        os.ftruncate(fd, size)  # nothing a reader would take as committed stays behind
        raise


class _store_lock:  # noqa: N801 — used as a context manager, like locking.store_lock
    """The store lock: ``flock`` on ``.lock``, which is what ``filelock`` takes (no link, one name)."""

    def __init__(self, path: Path, timeout: float) -> None:
        self.path, self.timeout = path, timeout
        self.fd = -1

    def __enter__(self) -> None:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise Fallback(f"cannot open the store lock: {exc}") from exc
        info = os.fstat(fd)
        if not (info.st_mode & 0o170000 == 0o100000 and info.st_nlink == 1):
            os.close(fd)
            raise Fallback("the store lock is not a plain file")
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise Fallback("the store is locked") from None  # the full path waits, then says so
                time.sleep(0.01)
        self.fd = fd

    def __exit__(self, *exc_info: object) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)
