"""Helpers for the review UI tests: an app made deterministic, waiting, and reading the log.

Every test runs against a real workspace on disk and asserts on the store and
its event log. ``stable_options`` pins the three
run-dependent things the UI shows — the clock, candidate ids and timestamps —
so snapshots compare equal from run to run.
"""

from __future__ import annotations

import asyncio
import io
import os
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from memory_review.tui.app import ReviewApp, make_app
from memory_review.tui.format import parse_ts
from memory_review.workspace import DURABLE, Workspace

ROOT = Path(__file__).resolve().parents[2]
ACTOR = "tester"


def stable_options(ws: Workspace) -> dict[str, Any]:
    """``make_app`` options that make every screen the same on every run."""
    events = [e for scope in DURABLE for e in ws.log(scope=scope)]
    latest = max(parse_ts(e.ts) for e in events)
    names: dict[str, str] = {}
    for scope in DURABLE:  # log order is fixed by the demo script, so the numbering is too
        for event in ws.log(scope=scope, type="candidate.created"):
            names.setdefault(event.candidate, f"cand_{scope}_{len(names) + 1:02d}")
    return {
        "now": latest + timedelta(seconds=150),
        "id_display": lambda cid: names.get(cid, "cand_new"),
        "time_display": lambda ts: "2026-01-01 09:00:00",
    }


def app_for(ws: Workspace, **overrides: Any) -> ReviewApp:
    """The app on ``ws`` as the tests drive it: no polling unless asked, a fixed actor."""
    options: dict[str, Any] = {"actor": ACTOR, "poll_interval": None, **stable_options(ws)}
    options.update(overrides)
    return make_app(ws, **options)


async def wait_until(pilot, condition: Callable[[], bool], *, timeout: float = 10.0, what: str = "condition") -> None:
    """Let the app run (workers, messages) until ``condition()`` holds; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await pilot.pause(0.02)


async def settle(pilot) -> None:
    """Wait until no worker runs and the message queues are empty."""
    for _ in range(20):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not any(w.is_running for w in pilot.app.workers):
            await asyncio.sleep(0)
            return
    raise AssertionError("the app never settled")


def loaded(app: ReviewApp) -> bool:
    """Whether the review screen has read the whole queue."""
    screen = app.screen
    return bool(getattr(screen, "loaded", False))


def pending_ids(ws: Workspace) -> set[str]:
    """The ids of the pending candidates, read fresh from disk."""
    return {s.candidate.id for s in ws.list_candidates()}


def candidate_for(ws: Workspace, memory_id: str) -> str:
    """The id of the pending candidate that touches ``memory_id``."""
    found = [s.candidate.id for s in ws.list_candidates() if memory_id in s.candidate.memory_ids()]
    assert len(found) == 1, f"expected one pending candidate for {memory_id}, found {found}"
    return found[0]


def events_of(ws: Workspace, candidate_id: str) -> list[str]:
    """The types of every logged event of one candidate (both stores), in log order."""
    return [e.type for scope in DURABLE for e in ws.log(scope=scope, candidate=candidate_id)]


def notifications(app: ReviewApp) -> list[tuple[str, str, str]]:
    """(severity, title, message) of every notification the app raised."""
    return [(n.severity, n.title, n.message) for n in app._notifications]


def cli_env(ws: Workspace) -> dict[str, str]:
    """The environment for a ``memory-review`` child process on ``ws``."""
    env = dict(os.environ)
    env["MEMORY_REVIEW_HOME"] = str(ws.user.root)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


PYTHON = sys.executable


def detail_text(app: ReviewApp) -> str:
    """The plain text of the current screen's detail pane, as a person would read it."""
    from rich.console import Console

    console = Console(width=100, record=True, file=io.StringIO())
    console.print(app.screen.query_one("#detail .detail-body").content)
    return console.export_text()
