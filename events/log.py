"""The append-only, hash-chained event log: one ``events.jsonl`` per store (docs/design.md §4).

Appending is the commit point of every change, so it is all-or-nothing:

- a batch of events is written with one ``write`` and made durable with ONE fsync;
  every line but the batch's last carries ``"more": true``, so a batch cut short
  by a crash is a torn tail as a whole, never half a batch;
- a torn tail (a dead writer's partial batch) is cut back before the next append;
- if the write or fsync fails, the file is truncated back to where it was, so an
  append that raised left nothing a reader would take as committed (unless the
  truncate fails too: then the error says so and the bytes are a torn tail or a
  whole batch, exactly as after a crash).

The caller holds the store lock for appends; readers need no lock. They stream
the file and verify the chain as they go; a damaged line in the middle is a
:class:`LogIntegrityError` naming its line, never skipped.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, Literal, get_args

import orjson

from . import faults
from .durable import fsync_fd, sync_directory, write_all
from .errors import EventNotFoundError, LogConflictError, LogError, LogIntegrityError, LogIOError
from .model import GENESIS, Event, EventDraft, EventType, decode_event, encode_event, line_hash
from .report import LogHead, Problem, TornTail, VerifyReport
from .safe_fs import UnsafeFile, open_file
from .scan import Tail, last_lines, read_tail
from .verify import Resume, verify_log

__all__ = ["EventLog", "LogHead", "Problem", "TornTail", "VerifyReport", "utc_timestamp"]


def utc_timestamp() -> str:
    """The current time as an event ``ts``: UTC, microseconds, ``Z``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class EventLog:
    """One log file. Appends need the caller's store lock; reads need nothing."""

    def __init__(self, path: Path, *, origin: str, clock: Callable[[], str] | None = None) -> None:
        self.path = Path(path)
        self.origin = origin
        self._clock = clock or utc_timestamp
        self.appended: LogHead | None = None
        """The head right after this object's last successful append (no need to read it back)."""

    def __repr__(self) -> str:
        return f"EventLog({str(self.path)!r}, origin={self.origin!r})"

    # --- the end of the log --------------------------------------------------------------

    def head(self) -> LogHead:
        """The last committed event, reading only the end of the file; a torn tail is ignored."""
        return self._tail().head

    def torn_tail(self) -> TornTail | None:
        """The bytes after the last committed line, if any (a writer died mid-append)."""
        return _torn(self._tail())

    def cut_torn_tail(self) -> TornTail | None:
        """Truncate the file to its last committed line (fsynced); return what was cut."""
        with self._io_errors():
            try:
                fd = open_file(self.path, os.O_RDWR, single_link=True)
            except FileNotFoundError:
                return None
            try:
                return _cut(fd, read_tail(fd, self.path))
            finally:
                os.close(fd)

    def _tail(self) -> Tail:
        with self._io_errors():
            try:
                fd = open_file(self.path, single_link=True)
            except FileNotFoundError:
                return Tail(LogHead.empty(), 0, 0)
            try:
                return read_tail(fd, self.path)
            finally:
                os.close(fd)

    # --- appending -----------------------------------------------------------------------

    def append(self, drafts: Sequence[EventDraft], *, expect: LogHead | None = None) -> list[Event]:
        """Commit ``drafts`` as consecutive events (one write, one fsync) and return them.

        The caller holds the store lock. A torn tail is cut first. With ``expect``,
        a different head raises :class:`LogConflictError` and nothing is written.
        """
        drafts = list(drafts)
        if not drafts:
            self._check_expect(expect, self.head())
            return []
        with self._io_errors():
            fd, created = self._open_for_append()
            try:
                tail = read_tail(fd, self.path)
                self._check_expect(expect, tail.head)
                _cut(fd, tail)
                events, data, head = self._build(drafts, tail.head)
                # The first commit into a file makes its name durable too (it may be new).
                self._commit(fd, data, tail.committed, sync_dir=created or tail.committed == 0)
                self.appended = head
                return events
            finally:
                os.close(fd)

    def _open_for_append(self) -> tuple[int, bool]:
        try:
            return open_file(self.path, os.O_RDWR | os.O_APPEND, single_link=True), False
        except FileNotFoundError:
            faults.point("log.create.before_open")
            flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL
            return open_file(self.path, flags, single_link=True), True

    @staticmethod
    def _check_expect(expect: LogHead | None, head: LogHead) -> None:
        if expect is not None and expect != head:
            raise LogConflictError(expect, head)

    def _build(self, drafts: list[EventDraft], head: LogHead) -> tuple[list[Event], bytes, LogHead]:
        ts = self._clock()
        seq, prev = head.seq, head.hash
        events, lines = [], []
        for index, draft in enumerate(drafts):
            more: Literal[True] | None = True if index < len(drafts) - 1 else None
            event = Event(**_draft_fields(draft), seq=seq + 1, prev=prev, ts=ts, origin=self.origin, more=more)
            line = encode_event(event)
            seq, prev = event.seq, line_hash(line)
            events.append(event)
            lines.append(line)
        return events, b"".join(lines), LogHead(seq, prev)

    def _commit(self, fd: int, data: bytes, base: int, *, sync_dir: bool) -> None:
        try:
            write_all(fd, data, name="log.append")
            fsync_fd(fd, name="log.append")
            if sync_dir:
                sync_directory(self.path.parent, name="log.append.dir")
        except BaseException as exc:
            _roll_back(fd, base, exc)
            raise

    # --- reading -------------------------------------------------------------------------

    def __iter__(self) -> Iterator[Event]:
        """Every committed event in order, streamed and chain-checked; a torn tail is skipped."""
        return self._events(None)

    def _open(self) -> BinaryIO | None:
        """The log opened for reading (never through a link: see events.safe_fs); None when there is none yet."""
        try:
            return os.fdopen(open_file(self.path, single_link=True), "rb")
        except FileNotFoundError:
            return None
        except UnsafeFile:
            raise
        except OSError as exc:
            raise LogIOError.wrap(self.path, exc) from exc

    def _events(self, wanted: Callable[[dict[str, Any]], bool] | None) -> Iterator[Event]:
        stream = self._open()
        if stream is None:
            return
        with stream:
            try:
                yield from _committed_events(stream, self.path, wanted)
            except (LogError, UnsafeFile):
                raise
            except OSError as exc:
                raise LogIOError.wrap(self.path, exc) from exc

    def read(
        self,
        *,
        session: str | None = None,
        type: str | Iterable[str] | None = None,
        memory: str | None = None,
        candidate: str | None = None,
        start: int | None = None,
        stop: int | None = None,
    ) -> Iterator[Event]:
        """Committed events matching every filter given; ``start``/``stop`` are inclusive seqs.

        ``memory`` matches events whose ``changes`` touch that memory id. A line the filters
        rule out is only skimmed (parsed for its seq, prev and filter fields, and chain-checked),
        not validated as an event, so picking a few events out of a long log costs a JSON parse
        per line rather than a full decode; ``verify`` still validates every line.
        """
        types = {type} if isinstance(type, str) else (set(type) if type is not None else None)
        if all(f is None for f in (session, types, memory, candidate, start, stop)):
            return self._events(None)  # nothing to filter: no generator of its own in between
        return self._filtered(session=session, types=types, memory=memory, candidate=candidate, start=start, stop=stop)

    def _filtered(
        self,
        *,
        session: str | None,
        types: set[str] | None,
        memory: str | None,
        candidate: str | None,
        start: int | None,
        stop: int | None,
    ) -> Iterator[Event]:
        def wanted(raw: dict[str, Any]) -> bool:
            seq = raw["seq"]
            if stop is not None and seq > stop:
                return True  # decoded, so the loop below can stop at it
            if (start is not None and seq < start) or (types is not None and raw.get("type") not in types):
                return False
            return _raw_matches(raw, session=session, memory=memory, candidate=candidate)

        skims = any(f is not None for f in (session, types, memory, candidate, start))
        for event in self._events(wanted if skims else None):  # else every line is decoded anyway
            if stop is not None and event.seq > stop:
                return
            if start is not None and event.seq < start:
                continue
            if types is not None and event.type not in types:
                continue
            if _matches(event, session=session, memory=memory, candidate=candidate):
                yield event

    def check_chain(self) -> int:
        """The number of committed lines, after checking that their seq/prev chain holds.

        Cheaper than a read, which parses every line: each line is hashed and must hold its
        ``"seq":N,`` and ``"prev":"<sha256 of the line before>"`` as the canonical encoder writes
        them (the top-level seq is never the last key, and a nested value cannot hold an unescaped
        quote). A line that does not is read again the slow way, which raises
        :class:`LogIntegrityError` naming exactly what is wrong with it.
        """
        prev, expected = GENESIS, 1
        stream = self._open()
        if stream is None:
            return 0
        with self._io_errors(), stream:
            for line in stream:
                if line[-1:] != b"\n":
                    break  # a torn tail: never committed
                if b'"seq":%d,' % expected not in line or b'"prev":"%s"' % prev.encode() not in line:
                    self._raise_at_the_break(expected)
                prev, expected = line_hash(line), expected + 1
        return expected - 1

    def since(self, seq: int, hash: str, *, skim: frozenset[str] = frozenset()) -> tuple[LogHead, list[Event]]:
        """The head, and the committed events after event ``seq``, reading backward from the end only.

        A reader whose checkpoint is at ``seq`` pays for what follows it, not for the whole log.
        The line of event ``seq`` must hash to ``hash`` (``GENESIS`` for seq 0) and each line after
        it must continue the chain, else :class:`LogIntegrityError` naming the line. Lines of the
        ``skim`` types are chain-checked but not decoded nor returned (``context.built`` changes
        nothing a reader folds). When the head is not past ``seq`` nothing is returned: the caller
        compares the head with its position.
        """
        with self._io_errors():
            try:
                fd = open_file(self.path, single_link=True)
            except FileNotFoundError:
                return LogHead.empty(), []
            try:
                tail = read_tail(fd, self.path)
                if tail.head.seq <= seq:
                    return tail.head, []
                anchor = 1 if seq > 0 else 0
                lines = last_lines(fd, tail.committed, tail.head.seq - seq + anchor)
            finally:
                os.close(fd)
        if len(lines) != tail.head.seq - seq + anchor:
            raise LogIntegrityError(self.path, seq, f"the log has fewer lines than its last seq {tail.head.seq}")
        prev = line_hash(lines[0]) if anchor else GENESIS
        if prev != hash:
            raise LogIntegrityError(self.path, seq, "does not hash to the log position recorded for it")
        return tail.head, _chained(self.path, seq, prev, lines[anchor:], skim)

    def _raise_at_the_break(self, line_no: int) -> None:
        for _event in self.read(type=()):  # skims and decodes every line: raises, naming the line
            pass
        raise LogIntegrityError(self.path, line_no, "does not continue the seq/prev chain")

    def get(self, seq: int) -> Event:
        """The committed event with this seq; :class:`EventNotFoundError` (a LogError) if none."""
        for event in self.read(start=seq, stop=seq):
            return event
        raise EventNotFoundError(seq)

    def verify(
        self,
        *,
        watch: int | None = None,
        each: Callable[[Event, int], None] | None = None,
        resume: Resume | None = None,
    ) -> VerifyReport:
        """Walk the whole log and report every problem; raises only if the disk cannot be read.

        ``watch``: also give the line hash of event ``watch`` (to check the log extends an anchored head).
        ``each``: handed every committed event (and its line's offset) as the walk passes it
        (``verify_log``), so one decode of the log serves the chain, the cross-event rules and the
        caller's own checks. ``resume``: walk on from lines a caller proved unchanged (``verify_log``).
        """
        with self._io_errors():
            return verify_log(self.path, watch=watch, each=each, resume=resume)

    @contextmanager
    def _io_errors(self) -> Iterator[None]:
        try:
            yield
        except (LogError, UnsafeFile):
            raise
        except OSError as exc:
            raise LogIOError.wrap(self.path, exc) from exc


