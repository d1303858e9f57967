"""The review UI shows the bytes the agent gets: the preview is the note ``context`` injects.

The queue's "Would remember" and the memories screen's "Injected as" come from the
one renderer; these tests read them off the real app and compare them with the
block ``Workspace.context`` builds after the apply, and with the golden file the
``show`` / ``context`` command-line test pins (``tests/memory_review/injection``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Group
from rich.text import Text
from tui_helpers import ROOT, app_for, candidate_for, loaded, settle, wait_until

from memory_review.proposal import parse_proposals
from memory_review.tui.screens.memories import MemoriesScreen
from memory_review.workspace import Workspace

pytestmark = pytest.mark.asyncio
SIZE = (100, 30)
GOLDEN = ROOT / "tests" / "memory_review" / "injection" / "golden" / "readme_example_frame.txt"
README_PROPOSAL = {
    "op": "create",
    "scope": "project",
    "memory": {
        "id": "forbidden-mock-database",
        "type": "forbidden",
        "description": "Never mock the database in tests",
        "body": "Integration tests run against the Postgres test container.",
    },
    "rationale": "The user corrected this twice.",
}


def _texts(renderable: object) -> list[str]:
    """The plain text of every ``Text`` in a detail pane's renderable, in order."""
    if isinstance(renderable, Text):
        return [renderable.plain]
    if isinstance(renderable, Group):
        return [t for part in renderable.renderables for t in _texts(part)]
    return []


def _after_heading(app, title: str) -> str:
    """The text right after the ``title`` heading in the current detail pane."""
    texts = _texts(app.screen.query_one("#detail .detail-body").content)
    return texts[texts.index(f"\n{title}") + 1]


def _fresh(tmp_path: Path) -> Workspace:
    ws = Workspace(tmp_path / "project", tmp_path / "home")
    (tmp_path / "project").mkdir()
    ws.init()
    return ws


async def test_would_remember_is_the_frame_context_injects(tmp_path: Path) -> None:
    ws = _fresh(tmp_path)
    ws.propose(parse_proposals(json.dumps(README_PROPOSAL).encode()))
    # Another memory is in the block already: the preview must match its note, not the whole block.
    other = {
        **README_PROPOSAL,
        "memory": {**README_PROPOSAL["memory"], "id": "uv-only", "type": "convention", "description": "Use uv"},
    }
    [state] = ws.propose(parse_proposals(json.dumps(other).encode()))
    ws.apply([state.candidate.id], actor="alice")
    cid = candidate_for(ws, "forbidden-mock-database")
    app = app_for(ws)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: loaded(app), what="the queue")
        await settle(pilot)
        previewed = _after_heading(app, "Would remember") + "\n"  # the pane drops the last break
        await pilot.press("a")
        await wait_until(pilot, lambda: not app.screen.entries, what="the apply")
    assert previewed == GOLDEN.read_text(encoding="utf-8")
    block = ws.context().text
    assert "\n" + previewed in block and block.count("[memory:") == 2
    assert [e.type for e in ws.log(candidate=cid)] == ["candidate.created", "candidate.applied"]


async def test_memories_screen_counts_what_context_includes_and_drops(tmp_path: Path) -> None:
    ws = _fresh(tmp_path)
    body = "Detail that takes room in the block. " * 90  # ~3.3 KB: seven fill the 25,000 bytes
    proposals = [
        {
            "op": "create",
            "scope": "project",
            "rationale": "r",
            "memory": {"id": f"fact-{i:02d}", "type": "fact", "description": f"Fact {i}", "body": body},
        }
        for i in range(12)
    ]
    ids = [s.candidate.id for s in ws.propose(parse_proposals(json.dumps(proposals).encode()))]
    ws.apply(ids, actor="alice")
    context = ws.context()
    assert context.included and context.dropped  # the budget drops some: the point of the test
    app = app_for(ws)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await wait_until(pilot, lambda: isinstance(app.screen, MemoriesScreen), what="memories")
        await wait_until(pilot, lambda: bool(app.screen.entries), what="the memories to load")
        screen = app.screen
        title = str(screen.query_one("#memories").border_title)
        in_block = [e.memory.id for e in screen.entries.values() if e.rank is not None]
        dropped = {e.memory.id: e.left_out for e in screen.entries.values() if e.left_out}
        await pilot.press("end")
        await settle(pilot)
        last_detail = " ".join(_texts(screen.query_one("#detail .detail-body").content))
    n_in, n_out = len(context.included), len(context.dropped)
    assert title == f"Memories · {n_in} of 12 injected by `context` · {n_out} dropped ({n_out} budget)"
    assert in_block == [m.id for m in context.included]
    assert dropped == {m.id: "budget" for m in context.dropped}
    assert "not in the block `memory-review context` gives now: over the budget" in last_detail
