"""Random-moment SIGKILL: a child loops operations on a busy store and is killed after a random delay.

The crash matrix dies at chosen points; this dies wherever the clock says,
including inside reads, the lock, pydantic, or between two operations. The child
prints each success the moment the library call returns, so afterwards:

- every success it reported has its events in the log (nothing reported is lost);
- the only events no success claims are those of the one operation in flight,
  committed as a single batch right after the last reported one;
- recovery passes ``verify``, the next operation succeeds, and every invariant holds.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from memory_review.errors import MemoryReviewError
from memory_review.events import Event
from tools.reliability.child import parse_lines, spawn
from tools.reliability.concurrency import _claims
from tools.reliability.invariants import Outside, check_invariants, stores_of
from tools.reliability.results import SuiteResult, timed
from tools.reliability.scenario import NEXT_OPERATION, Trial, copy_trial
from tools.reliability.workload import WorkloadResult

MAX_DELAY = 1.5


def sigkill_trial(template: Path, dest: Path, seed: int) -> tuple[str, list[str]]:
    """One busy child, killed after a random delay; returns how many successes it reported, and problems."""
    trial = copy_trial(template, dest)
    outside = Outside.take(trial.root, stores_of(trial.workspace()))
    start_seq = trial.workspace().project.log().head().seq
    lines = _run_and_kill(trial, seed, random.Random(seed).uniform(0.0, MAX_DELAY))
    problems = [f"busy child: {line['unexpected']}" for line in lines if "unexpected" in line]
    reported = WorkloadResult(successes=[line for line in lines if "events" in line])
    problems += _recovered(trial)
    problems += _claimed_events(trial, start_seq, reported)
    problems += _next_operation(trial)
    problems += check_invariants(trial.workspace(), outside=outside)
    return f"{len(reported.successes)} ops", problems


def _run_and_kill(trial: Trial, seed: int, delay: float) -> list[dict]:
    proc = spawn("busy", {"root": str(trial.root), "seed": seed})
    proc.stdout.readline()  # {"ready": true}
    # Wait for the first operation's report, so a loaded machine cannot turn every trial into a kill
    # before any work; kills before the first commit are the crash matrix's job, point by point.
    first = proc.stdout.readline()
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    # Read through the buffered stream: communicate() reads the raw pipe and would drop the lines
    # readline() had already buffered - a reported success would look like a phantom commit.
    out = proc.stdout.read()
    proc.stderr.read()
    proc.wait()
    return parse_lines(first + out)


def _recovered(trial: Trial) -> list[str]:
    try:
        return [f"verify after recovery: {p}" for r in trial.workspace().verify() for p in r.problems]
    except MemoryReviewError as exc:
        return [f"recovery failed: {type(exc).__name__}: {exc}"]


def _next_operation(trial: Trial) -> list[str]:
    try:
        NEXT_OPERATION(trial.workspace(), None)
    except MemoryReviewError as exc:
        return [f"the next operation failed: {type(exc).__name__}: {exc}"]
    return []


def _claimed_events(trial: Trial, start_seq: int, reported: WorkloadResult) -> list[str]:
    """Reported events are in the log; unreported ones are at most the one batch that was in flight."""
    events = {e.seq: e for e in trial.workspace().project.log().read() if e.seq > start_seq}
    claimed = _claims([reported])
    problems = [
        f"LOST: reported event {seq} {what} is not in the log"
        for seq, what in sorted(claimed.items())
        if seq not in events or (events[seq].type, events[seq].candidate) != what
    ]
    last = max(claimed, default=start_seq)
    unclaimed = [e for seq, e in sorted(events.items()) if seq not in claimed]
    # The child may have committed one batch and died before printing it; anything more is a phantom.
    if not _one_batch_after(unclaimed, last):
        problems.append(f"PHANTOM: unreported events {[e.seq for e in unclaimed]} after the last reported {last}")
    return problems


def _one_batch_after(events: list[Event], last: int) -> bool:
    """True if ``events`` is empty or exactly one committed batch whose first seq follows ``last``."""
    if not events:
        return True
    consecutive = [e.seq for e in events] == list(range(last + 1, last + 1 + len(events)))
    return consecutive and all(e.more for e in events[:-1]) and not events[-1].more


def run_sigkill_trials(template: Path, workdir: Path, *, trials: int, jobs: int = 2, seed: int = 0) -> SuiteResult:
    """``trials`` random-moment kills, ``jobs`` at a time."""
    result = SuiteResult("random SIGKILL", zero=("lost", "phantom", "leaked temp files", "other violations"))
    result.notes.append(
        f"a child loops random operations (propose, apply, discard, edit, revert, delete) and is "
        f"SIGKILLed 0-{MAX_DELAY:g} s after it is ready; every success it printed must have its "
        "events, and the only unreported events may be the one batch in flight"
    )
    with timed(result), ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_one, template, workdir / f"kill{i}", seed * 10_000 + i) for i in range(trials)]
        for i, future in enumerate(futures):
            outcome, problems = future.result()
            result.record("busy store", "killed", problems, trial=f"sigkill #{i} ({workdir / f'kill{i}'})")
            result.row("busy store")["reported successes"] += int(outcome.split()[0])
    return result


def _one(template: Path, dest: Path, seed: int) -> tuple[str, list[str]]:
    outcome, problems = sigkill_trial(template, dest, seed)
    if not problems:
        shutil.rmtree(dest, ignore_errors=True)
    return outcome, problems
