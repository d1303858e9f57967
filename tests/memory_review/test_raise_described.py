"""A raise reads as a raise, not an edit (ADR 0050): ``log``, ``log --git`` (text and ``--json``) as processes.

A repeated rule raising a pending candidate is a ``candidate.edited`` by the proposer. Every reader that
describes events says "raised to high by <proposer> (found again in session …)"; a person's real edit of
the same candidate still reads as an edit by that person. Real session files, a real git repository.
"""

from __future__ import annotations

import json
from pathlib import Path

from cli_kit import cli_env, git_repo, run
from test_extraction_raise import ACTOR, RULE_A, RULE_B, session

from memory_review.history import raise_of, records_before
from memory_review.proposal import ProposedMemory
from memory_review.workspace import Workspace

RAISED = f"raised to high by {ACTOR} (found again in session sess-b)"


def raised_then_edited(tmp_path: Path) -> tuple[Path, dict, str]:
    """A project (a git repository) whose candidate was proposed, raised from sess-b, then edited by alice."""
    env = cli_env(tmp_path)
    root = git_repo(tmp_path / "p", env)
    folder = tmp_path / "sessions"
    folder.mkdir()
    ws = Workspace(root, tmp_path / "home")
    [cid] = ws.extract(session(folder, "sess-a", RULE_A)).proposed
    assert ws.extract(session(folder, "sess-b", "Thanks.", RULE_B)).raised == [cid]
    [state] = ws.list_candidates()
    after = state.candidate.changes[0].after
    assert after is not None
    edited = ProposedMemory(id=after.id, type=after.type, description=after.description, body=after.body + " Now.")
    ws.edit(cid, edited, actor="alice")
    return root, env, cid


def test_log_says_raised_by_the_proposer_and_edited_by_the_person(tmp_path: Path) -> None:
    root, env, cid = raised_then_edited(tmp_path)
    done = run(["log"], env, root)
    assert done.returncode == 0, done.stderr
    [raise_line, edit_line] = [line for line in done.stdout.splitlines() if cid in line and "created" not in line]
    assert raise_line.endswith(f"{cid} {RAISED}") and "edited" not in raise_line
    assert "alice" in edit_line and "candidate.edited" in edit_line and "raised" not in edit_line


def test_git_history_text_and_json_say_raised(tmp_path: Path) -> None:
    root, env, cid = raised_then_edited(tmp_path)
    done = run(["log", "--git"], env, root)
    assert done.returncode == 0, done.stderr
    assert f"{cid} {RAISED}" in done.stdout
    assert f"edit {cid}" in done.stdout and "by alice" in done.stdout
    listed = run(["log", "--git", "--json"], env, root)
    assert listed.returncode == 0, listed.stderr
    messages = [entry["message"] for entry in json.loads(listed.stdout)]
    subjects = [message.splitlines()[0] for message in messages]
    assert any(subject.endswith(f"{cid} {RAISED}") for subject in subjects), subjects
    assert any(f"edit {cid}" in subject and "by alice" in subject for subject in subjects), subjects
    assert not any(f"edit {cid}" in subject and ACTOR in subject for subject in subjects), subjects


def test_a_proposer_actor_that_changed_the_text_is_not_called_a_raise(tmp_path: Path) -> None:
    """Derived from what changed: the proposer's name on a record whose text differs is an edit, not a raise."""
    root, _env, cid = raised_then_edited(tmp_path)
    events = Workspace(root, tmp_path / "home").log()
    before = records_before(events)
    [raised, edited] = [e for e in events if e.type == "candidate.edited"]
    assert raise_of(raised, before[raised.seq]) is not None
    assert raise_of(edited, before[edited.seq]) is None  # alice: a person's actor
    forged = edited.model_copy(update={"actor": ACTOR})  # the proposer's name, but the text changed
    assert raise_of(forged, before[edited.seq]) is None
    assert raise_of(raised) is not None and raise_of(raised).sessions == ("sess-b",)  # no record before: evidence
