"""Moving a project: its store turns foreign (trust is kept by real path) until its owner carries the
decisions over with ``trust --moved-from``, which records them and takes only the exact versions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from trust_kit import CALL_TIMEOUT, MARK, Person, attacker_repo, git, victim_clone

OUT_OF_SCOPE = (
    "Carrying is never automatic: a repository put where a trusted one was, or one holding the same notes, "
    "inherits nothing until the person asks (`trust --moved-from`).",
)

NOTES = [
    {"id": "pnpm-only", "type": "convention", "description": "Use pnpm, never npm", "body": "Lockfile: pnpm."},
    {"id": "no-force", "type": "forbidden", "description": "Never force-push main", "body": "Open a PR."},
]


@pytest.fixture
def owner(tmp_path: Path) -> Person:
    alice = Person("alice", tmp_path / "alice-home", tmp_path / "old" / "project")
    alice.home.mkdir()
    alice.root.parent.mkdir()
    git("init", "-q", "-b", "main", str(alice.root), cwd=tmp_path, env=alice.env)
    alice.ok("init")
    for note in NOTES:
        alice.approve(note)
    return alice


def _moved(owner: Person, tmp_path: Path) -> Person:
    target = tmp_path / "new" / "project"
    target.parent.mkdir()
    os.rename(owner.root, target)
    return Person(owner.name, owner.home, target)


def test_a_moved_project_is_foreign_until_its_owner_carries_the_trust(owner: Person, tmp_path: Path) -> None:
    old = owner.root
    assert "Use pnpm" in owner.ok("context")
    moved = _moved(owner, tmp_path)
    assert "Use pnpm" not in moved.ok("context")  # keyed by path: the moved store is foreign
    assert {f["id"] for f in moved.json("trust", "list")} == {"pnpm-only", "no-force"}

    [event] = moved.json("trust", "--moved-from", str(old))
    assert event["type"] == "memory.trusted" and event["actor"] == "alice"
    assert sorted(m["memory"] for m in event["trust"]["memories"]) == ["no-force", "pnpm-only"]
    assert str(old) not in event["reason"]  # a folder name stays on this machine (the log is synced)
    shown = moved.ok("context")
    assert "Use pnpm" in shown and "Never force-push" in shown
    assert moved.json("trust", "list") == []
    assert moved.json("trust", "--moved-from", str(old)) == []  # nothing left to carry: nothing recorded


def test_a_refusal_carries_too(tmp_path: Path) -> None:
    victim = victim_clone(tmp_path, attacker_repo(tmp_path).root)
    old = victim.root
    victim.ok("trust", "apply", "deploy-key")
    victim.ok("trust", "discard", "never-review")
    moved = _moved(victim, tmp_path)
    assert len(moved.json("trust", "list")) == 2  # both foreign again at the new path
    kinds = sorted(e["type"] for e in moved.json("trust", "--moved-from", str(old)))
    assert kinds == ["memory.refused", "memory.trusted"]
    assert moved.json("trust", "list") == []  # refused: not asked again
    shown = moved.ok("context")
    assert f"{MARK}1" in shown and f"{MARK}2" not in shown


def test_moved_from_is_a_persons_act_with_a_clear_error(owner: Person, tmp_path: Path) -> None:
    old = owner.root
    moved = _moved(owner, tmp_path)
    nowhere = moved.run("trust", "--moved-from", str(tmp_path / "never-here"))
    assert nowhere.returncode == 1 and b"no trust record" in nowhere.stderr and b"Traceback" not in nowhere.stderr
    agent = subprocess.run(
        [sys.executable, "-m", "memory_review.cli", "trust", "--moved-from", str(old)],
        cwd=moved.root,
        env={**moved.env, "MEMORY_REVIEW_ACTOR": "agent:claude"},
        capture_output=True,
        timeout=CALL_TIMEOUT,
        check=False,
    )
    assert agent.returncode == 1 and b"only a person" in agent.stderr
    assert len(moved.json("trust", "list")) == 2
