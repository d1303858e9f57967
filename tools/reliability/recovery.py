"""Recovery interrupted: a crash during recovery itself, at every point, then recovery rerun until idempotent.

SQLite injects failures during recovery too. Here a *crash state* is made by a
child dying inside an operation (past its commit point, so recovery has work
to do; or mid-append, leaving a torn tail). Then:

- **each point**: for every fault point recovery hits on that state, a child
  running ``verify`` dies there; the parent reruns recovery until a rerun changes
  no byte, and checks the state and every invariant;
- **chains**: recovery is rerun in children that die at the 1st, 2nd, 3rd ... hit,
  each starting where the last one died, until one completes.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from memory_review.errors import MemoryReviewError
from memory_review.events.faults import FaultPlan
from tools.reliability.child import KILLED, Launcher, launcher, spawn_launcher
from tools.reliability.crash import (
    Point,
    Prepared,
    check_recovered,
    enumerate_points,
    expected_outcome,
    record_points,
)
from tools.reliability.invariants import Outside, stores_of
from tools.reliability.results import SuiteResult, timed
from tools.reliability.scenario import Trial, copy_trial
from tools.reliability.state import snapshot_diff, tree_snapshot

CRASH_STATES: tuple[tuple[str, Point], ...] = (
    ("apply", Point("log.append.after_fsync", 1, -1)),
    ("batch-apply", Point("log.append.after_fsync", 1, -1)),
    ("delete", Point("durable.atomic_replace.after_rename", 1, -1)),
    ("discard", Point("log.append.after_fsync", 1, -1)),
    ("create", Point("log.append.after_fsync", 1, -1)),
    ("edit", Point("durable.atomic_replace.before_rename", 1, -1)),
    ("revert", Point("log.append.after_fsync", 1, -1)),
    ("apply", Point("log.append.before_write", 1, -1, partial=True)),
)
"""(operation, where it dies): states that leave recovery real work (roll forward, or cut a torn tail)."""
MAX_RERUNS = 5


def make_crash_state(
    prep: Prepared, op: str, point: Point, dest: Path, run: Launcher = spawn_launcher
) -> tuple[Trial, str]:
    """A trial copy where a child died at ``point`` of ``op``; returns it and the state recovery must reach."""
    trace = prep.traces[op]
    index = [i for i, name in enumerate(trace) if name == point.name][point.nth - 1]
    located = Point(point.name, point.nth, index, point.partial)
    trial = copy_trial(prep.template, dest)
    child = run("op", {"root": str(trial.root), "op": op, "ctx": prep.ctx.model_dump()}, located.plan())
    if child.returncode != KILLED:
        raise RuntimeError(f"could not make the crash state {op} {located.label()}: {child.stderr[-300:]}")
    return trial, expected_outcome(located, trace)


def rerun_until_idempotent(trial: Trial) -> list[str]:
    """Run recovery until a run changes no byte of the trial; more than MAX_RERUNS is a problem."""
    for _ in range(MAX_RERUNS):
        before = tree_snapshot(trial.root)
        try:
            trial.workspace().verify()
        except MemoryReviewError as exc:
            return [f"recovery failed: {type(exc).__name__}: {exc}"]
        changed = snapshot_diff(before, tree_snapshot(trial.root))
        if not changed:
            return []
    return [f"recovery still changes files after {MAX_RERUNS} runs: {changed[:3]}"]


def interrupted_trial(
    prep: Prepared,
    op: str,
    crashed: Path,
    expected: str,
    point: Point | None,
    dest: Path,
    run: Launcher = spawn_launcher,
) -> tuple[str, list[str]]:
    """Copy a crash state, kill recovery at ``point`` (None: a chain of kills), recover fully, check."""
    shutil.copytree(crashed, dest, symlinks=True)
    trial = Trial(dest)
    outside = Outside.take(trial.root, stores_of(trial.workspace()))
    problems = _kill_once(trial, point, run) if point is not None else _kill_chain(trial, run)
    problems += rerun_until_idempotent(trial)
    outcome, more = check_recovered(prep, op, trial, outside, expected, by_write=False)
    return outcome, problems + more


def _kill_once(trial: Trial, point: Point, run: Launcher) -> list[str]:
    child = run("recover", {"root": str(trial.root)}, point.plan())
    return [] if child.returncode == KILLED else [f"recovery child exited {child.returncode}: {child.stderr[-300:]}"]


def _kill_chain(trial: Trial, run: Launcher) -> list[str]:
    """Kill recovery at hit 1, then (on the result) at hit 2, ... until a recovery run completes."""
    for nth in range(1, 200):
        child = run("recover", {"root": str(trial.root)}, FaultPlan(action="kill", nth=nth))
        if child.returncode == 0:
            return []
        if child.returncode != KILLED:
            return [f"recovery child exited {child.returncode}: {child.stderr[-300:]}"]
    return ["recovery never completed in a chain of 200 kills"]


def run_recovery_trials(
    prep: Prepared,
    workdir: Path,
    *,
    states: Iterable[tuple[str, Point]] = CRASH_STATES,
    jobs: int = 2,
    chains: bool = True,
    launch: str = "fork",
) -> SuiteResult:
    """For each crash state: a kill at every recovery point (and a torn write at each write), plus a chain."""
    with launcher(launch, workdir / "zygotes") as run:
        return _recovery_trials(prep, workdir, states, jobs, chains, run)


def _recovery_trials(
    prep: Prepared, workdir: Path, states: Iterable[tuple[str, Point]], jobs: int, chains: bool, run: Launcher
) -> SuiteResult:
    result = SuiteResult("interrupted recovery", zero=("lost", "mixed states", "leaked temp files", "other violations"))
    result.notes.append(
        "a row per crash state; trials: a kill at each recovery point, a torn write at each "
        "recovery write, and one chain (recovery killed at its 1st hit, then the 2nd, ... until "
        "one completes); then recovery is rerun until a run changes no byte"
    )
    with timed(result):
        tasks = []
        for number, (op, point) in enumerate(states):
            crashed, expected = make_crash_state(prep, op, point, workdir / f"state{number}", run)
            trace = record_points(
                lambda crashed=crashed, number=number: _recover_copy(crashed.root, workdir / f"rec{number}")
            )
            key = f"{op} died at {point.label()}"
            result.row(key)["points"] = len(trace)
            targets: list[Point | None] = [*enumerate_points(trace), *([None] if chains else [])]
            tasks += [
                (key, op, crashed.root, expected, target, workdir / f"state{number}-r{i}")
                for i, target in enumerate(targets)
            ]
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for task, (outcome, problems) in zip(
                tasks, pool.map(lambda t: _one(prep, run, *t[1:]), tasks), strict=False
            ):
                key, target, dest = task[0], task[4], task[5]
                label = f"recovery of {key}, {'chain' if target is None else target.label()} ({dest})"
                result.record(key, outcome, problems, trial=label)
    return result


def _one(
    prep: Prepared, run: Launcher, op: str, crashed: Path, expected: str, target: Point | None, dest: Path
) -> tuple[str, list[str]]:
    outcome, problems = interrupted_trial(prep, op, crashed, expected, target, dest, run)
    if not problems:
        shutil.rmtree(dest, ignore_errors=True)
    return outcome, problems


def _recover_copy(crashed: Path, dest: Path) -> None:
    shutil.copytree(crashed, dest, symlinks=True)
    Trial(dest).workspace().verify()
    shutil.rmtree(dest)
