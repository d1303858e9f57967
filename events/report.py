"""Small value types the log hands out: its head, a torn tail, and what verify found."""

from __future__ import annotations

from dataclasses import dataclass, field

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
    walked: WalkState | None = None
    """Where the walk stood after the last committed line (a later walk may resume from it: ADR 0056)."""


@dataclass
class WalkState:
    """Where a walk of the log stands after a committed line: what a later walk needs to go on from there.

    ``memories``: for each memory the log's changes leave, the offset of the line whose change holds
    its record now (read back from the walked bytes only when a later change names that memory).
    """

    offset: int = 0
    lines: int = 0
    seq: int = 0
    hash: str = GENESIS
    events: int = 0
    terminal: dict[str, int] = field(default_factory=dict)
    created: set[str] = field(default_factory=set)
    changed: set[int] = field(default_factory=set)
    memories: dict[str, int] = field(default_factory=dict)
    digest: str | None = None
    """sha256 of the log's first ``offset`` bytes, as the walk read them (None: it read more)."""
