"""Walk a whole log and report every problem, never stopping at the first (``EventLog.verify``).

Checked per line: it decodes as a valid event in canonical form; ``seq`` continues
gaplessly; ``prev`` is the sha256 of the previous line's bytes. Checked across
lines: each candidate has at most one terminal event and is not created or edited
after it; a revert names an earlier event that changed memory; every change's
``before`` is the state the log itself replays to. A torn tail is reported apart:
it is what a dead writer leaves, not damage.

A walk can resume (docs/adr/0056): a caller that proved the first lines unchanged (the bytes a
clean walk ended at, hashed) hands back the :class:`WalkState` that walk ended with, and the walk
reads on from there, checking the rest exactly as a whole walk would.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import orjson

from .errors import LogError, LogIntegrityError
from .model import GENESIS, MEMORY_TYPES, RESTORED, TERMINAL_TYPES, Event, decode_event, line_hash
from .replay import change_conflicts, fold_changes
from .report import LogHead, Problem, TornTail, VerifyReport, WalkState
from .safe_fs import open_file

Each = Callable[[Event, int], None]
"""Handed each committed event and the offset of its line in the log."""


@dataclass(frozen=True)
class Resume:
    """A walk to pick up at ``state``: ``prefix`` is the log's first ``state.offset`` bytes, which the
    caller proved are the ones a clean walk ended at (their digest, kept where the log's writer cannot
    reach), and ``hasher`` a sha256 that has taken them. The walk checks again that the file it reads
    holds the last of those lines."""

    state: WalkState
    prefix: bytes
    hasher: Any


class ResumeRefused(LogError):
    """The log does not hold the walked lines as the resume says: the caller walks it whole instead."""


def verify_log(
    path: Path, *, watch: int | None = None, each: Each | None = None, resume: Resume | None = None
) -> VerifyReport:
    """Check every line of the log at ``path``; damage becomes Problems, never an exception.

    ``watch``: the report's ``watched`` is the line hash of the committed event with that seq.
    ``each``: called with every committed event that decoded and its line's offset, in order, once its
    batch is committed (the torn tail's are never passed), so a caller checks the log's meaning in the
    same pass. ``resume``: check only the lines after ``resume.state`` (:class:`ResumeRefused` when the
    file does not hold its last line there); the report then covers the whole log as a whole walk's would.
    """
    walker = _Walker(path, watch, each, resume)
    try:
        stream = os.fdopen(open_file(path, single_link=True), "rb")  # closed by the with below
    except FileNotFoundError:
        if resume is not None:
            raise ResumeRefused(f"{path}: missing") from None
        return walker.report(0)
    with stream:
        size, first = 0, 1
        if resume is not None:
            size, first = _seek_past(stream, resume), resume.state.lines + 1
        for line_no, line in enumerate(stream, first):
            offset, size = size, size + len(line)
            if line[-1:] == b"\n":
                walker.feed(line_no, offset, line)
    return walker.report(size)


def _seek_past(stream: IO[bytes], resume: Resume) -> int:
    """Position ``stream`` after the walked lines, once its last one is read back byte for byte."""
    state, prefix = resume.state, resume.prefix
    start = _line_start(prefix, len(prefix))
    stream.seek(start)
    if len(prefix) != state.offset or stream.read(state.offset - start) != prefix[start:]:
        raise ResumeRefused(f"the log does not hold line {state.lines} as it was verified")
    return state.offset


def _line_start(prefix: bytes, end: int) -> int:
    """Where the line ending at ``end`` (just past its newline) starts."""
    return prefix.rfind(b"\n", 0, end - 1) + 1


class _Walker:
    """The state of one pass over the log."""

    def __init__(
        self, path: Path, watch: int | None = None, each: Each | None = None, resume: Resume | None = None
    ) -> None:
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
        self.lines = 0
        self.hasher = hashlib.sha256()  # of the complete lines fed: the record of a clean walk names it
        self.hashed = 0
        self.pending: list[tuple[int, int, Event]] = []
        self.semantics = _Semantics(self.problems)
        if resume is not None:
            self._resume(resume)

    def _resume(self, resume: Resume) -> None:
        state = resume.state
        self.expected_seq, self.prev_hash, self.head = state.seq + 1, state.hash, (state.seq, state.hash)
        self.committed, self.events, self.lines = state.offset, state.events, state.lines
        self.hasher, self.hashed = resume.hasher, state.offset
        self.semantics.resume(state, resume.prefix)
        if self.watch is not None and 0 < self.watch <= state.seq:
            self.watched = _watched_in(resume.prefix, state, self.watch)

    def state(self) -> WalkState:
        """Where this walk stands after its last committed line (for a later walk to resume from)."""
        semantics = self.semantics
        return WalkState(
            self.committed,
            self.lines,
            self.head[0],
            self.head[1],
            self.events,
            dict(semantics.terminal),
            set(semantics.created),
            set(semantics.changed),
            dict(semantics.where),
            self.hasher.hexdigest() if self.hashed == self.committed else None,
        )

    def feed(self, line_no: int, offset: int, line: bytes) -> None:
        """Take one complete line."""
        self.hasher.update(line)
        self.hashed += len(line)
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
        self.pending.append((line_no, offset, event))
        if not event.more:
            self._commit(offset + len(line), (event.seq, self.prev_hash), line_no)

    def report(self, size: int) -> VerifyReport:
        """The findings; bytes after the last committed line are the torn tail."""
        torn = TornTail(self.committed, size - self.committed) if size > self.committed else None
        head = LogHead(*self.head)
        return VerifyReport(
            not self.problems, head, self.events, torn, tuple(self.problems), self.watched, self.state()
        )

    def _bad_line(self, line_no: int, offset: int, line: bytes, reason: str) -> None:
        self.problems.append(Problem(line_no, reason))
        # Keep chaining from the damaged bytes: if only this line was altered, the next
        # line's prev reports that too; a sequence number in the wreck still resyncs seq.
        self.prev_hash = line_hash(line)
        raw_seq = _raw_seq(line)
        self.expected_seq = raw_seq + 1 if raw_seq is not None else None
        self._commit(offset + len(line), self.head, line_no)

    def _check_chain(self, line_no: int, event: Event) -> None:
        expected = self.expected_seq
        if expected is not None and event.seq != expected:
            kind = "is a duplicate or goes backwards" if event.seq < expected else "leaves a gap"
            self.problems.append(Problem(line_no, f"seq {event.seq} {kind} (expected {expected})"))
        if event.prev != self.prev_hash:
            what = "GENESIS" if self.prev_hash == GENESIS else f"the sha256 of line {line_no - 1}"
            self.problems.append(Problem(line_no, f"prev does not match {what} (that line or this one was altered)"))

    def _commit(self, end: int, head: tuple[int, str], line_no: int) -> None:
        check, each = self.semantics.check, self.each
        for pending_line, offset, event in self.pending:
            check(pending_line, event, offset)
            if each is not None:
                each(event, offset)
        self.events += len(self.pending)
        self.pending = []
        self.committed = end
        self.head = head
        self.lines = line_no


class _Semantics:
    """Rules that span events: terminal events, reverts, and before-snapshots against the replay."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        self.terminal: dict[str, int] = {}
        self.created: set[str] = set()
        self.changed: set[int] = set()
        self.memories: dict[str, dict[str, Any]] = {}
        self.where: dict[str, int] = {}  # memory id -> offset of the line whose change holds its record
        self.prefix = b""  # a resumed walk's walked bytes: records not yet in ``memories`` are read from them

    def resume(self, state: WalkState, prefix: bytes) -> None:
        self.terminal, self.created, self.changed = dict(state.terminal), set(state.created), set(state.changed)
        self.where, self.prefix = dict(state.memories), prefix

    def check(self, line_no: int, event: Event, offset: int = 0) -> None:
        """Check ``event`` against everything before it, then fold it in."""
        messages = self._candidate_rules(event) if event.candidate is not None else []
        if event.reverts is not None and event.type != RESTORED:
            messages += self._revert_rules(event)
        if event.changes:
            if self.prefix:
                self._read_back(event)
            messages += change_conflicts(self.memories, event)
            fold_changes(self.memories, event, copy=False)  # the state never leaves verify
            if event.type != "session.written":  # as fold_changes: session memory is not the store's
                for change in event.changes:
                    if change.after is None:
                        self.where.pop(change.memory, None)
                    else:
                        self.where[change.memory] = offset
        if messages:
            self.problems.extend(Problem(line_no, message) for message in messages)
        if event.type in MEMORY_TYPES:
            self.changed.add(event.seq)

    def _read_back(self, event: Event) -> None:
        """The records a resumed walk's changes compare against, read from the walked line that holds each."""
        for change in event.changes or ():
            memory_id = change.memory
            if memory_id in self.memories or memory_id not in self.where:
                continue
            start = self.where[memory_id]
            line = orjson.loads(self.prefix[start : self.prefix.index(b"\n", start) + 1])
            found = [c["after"] for c in line.get("changes") or () if c.get("memory") == memory_id]
            if not found or not isinstance(found[-1], dict):
                raise ResumeRefused(f"the line at offset {start} does not hold memory {memory_id!r}")
            self.memories[memory_id] = found[-1]

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


def _watched_in(prefix: bytes, state: WalkState, watch: int) -> str:
    """The line hash of event ``watch`` among the walked lines (clean: line n holds seq n), from the end."""
    end = state.offset
    for _ in range(state.lines - watch):
        end = _line_start(prefix, end)
    line = prefix[_line_start(prefix, end) : end]
    if _raw_seq(line) != watch:
        raise ResumeRefused(f"line {watch} of the walked lines is not event {watch}")
    return line_hash(line)


def _raw_seq(line: bytes) -> int | None:
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    seq = value.get("seq") if isinstance(value, dict) else None
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else None
