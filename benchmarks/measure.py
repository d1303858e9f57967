"""Timing helpers and the shape of a result row.

Absolute times on shared machines are noise; a ratio to a baseline measured in
the same run, interleaved with the operation, is not. So every helper here
returns raw samples and every row carries its baseline.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


@dataclass
class Row:
    """One line of the table: an operation, its baseline, their ratio and the goal it must meet."""

    name: str
    seconds: float | None
    baseline: str
    baseline_seconds: float | None
    goal: str
    limit: float | None  # the ratio must be <= limit; None: report only
    note: str = ""
    unit: str = "s"  # "s" (shown in ms), "MB" (peak memory) or "KB" (bytes written)

    @property
    def ratio(self) -> float | None:
        if self.seconds is None or not self.baseline_seconds:
            return None
        return self.seconds / self.baseline_seconds

    @property
    def met(self) -> bool | None:
        if self.limit is None or self.ratio is None:
            return None
        return self.ratio <= self.limit

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(ratio=self.ratio, met=self.met)
        return data


@dataclass
class Series:
    """A growth curve: x (store or log size) against seconds, and anything else measured per point."""

    name: str
    x_label: str
    points: list[tuple[int, float]] = field(default_factory=list)
    rss_kb: list[int] = field(default_factory=list)


@contextmanager
def scratch(name: str) -> Iterator[Path]:
    """A folder for one benchmark's stores (under ``$BENCH_WORK`` when set), removed afterwards: nothing is
    left in /tmp."""
    work = Path(tempfile.mkdtemp(prefix=f"memory-review-{name}-", dir=os.environ.get("BENCH_WORK")))
    try:
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


def median(samples: Sequence[float]) -> float:
    return statistics.median(samples)


def timed(action: Callable[[], object]) -> float:
    """Seconds one call of ``action`` takes."""
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def interleaved(
    op: Callable[[], object], base: Callable[[], object], repeat: int, warmup: int = 1
) -> tuple[float, float]:
    """Median seconds of ``op`` and of ``base``, run alternately so drifts in machine load hit both."""
    for _ in range(warmup):
        op()
        base()
    ops, bases = [], []
    for _ in range(repeat):
        ops.append(timed(op))
        bases.append(timed(base))
    return median(ops), median(bases)


def child_env(work: Path) -> dict[str, str]:
    """The environment of measured subprocesses: bytecode cached (as in any install), outside the repo."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    return env


CONSOLE_ENTRY = "import sys\nfrom memory_review.main import main\nsys.exit(main())"
"""What the installed ``memory-review`` script runs (pyproject: ``memory_review.main:main``)."""


def console_script() -> list[str]:
    """The command line a user's ``memory-review`` is: the console script next to this Python, else its entry
    point run by this Python (``-c``, the script's own three lines without ``re``).

    Never ``python -m memory_review.cli``: that skips :mod:`memory_review.main` (the prompt hook's and
    ``context``'s lean paths, the pydantic plugin loader stand-in) and measures a program nobody runs;
    nor ``-m memory_review.main``, whose ``runpy`` start-up a user does not pay (docs/adr/0048).
    """
    script = Path(sys.executable).with_name("memory-review")
    return [str(script)] if script.exists() else [sys.executable, "-c", CONSOLE_ENTRY]


def run_process(argv: Sequence[str], env: dict[str, str], cwd: Path | None = None) -> float:
    """Wall-clock seconds of one process run to completion (it must exit 0)."""
    start = time.perf_counter()
    done = subprocess.run(list(argv), env=env, cwd=cwd, capture_output=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode()[-2000:]}")
    return elapsed


def process_cpu(argv: Sequence[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process (user + system, from ``wait4``: with the processes it waited
    for, such as git); it must exit 0."""
    start = time.perf_counter()
    child = subprocess.Popen(list(argv), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    stderr = child.stderr.read() if child.stderr else b""
    if child.stderr:
        child.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(argv)}: {stderr.decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def run_child(task: str, args: Sequence[str], env: dict[str, str]) -> dict[str, Any]:
    """Run ``benchmarks.child TASK ARGS`` in a fresh process; its JSON report (seconds, peak RSS)."""
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.child", task, *args], env=env, capture_output=True, cwd=REPO
    )
    if done.returncode != 0:
        raise RuntimeError(f"child {task} failed: {done.stderr.decode()[-2000:]}")
    report: dict[str, Any] = json.loads(done.stdout)
    return report
