"""verify walks the whole log and names every problem by line; iteration stops at chain damage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from events_testkit import (
    HISTORY,
    V1,
    applied,
    chain,
    created,
    discarded,
    flip,
    forged_chain,
    line_offsets,
    memory,
    raw_line,
)

from memory_review.events import GENESIS, Change, EventLog, LogIntegrityError, Problem, line_hash


def _write(path: Path, lines: list[bytes]) -> None:
    path.write_bytes(b"".join(lines))


def _problems(log: EventLog) -> list[tuple[int | None, str]]:
    report = log.verify()
    assert report.ok is (not report.problems)
    return [(p.line, p.message) for p in report.problems]


def test_a_healthy_history_verifies(log: EventLog, log_path: Path) -> None:
    _write(log_path, chain(HISTORY))
    report = log.verify()
    assert report.ok and report.problems == () and report.torn_tail is None
    assert report.events == len(HISTORY)
    assert report.head == log.head()


def test_flipped_structural_byte_mid_file(log: EventLog, log_path: Path) -> None:
    _write(log_path, chain(HISTORY))
    flip(log_path, line_offsets(log_path)[5], mask=0x20)  # line 6's opening "{" becomes "["
    with pytest.raises(LogIntegrityError) as caught:
        list(log)
    assert caught.value.line == 6
    problems = _problems(log)
    assert problems[0][0] == 6 and "not a valid event" in problems[0][1]
    # Line 7 chained to the original line 6, so it cannot match the damaged bytes: said too.
    assert problems[1] == (
        7,
        "prev does not match the sha256 of line 6 (that line or this one was altered)",
    )
    assert len(problems) == 2


def test_flipped_byte_inside_a_value(log: EventLog, log_path: Path) -> None:
    _write(log_path, chain(HISTORY))
    text = log_path.read_bytes()
    flip(log_path, text.index(b"not true"), mask=0x01)  # line 7's reason: "not true" -> "oot true"
    with pytest.raises(LogIntegrityError) as caught:
        list(log)
    # Line 7 still parses; the chain notices at line 8, and says which line to suspect.
    assert caught.value.line == 8 and "previous line" in caught.value.reason
    assert _problems(log) == [(8, "prev does not match the sha256 of line 7 (that line or this one was altered)")]


def test_duplicate_seq(log: EventLog, log_path: Path) -> None:
    _write(log_path, forged_chain([{"seq": 1}, {"seq": 2}, {"seq": 2}, {"seq": 3}]))
    assert _problems(log) == [(3, "seq 2 is a duplicate or goes backwards (expected 3)")]
    with pytest.raises(LogIntegrityError) as caught:
        list(log)
    assert caught.value.line == 3


def test_backwards_and_gapped_seq(log: EventLog, log_path: Path) -> None:
    _write(log_path, forged_chain([{"seq": 1}, {"seq": 2}, {"seq": 1}, {"seq": 2}, {"seq": 5}]))
    assert _problems(log) == [
        (3, "seq 1 is a duplicate or goes backwards (expected 3)"),
        (5, "seq 5 leaves a gap (expected 3)"),
    ]


def test_first_line_must_start_the_chain(log: EventLog, log_path: Path) -> None:
    _write(log_path, forged_chain([{"seq": 2, "prev": "ab" * 32}]))
    assert _problems(log) == [
        (1, "seq 2 leaves a gap (expected 1)"),
        (1, "prev does not match GENESIS (that line or this one was altered)"),
    ]


def test_bad_prev(log: EventLog, log_path: Path) -> None:
    lines = forged_chain([{"seq": 1}, {"seq": 2}, {"seq": 3}])
    lines[1] = raw_line(seq=2, prev="cd" * 32)
    lines[2] = raw_line(seq=3, prev=line_hash(lines[1]))
    _write(log_path, lines)
    assert _problems(log) == [(2, "prev does not match the sha256 of line 1 (that line or this one was altered)")]
    with pytest.raises(LogIntegrityError, match=":2: prev does not match"):
        list(log)


def _history_problems(log: EventLog, log_path: Path, drafts: list[Any]) -> list[tuple[int | None, str]]:
    _write(log_path, chain(drafts))
    list(log)  # semantic problems do not break the chain: iteration reads on
    return _problems(log)


def test_two_terminal_events_for_one_candidate(log: EventLog, log_path: Path) -> None:
    drafts = [*HISTORY[:7], HISTORY[6]]  # cand_c discarded twice
    assert _history_problems(log, log_path, drafts) == [
        (8, "candidate.discarded for candidate cand_c after its terminal event (seq 7)")
    ]


def test_applied_after_discarded(log: EventLog, log_path: Path) -> None:
    drafts = [
        created("c1"),
        discarded("c1"),
        applied("c1", Change(memory="m", before=None, after=memory("m", "x"))),
    ]
    assert _history_problems(log, log_path, drafts) == [
        (3, "candidate.applied for candidate c1 after its terminal event (seq 2)")
    ]


def test_candidate_created_twice_and_edited_after_apply(log: EventLog, log_path: Path) -> None:
    drafts = [*HISTORY[:5], HISTORY[0], HISTORY[3]]
    assert _history_problems(log, log_path, drafts) == [
        (6, "candidate.created for candidate cand_a after its terminal event (seq 2)"),
        (6, "candidate cand_a created twice"),
        (7, "candidate.edited for candidate cand_b after its terminal event (seq 5)"),
    ]


def test_before_must_match_the_replayed_state(log: EventLog, log_path: Path) -> None:
    stale = memory("pref-indent", "something else entirely")
    change = Change(memory="pref-indent", before=stale, after=V1)
    drafts = [*HISTORY[:2], created("c9"), applied("c9", change)]
    assert _history_problems(log, log_path, drafts) == [
        (4, "change to memory 'pref-indent': before does not match the state replayed from the log")
    ]


def test_revert_must_name_an_earlier_memory_change(log: EventLog, log_path: Path) -> None:
    revert = HISTORY[7].model_copy(update={"reverts": 3})  # seq 3 created a candidate: nothing to revert
    drafts = [*HISTORY[:7], revert]
    assert _history_problems(log, log_path, drafts) == [
        (8, "memory.reverted names seq 3, which is not an earlier event that changed memory")
    ]


def test_rule_breaking_lines_are_problems_not_exceptions(log: EventLog, log_path: Path) -> None:
    lines = forged_chain(
        [
            {"seq": 1},
            {"seq": 2, "v": 2},
            {
                "seq": 3,
                "type": "context.built",
                "context": {"q": "x"},
                "changes": [{"memory": "m", "before": None, "after": {"body": "b"}}],
            },
            {
                "seq": 4,
                "type": "candidate.applied",
                "actor": "agent:sneaky",
                "candidate": "c",
                "changes": [{"memory": "m", "before": None, "after": {"body": "b"}}],
            },
            {"seq": 5},
        ]
    )
    _write(log_path, lines)
    problems = _problems(log)
    assert [line for line, _ in problems] == [2, 3, 4]
    assert "v: Input should be 1" in problems[0][1]
    assert "changes is not allowed on context.built" in problems[1][1]
    assert "person's action" in problems[2][1]


def test_verify_never_raises_on_garbage(log: EventLog, log_path: Path) -> None:
    log_path.write_bytes(b"\x00\xff garbage\n\n{}\n[]\nnull\n" + bytes(range(11, 256)))
    report = log.verify()
    assert not report.ok
    assert [p.line for p in report.problems] == [1, 2, 3, 4, 5]
    assert report.head.seq == 0 and report.head.hash == GENESIS
    assert report.torn_tail is not None and report.torn_tail.offset == log_path.read_bytes().rindex(b"\n") + 1


def test_problem_renders_its_line() -> None:
    assert str(Problem(4, "bad")) == "line 4: bad"
    assert str(Problem(None, "bad")) == "bad"
