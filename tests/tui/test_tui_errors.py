"""Trouble reaches the person as a message saying what to do; the UI runs on, losing nothing."""

from __future__ import annotations

import subprocess

import pytest
from tui_helpers import (
    PYTHON,
    ROOT,
    app_for,
    candidate_for,
    events_of,
    loaded,
    notifications,
    settle,
    wait_until,
)

from memory_review.tui.app import make_app
from memory_review.tui.screens.review import ReviewScreen
from memory_review.workspace import Workspace

pytestmark = pytest.mark.asyncio
SIZE = (100, 30)
HOLD_LOCK = """
import sys, time
from pathlib import Path
from memory_review.workspace import Workspace
from memory_review.tui.app import make_app
ws = Workspace(Path(sys.argv[1]), Path(sys.argv[2]))
with ws.project.locked():
    print("locked", flush=True)
    time.sleep(30)
"""


def errors(app) -> list[tuple[str, str, str]]:
    return [n for n in notifications(app) if n[0] == "error"]


async def test_lock_held_by_another_process_is_reported_and_nothing_lost(
    scenario: Workspace,
) -> None:
    cid = candidate_for(scenario, "forbidden-mock-database")
    ws = Workspace(scenario.root, scenario.user.root, lock_timeout=0.3)
    holder = subprocess.Popen(
        [PYTHON, "-c", HOLD_LOCK, str(scenario.root), str(scenario.user.root)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        app = app_for(ws)
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: loaded(app), what="the queue")  # reading needs no lock
            screen = app.screen
            await pilot.press("home", "a")
            await wait_until(pilot, lambda: bool(errors(app)), what="the lock message")
            await settle(pilot)
            assert isinstance(app.screen, ReviewScreen) and cid in screen.entries
            [(_, title, message)] = errors(app)
            assert "locked" in title.lower() and "wait for the other" in message
    finally:
        holder.kill()
        holder.wait()
    assert events_of(scenario, cid) == ["candidate.created"]
    scenario.apply([cid], actor="tester")  # once the other process is gone, the decision can be made


async def test_damaged_candidate_file_is_named_and_the_rest_still_shown(
    scenario: Workspace,
) -> None:
    broken = scenario.project.candidate_dir / f"{candidate_for(scenario, 'fact-ci-token')}.json"
    broken.write_bytes(b'{"id": "half a file')
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: loaded(app), what="the queue")
        await settle(pilot)
        assert len(app.screen.entries) == 5
        [(_, title, message)] = errors(app)
    assert "Not valid" in title and broken.name in message


async def test_damaged_log_is_reported_not_a_crash(scenario: Workspace) -> None:
    scenario.store("project").compact()  # the damage lies before the checkpoint: the queue never reads it
    log = scenario.project.log_path
    lines = log.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b'"candidate.', b'"candidatX.', 1)  # a bad line in the middle
    log.write_bytes(b"".join(lines))
    app = make_app(scenario, actor="tester", poll_interval=None)  # (stable_options would read the log)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: loaded(app), what="the queue")  # the queue needs only the log's head
        assert len(app.screen.entries) == 6 and not errors(app)
        await pilot.press("3")  # the history reads every line
        await wait_until(pilot, lambda: bool(errors(app)), what="the damage report")
        await pilot.press("1")
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, ReviewScreen)
    [(_, title, message)] = errors(app)
    assert "damaged" in title and "events.jsonl:3" in message and "memory-review verify" in message


async def test_damage_in_the_logs_tail_is_reported_by_the_queue_not_a_crash(scenario: Workspace) -> None:
    """Past the checkpoint the queue folds the log's tail (store format 2), so it meets the damage itself.

    The UI opens its own Workspace, as `memory-review` does in its own process: the scenario's Store
    committed the tail itself and keeps it (docs/adr/0048), so it would not read the edited line again
    until the head moves."""
    log = scenario.project.log_path
    lines = log.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b'"candidate.', b'"candidatX.', 1)
    log.write_bytes(b"".join(lines))
    app = make_app(Workspace(scenario.root, scenario.user.root), actor="tester", poll_interval=None)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: bool(errors(app)), what="the damage report")
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, ReviewScreen)
    titles_and_messages = [(title, message) for _, title, message in errors(app)]
    assert any("damaged" in title and "events.jsonl:3" in message for title, message in titles_and_messages)
