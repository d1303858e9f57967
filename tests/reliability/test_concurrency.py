"""Real processes and threads racing on one store, a UI-like poller, one winner, a dead lock holder."""

from __future__ import annotations

from pathlib import Path

import pytest
from scale_kit import FULL

from tools.reliability.concurrency import (
    LOCK_HANDOVER_LIMIT,
    run_dead_lock_holder,
    run_process_workload,
    run_same_base,
    run_same_candidate,
    run_thread_workload,
)
from tools.reliability.crash import Prepared
from tools.reliability.results import SuiteResult

pytestmark = pytest.mark.usefixtures("verify_way")  # every finding the same, full and incremental (ADR 0056)


@pytest.fixture
def result() -> SuiteResult:
    return SuiteResult("concurrency")


@pytest.mark.parametrize("processes", [4, 8] if FULL else [4])
def test_processes_propose_apply_discard_edit_revert_at_once(
    prepared: Prepared, tmp_path: Path, result: SuiteResult, processes: int
) -> None:
    run_process_workload(
        prepared.template, tmp_path / "w", processes=processes, steps=60 if FULL else 20, seed=processes, result=result
    )
    assert result.failures == []
    [row] = result.rows.values()
    assert row["successes"] > processes and row["poller reads"] > 0 and row["deadlocks"] == 0


def test_threads_of_one_process_race_too(prepared: Prepared, tmp_path: Path, result: SuiteResult) -> None:
    run_thread_workload(prepared.template, tmp_path / "w", threads=4, steps=40 if FULL else 20, seed=7, result=result)
    assert result.failures == []


def test_eight_processes_apply_one_candidate_exactly_one_wins(
    prepared: Prepared, tmp_path: Path, result: SuiteResult
) -> None:
    for run in range(10 if FULL else 2):
        run_same_candidate(prepared.template, prepared.ctx, tmp_path / f"r{run}", processes=8, result=result)
    assert result.failures == []
    [row] = result.rows.values()
    assert (row["winners"], row["ConflictError"]) == (row["trials"], 7 * row["trials"])


def test_two_candidates_from_one_base_one_conflicts_no_lost_update(
    prepared: Prepared, tmp_path: Path, result: SuiteResult
) -> None:
    for run in range(10 if FULL else 3):
        run_same_base(prepared.template, tmp_path / f"r{run}", result=result)
    assert result.failures == []


def test_a_killed_lock_holder_releases_the_lock(prepared: Prepared, tmp_path: Path, result: SuiteResult) -> None:
    # Within a second (RELIABILITY invariant 6) is checked by the full run and published by
    # `python -m tools.reliability`; timed, it would flip on a loaded machine (docs/adr/0039).
    run_dead_lock_holder(
        prepared.template, prepared.ctx, tmp_path / "l", result=result, limit=LOCK_HANDOVER_LIMIT if FULL else None
    )
    assert result.failures == []
    assert result.row("lock holder SIGKILLed")["trials"] == 1
