"""The I/O error matrix: the Nth fault point of an operation raises ``OSError``, for every N.

SQLite's test VFS fails the Nth I/O call for N = 1, 2, ... in two modes — fail
once, and fail every call from N on. Here the operation runs in this process
with a ``raise`` plan (ENOSPC, EIO or EACCES) and each trial checks:

- the caller gets a :class:`StorageError` (a ``MemoryReviewError``), or success —
  success only when the fault came after the commit point, and then the change
  is visible at once; a success whose change is missing is a *silent success*;
- a fault at or before the log's fsync is never turned into success (an fsync
  error is not retried: the append is rolled back and reported);
- after recovery the state is before the operation (after an error) or after it
  (after a success; or after an error whose roll-back failed too, as the error's
  note says); the next operation succeeds; every invariant holds, no temp files.

A move commits in two stores (ADR 0154): a fault past the first store's commit leaves
``between`` (both candidates pending), and only faults up to a log append's fsync must fail.
"""

from __future__ import annotations

import errno as errno_codes
import shutil
from collections.abc import Iterable
from pathlib import Path

from memory_review.errors import MemoryReviewError, StorageError
from memory_review.events import faults
from memory_review.events.faults import FaultPlan
from tools.reliability.crash import NEXT_MEMORY, Prepared, classify, commit_index, last_commit_index, prepare
from tools.reliability.invariants import Outside, check_invariants, stores_of
from tools.reliability.results import SuiteResult, timed
from tools.reliability.scenario import NEXT_OPERATION, OPERATIONS, Trial, copy_trial
from tools.reliability.state import store_state

ERRNOS = (errno_codes.ENOSPC, errno_codes.EIO, errno_codes.EACCES)
MODES = ("once", "from")
LAST_LOG_POINTS = ("log.append.after_fsync", "log.append.dir.after_fsync")
ROLLBACK_FAILED = "truncating the log back"
SILENT = "SILENT SUCCESS"


def durable_index(trace: list[str]) -> int:
    """Index of the last point of the log append: a fault up to here must fail the operation."""
    hits = [i for i, name in enumerate(trace) if name in LAST_LOG_POINTS]
    return hits[-1] if hits else len(trace)


def must_fail(trace: list[str], index: int) -> bool:
    """Whether a fault at ``index`` must fail the operation: at or before its first log append's last point,
    or inside a later append (a move's second store, ADR 0154: the first store's change then stands)."""
    appends = [i for i, name in enumerate(trace) if name == "log.append.before_write"]
    if len(appends) < 2:
        return index <= durable_index(trace)
    ends = [i for i, name in enumerate(trace) if name in LAST_LOG_POINTS]
    first_end = max((i for i in ends if i < appends[1]), default=appends[1])
    return index <= first_end or appends[-1] <= index <= durable_index(trace)


def io_trial(prep: Prepared, op: str, n: int, mode: str, code: int, dest: Path) -> tuple[str, list[str]]:
    """Fail the ``n``-th point of ``op`` (once, or from there on) with ``code``; check what followed.

    The outcome names what the caller saw and the state recovery found: ``error→before``,
    ``error→after`` (the roll-back failed too, and the error said so) or ``success→after``.
    """
    trial = copy_trial(prep.template, dest)
    outside = Outside.take(trial.root, stores_of(trial.workspace()))
    error, problems = _run_armed(trial, prep, op, FaultPlan(action="raise", nth=n, mode=mode, errno=code))
    if error is None:
        problems += _check_success(prep, op, trial, must_fail(prep.traces[op], n - 1))
    elif not isinstance(error, StorageError):
        problems.append(f"expected a StorageError, got {type(error).__name__}: {error}")
    state, more = _check_after(prep, op, trial, outside, error, n - 1)
    return f"{'error' if error is not None else 'success'}→{state}", problems + more


