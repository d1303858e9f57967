"""What a person sees: every screen at 120x35 and at 80x24, the sizes issue 18 names (pytest-textual-snapshot).

The app runs on the fixed scenario workspace (``scenario.py``) with the clock, candidate ids and
timestamps pinned (``stable_options``), so the SVGs are the same on every run.
Update with ``--snapshot-update`` only after looking at the new SVGs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from tui_helpers import app_for, loaded, settle, wait_until

from memory_review.workspace import Workspace

SIZES = {"120x35": (120, 35), "80x24": (80, 24)}
Steps = Callable[[object, Workspace], Awaitable[None]]


async def _review(pilot, ws: Workspace) -> None:
    await wait_until(pilot, lambda: loaded(pilot.app), what="the queue")
    await settle(pilot)


async def _flagged(pilot, ws: Workspace) -> None:
    await _review(pilot, ws)
    await pilot.press("end")  # the low-priority candidate that tries to steer the agent
    await settle(pilot)  # what the key started (a step's replay, a pane's read) is drawn


async def _flagged_question(pilot, ws: Workspace) -> None:
    await _flagged(pilot, ws)
    await pilot.press("a")
    await settle(pilot)


async def _bulk_question(pilot, ws: Workspace) -> None:
    await _review(pilot, ws)
    await pilot.press("space", "space", "space", "space", "space", "a")
    await settle(pilot)


async def _discard_reason(pilot, ws: Workspace) -> None:
    await _review(pilot, ws)
    await pilot.press("down", "d", *"not a lasting preference")
    await settle(pilot)


async def _editor(pilot, ws: Workspace) -> None:
    await _review(pilot, ws)
    await pilot.press("e")
    await settle(pilot)


async def _redo_offered(pilot, ws: Workspace) -> None:
    """After an apply and its undo: the key bar offers the redo (named at 120 columns, short at 80)."""
    await _review(pilot, ws)
    await pilot.press("a")  # the first row, unflagged
    await wait_until(pilot, lambda: len(pilot.app.screen.entries) == 5, what="the apply")
    await settle(pilot)
    await pilot.press("u")
    await wait_until(pilot, lambda: len(pilot.app.screen.entries) == 6, what="the undo")
    await settle(pilot)
    pilot.app.clear_notifications()  # toasts time out: the picture must not depend on the machine's speed


async def _memories(pilot, ws: Workspace) -> None:
    await _review(pilot, ws)
    await pilot.press("2")
    await settle(pilot)


async def _history(pilot, ws: Workspace) -> None:
    await _review(pilot, ws)
    await pilot.press("3")
    await settle(pilot)
    await pilot.press("end", "up", "up", "up")  # the user store's apply, with its before -> after
    await settle(pilot)  # what the key started (a step's replay, a pane's read) is drawn


async def _sessions(pilot, ws: Workspace) -> None:
    await _review(pilot, ws)
    await pilot.press("4")
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("n")
    await settle(pilot)  # what the key started (a step's replay, a pane's read) is drawn


async def _help(pilot, ws: Workspace) -> None:
    await _review(pilot, ws)
    await pilot.press("question_mark")
    await settle(pilot)


def _project_overrides_user(ws: Workspace) -> None:
    """A project memory with the same id as a user one: the project tier wins for this project.

    It is a ``forbidden`` memory, so it ranks first whatever the clock says (recency only orders
    memories of one kind, and timestamps have one-second resolution).
    """
    from memory_review.proposal import parse_proposals

    proposal = b"""{"op": "create", "scope": "project", "memory": {"id": "pref-indent-4-spaces",
        "type": "forbidden", "description": "Never indent with tabs in this repo",
        "body": "The formatter rejects tabs here."}, "rationale": "Repo style."}"""
    [state] = ws.propose(parse_proposals(proposal))
    ws.apply([state.candidate.id], actor="alice")


PREPARE = {"memories-override": _project_overrides_user}

SCENES: dict[str, Steps] = {
    "review": _review,
    "review-flagged": _flagged,
    "apply-flagged-question": _flagged_question,
    "bulk-apply-question": _bulk_question,
    "discard-reason": _discard_reason,
    "edit": _editor,
    "redo-offered": _redo_offered,
    "memories": _memories,
    "memories-override": _memories,
    "history": _history,
    "sessions-step": _sessions,
    "help": _help,
}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("scene", list(SCENES))
def test_screen(scene: str, size: str, scenario: Workspace, snap_compare) -> None:
    if scene in PREPARE:
        PREPARE[scene](scenario)
    app = app_for(scenario)

    async def run_before(pilot) -> None:
        await SCENES[scene](pilot, scenario)
        await settle(pilot)
        for widget in pilot.app.screen.query("Input, TextArea"):
            widget.cursor_blink = False  # a blinking cursor would make the picture depend on timing
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