def _draft_fields(draft: EventDraft) -> dict[str, Any]:
    if not isinstance(draft, EventDraft) or isinstance(draft, Event):
        raise TypeError(f"append takes EventDraft objects, not {type(draft).__name__}")
    return {name: getattr(draft, name) for name in EventDraft.model_fields}


def _torn(tail: Tail) -> TornTail | None:
    return TornTail(tail.committed, tail.size - tail.committed) if tail.size > tail.committed else None


def _cut(fd: int, tail: Tail) -> TornTail | None:
    torn = _torn(tail)
    if torn is not None:
        faults.point("log.cut.before_truncate")
        os.ftruncate(fd, torn.offset)
        faults.point("log.cut.after_truncate")
        fsync_fd(fd, name="log.cut")
    return torn


def _roll_back(fd: int, size: int, exc: BaseException) -> None:
    """Truncate a failed append away, so the log is as it was; note (not raise) a second failure."""
    try:
        faults.point("log.rollback.before_truncate")
        os.ftruncate(fd, size)
        faults.point("log.rollback.after_truncate")
        fsync_fd(fd, name="log.rollback")
    except OSError as second:
        exc.add_note(
            f"truncating the log back to {size} bytes failed too ({second}); "
            "what was written is a torn tail or a whole batch, as after a crash"
        )


