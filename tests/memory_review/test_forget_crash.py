"""A forget killed at each step of its log swap leaves the old log or the new one, and can be finished."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forget_kit import SECRET, plant

from memory_review.events import EventLog, FaultPlan
from tools.reliability.arming import fault_env

POINTS = [
    "log.rewrite.before_open",
    "log.rewrite.before_write",
    "log.rewrite.before_fsync",
    "log.rewrite.before_rename",
    "log.rewrite.after_rename",
    "log.rewrite.dir.before_fsync",
]
SWAPPED = POINTS.index("log.rewrite.after_rename")
EITHER_SIDE = {"log.rewrite.before_rename", "log.rewrite.after_rename"}
"""The last point that leaves the old log and the first that leaves the new one run by default; the points
before and after them end in the same two states and run with MEMORY_REVIEW_FULL=1 (docs/adr/0039)."""


@pytest.mark.parametrize("point", [p if p in EITHER_SIDE else pytest.param(p, marks=pytest.mark.slow) for p in POINTS])
def test_a_forget_killed_mid_swap_leaves_one_whole_log_and_finishes_when_run_again(tmp_path: Path, point: str) -> None:
    kit = plant(tmp_path)
    log_path = kit.repo / ".memory-review" / "events.jsonl"
    old = log_path.read_bytes()
    fault = FaultPlan(action="kill", point=point).model_dump_json()
    killed = kit.run(
        "forget", "--text-from", "-", "--reason", "leak", "--yes", stdin=SECRET, extra_env=fault_env(fault)
    )
    assert killed.returncode == 137, killed.stderr

    log = EventLog(log_path, origin="0" * 16)
    assert log.verify().ok  # one whole log, never a mix of the two
    if POINTS.index(point) < SWAPPED:
        assert log_path.read_bytes() == old
        assert kit.json("verify")["ok"]  # untouched: the store is as it was
    else:
        assert SECRET.encode() not in log_path.read_bytes()
        assert [e.type for e in log][-1] == "store.forgotten"
        assert not kit.json("verify", "--repair", "--apply")["problems"]  # derived files rebuilt from the clean log

    finished = kit.forget("--yes")
    assert finished.returncode == 0, finished.stderr
    assert kit.files_holding() == [] and kit.objects_holding() == []
    assert kit.json("verify")["ok"]
    forgotten = kit.json("log", "--type", "store.forgotten")
    assert forgotten and all(SECRET not in json.dumps(event) for event in forgotten)
