"""EventLog: appending builds the chain, one fsync per batch, a cheap head, torn tails, filters."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import orjson
import pytest
from events_testkit import HISTORY, ORIGIN, TS, fixed_clock, recovered

import memory_review.events.scan
from memory_review.events import (
    GENESIS,
    EventDraft,
    EventLog,
    EventNotFoundError,
    LogConflictError,
    LogError,
    LogHead,
    LogIntegrityError,
    LogIOError,
    TornTail,
    encode_event,
    line_hash,
)


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def test_missing_log_is_empty(log: EventLog) -> None:
    assert log.head() == LogHead(0, GENESIS)
    assert log.torn_tail() is None
    assert log.cut_torn_tail() is None
    assert list(log) == []
    report = log.verify()
    assert report.ok and report.events == 0 and report.head == LogHead(0, GENESIS)
    assert not log.path.exists()


def test_appends_build_the_chain(log: EventLog, log_path: Path) -> None:
    returned = []
    for draft in HISTORY:
        returned += log.append([draft])
    lines = _lines(log_path)
    assert len(lines) == len(HISTORY)
    prev = GENESIS
    for seq, (line, event) in enumerate(zip(lines, returned, strict=True), 1):
        assert event.seq == seq and event.prev == prev
        assert event.ts == TS and event.origin == ORIGIN and event.more is None
        assert encode_event(event) == line
        prev = line_hash(line)
    assert log.head() == LogHead(len(HISTORY), prev)
    assert list(log) == returned


def test_a_batch_shares_one_commit(log: EventLog, log_path: Path) -> None:
    log.append([recovered("first")])
    batch = log.append(HISTORY[:4])
    assert [e.seq for e in batch] == [2, 3, 4, 5]
    assert [e.more for e in batch] == [True, True, True, None]
    assert batch[0].prev == line_hash(_lines(log_path)[0])
    assert log.head() == LogHead(5, line_hash(_lines(log_path)[-1]))
    assert [e.seq for e in log] == [1, 2, 3, 4, 5]


def test_default_clock_writes_utc_microseconds(log_path: Path) -> None:
    (event,) = EventLog(log_path, origin=ORIGIN).append([recovered()])
    assert len(event.ts) == len(TS) and event.ts.endswith("Z") and "." in event.ts


class _Counter:
    def __init__(self, real: Any) -> None:
        self.real = real
        self.calls = 0

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        return self.real(*args)


def test_one_write_and_one_fsync_per_batch(log: EventLog, monkeypatch: pytest.MonkeyPatch) -> None:
    log.append([recovered("exists")])
    fsync, write = _Counter(os.fsync), _Counter(os.write)
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "write", write)
    log.append(HISTORY[:8])
    assert (fsync.calls, write.calls) == (1, 1)


def test_first_commit_also_syncs_the_directory(log: EventLog, monkeypatch: pytest.MonkeyPatch) -> None:
    fsync = _Counter(os.fsync)
    monkeypatch.setattr(os, "fsync", fsync)
    log.append(HISTORY[:3])
    assert fsync.calls == 2  # the file, then the directory that now names it


def test_write_all_survives_short_writes(log: EventLog, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real(fd, bytes(data[:7])))
    log.append(HISTORY)
    monkeypatch.undo()
    assert log.verify().ok and log.head().seq == len(HISTORY)


def test_expect_guards_against_a_moved_head(log: EventLog, log_path: Path) -> None:
    first = log.append([recovered()])
    head = log.head()
    assert head.seq == first[0].seq
    log.append([recovered("someone else")], expect=head)
    before = log_path.read_bytes()
    with pytest.raises(LogConflictError) as caught:
        log.append([recovered("stale")], expect=head)
    assert isinstance(caught.value, LogError)
    assert caught.value.expected == head and caught.value.found == log.head()
    assert log_path.read_bytes() == before


def test_empty_batch_writes_nothing(log: EventLog, log_path: Path) -> None:
    assert log.append([]) == []
    assert not log_path.exists()
    with pytest.raises(LogConflictError):
        log.append([], expect=LogHead(3, "ab" * 32))


def test_append_takes_drafts_only(log: EventLog) -> None:
    (event,) = log.append([recovered()])
    with pytest.raises(TypeError):
        log.append([event])


def test_append_to_a_missing_directory_is_a_log_io_error(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "nowhere" / "events.jsonl", origin=ORIGIN)
    with pytest.raises(LogIOError) as caught:
        log.append([recovered()])
    assert isinstance(caught.value, OSError) and caught.value.errno == 2
    assert caught.value.path.endswith("events.jsonl")


def test_get_by_seq(log: EventLog) -> None:
    log.append(HISTORY)
    assert log.get(5).candidate == "cand_b"
    with pytest.raises(EventNotFoundError, match="no event seq 99") as caught:
        log.get(99)
    assert isinstance(caught.value, LogError) and caught.value.seq == 99


# --- head on a big log ---------------------------------------------------------------------


def _big_log(path: Path, count: int) -> str:
    """Write ``count`` chained lines fast (orjson directly); return the last line's hash."""
    prev = GENESIS
    with open(path, "wb") as stream:
        for seq in range(1, count + 1):
            line = (
                orjson.dumps(
                    {
                        "actor": "system",
                        "origin": ORIGIN,
                        "prev": prev,
                        "reason": f"r{seq}",
                        "seq": seq,
                        "ts": TS,
                        "type": "store.recovered",
                        "v": 1,
                    },
                    option=orjson.OPT_SORT_KEYS,
                )
                + b"\n"
            )
            stream.write(line)
            prev = hashlib.sha256(line).hexdigest()
    return prev


