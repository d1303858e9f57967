"""The queue says when a candidate would hide an approved memory of the other store, or be hidden by one.

The scenario's approved user preference ``pref-indent-4-spaces`` is in every block. A project note proposed under
its id would replace it there (the merge by id, docs/design.md §6): the row is flagged, the detail shows the user
memory beside the proposal, and ``a`` asks first; the reflex answer keeps it pending.
"""

from __future__ import annotations

import json

import pytest
from tui_helpers import app_for, detail_text, events_of, loaded, settle, wait_until

from memory_review.proposal import parse_proposals
from memory_review.tui.screens.confirm import ChoiceModal
from memory_review.tui.screens.review import ReviewScreen
from memory_review.workspace import Workspace

pytestmark = pytest.mark.asyncio
HIDDEN = "No longer injected once applied: the user memory it overrides (same id)"


async def test_a_note_that_would_hide_a_user_memory_is_shown_beside_it_and_asked_about(scenario: Workspace) -> None:
    memory = {"id": "pref-indent-4-spaces", "type": "fact", "description": "CI lints on every push", "body": ""}
    doc = {"op": "create", "scope": "project", "rationale": "seen in the repo", "memory": memory}
    [state] = scenario.propose(parse_proposals(json.dumps(doc).encode()))
    cid = state.candidate.id
    app = app_for(scenario)
    async with app.run_test(size=(120, 35)) as pilot:
        await wait_until(pilot, lambda: loaded(app), what="the queue to load")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await pilot.press("home", *["down"] * screen.visible_ids().index(cid))
        await wait_until(pilot, lambda: HIDDEN in detail_text(app), what="the user memory beside it")
        text = detail_text(app)
        assert "⚠ overrides:pref-indent-4-spaces" in text
        assert "pref-indent-4-spaces (user preference)" in text and "Indent with 4 spaces, never tabs" in text
        assert "O" in screen.entries[cid].row.cells[1]  # the queue's mark for it
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceModal), what="the question")
        await pilot.press("enter")  # the reflex answer: keep it pending
        await settle(pilot)
    assert events_of(scenario, cid) == ["candidate.created"]