def _run_armed(trial: Trial, prep: Prepared, op: str, plan: FaultPlan) -> tuple[BaseException | None, list[str]]:
    ws = trial.workspace()
    faults.arm(plan)
    try:
        OPERATIONS[op](ws, prep.ctx)
        return None, []
    except MemoryReviewError as exc:
        return exc, []
    except Exception as exc:  # noqa: BLE001 — an untyped error IS the finding this trial reports
        return exc, [f"untyped error reached the caller: {type(exc).__name__}: {exc}"]
    finally:
        faults.arm(None)


def _check_success(prep: Prepared, op: str, trial: Trial, must_fail: bool) -> list[str]:
    problems = [f"{SILENT}: a fault at or before the log fsync was not reported"] if must_fail else []
    state = store_state(trial.workspace(), prep.known)
    if state != prep.after[op]:
        problems.append(f"{SILENT}: reported success but the change is not visible: {state.describe()}")
    return problems


def _rollback_failed(error: BaseException | None) -> bool:
    notes = [n for e in (error, getattr(error, "__cause__", None)) if e for n in getattr(e, "__notes__", [])]
    return any(ROLLBACK_FAILED in note for note in notes)


def _check_after(
    prep: Prepared, op: str, trial: Trial, outside: Outside, error: BaseException | None, index: int
) -> tuple[str, list[str]]:
    """Recovery, the state it finds, the next operation, then every invariant."""
    ws = trial.workspace()
    try:
        ws.verify()
        state = store_state(ws, prep.known, ignore=NEXT_MEMORY)
        NEXT_OPERATION(ws, None)
    except MemoryReviewError as exc:
        return "unrecoverable", [f"recovery or the next operation failed: {type(exc).__name__}: {exc}"]
    outcome = classify(state, prep.before, prep.after[op], prep.between(op))
    allowed = {"after"} if error is None else ({"before", "after"} if _rollback_failed(error) else {"before"})
    trace = prep.traces[op]
    if error is not None and commit_index(trace) <= index and last_commit_index(trace) > commit_index(trace):
        allowed |= {"between"}  # the second store failed (or rolled back); the first store's change stands
    problems = [] if outcome in allowed else [f"state is {outcome} after recovery, expected {sorted(allowed)}"]
    return outcome, problems + check_invariants(ws, outside=outside)


def run_io_matrix(
    workdir: Path, *, ops: Iterable[str] = OPERATIONS, all_errnos: bool = False, prep: Prepared | None = None
) -> SuiteResult:
    """Every N of every operation, once and from-N-on; one errno per N (rotating), or all three."""
    result = SuiteResult("I/O error matrix", zero=("silent successes", "leaked temp files", "other violations"))
    result.notes.append(
        "`error→before`: a StorageError, nothing changed. `error→after`: a StorageError whose roll-back "
        "truncate failed too (from-N-on mode); the error says so, and recovery completes the committed "
        "batch. `success→after`: the fault came after the commit point (a warning); the change was visible "
        f"at once. Errnos: {'ENOSPC, EIO and EACCES at every N' if all_errnos else 'one per N, rotating'}."
    )
    with timed(result):
        prep = prep or prepare(workdir / "io-prep", ops)
        for op in ops:
            for n in range(1, len(prep.traces[op]) + 1):
                for mode in MODES:
                    for code in ERRNOS if all_errnos else (ERRNOS[n % len(ERRNOS)],):
                        _record(result, prep, op, n, mode, code, workdir)
    return result


def _record(result: SuiteResult, prep: Prepared, op: str, n: int, mode: str, code: int, workdir: Path) -> None:
    dest = workdir / f"io-{op}-{n}-{mode}-{code}"
    label = f"io {op} call {n} ({prep.traces[op][n - 1]}) {mode} {errno_codes.errorcode[code]} ({dest})"
    outcome, problems = io_trial(prep, op, n, mode, code, dest)
    result.record(op, outcome, problems, trial=label)
    result.row(op)[mode] += 1
    if not problems:
        shutil.rmtree(dest, ignore_errors=True)
