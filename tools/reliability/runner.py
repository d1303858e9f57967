"""Every suite at a chosen scale: ``smoke`` (the script's own test), ``quick`` (what CI's tests run), ``full``.

The pytest suite in ``tests/reliability/`` calls the same trial functions at the
``quick`` scale, so the figures script and CI exercise one body of code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tools.reliability.concurrency import (
    LOCK_HANDOVER_LIMIT,
    run_dead_lock_holder,
    run_process_workload,
    run_same_base,
    run_same_candidate,
    run_thread_workload,
)
from tools.reliability.corpus import run_corpus
from tools.reliability.crash import Prepared, prepare, run_crash_matrix
from tools.reliability.iofaults import run_io_matrix
from tools.reliability.recovery import CRASH_STATES, run_recovery_trials
from tools.reliability.results import SuiteResult, timed
from tools.reliability.scenario import build_template
from tools.reliability.sigkill import run_sigkill_trials


@dataclass(frozen=True)
class Scale:
    """How many trials of each kind one run makes."""

    name: str
    crash_runs: tuple[tuple[str, bool], ...]
    """One whole crash matrix per entry: children started by ``fork`` (zygote) or ``spawn``, and whether
    the project is a git repository (then every change also records the store's git history)."""
    crash_ops: tuple[str, ...] | None
    io_all_errnos: bool
    recovery_states: tuple[int, ...]
    """Indexes into ``recovery.CRASH_STATES``."""
    sigkill_trials: int
    workloads: tuple[tuple[int, int], ...]
    """(processes, operations each) per multi-process run."""
    thread_workloads: tuple[tuple[int, int], ...]
    git_workloads: tuple[tuple[int, int], ...]
    """Multi-process runs on a project that is a git repository (history commits race too)."""
    same_candidate_runs: int
    same_candidate_processes: int
    same_base_runs: int
    lock_holder_runs: int
    hypothesis_examples: int
    hypothesis_steps: int
    derandomize: bool


SMOKE = Scale(
    "smoke", (("fork", False),), ("discard",), False, (7,), 2, ((2, 4),), ((2, 4),), (), 1, 3, 1, 1, 3, 5, True
)
QUICK = Scale(
    "quick", (("fork", False),), None, False, (0, 5, 7), 10, ((4, 20),), ((4, 20),), (), 2, 8, 3, 2, 40, 20, True
)
FULL = Scale(
    "full",
    (("spawn", False), ("spawn", True), ("fork", False), ("fork", True), ("fork", False)),
    None,
    True,
    tuple(range(len(CRASH_STATES))),
    200,
    ((4, 60), (6, 60), (8, 50), (4, 60), (6, 60), (8, 50)),
    ((4, 60), (8, 40), (8, 40)),
    ((4, 40), (8, 30)),
    20,
    8,
    20,
    10,
    500,
    30,
    False,
)
SCALES = {s.name: s for s in (SMOKE, QUICK, FULL)}


def run_all(
    scale: Scale, workdir: Path, *, jobs: int = 2, progress: Callable[[SuiteResult], None] | None = None
) -> list[SuiteResult]:
    """Run every suite at ``scale`` under ``workdir``; ``progress`` sees each result as it completes."""
    prep = prepare(workdir / "prepared")
    suites = [
        lambda: _crash_matrices(scale, prep, workdir / "crash", jobs),
        lambda: run_sigkill_trials(prep.template, workdir / "sigkill", trials=scale.sigkill_trials, jobs=jobs),
        lambda: run_io_matrix(
            workdir / "io", ops=scale.crash_ops or tuple(prep.traces), all_errnos=scale.io_all_errnos, prep=prep
        ),
        lambda: run_recovery_trials(
            prep, workdir / "recovery", states=[CRASH_STATES[i] for i in scale.recovery_states], jobs=jobs
        ),
        lambda: run_concurrency(prep, scale, workdir / "concurrency"),
        lambda: run_corpus(prep.template, prep.ctx, workdir / "corpus"),
        lambda: _stateful(scale),
    ]
    results = []
    for suite in suites:
        results.append(suite())
        if progress is not None:
            progress(results[-1])
    return results


def _crash_matrices(scale: Scale, prep: Prepared, workdir: Path, jobs: int) -> SuiteResult:
    result = SuiteResult(
        "crash matrix", zero=("lost", "phantom", "mixed states", "leaked temp files", "other violations")
    )
    git_prep: Prepared | None = None
    for number, (launch, git) in enumerate(scale.crash_runs):
        if git and git_prep is None:
            git_prep = prepare(workdir / "git-prepared", git=True)
        one = run_crash_matrix(
            workdir / f"run{number}",
            ops=scale.crash_ops or tuple(prep.traces),
            jobs=jobs,
            prep=git_prep if git else prep,
            launch=launch,
        )
        _add_run(result, one, " (git project)" if git else "")
    result.notes = sorted(set(result.notes))
    if git_prep is not None:
        result.notes.append(
            "`(git project)` rows: the project is a git repository, so each change also "
            "records the store's git history (refs/memory-review/project), whose fault points "
            "are in the trace too"
        )
    return result


def _add_run(total: SuiteResult, one: SuiteResult, suffix: str) -> None:
    """Add one matrix run to ``total``: rows by operation (+ suffix); points counted once, not per run."""
    rows, one.rows = one.rows, {}
    total.merge(one)
    total.seconds += one.seconds
    for op, row in rows.items():
        points = row.pop("points", 0)
        total.row(op + suffix).update(row)
        total.row(op + suffix)["points"] = points


def run_concurrency(prep: Prepared, scale: Scale, workdir: Path) -> SuiteResult:
    """Every concurrency scenario at ``scale``."""
    result = SuiteResult("concurrency", zero=("lost", "phantom", "mixed states", "deadlocks", "other violations"))
    result.notes += [
        "workers propose, apply, discard, edit and revert at random; a UI-like poller reads "
        "`list_candidates()` and `memories()` meanwhile: each memory set it saw must be one the log replays "
        "to at some seq, each candidate one the log recorded; when two workers revert the same event at "
        'once the loser gets a ConflictError ("already undone")'
    ]
    workdir.mkdir(parents=True, exist_ok=True)
    with timed(result):
        for i, (processes, steps) in enumerate(scale.workloads):
            run_process_workload(
                prep.template, workdir / f"p{i}", processes=processes, steps=steps, seed=i, result=result
            )
        if scale.git_workloads:
            git_template = workdir / "git-template"
            build_template(git_template, git=True)
        for i, (processes, steps) in enumerate(scale.git_workloads):
            run_process_workload(
                git_template,
                workdir / f"g{i}",
                processes=processes,
                steps=steps,
                seed=50 + i,
                result=result,
                label=" (git project)",
            )
        for i, (threads, steps) in enumerate(scale.thread_workloads):
            run_thread_workload(prep.template, workdir / f"t{i}", threads=threads, steps=steps, seed=i, result=result)
        for i in range(scale.same_candidate_runs):
            run_same_candidate(
                prep.template, prep.ctx, workdir / f"c{i}", processes=scale.same_candidate_processes, result=result
            )
        for i in range(scale.same_base_runs):
            run_same_base(prep.template, workdir / f"b{i}", result=result)
        # The smoke scale is the default test suite's (tests/reliability/test_figures.py): on a loaded machine a
        # timed check flips, so there only the handover itself is checked; quick and full keep the limit.
        limit = None if scale.name == "smoke" else LOCK_HANDOVER_LIMIT
        for i in range(scale.lock_holder_runs):
            run_dead_lock_holder(prep.template, prep.ctx, workdir / f"l{i}", result=result, limit=limit)
    return result


def _stateful(scale: Scale) -> SuiteResult:
    from tools.reliability.stateful import run_stateful  # needs hypothesis, a test dependency

    return run_stateful(examples=scale.hypothesis_examples, steps=scale.hypothesis_steps, derandomize=scale.derandomize)
