"""Concurrency with real processes and threads: racing writers, one winner, a UI-like poller, a dead lock holder.

Every trial starts from a copy of the template and ends with the invariants. Workers
may only ever see :class:`ConflictError` or :class:`LockTimeoutError`; every success
a worker reports must have its events in the log, and every event in the log must
belong to a reported success (nothing lost, nothing phantom). A worker that does
not finish within its timeout is counted as a deadlock.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.reliability.child import KILLED, ChildResult, parse_lines, spawn
from tools.reliability.invariants import Outside, check_invariants, stores_of
from tools.reliability.poller import Poller
from tools.reliability.results import SuiteResult
from tools.reliability.scenario import Context, Trial, copy_trial, upsert
from tools.reliability.workload import Workload, WorkloadResult

RACING_OPS = ("propose", "apply", "discard", "edit", "revert")
"""What racing workers do (``delete`` of a memory another worker deleted is a NotFoundError, by design)."""
WORKER_TIMEOUT = 120.0
LOCK_HANDOVER_LIMIT = 1.0


@dataclass
class Gang:
    """Child processes started together, released at once by a go-file."""

    go_file: Path
    procs: list[Any] = field(default_factory=list)

    def start(self, command: str, args: list[dict[str, Any]]) -> None:
        for arg in args:
            self.procs.append(spawn(command, {**arg, "go_file": str(self.go_file)}))
        for proc in self.procs:
            proc.stdout.readline()  # {"ready": true}: imported, opened, waiting
        self.go_file.touch()

    def wait(self, timeout: float = WORKER_TIMEOUT) -> list[ChildResult]:
        """Each child's result; one still running at the deadline is killed and reported as a deadlock."""
        deadline = time.monotonic() + timeout
        return [_finish(proc, deadline) for proc in self.procs]


def _finish(proc: Any, deadline: float) -> ChildResult:
    try:
        out, err = proc.communicate(timeout=max(deadline - time.monotonic(), 0.1))
    except Exception:  # noqa: BLE001 — subprocess.TimeoutExpired: the child is stuck
        proc.kill()
        out, err = proc.communicate()
        return ChildResult(-9, parse_lines(out), "DEADLOCK: still running at the deadline\n" + err.decode())
    return ChildResult(proc.returncode, parse_lines(out), err.decode("utf-8", "replace"))


def _claims(results: list[WorkloadResult]) -> dict[int, tuple[str, str | None]]:
    claimed: dict[int, tuple[str, str | None]] = {}
    for result in results:
        for success in result.successes:
            for event in success["events"]:
                claimed[event["seq"]] = (event["type"], event["candidate"])
    return claimed


def check_successes(trial: Trial, start_seq: int, results: list[WorkloadResult]) -> list[str]:
    """Every reported success has its events; every event since ``start_seq`` belongs to a success."""
    log = {e.seq: (e.type, e.candidate) for e in trial.workspace().log() if e.seq > start_seq}
    claimed = _claims(results)
    problems = [
        f"LOST: success reported event {seq} {what}, the log has {log.get(seq)}"
        for seq, what in sorted(claimed.items())
        if log.get(seq) != what
    ]
    problems += [
        f"PHANTOM: event {seq} {what} belongs to no reported success"
        for seq, what in sorted(log.items())
        if seq not in claimed
    ]
    return problems + [u for r in results for u in r.unexpected]


def _worker_results(children: list[ChildResult]) -> tuple[list[WorkloadResult], list[str]]:
    results, problems = [], []
    for number, child in enumerate(children):
        if child.returncode != 0 or not child.lines:
            problems.append(f"worker {number} exited {child.returncode}: {child.stderr[-600:]}")
            continue
        results.append(WorkloadResult.from_json(child.lines[-1]))
    return results, problems


