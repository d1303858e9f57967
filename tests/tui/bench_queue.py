"""Benchmark (not a test): the review UI on 10,000 pending candidates and 2,000 memories.

    .venv/bin/python tests/tui/bench_queue.py [--dir DIR] [--candidates N] [--memories M]

Builds the stores once in DIR (default: a folder under the system temp dir, reused
on the next run), then drives the real app headless with Textual's pilot and
prints: time to the first rows, time to the whole queue with live flags, and
what a key costs (down, page down, space, one filter keystroke): the process CPU
time per press (the work the UI does for it) and the wall time per press as
the pilot sees it (which includes the pilot's own waits; compare the 10-row
baseline). The figures are in docs/adr/0006-review-ui.md.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from memory_review.proposal import parse_proposals
from memory_review.tui.app import make_app
from memory_review.tui.screens.review import ReviewScreen
from memory_review.workspace import Workspace

BATCH = 1000


def build(base: Path, candidates: int, memories: int) -> Workspace:
    """The stores, built once: ``memories`` approved, then ``candidates`` pending."""
    marker = base / f"built-{candidates}-{memories}"
    (base / "project").mkdir(parents=True, exist_ok=True)
    ws = Workspace((base / "project").resolve(), (base / "user").resolve())
    if marker.exists():
        return ws
    ws.init()
    for start in range(0, memories, BATCH):
        made = ws.propose(
            parse_proposals(orjson.dumps([_memory(i) for i in range(start, min(start + BATCH, memories))]))
        )
        ws.apply([s.candidate.id for s in made], actor="bench")
    for start in range(0, candidates, BATCH):
        ws.propose(parse_proposals(orjson.dumps([_candidate(i) for i in range(start, min(start + BATCH, candidates))])))
    marker.touch()
    return ws


def _memory(i: int) -> dict:
    return {
        "op": "create",
        "scope": "project" if i % 4 else "user",
        "memory": {
            "id": f"mem-{i:05d}",
            "type": ("fact", "convention", "preference", "forbidden")[i % 4],
            "description": f"approved memory number {i}",
            "body": "Some remembered detail. " * 4,
        },
        "rationale": "benchmark data",
    }


def _candidate(i: int) -> dict:
    return {
        "op": "create",
        "scope": "project" if i % 3 else "user",
        "memory": {
            "id": f"cand-{i:05d}",
            "type": "convention",
            "description": f"proposed convention number {i} about the build",
            "body": "Run the build with make; never commit generated files. " * 2,
        },
        "rationale": "the user said so",
        "priority": ("high", "medium", "low")[i % 3],
        "evidence": [{"quote": "always do it this way", "session_id": f"s{i % 50}", "turn_id": "t1"}],
    }


async def key_times(pilot, key: str, rounds: int) -> tuple[float, float]:
    """(CPU ms, wall ms) per press of ``key``, each press waited on until the app is idle again."""
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(rounds):
        await pilot.press(key)
        await pilot.pause()
    return 1000 * (time.process_time() - cpu) / rounds, 1000 * (time.perf_counter() - wall) / rounds


async def measure(ws: Workspace, label: str) -> dict[str, float]:
    app = make_app(ws, poll_interval=None, actor="bench")
    started = time.perf_counter()
    figures: dict[str, float] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        while not screen.entries:
            await pilot.pause(0.005)
        figures["first rows s"] = time.perf_counter() - started
        while not screen.loaded:
            await pilot.pause(0.01)
        figures["whole queue s"] = time.perf_counter() - started
        await pilot.pause(0.2)
        for key in ("down", "pagedown", "space"):
            figures[f"{key} cpu ms"], figures[f"{key} wall ms"] = await key_times(pilot, key, 20)
        await pilot.press("slash")
        figures["filter key cpu ms"], figures["filter key wall ms"] = await key_times(pilot, "7", 1)
    print(f"{label} ({len(screen.entries)} in the queue):")
    print("  " + ", ".join(f"{name} {value:.2f}" for name, value in figures.items()))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "memory-review-bench")
    parser.add_argument("--candidates", type=int, default=10_000)
    parser.add_argument("--memories", type=int, default=2_000)
    args = parser.parse_args()
    started = time.perf_counter()
    big = build(args.dir / "big", args.candidates, args.memories)
    small = build(args.dir / "small", 10, 20)
    print(f"stores ready in {time.perf_counter() - started:.1f}s ({args.dir})")
    asyncio.run(measure(small, "10 candidates (baseline)"))
    asyncio.run(measure(big, f"{args.candidates} candidates, {args.memories} memories"))


if __name__ == "__main__":
    main()
