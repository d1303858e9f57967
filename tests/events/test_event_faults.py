"""Fault injection: every step of an append fails or crashes, and the log stays before-or-after.

SQLite-style: an OSError at call N for every N (once, and from N on), and a child
process killed at each point (or mid-write, leaving half its bytes). After each run
the log verifies, holds the old events or the whole new batch, and takes the next
append.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from events_testkit import CHILD_APPEND, ORIGIN, fixed_clock, recovered, run_child
from pydantic import ValidationError

from memory_review.events import EventLog, FaultPlan, LogHead, LogIOError, arm, faults, point, points_hit

BATCH = 2


def _prepare(path: Path, scenario: str) -> LogHead:
    """A log as the scenario needs it; returns its committed head."""
    log = EventLog(path, origin=ORIGIN, clock=fixed_clock)
    if scenario == "torn":
        log.append([recovered("one"), recovered("two")])
        with open(path, "ab") as stream:
            stream.write(b'{"actor":"sys')  # a previous writer died mid-line
    return log.head()


def _append(path: Path) -> None:
    EventLog(path, origin=ORIGIN, clock=fixed_clock).append([recovered(f"new {i}") for i in range(BATCH)])


def _points(tmp_path: Path, scenario: str) -> list[str]:
    path = tmp_path / f"record-{scenario}.jsonl"
    _prepare(path, scenario)
    arm(FaultPlan(action="record"))
    _append(path)
    hit = points_hit()
    arm(None)
    return hit


def test_append_points_are_named_and_ordered(tmp_path: Path) -> None:
    assert _points(tmp_path, "torn") == [
        "log.cut.before_truncate",
        "log.cut.after_truncate",
        "log.cut.before_fsync",
        "log.cut.after_fsync",
        "log.append.before_write",
        "log.append.after_write",
        "log.append.before_fsync",
        "log.append.after_fsync",
    ]
    assert _points(tmp_path, "new") == [
        "log.create.before_open",
        "log.append.before_write",
        "log.append.after_write",
        "log.append.before_fsync",
        "log.append.after_fsync",
        "log.append.dir.before_fsync",
        "log.append.dir.after_fsync",
    ]


def _assert_before_or_after(path: Path, old: LogHead, *, allow_after: bool) -> None:
    log = EventLog(path, origin=ORIGIN, clock=fixed_clock)
    report = log.verify()
    assert report.ok, report.problems
    assert report.head == old or (allow_after and report.head.seq == old.seq + BATCH)
    if report.head != old:
        assert [e.reason for e in log.read(start=old.seq + 1)] == [f"new {i}" for i in range(BATCH)]
    # Whatever happened, the next append cuts any torn tail and continues the chain.
    log.append([recovered("next")], expect=report.head)
    assert log.verify().ok and log.head().seq == report.head.seq + 1 and log.torn_tail() is None


@pytest.mark.parametrize("scenario", ["torn", "new"])
@pytest.mark.parametrize("mode", ["once", "from"])
def test_an_oserror_at_every_point_of_an_append(tmp_path: Path, scenario: str, mode: str) -> None:
    points = _points(tmp_path, scenario)
    for nth in range(1, len(points) + 1):
        path = tmp_path / f"{mode}-{nth}.jsonl"
        old = _prepare(path, scenario)
        arm(FaultPlan(action="raise", nth=nth, mode=mode, errno=errno.ENOSPC))
        with pytest.raises(LogIOError) as caught:
            _append(path)
        arm(None)
        assert caught.value.errno == errno.ENOSPC and isinstance(caught.value, OSError)
        # Once: the failed append is rolled back. From N on: the rollback may fail as well,
        # leaving a torn tail or a whole batch, exactly what a crash would leave.
        _assert_before_or_after(path, old, allow_after=mode == "from")


@pytest.mark.parametrize("scenario", ["torn", "new"])
def test_a_crash_at_every_point_of_an_append(tmp_path: Path, scenario: str) -> None:
    points = _points(tmp_path, scenario)
    written = points.index("log.append.after_write")
    for index, name in enumerate(points):
        path = tmp_path / f"kill-{index}.jsonl"
        old = _prepare(path, scenario)
        done = run_child(
            CHILD_APPEND,
            str(path),
            str(BATCH),
            fault=FaultPlan(action="kill", point=name).model_dump_json(),
        )
        assert done.returncode == 137, (name, done.stderr)
        assert "committed" not in done.stdout
        # Once write() returned, the bytes are in the page cache: a dead process keeps them.
        new = EventLog(path, origin=ORIGIN).head()
        assert (new.seq == old.seq + BATCH) == (index >= written), name
        _assert_before_or_after(path, old, allow_after=True)


@pytest.mark.parametrize("batch", [1, 3])
def test_a_child_killed_mid_write_leaves_a_torn_tail(tmp_path: Path, batch: int) -> None:
    path = tmp_path / "events.jsonl"
    log = EventLog(path, origin=ORIGIN, clock=fixed_clock)
    log.append([recovered("one"), recovered("two")])
    committed, old = path.read_bytes(), log.head()
    plan = FaultPlan(action="partial", point="log.append.before_write")
    done = run_child(CHILD_APPEND, str(path), str(batch), fault=plan.model_dump_json())
    assert done.returncode == 137, done.stderr
    data = path.read_bytes()
    assert data.startswith(committed) and len(data) > len(committed)
    if batch == 3:  # half of three lines: at least one complete line of an unfinished batch
        assert data[len(committed) :].count(b"\n") >= 1
    torn = log.torn_tail()
    assert torn is not None and torn.offset == len(committed) and torn.length == len(data) - len(committed)
    assert log.head() == old and log.verify().ok
    assert log.cut_torn_tail() == torn and path.read_bytes() == committed
    (event,) = log.append([recovered("after the crash")])
    assert event.seq == 3 and event.prev == old.hash and log.verify().ok


def test_child_without_a_fault_commits(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    done = run_child(CHILD_APPEND, str(path), "2", fault=None)
    assert done.returncode == 0 and "committed" in done.stdout, done.stderr
    assert EventLog(path, origin=ORIGIN).head().seq == 2


def test_a_child_records_its_points_to_a_trace_file(tmp_path: Path) -> None:
    trace = tmp_path / "trace.txt"
    plan = FaultPlan(action="record", trace=str(trace))
    done = run_child(CHILD_APPEND, str(tmp_path / "events.jsonl"), "1", fault=plan.model_dump_json())
    assert done.returncode == 0, done.stderr
    assert trace.read_text().splitlines() == _points(tmp_path, "new")


def test_a_malformed_fault_plan_fails_the_child_loudly(tmp_path: Path) -> None:
    done = run_child(CHILD_APPEND, str(tmp_path / "events.jsonl"), "1", fault=json.dumps({"action": "explode"}))
    # The harness's start-up hook stops the child (status 2) before any of its code runs.
    assert done.returncode == 2 and "cannot arm" in done.stderr and "validation error" in done.stderr
    assert not (tmp_path / "events.jsonl").exists()


# --- the fault machinery itself --------------------------------------------------------------


def test_unarmed_points_do_nothing() -> None:
    assert faults._armed is None
    point("anything")
    assert points_hit() == []


def test_raise_once_at_the_nth_hit() -> None:
    arm(FaultPlan(action="raise", point="p", nth=2, errno=errno.EIO))
    point("p")
    point("other")
    with pytest.raises(OSError) as caught:
        point("p")
    assert caught.value.errno == errno.EIO and "p" in str(caught.value.filename)
    point("p")
    assert points_hit() == ["p", "other", "p", "p"]


def test_raise_from_the_nth_hit_on() -> None:
    arm(FaultPlan(action="raise", nth=2, mode="from", errno=errno.EACCES))
    point("a")
    for name in ("b", "c", "d"):
        with pytest.raises(PermissionError):
            point(name)


def test_arming_again_starts_counting_afresh() -> None:
    arm(FaultPlan(action="raise", point="p", nth=1))
    with pytest.raises(OSError):
        point("p")
    arm(FaultPlan(action="raise", point="p", nth=2))
    point("p")
    with pytest.raises(OSError):
        point("p")


@pytest.mark.parametrize(
    "fields",
    [
        {"action": "partial", "point": "log.append.after_write"},
        {"action": "kill", "mode": "from"},
        {"action": "raise", "nth": 0},
        {"action": "raise", "surprise": True},
    ],
)
def test_nonsense_plans_are_refused(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        FaultPlan.model_validate(fields)


def test_a_failed_rollback_is_told_to_the_caller(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    old = _prepare(path, "torn")
    nth = _points(tmp_path, "torn").index("log.append.before_fsync") + 1
    arm(FaultPlan(action="raise", nth=nth, mode="from", errno=errno.EIO))
    with pytest.raises(LogIOError) as caught:
        _append(path)
    arm(None)
    # The fsync failed and so did the truncate meant to undo the write: the lines are there,
    # unsynced, and the error says so instead of pretending the log is unchanged.
    assert any("truncating the log back" in note for note in caught.value.__notes__)
    assert EventLog(path, origin=ORIGIN).head().seq == old.seq + BATCH


def test_a_rolled_back_append_leaves_the_exact_old_bytes(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    _prepare(path, "new")
    EventLog(path, origin=ORIGIN).append([recovered("one")])
    before = path.read_bytes()
    arm(FaultPlan(action="raise", point="log.append.after_fsync"))
    with pytest.raises(LogIOError):
        _append(path)
    arm(None)
    assert path.read_bytes() == before
