"""Recovery interrupted at each of its own points (and by a chain of kills), rerun until idempotent."""

from __future__ import annotations

from pathlib import Path

from scale_kit import FULL, JOBS

from tools.reliability.crash import Prepared
from tools.reliability.recovery import CRASH_STATES, rerun_until_idempotent, run_recovery_trials
from tools.reliability.scenario import copy_trial
from tools.reliability.state import snapshot_diff, tree_snapshot

QUICK_STATES = [CRASH_STATES[i] for i in (0, 5, 7)]  # roll forward an apply, an edit; cut a torn tail


def test_recovery_survives_a_crash_at_each_of_its_points(prepared: Prepared, tmp_path: Path) -> None:
    result = run_recovery_trials(prepared, tmp_path, states=CRASH_STATES if FULL else QUICK_STATES, jobs=JOBS)
    assert result.failures == []
    for key, row in result.rows.items():
        # One trial per recovery point, one per write point torn half-way, and one chain of kills.
        assert row["points"] > 0 and row["trials"] > row["points"], key


def test_recovery_of_a_healthy_store_changes_nothing(prepared: Prepared, tmp_path: Path) -> None:
    trial = copy_trial(prepared.template, tmp_path / "t")
    before = tree_snapshot(trial.root)
    assert rerun_until_idempotent(trial) == []
    assert snapshot_diff(before, tree_snapshot(trial.root)) == []
