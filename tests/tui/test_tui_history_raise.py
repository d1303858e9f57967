"""The history screen calls a raise a raise (ADR 0050): the real app under Pilot, real session files.

A rule said again in another session raises its pending candidate, recorded as ``candidate.edited`` by
the proposer. The timeline row, its details and ``r`` say "raised to high by <proposer> (found again in
session …)"; a person's edit of the same candidate still reads as ``candidate.edited`` and can be reverted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tui_helpers import app_for, detail_text, settle, wait_until

from memory_review.proposal import ProposedMemory
from memory_review.tui.format import RAISED
from memory_review.tui.screens.history import HistoryScreen
from memory_review.workspace import Workspace

pytestmark = pytest.mark.asyncio
PROPOSER = "heuristic:memory-review-heuristic"
SAID = "From now on, always run `make lint` before you commit in this repo."
SAID_AGAIN = "Remember: always run `make lint` before you commit in this repo."


def session(folder: Path, session_id: str, text: str) -> Path:
    """A Claude Code session file with one user line."""
    record = {"type": "user", "uuid": f"{session_id}-u1", "sessionId": session_id}
    record["message"] = {"role": "user", "content": text}
    path = folder / f"{session_id}.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def raised(tmp_path: Path) -> tuple[Workspace, str]:
    (tmp_path / "p").mkdir()
    ws = Workspace(tmp_path / "p", tmp_path / "home")
    ws.init()
    [cid] = ws.extract(session(tmp_path, "sess-a", SAID)).proposed
    assert ws.extract(session(tmp_path, "sess-b", SAID_AGAIN)).raised == [cid]
    return ws, cid


async def open_history(pilot) -> HistoryScreen:
    await settle(pilot)
    await pilot.press("3")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen), what="the history screen")
    await wait_until(pilot, lambda: pilot.app.screen.loaded, what="the timeline")
    await settle(pilot)
    return pilot.app.screen


async def test_a_raise_reads_as_a_raise_and_a_persons_edit_as_an_edit(raised) -> None:
    ws, cid = raised
    after = ws.show(cid).candidate.changes[0].after
    assert after is not None
    text = ProposedMemory(id=after.id, type=after.type, description=after.description, body=after.body + " Now.")
    ws.edit(cid, text, actor="someone")
    [raise_event, edit_event] = ws.log(type="candidate.edited")
    app = app_for(ws)
    async with app.run_test(size=(140, 30)) as pilot:
        screen = await open_history(pilot)
        rows = {row.key: row.cells for row in screen.query_one("#events").rows}
        raise_row, edit_row = rows[f"project:{raise_event.seq}"], rows[f"project:{edit_event.seq}"]
        assert raise_row[3] == RAISED and raise_row[4] == PROPOSER
        assert raise_row[5].endswith(f"raised to high by {PROPOSER} (found again in session sess-b)")
        assert edit_row[3] == "candidate.edited" and edit_row[4] == "someone" and "raised" not in edit_row[5]

        table = screen.query_one("#events")
        keys = [row.key for row in table.rows]
        await pilot.press("home", *["down"] * keys.index(f"project:{raise_event.seq}"))
        await settle(pilot)
        shown = " ".join(detail_text(app).split())  # the pane wraps long lines
        assert f"raised to high by {PROPOSER} (found again in session sess-b): no person changed its text" in shown

        await pilot.press("r")  # no edit to revert: said, and nothing recorded
        await settle(pilot)
        assert len(ws.log(type="candidate.edited")) == 2

        await pilot.press("home", *["down"] * keys.index(f"project:{edit_event.seq}"))
        await settle(pilot)
        assert "no person changed" not in detail_text(app)
        await pilot.press("r", "enter")  # a person's edit is still an edit, and reverts
        await wait_until(pilot, lambda: len(ws.log(type="candidate.edited")) == 3, what="the restoring edit")
        await settle(pilot)
    assert ws.show(cid).candidate.changes[0].after.body == after.body


async def test_the_sessions_screen_calls_the_raise_a_raise_too(raised) -> None:
    """The raise is in the log under the candidate's session (sess-a): its steps show it as a raise."""
    from memory_review.tui.screens.sessions import SessionsScreen

    ws, _cid = raised
    [raise_event] = ws.log(type="candidate.edited")
    app = app_for(ws)
    async with app.run_test(size=(140, 30)) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await wait_until(pilot, lambda: isinstance(app.screen, SessionsScreen), what="the sessions screen")
        screen = app.screen
        await wait_until(pilot, lambda: "sess-a" in screen.sessions, what="the sessions")
        table = screen.query_one("#sessions")
        await pilot.press("home", *["down"] * [row.key for row in table.rows].index("sess-a"), "enter")
        await wait_until(pilot, lambda: screen.story is not None, what="the session's steps")
        await settle(pilot)
        steps = {row.key: row.cells for row in screen.query_one("#steps").rows}
        assert steps[f"project:{raise_event.seq}"][2] == RAISED
        while screen.current_step.event.seq != raise_event.seq:
            await pilot.press("n")
        await settle(pilot)
        assert "raised to high by" in " ".join(detail_text(app).split())
