"""The crash matrix: a child process dies at every fault point of every operation.

For each operation the parent first runs it in-process with a ``record`` plan to
list the points it hits, in order (the same code hits the same points in the
child, which starts from a byte-identical copy of the template). Then, for each
hit, a child is armed to die right there (``kill``), and at each write point also
half-way through the write (``partial``). The parent recovers — with ``verify``
or with the next write, alternately — and checks:

- the state is exactly the state before the operation or exactly after it, and
  the right one: dying before the log write completed must leave *before*
  (anything else is a phantom), dying after it must leave *after* (anything
  else is a lost commit);
- the next operation succeeds, and then every invariant holds.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from memory_review.errors import MemoryReviewError
from memory_review.events import faults
from memory_review.events.faults import WRITE_SUFFIX, FaultPlan
from tools.reliability.child import KILLED, Launcher, launcher, spawn_launcher
from tools.reliability.invariants import Outside, check_invariants, stores_of
from tools.reliability.results import SuiteResult, timed
from tools.reliability.scenario import (
    NEXT_OPERATION,
    OPERATIONS,
    Context,
    Trial,
    build_template,
    copy_trial,
)
from tools.reliability.state import StoreState, store_state

LAUNCHES = {
    "fork": "a zygote process imports the library once and forks each child, which arms its fault plan "
    "right after the fork and dies by os._exit at its point",
    "spawn": "a fresh interpreter per child, armed at start-up by the harness (tools/reliability/arming.py)",
}
CRASH_NOTE = (
    "`kill`: the child died at the point; `partial`: it wrote half the bytes of that write, then died. "
    "`before`/`after`: recovery found exactly the state before/after the operation (memories as the logs "
    "replay them, pending candidates, session memory). Dying before the log write completed must give "
    "`before`, after it `after`; recovery alternates between `verify` and simply the next write. `move` "
    "commits in two stores, the new candidate first: dying between its two log writes must give `between` "
    "(both candidates pending, nothing lost)."
)
COMMIT_POINT = "log.append.after_write"
"""Once the log write has completed, a process death can no longer undo the change."""
NEXT_MEMORY = frozenset({"theta"})
"""The memory the "next operation" proposes; its candidate is not part of the compared state."""


@dataclass(frozen=True)
class Point:
    """One place to die: the ``nth`` hit of point ``name``, at ``index`` in the operation's trace."""

    name: str
    nth: int
    index: int
    partial: bool = False

    def plan(self) -> FaultPlan:
        """The fault plan that ends a child here."""
        return FaultPlan(action="partial" if self.partial else "kill", point=self.name, nth=self.nth)

    def label(self) -> str:
        return f"{'partial' if self.partial else 'kill'}@{self.name}#{self.nth}"


def record_points(run: Callable[[], object]) -> list[str]:
    """The fault points ``run`` hits, in order (recorded in this process, then disarmed)."""
    faults.arm(FaultPlan(action="record"))
    try:
        run()
        return faults.points_hit()
    finally:
        faults.arm(None)


def enumerate_points(trace: list[str], *, partial: bool = True) -> list[Point]:
    """Every hit of the trace as a kill point, plus a partial-write point at each write."""
    seen: dict[str, int] = {}
    points = []
    for index, name in enumerate(trace):
        seen[name] = seen.get(name, 0) + 1
        points.append(Point(name, seen[name], index))
        if partial and name.endswith(WRITE_SUFFIX):
            points.append(Point(name, seen[name], index, partial=True))
    return points


def commit_index(trace: list[str]) -> int:
    """Index of the (first) commit point in the trace (past the end if the operation never appends)."""
    return trace.index(COMMIT_POINT) if COMMIT_POINT in trace else len(trace)


def last_commit_index(trace: list[str]) -> int:
    """Index of the last commit point: a move commits in two stores (ADR 0154), everything else in one."""
    hits = [i for i, name in enumerate(trace) if name == COMMIT_POINT]
    return hits[-1] if hits else len(trace)


def expected_outcome(point: Point, trace: list[str]) -> str:
    """``before`` if the child dies before the log write completed, ``after`` past the last one, and
    ``between`` past the first of two (the first store's change stands, the second's never began)."""
    if point.index >= last_commit_index(trace):
        return "after"
    return "between" if point.index >= commit_index(trace) else "before"


@dataclass
class Prepared:
    """The template of a run and, per operation, its trace and the state after it."""

    template: Path
    ctx: Context
    before: StoreState
    traces: dict[str, list[str]] = field(default_factory=dict)
    after: dict[str, StoreState] = field(default_factory=dict)

    def between(self, op: str) -> StoreState:
        """The state past the first of two commits: a move's new candidate pending, the old one too."""
        before, after = self.before, self.after[op]
        pending = tuple(sorted(set(before.pending) | set(after.pending)))
        return StoreState(memories=before.memories, pending=pending, sessions=before.sessions)

    @property
    def known(self) -> frozenset[str]:
        return known_ids(self.ctx)


def known_ids(ctx: Context) -> frozenset[str]:
    """The candidate ids a template holds (any other id is a trial's new proposal)."""
    return frozenset({ctx.new, ctx.upd, ctx.b1, ctx.b2, ctx.disc, ctx.user})


