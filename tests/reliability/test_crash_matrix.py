"""The crash matrix: a real child process dies at every fault point of every operation (and half-way
through every write); the parent recovers and finds exactly the state before or after, and every invariant."""

from __future__ import annotations

from pathlib import Path

import pytest
from scale_kit import FULL, JOBS

from tools.reliability.crash import (
    COMMIT_POINT,
    Prepared,
    commit_index,
    enumerate_points,
    expected_outcome,
    prepare,
    run_crash_matrix,
)
from tools.reliability.scenario import OPERATIONS, copy_trial
from tools.reliability.sigkill import run_sigkill_trials


def test_every_operation_hits_the_commit_path_points(prepared: Prepared) -> None:
    for op, trace in prepared.traces.items():
        assert COMMIT_POINT in trace, op
        assert any(p.startswith("durable.atomic_replace") for p in trace), op
    assert any(p.startswith("durable.write_new") for p in prepared.traces["apply"])
    assert any(p.startswith("durable.remove") for p in prepared.traces["discard"])


def test_points_are_classified_around_the_commit_point(prepared: Prepared) -> None:
    trace = prepared.traces["apply"]
    points = enumerate_points(trace)
    commit = commit_index(trace)
    assert [expected_outcome(p, trace) for p in points if p.index < commit] == ["before"] * len(
        [p for p in points if p.index < commit]
    )
    assert {expected_outcome(p, trace) for p in points if p.index >= commit} == {"after"}
    assert any(p.partial for p in points) and len({(p.name, p.nth) for p in points}) == len(trace)


def test_the_compacting_apply_compacts_past_its_commit_point(prepared: Prepared, tmp_path: Path) -> None:
    """``apply-compacting`` is the plain apply's commit, then a compaction: its points are the matrix's too."""
    ws = copy_trial(prepared.template, tmp_path / "t").workspace()
    before = ws.project.read_manifest()
    OPERATIONS["apply-compacting"](ws, prepared.ctx)
    after = ws.project.read_manifest()
    assert before is not None and after is not None
    assert after.log_seq == ws.project.log().head().seq > before.log_seq  # the whole manifest, at the head
    trace, plain = prepared.traces["apply-compacting"], prepared.traces["apply"]
    assert trace[: commit_index(trace)] == plain[: commit_index(plain)]  # the same commit...
    assert len(trace) - commit_index(trace) > len(plain) - commit_index(plain)  # ...then the compaction's points


@pytest.mark.parametrize("op", list(OPERATIONS))
def test_a_crash_at_any_point_leaves_before_or_after(prepared: Prepared, tmp_path: Path, op: str) -> None:
    result = run_crash_matrix(tmp_path, ops=[op], jobs=JOBS, prep=prepared, runs=3 if FULL else 1)
    assert result.failures == []
    row = result.row(op)
    assert row["trials"] == (row["points"] + sum(p.endswith(".before_write") for p in prepared.traces[op])) * (
        3 if FULL else 1
    )
    assert row["after"] > 0 and row["before"] > 0, dict(row)


def test_random_moment_sigkill_of_a_busy_store(prepared: Prepared, tmp_path: Path) -> None:
    result = run_sigkill_trials(prepared.template, tmp_path, trials=200 if FULL else 8, jobs=JOBS)
    assert result.failures == []
    assert result.row("busy store")["reported successes"] > 0


def test_crashes_in_a_git_project_also_cover_its_history(tmp_path: Path) -> None:
    # In a git project every change also commits the store's history into the project's .git
    # (only objects and refs/memory-review/ may change there; HEAD, index and branches never).
    git_prep = prepare(tmp_path / "prep", OPERATIONS if FULL else ["apply", "delete"], git=True)
    assert all("history.before_update_ref" in trace for trace in git_prep.traces.values())
    result = run_crash_matrix(tmp_path / "m", ops=list(git_prep.traces), jobs=JOBS, prep=git_prep)
    assert result.failures == []
