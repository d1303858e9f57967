"""Walk a whole log and report every problem, never stopping at the first (``EventLog.verify``).

Checked per line: it decodes as a valid event in canonical form; ``seq`` continues
gaplessly; ``prev`` is the sha256 of the previous line's bytes. Checked across
lines: each candidate has at most one terminal event and is not created or edited
after it; a revert names an earlier event that changed memory; every change's
``before`` is the state the log itself replays to. A torn tail is reported apart:
it is what a dead writer leaves, not damage.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from .errors import LogIntegrityError
from .model import GENESIS, MEMORY_TYPES, RESTORED, TERMINAL_TYPES, Event, decode_event, line_hash
from .replay import change_conflicts, fold_changes
from .report import LogHead, Problem, TornTail, VerifyReport
from .safe_fs import open_file


def verify_log(path: Path, *, watch: int | None = None, each: Callable[[Event], None] | None = None) -> VerifyReport:
    """Check every line of the log at ``path``; damage becomes Problems, never an exception.

    ``watch``: the report's ``watched`` is the line hash of the committed event with that seq.
    ``each``: called with every committed event that decoded, in order, once its batch is committed
    (the torn tail's are never passed), so a caller checks the log's meaning in the same pass.
    """
    walker = _Walker(path, watch, each)
    try:
        stream = os.fdopen(open_file(path, single_link=True), "rb")  # closed by the with below
    except FileNotFoundError:
        return walker.report(0)
    with stream:
        size = 0
        for line_no, line in enumerate(stream, 1):
            offset, size = size, size + len(line)
            if line[-1:] == b"\n":
                walker.feed(line_no, offset, line)
    return walker.report(size)


class _Walker:
    """The state of one pass over the log."""

    def __init__(self, path: Path, watch: int | None = None, each: Callable[[Event], None] | None = None) -> None:
        self.path = path
        self.watch = watch
        self.each = each
        self.watched: str | None = None
        self.problems: list[Problem] = []
        self.expected_seq: int | None = 1
        self.prev_hash = GENESIS
        self.head = (0, GENESIS)  # a LogHead at the end: one per line would cost a dataclass each
        self.committed = 0
        self.events = 0
        self.pending: list[tuple[int, Event]] = []
        self.semantics = _Semantics(self.problems)

    def feed(self, line_no: int, offset: int, line: bytes) -> None:
        """Take one complete line."""
        try:
            event = decode_event(line, path=self.path, line_no=line_no)
        except LogIntegrityError as exc:
            self._bad_line(line_no, offset, line, exc.reason)
            return
        if event.seq != self.expected_seq or event.prev != self.prev_hash:
            self._check_chain(line_no, event)
        self.prev_hash = line_hash(line)
        self.expected_seq = event.seq + 1
        if event.seq == self.watch:
            self.watched = self.prev_hash
        self.pending.append((line_no, event))
        if not event.more:
            self._commit(offset + len(line), (event.seq, self.prev_hash))

    def report(self, size: int) -> VerifyReport:
        """The findings; bytes after the last committed line are the torn tail."""
        torn = TornTail(self.committed, size - self.committed) if size > self.committed else None
        head = LogHead(*self.head)
        return VerifyReport(not self.problems, head, self.events, torn, tuple(self.problems), self.watched)

    def _bad_line(self, line_no: int, offset: int, line: bytes, reason: str) -> None:
        self.problems.append(Problem(line_no, reason))
        # Keep chaining from the damaged bytes: if only this line was altered, the next
        # line's prev reports that too; a sequence number in the wreck still resyncs seq.
        self.prev_hash = line_hash(line)
        raw_seq = _raw_seq(line)
        self.expected_seq = raw_seq + 1 if raw_seq is not None else None
        self._commit(offset + len(line), self.head)

    def _check_chain(self, line_no: int, event: Event) -> None:
        expected = self.expected_seq
        if expected is not None and event.seq != expected:
            kind = "is a duplicate or goes backwards" if event.seq < expected else "leaves a gap"
            self.problems.append(Problem(line_no, f"seq {event.seq} {kind} (expected {expected})"))
        if event.prev != self.prev_hash:
            what = "GENESIS" if self.prev_hash == GENESIS else f"the sha256 of line {line_no - 1}"
            self.problems.append(Problem(line_no, f"prev does not match {what} (that line or this one was altered)"))

    def _commit(self, end: int, head: tuple[int, str]) -> None:
        check, each = self.semantics.check, self.each
        for line_no, event in self.pending:
            check(line_no, event)
            if each is not None:
                each(event)
        self.events += len(self.pending)
        self.pending = []
        self.committed = end
        self.head = head


class _Semantics:
    """Rules that span events: terminal events, reverts, and before-snapshots against the replay."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        self.terminal: dict[str, int] = {}
        self.created: set[str] = set()
        self.changed: set[int] = set()
        self.memories: dict[str, dict[str, Any]] = {}

    def check(self, line_no: int, event: Event) -> None:
        """Check ``event`` against everything before it, then fold it in."""
        messages = self._candidate_rules(event) if event.candidate is not None else []
        if event.reverts is not None and event.type != RESTORED:
            messages += self._revert_rules(event)
        if event.changes:
            messages += change_conflicts(self.memories, event)
            fold_changes(self.memories, event, copy=False)  # the state never leaves verify
        if messages:
            self.problems.extend(Problem(line_no, message) for message in messages)
        if event.type in MEMORY_TYPES:
            self.changed.add(event.seq)

    def _candidate_rules(self, event: Event) -> list[str]:
        candidate = event.candidate
        if candidate is None or not event.type.startswith("candidate."):
            return []
        if event.type == RESTORED:
            return self._restore_rules(event, candidate)
        messages = []
        resolved = self.terminal.get(candidate)
        if resolved is not None:
            messages.append(f"{event.type} for candidate {candidate} after its terminal event (seq {resolved})")
        elif event.type in TERMINAL_TYPES:
            self.terminal[candidate] = event.seq
        if event.type == "candidate.created":
            if candidate in self.created:
                messages.append(f"candidate {candidate} created twice")
            self.created.add(candidate)
        return messages

    def _restore_rules(self, event: Event, candidate: str) -> list[str]:
        """A restore reopens a resolved candidate, naming the terminal event it undoes."""
        resolved = self.terminal.pop(candidate, None)
        if resolved is None:
            return [f"{RESTORED} for candidate {candidate}, which is not resolved"]
        if event.reverts != resolved:
            return [
                f"{RESTORED} for candidate {candidate} names seq {event.reverts}, but it was resolved at seq {resolved}"
            ]
        return []

    def _revert_rules(self, event: Event) -> list[str]:
        target = event.reverts
        if target is None or target in self.changed:
            return []
        return [f"memory.reverted names seq {target}, which is not an earlier event that changed memory"]


def _raw_seq(line: bytes) -> int | None:
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    seq = value.get("seq") if isinstance(value, dict) else None
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else None