def prepare(workdir: Path, ops: Iterable[str] = OPERATIONS, *, git: bool = False) -> Prepared:
    """Build the template, then run each operation once in-process to learn its trace and its after-state."""
    template = workdir / "template"
    ctx = build_template(template, git=git)
    prep = Prepared(template, ctx, store_state(Trial(template).workspace(), known_ids(ctx)))
    for op in ops:
        trial = copy_trial(template, workdir / f"reference-{op}")
        ws = trial.workspace()
        prep.traces[op] = record_points(lambda op=op, ws=ws: OPERATIONS[op](ws, ctx))
        prep.after[op] = store_state(ws, prep.known)
        shutil.rmtree(trial.root)
    return prep


def classify(state: StoreState, before: StoreState, after: StoreState, between: StoreState | None = None) -> str:
    """``before``, ``after``, ``between`` (a two-store operation's first commit alone) or ``mixed``."""
    if state == before:
        return "before"
    if state == after:
        return "after"
    return "between" if state == between else "mixed"


def recover(trial: Trial, *, by_write: bool) -> list[str]:
    """Recovery as a user would trigger it: ``verify`` (which must then pass), or simply the next write."""
    ws = trial.workspace()
    if by_write:
        NEXT_OPERATION(ws, None)
        return []
    return [f"verify right after recovery: {p}" for report in ws.verify() for p in report.problems]


def crash_trial(
    prep: Prepared, op: str, point: Point, dest: Path, *, by_write: bool, run: Launcher = spawn_launcher
) -> tuple[str, list[str]]:
    """One child dying at ``point`` of ``op``; returns the outcome and every problem found."""
    trial = copy_trial(prep.template, dest)
    outside = Outside.take(trial.root, stores_of(trial.workspace()))
    child = run("op", {"root": str(trial.root), "op": op, "ctx": prep.ctx.model_dump()}, point.plan())
    if child.returncode != KILLED:
        return "not-reached", [f"child exited {child.returncode} instead of dying: {child.stderr[-400:]}"]
    return check_recovered(prep, op, trial, outside, expected_outcome(point, prep.traces[op]), by_write=by_write)


def check_recovered(
    prep: Prepared, op: str, trial: Trial, outside: Outside, expected: str, *, by_write: bool
) -> tuple[str, list[str]]:
    """Recover the trial, classify its state against ``expected``, run the next operation, check invariants."""
    try:
        problems = recover(trial, by_write=by_write)
        state = store_state(trial.workspace(), prep.known, ignore=NEXT_MEMORY)
        if not by_write:
            NEXT_OPERATION(trial.workspace(), None)
    except MemoryReviewError as exc:
        return "unrecoverable", [f"recovery or the next operation failed: {type(exc).__name__}: {exc}"]
    outcome = classify(state, prep.before, prep.after[op], prep.between(op))
    problems += _outcome_problems(outcome, expected, state)
    problems += check_invariants(trial.workspace(), outside=outside)
    return outcome, problems


def _outcome_problems(outcome: str, expected: str, state: StoreState) -> list[str]:
    if outcome == "mixed":
        return [f"MIXED state after recovery: {state.describe()}"]
    if outcome != expected:
        lost = _ORDER.index(outcome) < _ORDER.index(expected)
        kind = "LOST committed change" if lost else "PHANTOM change without a commit"
        return [f"{kind}: expected the state {expected} the operation, found {outcome}"]
    return []


_ORDER = ("before", "between", "after")


def run_crash_matrix(
    workdir: Path,
    *,
    ops: Iterable[str] = OPERATIONS,
    runs: int = 1,
    jobs: int = 2,
    partial: bool = True,
    prep: Prepared | None = None,
    launch: str = "fork",
) -> SuiteResult:
    """Every crash point of every operation in ``ops``, ``runs`` times; the figures of the crash matrix.

    ``launch`` is ``fork`` (children forked by a zygote: fast) or ``spawn`` (a fresh interpreter each).
    """
    result = SuiteResult(
        "crash matrix", zero=("lost", "phantom", "mixed states", "leaked temp files", "other violations")
    )
    ops = list(ops)
    with timed(result):
        workdir.mkdir(parents=True, exist_ok=True)
        prep = prep or prepare(workdir, ops)
        tasks = [
            (op, point, repeat)
            for repeat in range(runs)
            for op in ops
            for point in enumerate_points(prep.traces[op], partial=partial)
        ]
        for op in ops:
            result.row(op)["points"] = len(prep.traces[op])
        result.notes += [f"children started by {launch}: " + LAUNCHES[launch], CRASH_NOTE]
        with launcher(launch, workdir / "zygotes") as run, ThreadPoolExecutor(max_workers=jobs) as pool:
            outcomes = pool.map(lambda t: _one(prep, workdir, run, *t), enumerate(tasks))
            for (op, point, _repeat), (outcome, problems, label) in zip(tasks, outcomes, strict=False):
                result.record(op, outcome, problems, trial=label)
                result.row(op)["partial" if point.partial else "kill"] += 1
    return result


def _one(
    prep: Prepared, workdir: Path, run: Launcher, number: int, task: tuple[str, Point, int]
) -> tuple[str, list[str], str]:
    op, point, repeat = task
    dest = workdir / f"t{number}"
    label = f"crash {op} {point.label()} run {repeat} ({dest})"
    outcome, problems = crash_trial(prep, op, point, dest, by_write=number % 2 == 1, run=run)
    if not problems:
        shutil.rmtree(dest, ignore_errors=True)
    return outcome, problems, label
