"""The review UI on 10,000 pending candidates: time until usable and per key press (Textual Pilot, headless).

The UI runs in a child process (``benchmarks.child ui``) so Textual never loads in
the runner and the peak RSS reported is the UI's own.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.build import fill_store, proposal, trust_filled, workspace
from benchmarks.measure import Row, run_child, run_process
from benchmarks.scale import Scale
from memory_review.workspace import Workspace

OPEN_GOAL, KEY_GOAL = 1.0, 0.050
BATCH = 2_000  # proposals per propose call while building the queue
POLL = 0.002  # seconds between looks at the app while it loads
UI_RUNS = 3  # fresh UI processes per figure (medians): one run on a shared machine is one draw of its noise
SPAWNED = "MEMORY_REVIEW_BENCH_SPAWNED"  # the runner's time.time() as it starts the UI child


def ui_available() -> bool:
    """Whether the review UI exists yet (``tui.app.make_app``)."""
    return importlib.util.find_spec("memory_review.tui.app") is not None


def build_queue(root: Path, candidates: int, memories: int) -> None:
    """A workspace at ``root`` whose project store holds ``memories`` memories and ``candidates`` pending."""
    ws = workspace(root)
    fill_store(ws.project, memories)
    trust_filled(ws)
    for start in range(0, candidates, BATCH):
        count = min(BATCH, candidates - start)
        ws.propose([proposal(start + i, "project", prefix="queue") for i in range(count)])


def ui_rows(work: Path, scale: Scale, env: dict[str, str]) -> list[Row]:
    """Build the queue, then time the UI in a child; absolute goals (no baseline process)."""
    name = f"open the review UI ({scale.ui_candidates:,} candidates, {scale.ui_memories:,} memories)"
    key = "one key press in the queue (down)"
    if not ui_available():
        note = "not run: tui.app.make_app is not there yet"
        return [
            Row(name, None, "absolute goal", OPEN_GOAL, "≤ ~1 s", 1.0, note=note),
            Row(key, None, "absolute goal", KEY_GOAL, "≤ ~50 ms", 1.0, note=note),
        ]
    root = work / "ui"
    build_queue(root, scale.ui_candidates, scale.ui_memories)
    run_process(
        [sys.executable, "-c", "import memory_review.tui.app, benchmarks.child"], env
    )  # bytecode cached, as installed
    report = _median_report(root, scale, env)
    rss = f"peak RSS {report['rss_kb'] / 1024:.0f} MB"
    own = max(report["key_seconds"] - report["floor_seconds"], 0.0)
    return [
        Row(
            name,
            report["seconds"],
            "absolute goal",
            OPEN_GOAL,
            "≤ ~1 s",
            1.0,
            note=f"from make_app until the queue's first rows are painted (it keeps loading in a worker); "
            f"medians of {UI_RUNS} processes; {rss}",
        ),
        Row(
            "... the same from process start (Python start-up and imports included)",
            report["process_seconds"],
            "absolute goal",
            OPEN_GOAL,
            "report",
            None,
        ),
        Row(
            f"... until all {scale.ui_candidates:,} candidates are in the queue",
            report["loaded_seconds"],
            "absolute goal",
            OPEN_GOAL,
            "report",
            None,
        ),
        Row(
            "... longest the UI could not take a key while loading",
            report["stall_seconds"],
            "absolute goal",
            KEY_GOAL,
            "report",
            None,
            note="the event loop's longest late wake-up",
        ),
        Row(
            key,
            own,
            "absolute goal",
            KEY_GOAL,
            "≤ ~50 ms",
            1.0,
            note=f"the UI's own share: Pilot press+pause took {report['key_seconds'] * 1000:.0f} ms (median "
            f"of {scale.ui_keys}, slowest {report['key_max'] * 1000:.0f} ms) against "
            f"{report['floor_seconds'] * 1000:.0f} ms on a bare Textual table app in the same process",
        ),
    ]


def _median_report(root: Path, scale: Scale, env: dict[str, str]) -> dict[str, Any]:
    """Each figure's median over a few fresh UI processes (the slowest key press: the slowest of all)."""
    runs = [
        run_child("ui", [str(root), str(scale.ui_keys)], {**env, SPAWNED: repr(time.time())})
        for _ in range(1 if scale.name == "tiny" else UI_RUNS)
    ]
    report = {name: statistics.median(run[name] for run in runs) for name in runs[0] if name != "key_max"}
    return {**report, "key_max": max(run["key_max"] for run in runs)}


async def drive(root: Path, keys: int) -> dict[str, Any]:
    """Open the app headless and time it: first rows on screen, fully loaded, then ``keys`` presses of ``down``.

    Until it is loaded the app is watched without Pilot's ``pause()``: that waits for the process to go
    idle, up to a second, and a process loading 10,000 candidates is not idle - it would time the harness.
    """
    from memory_review.tui.app import make_app

    ws = Workspace(root / "project", root / "user", lock_timeout=60)
    start = time.perf_counter()
    app = make_app(ws)
    async with app.run_test(size=(120, 40)) as pilot:
        await _first_rows(app)
        usable, usable_wall = time.perf_counter() - start, time.time()
        async with StallWatch() as watch:
            await app.workers.wait_for_complete()
            await app.screen.wait_for_refresh()
        loaded = time.perf_counter() - start
        presses = await _press(pilot, keys)
    floor = await _floor(keys)
    return {
        "seconds": usable,
        "loaded_seconds": loaded,
        "key_seconds": statistics.median(presses),
        "key_max": max(presses),
        "floor_seconds": statistics.median(floor),
        "stall_seconds": watch.longest,
        "process_seconds": _since_spawn(usable_wall),
    }


async def _first_rows(app: Any) -> None:
    """Until the review screen holds rows (or knows it has none) and has been repainted with them."""
    while not (getattr(app.screen, "order", None) or getattr(app.screen, "loaded", False)):
        await asyncio.sleep(POLL)
    await app.screen.wait_for_refresh()


class StallWatch:
    """The longest the event loop could not run while inside (a key pressed then waits that long)."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> StallWatch:
        self._task = asyncio.create_task(self._watch())
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()

    async def _watch(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(POLL)
            now = time.perf_counter()
            self.longest = max(self.longest, now - last - POLL)
            last = now


def _since_spawn(wall: float) -> float | None:
    """Seconds from the moment the runner started this process (Python start-up and imports in)."""
    spawned = os.environ.get(SPAWNED)
    return wall - float(spawned) if spawned else None


async def _press(pilot: Any, keys: int) -> list[float]:
    presses = []
    for _ in range(keys):
        began = time.perf_counter()
        await pilot.press("down")
        await pilot.pause()
        presses.append(time.perf_counter() - began)
    return presses


async def _floor(keys: int) -> list[float]:
    """The harness's own cost: the same presses on a bare Textual app holding one 100-row table."""
    from textual.app import App, ComposeResult
    from textual.widgets import DataTable

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            yield DataTable()

        def on_mount(self) -> None:
            table = self.query_one(DataTable)
            table.add_columns("id", "text")
            table.add_rows([(str(i), "row") for i in range(100)])
            table.focus()

    async with Bare().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        return await _press(pilot, keys)
