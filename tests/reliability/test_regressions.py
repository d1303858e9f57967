"""Regression tests for the bugs the reliability suite found, one per fix (see docs/reliability.md)."""

from __future__ import annotations

import os
from pathlib import Path

from memory_review.reliability.crash import Point, Prepared, crash_trial
from memory_review.reliability.scenario import copy_trial


def _point(prepared: Prepared, op: str, name: str, nth: int = 1, *, partial: bool = False) -> Point:
    trace = prepared.traces[op]
    index = [i for i, n in enumerate(trace) if n == name][nth - 1]
    return Point(name, nth, index, partial=partial)


def test_a_resolved_candidate_never_outlives_a_crash_after_the_checkpoint(prepared: Prepared, tmp_path: Path) -> None:
    # Found: the candidate file was removed AFTER manifest.json moved, so a crash between the two left an
    # applied (or discarded) candidate "pending" forever — and a discarded one could then be applied.
    for op in ("apply", "discard"):
        point = _point(prepared, op, "durable.remove.before_unlink")
        outcome, problems = crash_trial(prepared, op, point, tmp_path / op, by_write=False)
        assert (outcome, problems) == ("after", [])


def test_temp_files_of_a_crashed_manifest_replace_are_collected(prepared: Prepared, tmp_path: Path) -> None:
    # Found: only memory/ was swept, so a crash inside the atomic replace of manifest.json or MEMORY.md
    # left a .tmp-* file in the store root for good.
    for nth in (1, 2):  # MEMORY.md, then manifest.json
        point = _point(prepared, "apply", "durable.atomic_replace.before_rename", nth)
        outcome, problems = crash_trial(prepared, "apply", point, tmp_path / f"n{nth}", by_write=True)
        assert (outcome, problems) == ("after", [])
        assert not [n for n in os.listdir(tmp_path / f"n{nth}/project/.memory-review") if n.startswith(".tmp")]


def test_verify_passes_right_after_a_torn_append(prepared: Prepared, tmp_path: Path) -> None:
    # Found: recovery left a dead writer's torn tail for the next append to cut, so `verify` failed
    # ("torn last line") right after a crash although nothing was damaged.
    point = _point(prepared, "apply", "log.append.before_write", partial=True)
    outcome, problems = crash_trial(prepared, "apply", point, tmp_path / "torn", by_write=False)
    assert (outcome, problems) == ("before", [])


def test_recovery_cuts_the_torn_tail_under_the_lock(prepared: Prepared, tmp_path: Path) -> None:
    trial = copy_trial(prepared.template, tmp_path / "t")
    store = trial.workspace().project
    size = store.log_path.stat().st_size
    with open(store.log_path, "ab") as log:
        log.write(b'{"v":1,"seq":')
    [project, user] = trial.workspace().verify()
    assert project.ok and user.ok, project.problems
    assert store.log_path.stat().st_size == size and store.log().torn_tail() is None
