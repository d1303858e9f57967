"""The hook finds the project from ``$CLAUDE_PROJECT_DIR`` (Claude Code sets it), the payload's cwd otherwise."""

from __future__ import annotations

import json
from pathlib import Path

from project_kit import PROPOSAL, Project, make_project

SESSION = "sess-project-dir"


def _context(done) -> str:
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout else ""


def _prompt(cwd: Path) -> dict:
    return {
        "hook_event_name": "UserPromptSubmit",
        "session_id": SESSION,
        "cwd": str(cwd),
        "prompt": "how do we test the database?",
    }


def test_the_project_dir_wins_over_a_cwd_the_agent_moved_to(project: Project, tmp_path: Path) -> None:
    project.approve(PROPOSAL)
    elsewhere = make_project(tmp_path / "other")  # the agent `cd`-ed into another repository with a store
    env = {**project.env, "CLAUDE_PROJECT_DIR": str(project.root)}
    text = _context(project.hook(_prompt(elsewhere.root), env=env))
    assert "forbidden-mock-database" in text
    # Recorded in the session's own project, and nothing was written to the other one.
    assert [e["session"] for e in project.json("log") if e["type"] == "context.built"] == [SESSION]
    assert [e for e in elsewhere.workspace().log() if e.type == "context.built"] == []


def test_without_it_the_cwd_decides(project: Project, tmp_path: Path) -> None:
    project.approve(PROPOSAL)
    sub = project.root / "src" / "pkg"
    sub.mkdir(parents=True)
    assert "forbidden-mock-database" in _context(project.hook(_prompt(sub)))
    missing = {**project.env, "CLAUDE_PROJECT_DIR": str(tmp_path / "gone")}  # not a folder: ignored
    assert "forbidden-mock-database" in _context(project.hook(_prompt(sub), env=missing))
    relative = {**project.env, "CLAUDE_PROJECT_DIR": "repo"}
    assert "forbidden-mock-database" in _context(project.hook(_prompt(sub), env=relative))
