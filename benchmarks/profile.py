"""Profiles of the operations that miss their goals: ``python -m benchmarks.profile NAME`` (apply, replay,
context, cli, ui, verify).

Each prints where the time goes (cProfile, by own time; or ``-X importtime`` for the
CLI's start-up), on a scratch store built like the suite's. The findings are written
up in ``docs/performance.md``.
"""

from __future__ import annotations

import cProfile
import io
import os
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.build import ReplayLogWriter, fill_store, proposal, trust_filled, workspace
from benchmarks.measure import child_env

TOP = 18


def _profile(action: Callable[[], object], label: str) -> None:
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.runcall(action)
    print(f"== {label}: {time.perf_counter() - started:.3f} s under cProfile")
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(TOP)
    text = out.getvalue()
    print("\n".join(line for line in text[text.index("   ncalls") :].splitlines() if line.strip()))


def apply(work: Path, size: int = 100, count: int = 100) -> None:
    """One candidate at a time on a ``size``-memory store; fsyncs counted."""
    ws = workspace(work)
    fill_store(ws.project, size)
    ids = [s.candidate.id for s in ws.propose([proposal(i, "project") for i in range(count + 1)])]
    ws.apply([ids[0]], actor="bench")
    calls, real = [0], os.fsync

    def counting(fd: int) -> None:
        calls[0] += 1
        real(fd)

    os.fsync = counting
    try:
        _profile(lambda: [ws.apply([cid], actor="bench") for cid in ids[1:]], f"{count} applies, {size} memories")
    finally:
        os.fsync = real
    print(f"fsyncs per apply: {calls[0] / count:.1f}")


def replay(work: Path, events: int = 30_000) -> None:
    """The replay fold over a mixed log."""
    from memory_review.events import EventLog
    from memory_review.events import replay as fold

    path = work / "events.jsonl"
    ReplayLogWriter().write(path, events)
    _profile(lambda: fold(EventLog(path, origin="0" * 16).read()), f"replay of {events:,} events")


def verify(work: Path, size: int = 4_000) -> None:
    """``Workspace.verify()`` of a trusted ``size``-memory project store, after one warm-up (docs/adr/0042)."""
    ws = workspace(work)
    fill_store(ws.project, size)
    trust_filled(ws)
    ws.verify()  # pydantic builds its validators on first use; the page cache fills
    _profile(ws.verify, f"verify, {size:,} memories")


def context(work: Path, size: int = 10_000) -> None:
    """The in-process build, without and with a query."""
    ws = workspace(work)
    fill_store(ws.user, size // 2)
    fill_store(ws.project, size - size // 2, start=size // 2)
    trust_filled(ws)
    _profile(lambda: ws.context(), f"context, {size:,} memories")
    _profile(lambda: ws.context(query="database migration tests"), f"context --query, {size:,} memories")


def cli(work: Path) -> None:
    """Where the CLI's start-up goes: the largest imports (cumulative ms, bytecode cached)."""
    env = child_env(work)
    command = [sys.executable, "-X", "importtime", "-c", "import memory_review.cli as c; c.build_parser()"]
    subprocess.run(command, env=env, capture_output=True, check=True)  # warm the bytecode cache
    lines = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stderr.splitlines()
    rows = []
    for line in lines[1:]:
        _self, cumulative, name = line.split("|")
        depth = (len(name) - len(name.lstrip())) // 2
        rows.append((depth, int(cumulative), name.strip()))
    print("== import memory_review.cli + build_parser: largest imports (ms, cumulative)")
    for depth, cumulative, name in rows:
        if cumulative > 8_000 and depth <= 3:
            print(f"{'  ' * depth}{name}: {cumulative / 1000:.0f}")


def ui(work: Path, candidates: int = 10_000, memories: int = 2_000) -> None:
    """The review UI's load: its reader alone (the worker's share), then the app opened headless with its GC."""
    import asyncio
    import gc

    from benchmarks.case_ui import build_queue, drive
    from memory_review.workspace import Workspace

    root = work / "ui"
    build_queue(root, candidates, memories)
    ws = Workspace(root / "project", root / "user")
    _profile(
        lambda: sum(len(chunk) for chunk in ws.pending_files().chunks()), f"reading {candidates:,} pending candidates"
    )
    gc.collect()
    with GcClock() as clock:
        cpu = time.process_time()
        report = asyncio.run(drive(root, 5))
        cpu = time.process_time() - cpu
    print(
        f"== the app, headless: first rows {report['seconds'] * 1000:.0f} ms, loaded "
        f"{report['loaded_seconds'] * 1000:.0f} ms, longest stall {report['stall_seconds'] * 1000:.0f} ms; "
        f"process CPU {cpu * 1000:.0f} ms, of it garbage collection {clock.total * 1000:.0f} ms "
        f"({clock.full} full passes, the longest {clock.longest * 1000:.0f} ms)"
    )


class GcClock:
    """Time spent in the cycle collector while inside (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.total = self.longest = 0.0
        self.full = 0
        self._began = 0.0

    def __enter__(self) -> GcClock:
        import gc

        gc.callbacks.append(self._tick)
        return self

    def __exit__(self, *exc: object) -> None:
        import gc

        gc.callbacks.remove(self._tick)

    def _tick(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        took = time.perf_counter() - self._began
        self.total += took
        self.longest = max(self.longest, took)
        self.full += info["generation"] == 2


CASES = {"apply": apply, "replay": replay, "context": context, "cli": cli, "ui": ui, "verify": verify}


def main(argv: list[str]) -> int:
    for name in argv or list(CASES):
        with tempfile.TemporaryDirectory(prefix="memory-review-profile-") as folder:
            CASES[name](Path(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
