"""EventLog.since: what follows a checkpoint, read backward from the end, chain-checked from the checkpoint."""

from __future__ import annotations

from pathlib import Path

import pytest
from events_testkit import HISTORY, flip, line_offsets

import memory_review.events.scan
from memory_review.events import GENESIS, EventLog, LogHead, LogIntegrityError, line_hash

CONTEXT = frozenset({"context.built"})


def _hashes(path: Path) -> list[str]:
    """The position hash after each line: index 0 is the empty log (GENESIS), index N is line N."""
    return [GENESIS] + [line_hash(line) for line in path.read_bytes().splitlines(keepends=True)]


@pytest.mark.parametrize("seq", range(len(HISTORY) + 1))
def test_since_each_position_gives_what_a_full_read_gives_after_it(log: EventLog, log_path: Path, seq: int) -> None:
    log.append(HISTORY)
    head, after = log.since(seq, _hashes(log_path)[seq])
    assert head == log.head()
    assert after == [e for e in log if e.seq > seq]


def test_skimmed_types_are_chained_but_not_returned(log: EventLog, log_path: Path) -> None:
    log.append(HISTORY)
    _head, after = log.since(7, _hashes(log_path)[7], skim=CONTEXT)
    assert [e.seq for e in after] == [8, 10, 11, 12]  # 9 is the context build


def test_since_reads_only_the_end_of_a_long_log(log: EventLog, log_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in range(200):
        log.append(HISTORY)
    hashes, size = _hashes(log_path), log_path.stat().st_size
    read: list[int] = []
    real = memory_review.events.scan.read_at
    monkeypatch.setattr(
        memory_review.events.scan, "read_at", lambda fd, offset, n: read.append(n) or real(fd, offset, n)
    )
    seq = len(hashes) - 4
    _head, after = log.since(seq, hashes[seq])
    assert [e.seq for e in after] == [seq + 1, seq + 2, seq + 3]
    assert sum(read) < size // 50


def test_a_checkpoint_hash_the_log_disagrees_with_is_an_integrity_error(log: EventLog, log_path: Path) -> None:
    log.append(HISTORY)
    with pytest.raises(LogIntegrityError) as caught:
        log.since(5, _hashes(log_path)[4])
    assert caught.value.line == 5


def test_a_damaged_line_past_the_checkpoint_is_named(log: EventLog, log_path: Path) -> None:
    log.append(HISTORY)
    hashes = _hashes(log_path)
    flip(log_path, line_offsets(log_path)[9] + 30)  # line 10, past a checkpoint at 7
    with pytest.raises(LogIntegrityError) as caught:
        log.since(7, hashes[7], skim=CONTEXT)
    assert caught.value.line in (10, 11)  # the line itself, or the next one whose prev it breaks


def test_a_skimmed_line_that_was_altered_still_breaks_the_chain(log: EventLog, log_path: Path) -> None:
    log.append(HISTORY)
    hashes = _hashes(log_path)
    data = log_path.read_bytes().replace(b'"query":"indent"', b'"query":"indenT"')
    log_path.write_bytes(data)
    with pytest.raises(LogIntegrityError) as caught:
        log.since(7, hashes[7], skim=CONTEXT)
    assert caught.value.line == 10  # line 9 hashes differently now: line 10's prev no longer matches


def test_a_log_shorter_than_its_seqs_is_an_integrity_error(log: EventLog, log_path: Path) -> None:
    log.append(HISTORY)
    lines = log_path.read_bytes().splitlines(keepends=True)
    log_path.write_bytes(b"".join(lines[:3] + lines[-2:]))  # lines 4..10 lost, 11 and 12 kept
    with pytest.raises(LogIntegrityError):
        log.since(2, _hashes(log_path)[2])


def test_nothing_past_the_head_and_a_missing_log(log: EventLog, log_path: Path) -> None:
    assert log.since(0, GENESIS) == (LogHead.empty(), [])
    log.append(HISTORY[:3])
    assert log.since(3, _hashes(log_path)[3]) == (log.head(), [])