def test_head_of_a_50k_line_log_reads_only_its_end(
    log: EventLog, log_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    last = _big_log(log_path, 50_000)
    size = log_path.stat().st_size
    read = []
    real = memory_review.events.scan.read_at
    monkeypatch.setattr(
        memory_review.events.scan, "read_at", lambda fd, offset, n: read.append(n) or real(fd, offset, n)
    )
    assert log.head() == LogHead(50_000, last)
    assert sum(read) <= memory_review.events.scan.FIRST_CHUNK < size // 1000
    # The head never looked at the start: damage there is verify's business, not head's.
    with open(log_path, "r+b") as stream:
        stream.write(b"X")
    assert log.head() == LogHead(50_000, last)
    assert log.verify().problems[0].line == 1


def test_head_spans_chunks_for_a_long_last_line(log: EventLog) -> None:
    log.append([recovered("short")])
    (event,) = log.append([recovered("x" * (5 * memory_review.events.scan.FIRST_CHUNK))])
    assert log.head().seq == event.seq == 2


def test_head_of_a_damaged_last_line_names_it(log: EventLog, log_path: Path) -> None:
    log.append(HISTORY[:3])
    with open(log_path, "ab") as stream:
        stream.write(b'{"broken": true}\n')
    with pytest.raises(LogIntegrityError) as caught:
        log.head()
    assert caught.value.line == 4
    with pytest.raises(LogIntegrityError):
        log.append([recovered()])  # fails closed: never chains onto a line it cannot read


# --- torn tails ----------------------------------------------------------------------------


def test_torn_line_is_detected_cut_and_the_chain_continues(log: EventLog, log_path: Path) -> None:
    log.append(HISTORY[:3])
    committed = log_path.read_bytes()
    head = log.head()
    with open(log_path, "ab") as stream:
        stream.write(b'{"actor":"user","cand')
    torn = TornTail(len(committed), len(b'{"actor":"user","cand'))
    assert log.head() == head
    assert log.torn_tail() == torn
    assert [e.seq for e in log] == [1, 2, 3]
    report = log.verify()
    assert report.ok and report.torn_tail == torn and report.head == head and report.events == 3
    assert log.cut_torn_tail() == torn
    assert log_path.read_bytes() == committed and log.torn_tail() is None
    assert log.cut_torn_tail() is None


def test_append_cuts_a_torn_tail_first(log: EventLog, log_path: Path) -> None:
    log.append(HISTORY[:2])
    head = log.head()
    with open(log_path, "ab") as stream:
        stream.write(b'{"half a li')
    (event,) = log.append([HISTORY[2]], expect=head)
    assert event.seq == 3 and event.prev == head.hash
    assert log.verify().ok and log.torn_tail() is None


def test_a_batch_without_its_last_line_is_torn_as_a_whole(log: EventLog, log_path: Path) -> None:
    log.append([recovered("before")])
    committed = log_path.read_bytes()
    log.append(HISTORY[:4])
    lines = _lines(log_path)
    # A crash after three complete lines of the four: the batch never committed.
    log_path.write_bytes(committed + b"".join(lines[1:4]) + lines[4][:10])
    torn = TornTail(len(committed), log_path.stat().st_size - len(committed))
    assert log.head() == LogHead(1, line_hash(lines[0]))
    assert log.torn_tail() == torn
    assert [e.seq for e in log] == [1]
    report = log.verify()
    assert report.ok and report.events == 1 and report.torn_tail == torn
    # Even with no partial line at all, complete lines of an unfinished batch are torn.
    log_path.write_bytes(committed + b"".join(lines[1:3]))
    assert log.torn_tail() == TornTail(len(committed), len(lines[1]) + len(lines[2]))
    log.append([recovered("after")])
    assert [e.seq for e in log] == [1, 2] and log.verify().ok


def test_a_log_that_is_only_a_torn_batch_is_empty(log: EventLog, log_path: Path) -> None:
    log.append(HISTORY[:3])
    lines = _lines(log_path)
    log_path.write_bytes(lines[0] + lines[1])
    assert log.head() == LogHead(0, GENESIS)
    assert log.torn_tail() == TornTail(0, len(lines[0]) + len(lines[1]))
    assert list(log) == []


# --- reading and filters -------------------------------------------------------------------


def test_filters(log: EventLog) -> None:
    log.append(HISTORY)

    def seqs(**filters: Any) -> list[int]:
        return [e.seq for e in log.read(**filters)]

    assert seqs() == list(range(1, 13))
    assert seqs(session="sess_2") == [3, 4, 5, 9, 10]
    assert seqs(type="candidate.created") == [1, 3, 6]
    assert seqs(type=["candidate.applied", "candidate.discarded"]) == [2, 5, 7]
    assert seqs(memory="pref-indent") == [2, 5, 8]
    assert seqs(memory="fact-db") == [5, 11]
    assert seqs(candidate="cand_b") == [3, 4, 5]
    assert seqs(start=4, stop=6) == [4, 5, 6]
    assert seqs(stop=2) == [1, 2]
    assert seqs(start=12) == [12]
    assert seqs(session="sess_2", type="candidate.applied", memory="fact-db") == [5]
    assert seqs(candidate="nope") == []


def test_iteration_streams_then_stops_at_the_damaged_line(log: EventLog, log_path: Path) -> None:
    for draft in HISTORY:
        log.append([draft])
    third = _lines(log_path)[2]
    damaged = log_path.read_bytes().replace(third, third.replace(b'{"actor"', b'{"actor" ', 1))
    log_path.write_bytes(damaged)
    seen = []
    with pytest.raises(LogIntegrityError) as caught:
        for event in log:
            seen.append(event.seq)
    assert seen == [1, 2]
    assert caught.value.line == 3 and str(caught.value).startswith(f"{log_path}:3: ")


def test_events_without_ids_read_back_equal(log_path: Path) -> None:
    log = EventLog(log_path, origin="o", clock=fixed_clock)
    written = log.append(
        [EventDraft(type="context.built", actor="agent:x", context={"b": [1, 2.5, None], "a": "\u00e9"})]
    )
    assert list(log) == written


def test_check_chain_counts_the_committed_lines_and_ignores_a_torn_tail(log: EventLog, log_path: Path) -> None:
    assert log.check_chain() == 0
    for draft in HISTORY:
        log.append([draft])
    with open(log_path, "ab") as stream:
        stream.write(b'{"v":1,"seq":')
    assert log.check_chain() == len(HISTORY)


@pytest.mark.parametrize(
    "damage, line",
    [
        (lambda lines: lines[:3] + [lines[3].replace(b'"actor"', b'"actoR"', 1)] + lines[4:], 4),  # a flipped bit
        (lambda lines: lines[:5] + [lines[4]] + lines[5:], 6),  # a duplicated line
        (lambda lines: lines[:3] + [lines[4], lines[3]] + lines[5:], 4),  # two lines swapped
    ],
)
def test_check_chain_names_the_line_that_breaks_it_as_a_read_does(
    log: EventLog, log_path: Path, damage: Any, line: int
) -> None:
    for draft in HISTORY:
        log.append([draft])
    log_path.write_bytes(b"".join(damage(_lines(log_path))))
    with pytest.raises(LogIntegrityError) as by_read:
        list(log.read(type="candidate.applied"))
    with pytest.raises(LogIntegrityError) as by_check:
        log.check_chain()
    assert by_check.value.line == by_read.value.line == line
    assert str(by_check.value) == str(by_read.value)


def test_append_remembers_the_head_it_made(log: EventLog) -> None:
    assert log.appended is None
    log.append([HISTORY[0]])
    log.append(HISTORY[1:3])
    assert log.appended == log.head()


def test_a_last_line_read_again_is_decoded_again_unless_its_bytes_are_the_same(log: EventLog, log_path: Path) -> None:
    # The head keeps the answer for the last line it decoded (a command reads the head several times, and
    # a trust line of a whole store is 430 KB): only a line equal byte for byte may reuse it.
    log.append(HISTORY[:2])
    (event,) = log.append([recovered("y" * (3 * memory_review.events.scan.FIRST_CHUNK))])
    head = log.head()
    assert head == log.head() == LogHead(event.seq, line_hash(_lines(log_path)[-1]))
    data = log_path.read_bytes()
    at = data.rindex(b"yyy")
    log_path.write_bytes(data[:at] + b"z" + data[at + 1 :])  # same length, same place, one byte altered
    assert log.head() == LogHead(event.seq, line_hash(_lines(log_path)[-1])) != head  # decoded afresh
    log_path.write_bytes(data[:at] + b"\x00" + data[at + 1 :])  # a byte no canonical line holds
    with pytest.raises(LogIntegrityError):
        log.head()
    log_path.write_bytes(data)
    assert log.head() == head
