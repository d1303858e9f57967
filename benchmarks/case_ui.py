"""The review UI on 10,000 pending candidates: time until usable and per key press (Textual Pilot, headless).

The UI runs in a child process (``benchmarks.child ui``) so Textual never loads in
the runner and the peak RSS reported is the UI's own.
"""

from __future__ import annotations

import importlib.util
import statistics
import time
from pathlib import Path
from typing import Any

from benchmarks.build import fill_store, proposal, workspace
from benchmarks.measure import Row, run_child
from benchmarks.scale import Scale
from memory_review.workspace import Workspace

OPEN_GOAL, KEY_GOAL = 1.0, 0.050
BATCH = 2_000  # proposals per propose call while building the queue


def ui_available() -> bool:
    """Whether the review UI exists yet (``tui.app.make_app``)."""
    return importlib.util.find_spec("tui.app") is not None


def ui_rows(work: Path, scale: Scale, env: dict[str, str]) -> list[Row]:
    """Build the queue, then time the UI in a child; absolute goals (no baseline process)."""
    name = f"open the review UI ({scale.ui_candidates:,} candidates, {scale.ui_memories:,} memories)"
    key = "one key press in the queue (down)"
    if not ui_available():
        note = "not run: tui.app.make_app is not there yet"
        return [Row(name, None, "absolute goal", OPEN_GOAL, "≤ ~1 s", 1.0, note=note),
                Row(key, None, "absolute goal", KEY_GOAL, "≤ ~50 ms", 1.0, note=note)]
    root = work / "ui"
    ws = workspace(root)
    fill_store(ws.project, scale.ui_memories)
    for start in range(0, scale.ui_candidates, BATCH):
        count = min(BATCH, scale.ui_candidates - start)
        ws.propose([proposal(start + i, "project", prefix="queue") for i in range(count)])
    report = run_child("ui", [str(root), str(scale.ui_keys)], env)
    rss = f"peak RSS {report['rss_kb'] / 1024:.0f} MB"
    own = max(report["key_seconds"] - report["floor_seconds"], 0.0)
    return [Row(name, report["seconds"], "absolute goal", OPEN_GOAL, "≤ ~1 s", 1.0,
                note=f"until the queue shows its first rows (it keeps loading in a worker); {rss}"),
            Row(f"... until all {scale.ui_candidates:,} candidates are in the queue", report["loaded_seconds"],
                "absolute goal", OPEN_GOAL, "report", None),
            Row(key, own, "absolute goal", KEY_GOAL, "≤ ~50 ms", 1.0,
                note=f"the UI's own share: Pilot press+pause took {report['key_seconds'] * 1000:.0f} ms (median "
                     f"of {scale.ui_keys}, slowest {report['key_max'] * 1000:.0f} ms) against "
                     f"{report['floor_seconds'] * 1000:.0f} ms on a bare Textual table app in the same process")]


async def drive(root: Path, keys: int) -> dict[str, Any]:
    """Open the app headless, wait until it has loaded, then press ``down`` ``keys`` times."""
    from tui.app import make_app

    ws = Workspace(root / "project", root / "user", lock_timeout=60)
    start = time.perf_counter()
    app = make_app(ws)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        while not getattr(app.screen, "entries", True):  # the review screen's rows, once it has any
            await pilot.pause(0.005)
        usable = time.perf_counter() - start
        await app.workers.wait_for_complete()
        await pilot.pause()
        loaded = time.perf_counter() - start
        presses = await _press(pilot, keys)
    floor = await _floor(keys)
    return {"seconds": usable, "loaded_seconds": loaded, "key_seconds": statistics.median(presses),
            "key_max": max(presses), "floor_seconds": statistics.median(floor)}


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
