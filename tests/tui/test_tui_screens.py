"""Memories, history, sessions and help, driven by real keys; checks read the store and the log."""

from __future__ import annotations

import pytest
from tui_helpers import ACTOR, app_for, candidate_for, detail_text, loaded, settle, wait_until

from memory_review.tui.screens.confirm import ChoiceModal
from memory_review.tui.screens.help import KEYMAP, HelpScreen
from memory_review.tui.screens.history import HistoryScreen
from memory_review.tui.screens.memories import MemoriesScreen
from memory_review.tui.screens.review import ReviewScreen
from memory_review.tui.screens.sessions import SessionsScreen
from memory_review.workspace import Workspace

pytestmark = pytest.mark.asyncio
SIZE = (100, 30)


async def switch(pilot, key: str, kind: type):
    await settle(pilot)
    await pilot.press(key)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, kind), what=f"the {kind.__name__}")
    await settle(pilot)
    return pilot.app.screen


async def select_row(pilot, table_id: str, key: str) -> None:
    table = pilot.app.screen.query_one(table_id)
    keys = [row.key for row in table.rows]
    await pilot.press("home", *["down"] * keys.index(key))
    assert table.highlighted_key == key


async def test_number_keys_reach_every_screen(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        for key, kind in (
            ("2", MemoriesScreen),
            ("3", HistoryScreen),
            ("4", SessionsScreen),
            ("1", ReviewScreen),
        ):
            await switch(pilot, key, kind)


async def test_delete_from_memories_is_confirmed_recorded_and_undoable(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await switch(pilot, "2", MemoriesScreen)
        await select_row(pilot, "#memories", "project:fact-staging-url")
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceModal), what="the confirmation")
        await pilot.press("escape")  # first: cancelled, nothing happens
        await settle(pilot)
        assert not scenario.log(type="memory.deleted")
        await pilot.press("d", "enter")
        await wait_until(pilot, lambda: "project:fact-staging-url" not in screen.entries, what="the deletion")
        [deleted] = scenario.log(type="memory.deleted")
        assert deleted.actor == ACTOR and deleted.changes[0].memory == "fact-staging-url"
        assert "fact-staging-url" not in {m.id for m in scenario.memories()}
        await pilot.press("u")
        await wait_until(pilot, lambda: "project:fact-staging-url" in screen.entries, what="the undo")
    [reverted] = scenario.log(type="memory.reverted")
    assert reverted.reverts == deleted.seq
    assert "fact-staging-url" in {m.id for m in scenario.memories()}


async def test_revert_last_change_from_memories(scenario: Workspace) -> None:
    before = {m.id: m for m in scenario.memories()}
    scenario.apply([candidate_for(scenario, "conv-package-manager")], actor="someone")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        await switch(pilot, "2", MemoriesScreen)
        await select_row(pilot, "#memories", "project:conv-package-manager")
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceModal), what="the confirmation")
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(scenario.log(type="memory.reverted")), what="the revert")
        await settle(pilot)
    assert {m.id: m for m in scenario.memories()}["conv-package-manager"] == before["conv-package-manager"]


async def test_revert_from_history(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await switch(pilot, "3", HistoryScreen)
        [applied] = [e for e in scenario.log(type="candidate.applied") if e.changes[0].memory == "fact-staging-url"]
        await select_row(pilot, "#events", f"project:{applied.seq}")
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceModal), what="the confirmation")
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(scenario.log(type="memory.reverted")), what="the revert")
        await wait_until(pilot, lambda: len(screen.order) == 13, what="the timeline to show the revert")
        assert screen.query_one("#events").rows[0].cells[3] == "memory.reverted"
    [reverted] = scenario.log(type="memory.reverted")
    assert reverted.reverts == applied.seq and reverted.actor == ACTOR
    assert "fact-staging-url" not in {m.id for m in scenario.memories()}


async def test_revert_from_history_offers_force_on_conflict(scenario: Workspace) -> None:
    [created] = [e for e in scenario.log(type="candidate.applied") if e.changes[0].memory == "conv-package-manager"]
    scenario.apply([candidate_for(scenario, "conv-package-manager")], actor="someone")  # a newer change
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        await switch(pilot, "3", HistoryScreen)
        await select_row(pilot, "#events", f"project:{created.seq}")
        await pilot.press("r", "enter")
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, ChoiceModal) and "force" in app.screen.title_text,
            what="the offer to force",
        )
        assert not scenario.log(type="memory.reverted")
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(scenario.log(type="memory.reverted")), what="the forced revert")
        await settle(pilot)
    [reverted] = scenario.log(type="memory.reverted")
    assert reverted.reverts == created.seq and reverted.forced is True
    assert "conv-package-manager" not in {m.id for m in scenario.memories()}


