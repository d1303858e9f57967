"""The errors of the event log package (it imports nothing of memory-review, so it has its own)::

    LogError                      root: anything the log refuses or cannot do
     ├── LogIntegrityError        a stored line is damaged: names path:line and the reason
     ├── LogConflictError         append(expect=...) found another head: nothing was written
     ├── EventNotFoundError       get(seq) found no such event
     ├── ReplayError              events folded out of order
     └── LogIOError               (also OSError) the disk refused a read, write, fsync or truncate

Every error carries its context as attributes, and pickles (errors cross process
boundaries in the concurrency tests).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


class LogError(Exception):
    """Root of every error this package raises on purpose."""


class LogIntegrityError(LogError):
    """A line of the log is damaged, out of order or does not chain to its predecessor."""

    def __init__(self, path: Path | str, line: int | None, reason: str) -> None:
        super().__init__(path, line, reason)
        self.path = str(path)
        self.line = line
        self.reason = reason

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return f"{where}: {self.reason}"


class LogConflictError(LogError):
    """The log head moved since the caller looked; the append wrote nothing."""

    def __init__(self, expected: Any, found: Any) -> None:
        super().__init__(expected, found)
        self.expected = expected
        self.found = found

    def __str__(self) -> str:
        return f"log head moved: expected {self.expected}, found {self.found}; nothing was written"


class EventNotFoundError(LogError):
    """No event with the requested seq exists (in the committed part of the log)."""

    def __init__(self, seq: int) -> None:
        super().__init__(seq)
        self.seq = seq

    def __str__(self) -> str:
        return f"no event seq {self.seq}"


class ReplayError(LogError):
    """An event was folded onto a state that is already at or past its seq."""


class LogIOError(LogError, OSError):
    """The operating system refused a read, write, fsync or truncate of the log."""

    def __init__(self, message: str, *, path: Path | str, errno: int | None = None) -> None:
        OSError.__init__(self, message)
        self.message = message
        self.path = str(path)
        self.errno = errno
        self.filename = str(path)

    @classmethod
    def wrap(cls, path: Path | str, exc: OSError) -> LogIOError:
        """The one translation of an OSError into ours: keeps errno and notes, names the file."""
        wrapped = cls(f"{path}: {exc.strerror or exc}", path=path, errno=exc.errno)
        wrapped.strerror = exc.strerror  # the reason alone, for callers that name the file themselves
        for note in getattr(exc, "__notes__", ()):
            wrapped.add_note(note)  # e.g. "the rollback failed too": the caller must see it
        return wrapped

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        # OSError's default reduce would call cls(*args) without the keyword-only context.
        return (_rebuild_io_error, (self.message, self.path, self.errno))


def _rebuild_io_error(message: str, path: str, errno: int | None) -> LogIOError:
    return LogIOError(message, path=path, errno=errno)