def _committed_events(
    stream: BinaryIO, path: Path, wanted: Callable[[dict[str, Any]], bool] | None = None
) -> Iterator[Event]:
    if wanted is None:
        return _every_event(stream, path)
    return _wanted_events(stream, path, wanted)


def _every_event(stream: BinaryIO, path: Path) -> Iterator[Event]:
    """Every committed event, each line decoded; the loop of replay, kept lean."""
    prev, expected = GENESIS, 1
    pending: list[Event] = []
    for line_no, line in enumerate(stream, 1):
        if line[-1:] != b"\n":
            return  # a torn tail: the writer died, nothing after it was committed
        event = decode_event(line, path=path, line_no=line_no)
        if event.seq != expected or event.prev != prev:
            _check_link(path, line_no, event.seq, event.prev, expected, prev)
        prev, expected = line_hash(line), event.seq + 1
        if event.more:
            pending.append(event)  # a batch commits with its last line
        elif pending:
            yield from pending
            yield event
            pending = []
        else:
            yield event


def _wanted_events(stream: BinaryIO, path: Path, wanted: Callable[[dict[str, Any]], bool]) -> Iterator[Event]:
    """The committed events ``wanted`` picks from each line's skim; the others are only skimmed."""
    prev, expected = GENESIS, 1
    pending: list[Event] = []
    for line_no, line in enumerate(stream, 1):
        if not line.endswith(b"\n"):
            return  # a torn tail: the writer died, nothing after it was committed
        raw = _skim(line)
        if raw is not None and not wanted(raw):
            event, seq, line_prev, more = None, raw["seq"], raw["prev"], raw.get("more")
        else:
            event = decode_event(line, path=path, line_no=line_no)
            seq, line_prev, more = event.seq, event.prev, event.more
        _check_link(path, line_no, seq, line_prev, expected, prev)
        prev, expected = line_hash(line), seq + 1
        if event is not None:
            pending.append(event)
        if not more:
            yield from pending
            pending = []