async def test_revert_an_edit_from_history(scenario: Workspace) -> None:
    from memory_review.proposal import ProposedMemory

    cid = candidate_for(scenario, "pref-small-commits")
    original = scenario.show(cid).candidate.changes[0].after
    scenario.edit(
        cid,
        ProposedMemory(id="pref-small-commits", type="preference", description="Tiny commits", body="Smaller."),
        actor="someone",
    )
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        await switch(pilot, "3", HistoryScreen)
        [edited] = scenario.log(scope="user", type="candidate.edited")
        await select_row(pilot, "#events", f"user:{edited.seq}")
        await pilot.press("r", "enter")
        await wait_until(
            pilot,
            lambda: len(scenario.log(scope="user", type="candidate.edited")) == 2,
            what="the restoring edit",
        )
        await settle(pilot)
    restored = scenario.show(cid).candidate.changes[0].after
    assert (restored.description, restored.body) == (original.description, original.body)


async def test_history_filter_by_type_and_memory(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await switch(pilot, "3", HistoryScreen)
        await pilot.press("slash", *"type:applied memory:conv", "enter")
        await settle(pilot)
        rows = screen.query_one("#events").rows
        assert [(r.cells[3], r.cells[5]) for r in rows] == [("candidate.applied", "conv-package-manager")]


async def test_session_step_through(scenario: Workspace) -> None:
    session = "sess-2026-11-30-a1b2"
    scenario.apply([candidate_for(scenario, "forbidden-mock-database")], actor="someone")
    expected = sorted(
        (e.ts, scope, e.seq) for scope in ("project", "user") for e in scenario.log(scope=scope, session=session)
    )
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await switch(pilot, "4", SessionsScreen)
        assert list(screen.sessions) == [session]
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.story is not None, what="the session's steps")
        seen = []
        for _ in range(len(expected)):
            step = screen.current_step
            seen.append((step.event.ts, step.scope, step.event.seq))
            await pilot.press("n")
        assert seen == expected
        assert screen.current_step.event.type == "candidate.applied"  # n stops at the last step
        await pilot.press("p")
        assert screen.step_index == len(expected) - 2
        start = {m.id for m in screen.story.start}
    # The memory set when the session started: the scenario's three approved memories.
    assert start == {"pref-indent-4-spaces", "conv-package-manager", "fact-staging-url"}
    assert [e.type for e in scenario.log(session=session)][-1] == "candidate.applied"


async def test_help_lists_every_contract_key(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: loaded(app), what="the queue")
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), what="the help screen")
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
    keys = {key for _, rows in KEYMAP for key, _ in rows}
    for key in ("a", "d", "e", "space", "u", "/", "?", "q", "1 2 3 4"):
        assert key in keys


async def test_key_bar_shows_the_contract_keys(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: loaded(app), what="the queue")
        from memory_review.tui.widgets.key_bar import KeyBar

        local, everywhere = app.screen.query_one(KeyBar).lines()
    shown = {key for key, _ in local + everywhere}
    assert {"a", "d", "e", "space", "/", "1", "2", "3", "4", "u", "?", "q"} <= shown


async def test_q_quits(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: loaded(app), what="the queue")
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_the_real_demo_opens_on_every_screen(tmp_path) -> None:
    """The real demo workspace (whatever the extractor proposes today) loads on every screen."""
    from tui_helpers import notifications

    from memory_review.demo import build_demo

    ws = build_demo(tmp_path)
    app = app_for(ws)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: loaded(app), what="the queue")
        assert len(app.screen.entries) == len(ws.list_candidates()) > 0
        for key, kind in (("2", MemoriesScreen), ("3", HistoryScreen), ("4", SessionsScreen)):
            await switch(pilot, key, kind)
        await pilot.press("enter", "n")
        await settle(pilot)
    assert not [n for n in notifications(app) if n[0] == "error"]


async def test_session_step_shows_the_exact_context_it_was_given(scenario: Workspace) -> None:
    session = "sess-2026-11-30-a1b2"
    given = scenario.context(session=session)  # recorded as context.built
    assert given.text
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await switch(pilot, "4", SessionsScreen)
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.story is not None, what="the session's steps")
        await pilot.press("end")
        step = screen.current_step
        assert step.event.type == "context.built"
        rebuilt = screen.story.contexts[step.event.seq]
        shown = detail_text(app)
    assert rebuilt.text == given.text and rebuilt.matches
    assert "sha256 matches the record" in shown
    assert all(line.strip() in shown for line in given.text.splitlines() if line.strip())
