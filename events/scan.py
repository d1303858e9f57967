"""Finding lines in the log file: forward for readers, backward from the end for the head.

The head must be cheap on a big log, so :func:`read_tail` only reads backward from
the end, chunk by chunk, until it finds the last committed line. A batch of lines
commits with its last line (the others carry ``"more": true``), so everything after
the last line without ``more`` is a torn tail, as LevelDB treats a log record whose
FIRST/MIDDLE fragments were written but whose LAST fragment was not.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .errors import LogIntegrityError
from .model import Event, decode_event, line_hash
from .report import LogHead

CHUNK = 1024 * 1024
FIRST_CHUNK = 8 * 1024


@dataclass(frozen=True)
class Tail:
    """Where the committed part of the log ends, and what it ends with."""

    head: LogHead
    committed: int
    size: int


def read_at(fd: int, offset: int, size: int) -> bytes:
    """The one read primitive of the backward scan (tests count the bytes it reads)."""
    return os.pread(fd, size, offset)


class _Backward:
    """The end of a file, read backward in growing chunks; every byte is read at most once."""

    def __init__(self, fd: int, end: int) -> None:
        self.fd = fd
        self.start = end  # self.buffer holds the bytes [start, end)
        self.buffer = b""
        self.chunk = FIRST_CHUNK

    def rfind_newline(self, before: int) -> int:
        """Offset of the last ``\\n`` before byte ``before``, or -1 when there is none."""
        while True:
            found = self.buffer.rfind(b"\n", 0, max(before - self.start, 0))
            if found >= 0:
                return self.start + found
            if self.start == 0:
                return -1
            self._extend()

    def bytes(self, start: int, end: int) -> bytes:
        """Bytes ``[start, end)``, which rfind_newline has already read."""
        return self.buffer[start - self.start : end - self.start]

    def _extend(self) -> None:
        size = min(self.chunk, self.start)
        self.buffer = read_at(self.fd, self.start - size, size) + self.buffer
        self.start -= size
        self.chunk = min(self.chunk * 2, CHUNK)


def read_tail(fd: int, path: Path) -> Tail:
    """The head and committed end of the log open at ``fd``, reading only its last lines."""
    size = os.fstat(fd).st_size
    reader = _Backward(fd, size)
    end = reader.rfind_newline(size) + 1
    while end > 0:
        start = reader.rfind_newline(end - 1) + 1
        line = reader.bytes(start, end)
        seq, more, hashed = _decoded_at(fd, path, line, start)
        if not more:
            return Tail(LogHead(seq, hashed), end, size)
        end = start
    return Tail(LogHead.empty(), 0, size)


_last_line: tuple[bytes, int, bool, str] | None = None
"""The last line :func:`read_tail` decoded without error: its bytes, seq, ``more`` and line hash.

A command reads the head several times (recovery, the transaction, the commit, the readers' views),
and the last line can be large (a ``memory.trusted`` of a whole store: 430 KB, 3-14 ms to decode
at 4,000 memories). Decoding is a pure function of the bytes, so a line equal byte for byte to the
one decoded last gives the same answer; any other line, damaged or not, is decoded."""


def _decoded_at(fd: int, path: Path, line: bytes, start: int) -> tuple[int, bool, str]:
    global _last_line
    known = _last_line
    if known is not None and known[0] == line:
        return known[1], known[2], known[3]
    event = _decode_at(fd, path, line, start)
    found = (line, event.seq, bool(event.more), line_hash(line))
    _last_line = found
    return found[1], found[2], found[3]


def last_lines(fd: int, end: int, count: int) -> list[bytes]:
    """The last ``count`` lines before byte ``end`` (just past a newline), oldest first; fewer if the file has fewer.

    Only those lines are read (backward, like :func:`read_tail`): what follows a checkpoint costs
    O(what follows), not O(log).
    """
    reader = _Backward(fd, end)
    lines: list[bytes] = []
    while len(lines) < count and end > 0:
        start = reader.rfind_newline(end - 1) + 1
        lines.append(reader.bytes(start, end))
        end = start
    lines.reverse()
    return lines


def _decode_at(fd: int, path: Path, line: bytes, start: int) -> Event:
    try:
        return decode_event(line, path=path, line_no=0)
    except LogIntegrityError as exc:
        # Only damage pays for counting lines from the start of the file.
        raise LogIntegrityError(path, count_lines(fd, start) + 1, exc.reason) from exc


def count_lines(fd: int, end: int) -> int:
    """How many ``\\n`` the file holds before byte ``end``."""
    count, offset = 0, 0
    while offset < end:
        chunk = read_at(fd, offset, min(CHUNK, end - offset))
        if not chunk:
            break
        count += chunk.count(b"\n")
        offset += len(chunk)
    return count


def iter_lines(stream: BinaryIO) -> Iterator[tuple[int, int, bytes]]:
    """``(line number, offset, bytes)`` of each line only the last may lack ``\\n``."""
    offset = 0
    for line_no, line in enumerate(stream, 1):
        yield line_no, offset, line
        offset += len(line)