_EVENT_FIELDS = frozenset(Event.model_fields)
_EVENT_TYPES = frozenset(get_args(EventType))


def _skim(line: bytes) -> dict[str, Any] | None:
    """The line as a plain dict if its chain and filter fields have the right shapes, else None.

    None sends the line through the full decode, which names whatever is wrong with it.
    """
    try:
        raw = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(raw, dict) or not raw.keys() <= _EVENT_FIELDS or raw.get("v") != 1:
        return None
    shapes = (
        type(raw.get("seq")) is int,
        isinstance(raw.get("prev"), str),
        raw.get("more") in (None, True),
        raw.get("type") in _EVENT_TYPES,
        isinstance(raw.get("changes", []), list),
        all(isinstance(raw.get(k, ""), str) for k in ("session", "candidate")),
    )
    return raw if all(shapes) else None


def _raw_matches(raw: dict[str, Any], *, session: str | None, memory: str | None, candidate: str | None) -> bool:
    if session is not None and raw.get("session") != session:
        return False
    if candidate is not None and raw.get("candidate") != candidate:
        return False
    changes = raw.get("changes") or ()
    return memory is None or any(isinstance(c, dict) and c.get("memory") == memory for c in changes)


def _chained(path: Path, seq: int, prev: str, lines: list[bytes], skim: frozenset[str]) -> list[Event]:
    """The events of ``lines`` (events ``seq + 1`` on), each linked to the one before; ``skim`` types skipped."""
    events = []
    for line_no, line in enumerate(lines, seq + 1):
        raw = _skim(line) if skim else None
        if raw is not None and raw["type"] in skim:
            line_seq, line_prev = raw["seq"], raw["prev"]
        else:
            event = decode_event(line, path=path, line_no=line_no)
            line_seq, line_prev = event.seq, event.prev
            events.append(event)
        _check_link(path, line_no, line_seq, line_prev, line_no, prev)
        prev = line_hash(line)
    return events


def _check_link(path: Path, line_no: int, seq: int, line_prev: str, expected: int, prev: str) -> None:
    if seq != expected:
        raise LogIntegrityError(path, line_no, f"seq {seq} where {expected} was expected")
    if line_prev != prev:
        raise LogIntegrityError(path, line_no, "prev does not match the sha256 of the previous line")


def _matches(event: Event, *, session: str | None, memory: str | None, candidate: str | None) -> bool:
    if session is not None and event.session != session:
        return False
    if candidate is not None and event.candidate != candidate:
        return False
    return memory is None or any(change.memory == memory for change in event.changes or ())