def run_process_workload(
    template: Path, dest: Path, *, processes: int, steps: int, seed: int, result: SuiteResult, label: str = ""
) -> None:
    """``processes`` children run ``steps`` random operations each, while a poller reads like the UI."""
    trial = copy_trial(template, dest)
    outside = Outside.take(trial.root, stores_of(trial.workspace()))
    start_seq = trial.workspace().project.log().head().seq
    args = [
        {"root": str(trial.root), "seed": seed * 100 + i, "steps": steps, "ops": list(RACING_OPS)}
        for i in range(processes)
    ]
    with Poller(trial) as poller:
        gang = Gang(dest.parent / f"{dest.name}.go")
        gang.start("workload", args)
        children = gang.wait()
    results, problems = _worker_results(children)
    problems += check_successes(trial, start_seq, results) + poller.check()
    problems += check_invariants(trial.workspace(), outside=outside)
    _count(result, f"{processes} processes × {steps} ops{label}", results, children, poller, problems, dest)


def run_thread_workload(
    template: Path, dest: Path, *, threads: int, steps: int, seed: int, result: SuiteResult
) -> None:
    """The same with threads of this process, each with its own Workspace object on the same folders."""
    trial = copy_trial(template, dest)
    outside = Outside.take(trial.root, stores_of(trial.workspace()))
    start_seq = trial.workspace().project.log().head().seq
    results = [WorkloadResult() for _ in range(threads)]
    workers = [
        threading.Thread(target=_thread_worker, args=(trial, seed * 100 + i, steps, results[i])) for i in range(threads)
    ]
    with Poller(trial) as poller:
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(WORKER_TIMEOUT)
    stuck = [f"DEADLOCK: thread {i} still running" for i, w in enumerate(workers) if w.is_alive()]
    problems = stuck + check_successes(trial, start_seq, results) + poller.check()
    problems += check_invariants(trial.workspace(), outside=outside)
    _count(result, f"{threads} threads × {steps} ops", results, [], poller, problems, dest)


def _thread_worker(trial: Trial, seed: int, steps: int, into: WorkloadResult) -> None:
    done = Workload(trial.workspace(), seed, ops=RACING_OPS).run(steps)
    into.successes += done.successes
    into.errors.update(done.errors)
    into.unexpected += done.unexpected


def _count(
    result: SuiteResult,
    key: str,
    results: list[WorkloadResult],
    children: list[ChildResult],
    poller: Poller,
    problems: list[str],
    dest: Path,
) -> None:
    result.record(key, "run", problems, trial=f"{key} ({dest})")
    row = result.row(key)
    row["operations"] += sum(len(r.successes) + sum(r.errors.values()) for r in results)
    row["successes"] += sum(len(r.successes) for r in results)
    for r in results:
        row.update(r.errors)
    row["poller reads"] += poller.reads
    row["deadlocks"] += sum(1 for c in children if "DEADLOCK" in c.stderr)
    row["deadlocks"] += sum(1 for p in problems if p.startswith("DEADLOCK"))


# --- one winner ------------------------------------------------------------------------------


def run_same_candidate(template: Path, ctx: Context, dest: Path, *, processes: int, result: SuiteResult) -> None:
    """``processes`` children apply the same candidate at once: exactly one wins, the rest conflict."""
    trial = copy_trial(template, dest)
    outside = Outside.take(trial.root, stores_of(trial.workspace()))
    gang = Gang(dest.parent / f"{dest.name}.go")
    gang.start("apply-one", [{"root": str(trial.root), "candidate": ctx.upd}] * processes)
    children = gang.wait()
    problems = _one_winner(children, processes)
    applied = [e for e in trial.workspace().log(candidate=ctx.upd) if e.type == "candidate.applied"]
    if len(applied) != 1:
        problems.append(f"{len(applied)} candidate.applied events for one candidate")
    problems += check_invariants(trial.workspace(), outside=outside)
    key = f"{processes} processes apply one candidate"
    result.record(key, "run", problems, trial=str(dest))
    _count_outcomes(result.row(key), children)


def _count_outcomes(row: Counter[str], children: list[ChildResult]) -> None:
    row["winners"] += sum(1 for c in children if c.returncode == 0)
    row["ConflictError"] += sum(1 for c in children if c.lines and c.lines[-1].get("error") == "ConflictError")


