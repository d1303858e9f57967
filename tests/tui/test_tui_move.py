"""The edit form's store: a person moves a new memory to the other store, and undoes it, by key presses (ADR 0154)."""

from __future__ import annotations

import pytest
from test_tui_review import SIZE, key_bar_text, open_editor, open_review, press_until
from tui_helpers import ACTOR, app_for, candidate_for, events_of, settle, wait_until

from memory_review.tui.screens.edit import EditModal
from memory_review.workspace import Workspace

pytestmark = pytest.mark.asyncio


def pending_in(ws: Workspace, scope: str, memory_id: str) -> list[str]:
    return [s.candidate.id for s in ws.list_candidates(scope=scope) if memory_id in s.candidate.memory_ids()]


async def choose_store(pilot, store: str) -> None:
    """From the description (focused when the form opens): back to the store, open it, pick ``store``."""
    await pilot.press("shift+tab")
    assert pilot.app.focused.id == "edit-scope"
    await pilot.press("enter", "up" if store == "user" else "down", "enter")
    await settle(pilot)
    assert pilot.app.screen.query_one("#edit-scope").value == store


async def move_to_the_user_store(pilot, ws: Workspace, cid: str, typed: str = ""):
    """Open the form on ``cid``, type ``typed`` at the end of its description, choose the user store, save; the
    screen and the moved candidate's id, once the queue shows it."""
    screen = await open_review(pilot)
    await open_editor(pilot, screen, cid)
    if typed:
        await pilot.press("end", *typed)
    await choose_store(pilot, "user")
    await press_until(pilot, "ctrl+s", lambda: cid not in screen.entries, "the move")
    [moved] = pending_in(ws, "user", "forbidden-mock-database")
    await wait_until(pilot, lambda: moved in screen.entries, what="the moved candidate in the queue")
    return screen, moved


async def test_the_store_moves_a_new_memory_and_undo_moves_it_back(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "forbidden-mock-database")
    record = scenario.show(cid).candidate.changes[0].after
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen, moved = await move_to_the_user_store(pilot, scenario, cid)
        assert "undo move" in key_bar_text(app)
        await press_until(pilot, "u", lambda: moved not in screen.entries, "the undo")
        assert "redo move" in key_bar_text(app)
    assert events_of(scenario, cid) == ["candidate.created", "candidate.discarded"]
    assert events_of(scenario, moved) == ["candidate.created", "candidate.discarded"]
    [back] = pending_in(scenario, "project", "forbidden-mock-database")
    assert back not in (cid, moved)
    returned = scenario.show(back).candidate.changes[0].after
    assert (returned.type, returned.description, returned.body) == (record.type, record.description, record.body)
    [created] = scenario.log(scope="user", type="candidate.created", candidate=moved)
    assert (created.actor, created.reason) == (ACTOR, f"moved from candidate {cid} of the project store")


async def test_an_edit_and_a_move_in_one_save_and_its_undo(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "forbidden-mock-database")
    before = scenario.show(cid).candidate.changes[0].after
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen, moved = await move_to_the_user_store(pilot, scenario, cid, typed=" (Postgres 16)")
        assert scenario.show(moved).candidate.changes[0].after.description.endswith("(Postgres 16)")
        await press_until(pilot, "u", lambda: moved not in screen.entries, "the undo")
    assert events_of(scenario, cid) == ["candidate.created", "candidate.edited", "candidate.discarded"]
    [back] = pending_in(scenario, "project", "forbidden-mock-database")
    assert scenario.show(back).candidate.changes[0].after.description == before.description


async def test_the_store_of_a_change_to_a_held_memory_cannot_be_chosen(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "conv-package-manager")  # an update of an approved project memory
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await open_editor(pilot, screen, cid)
        assert isinstance(app.screen, EditModal)
        assert app.screen.query_one("#edit-scope").disabled
