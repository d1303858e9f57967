"""Small value types the log hands out: its head, a torn tail, and what verify found."""

from __future__ import annotations

from dataclasses import dataclass

from .model import GENESIS


@dataclass(frozen=True)
class LogHead:
    """The last committed event: its seq and the sha256 of its line. ``(0, GENESIS)`` when empty."""

    seq: int
    hash: str

    @classmethod
    def empty(cls) -> LogHead:
        """The head of an empty or missing log."""
        return cls(0, GENESIS)


@dataclass(frozen=True)
class TornTail:
    """Bytes at the end of the log that no commit covers: a writer died mid-append.

    ``offset`` is where the committed part ends (the file is cut back to it);
    ``length`` is how many bytes follow. It holds a partial last line, and may hold
    complete lines of a multi-line batch whose last line never made it.
    """

    offset: int
    length: int


@dataclass(frozen=True)
class Problem:
    """One thing verify found wrong; ``line`` is 1-based, None for the file as a whole."""

    line: int | None
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line is not None else self.message


@dataclass(frozen=True)
class VerifyReport:
    """The whole log checked: ``ok`` when there are no problems (a torn tail is not one)."""

    ok: bool
    head: LogHead
    events: int
    torn_tail: TornTail | None
    problems: tuple[Problem, ...]
    watched: str | None = None
    """The sha256 of the committed line whose seq the caller asked to watch (None: no such line)."""