def _one_winner(children: list[ChildResult], processes: int) -> list[str]:
    winners = [c for c in children if c.returncode == 0]
    losers = [c for c in children if c.returncode == 3 and c.lines[-1].get("error") == "ConflictError"]
    if len(winners) == 1 and len(losers) == processes - 1:
        return []
    seen = [(c.returncode, c.lines[-1] if c.lines else c.stderr[-200:]) for c in children]
    return [f"expected 1 winner and {processes - 1} ConflictErrors, got {seen}"]


def run_same_base(template: Path, dest: Path, *, result: SuiteResult) -> None:
    """Two candidates from the same base, applied at once by two processes: one applies, one conflicts."""
    trial = copy_trial(template, dest)
    ws = trial.workspace()
    outside = Outside.take(trial.root, stores_of(ws))
    [a, b] = ws.propose([upsert("beta", "Tests use SQLite in memory."), upsert("beta", "Tests use testcontainers.")])
    gang = Gang(dest.parent / f"{dest.name}.go")
    gang.start("apply-one", [{"root": str(trial.root), "candidate": c.candidate.id} for c in (a, b)])
    children = gang.wait()
    problems = _one_winner(children, 2)
    winner = a if children[0].returncode == 0 else b
    loser = b if winner is a else a
    body = ws.project.view().memory("beta").body
    if body != winner.candidate.changes[0].after.body:
        problems.append(
            f"LOST UPDATE: beta says {body!r}, the winner applied {winner.candidate.changes[0].after.body!r}"
        )
    if loser.candidate.id not in [s.candidate.id for s in ws.list_candidates()]:
        problems.append("the conflicting candidate is no longer pending")
    problems += check_invariants(ws, outside=outside)
    key = "2 processes, 2 candidates, same base"
    result.record(key, "run", problems, trial=str(dest))
    _count_outcomes(result.row(key), children)


# --- a dead lock holder ------------------------------------------------------------------------


def run_dead_lock_holder(
    template: Path, ctx: Context, dest: Path, *, result: SuiteResult, limit: float | None = LOCK_HANDOVER_LIMIT
) -> None:
    """SIGKILL a process holding the store lock while another waits: the waiter goes on within ``limit``
    seconds (None: only that it goes on, for the default test suite, where a loaded machine would flip a
    timed check; the handover time is still recorded as ``max handover ms``)."""
    trial = copy_trial(template, dest)
    lock = trial.workspace().project.lock_path
    inode = lock.stat().st_ino
    holder = spawn("hold-lock", {"root": str(trial.root), "seconds": 60})
    holder.stdout.readline()  # {"locked": true}
    waiter = spawn("apply-one", {"root": str(trial.root), "candidate": ctx.upd})
    time.sleep(0.5)  # the waiter is now blocked on the lock
    killed_at = time.time()
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    done = _finish(waiter, time.monotonic() + 30)
    problems = _handover(done, killed_at, limit)
    problems += _next_op_handover(trial, result, limit)
    if not lock.exists() or lock.stat().st_ino != inode:
        problems.append(".lock was deleted or replaced")
    problems += check_invariants(trial.workspace())
    result.record("lock holder SIGKILLed", "run", problems, trial=str(dest))


def _handover(done: ChildResult, killed_at: float, limit: float | None) -> list[str]:
    if done.returncode != 0 or not done.lines:
        return [f"the waiting process failed after the holder died: {done.returncode} {done.stderr[-300:]}"]
    waited = done.lines[-1]["at"] - killed_at
    return [] if limit is None or waited < limit else [f"the waiter got the lock {waited:.2f}s after the kill"]


def _next_op_handover(trial: Trial, result: SuiteResult, limit: float | None) -> list[str]:
    holder = spawn("hold-lock", {"root": str(trial.root), "seconds": 60})
    holder.stdout.readline()
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    start = time.monotonic()
    trial.workspace(lock_timeout=5).propose([upsert("iota", "The lock came back.")])
    took = time.monotonic() - start
    result.row("lock holder SIGKILLed")["max handover ms"] = max(
        result.row("lock holder SIGKILLed")["max handover ms"], round(took * 1000)
    )
    code = holder.returncode
    problems = [] if code in (-signal.SIGKILL, KILLED) else [f"lock holder ended with {code}, not by SIGKILL"]
    return problems + ([] if limit is None or took < limit else [f"next operation waited {took:.2f}s for the lock"])
