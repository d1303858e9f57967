"""Live refresh: changes made by other processes reach the open UI within about a second."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import orjson
import pytest
from tui_helpers import PYTHON, ROOT, app_for, cli_env, detail_text, loaded, settle, wait_until

from memory_review.proposal import ProposedMemory
from memory_review.tui.data import PendingReader
from memory_review.tui.screens.review import ReviewScreen
from memory_review.workspace import Workspace

PROPOSAL = {
    "op": "create",
    "scope": "project",
    "memory": {
        "id": "conv-from-elsewhere",
        "type": "convention",
        "description": "Branch names start with the ticket number",
        "body": "Name branches like ABC-123-short-title.",
    },
    "rationale": "Said in another terminal while the review UI was open.",
    "evidence": [
        {
            "quote": "branches start with the ticket number",
            "session_id": "other-sess",
            "turn_id": "t1",
        }
    ],
}


def cli(ws: Workspace, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m memory_review.cli --project ROOT ...`` as a separate process."""
    return subprocess.run(
        [PYTHON, "-m", "memory_review.cli", "--project", str(ws.root), *args],
        input=stdin,
        capture_output=True,
        env=cli_env(ws),
        cwd=ROOT,
        timeout=60,
    )


@pytest.mark.asyncio
async def test_candidate_from_another_process_appears_and_leaves(scenario: Workspace) -> None:
    app = app_for(scenario, poll_interval=1.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: loaded(app), what="the queue")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        noticed = app.generation
        done = await asyncio.to_thread(cli, scenario, "propose", "--file", "-", "--json", stdin=orjson.dumps(PROPOSAL))
        assert done.returncode == 0, done.stderr.decode()
        new_id = orjson.loads(done.stdout)["id"]  # one proposal in, one {"id": ...} out
        # No timed assertion (it flips under load): the poller, not anything else, brought the row in.
        await wait_until(pilot, lambda: new_id in screen.entries, timeout=30, what="the new candidate")
        assert app.generation > noticed
        assert screen.entries[new_id].cells[4] == "conv-from-elsewhere"

        done = await asyncio.to_thread(cli, scenario, "apply", new_id)
        assert done.returncode == 0, done.stderr.decode()
        await wait_until(pilot, lambda: new_id not in screen.entries, timeout=5, what="it to leave")
        await settle(pilot)
    assert [e.type for e in scenario.log(candidate=new_id)] == [
        "candidate.created",
        "candidate.applied",
    ]


def test_pending_reader_matches_list_candidates(scenario: Workspace) -> None:
    """The UI's incremental reader gives what list_candidates gives, flags included."""
    reader = PendingReader(scenario)

    def read() -> list[tuple[str, tuple[str, ...], str]]:
        states = [s for chunk in reader.chunks(size=2) for s in chunk]
        return [(s.candidate.id, s.flags, s.candidate.rationale) for s in states]

    def library() -> list[tuple[str, tuple[str, ...], str]]:
        return [(s.candidate.id, s.flags, s.candidate.rationale) for s in scenario.list_candidates()]

    assert read() == library()
    # A competing change makes one candidate stale; an edit replaces a file; a discard removes one.
    other = Workspace(scenario.root, scenario.user.root)
    other.delete("conv-package-manager", actor="someone", scope="project")
    states = {s.candidate.memory_ids()[0]: s.candidate for s in scenario.list_candidates()}
    other.edit(
        states["pref-small-commits"].id,
        ProposedMemory(
            id="pref-small-commits",
            type="preference",
            description="Small commits",
            body="Keep them small.",
        ),
        actor="someone",
    )
    other.discard([states["fact-readme-note"].id], actor="someone")
    assert read() == library()
    assert any("stale-base" in flags for _, flags, _ in read())


def _session_file(path: Path, session: str, text: str) -> Path:
    """A one-turn Claude Code session file saying ``text``."""
    user = {"type": "user", "uuid": f"{session}-u1", "sessionId": session, "message": {"role": "user", "content": text}}
    path.write_text(json.dumps(user) + "\n", encoding="utf-8")
    return path


@pytest.mark.asyncio
async def test_a_candidate_raised_by_another_session_shows_high_with_both_quotes(
    scenario: Workspace, tmp_path: Path
) -> None:
    """ADR 0050: an `extract` in another process finds the rule again in another session; the open UI
    shows the same candidate at priority high with both sessions' quotes, from its record."""
    first = "From now on, always run `make lint` before you commit in this repo."
    again = "Remember: always run `make lint` before you commit in this repo."
    [cid] = scenario.extract(_session_file(tmp_path / "sess-a.jsonl", "sess-a", first)).proposed
    app = app_for(scenario, poll_interval=1.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: loaded(app), what="the queue")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        assert screen.entries[cid].cells[-1] == "med"
        order = screen.visible_ids()
        await pilot.press("home", *["down"] * order.index(cid))
        assert screen.current().id == cid
        assert first in detail_text(app) and again not in detail_text(app)

        later = _session_file(tmp_path / "sess-b.jsonl", "sess-b", again)
        done = await asyncio.to_thread(cli, scenario, "extract", str(later))
        assert done.returncode == 0, done.stderr.decode()
        await wait_until(pilot, lambda: screen.entries[cid].cells[-1] == "high", timeout=30, what="the raise")
        await wait_until(pilot, lambda: again in detail_text(app), timeout=30, what="the details to follow")
        shown = detail_text(app)
        assert first in shown and "priority high" in shown
        await settle(pilot)
    assert [e.type for e in scenario.log(candidate=cid)] == ["candidate.created", "candidate.edited"]
