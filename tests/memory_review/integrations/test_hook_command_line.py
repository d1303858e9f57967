"""The installed hook command line skips the argument parser; every other spelling still parses."""

from __future__ import annotations

import json

from project_kit import PROPOSAL, Project

from memory_review.cli import HOOK_ARGV


def _answer(done) -> str:
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_fast_and_parsed_hook_command_lines_answer_alike(project: Project) -> None:
    project.approve(PROPOSAL)
    payload = json.dumps(
        {
            "hook_event_name": "UserPromptSubmit",
            "session_id": "sess-cli",
            "cwd": str(project.root),
            "prompt": "how do we test the database?",
        }
    )
    fast = _answer(project.run(*HOOK_ARGV, stdin=payload))
    parsed = _answer(project.run("--project", str(project.root), *HOOK_ARGV, stdin=payload))
    assert (
        fast == parsed
        and "[memory:project:forbidden] Never mock the database in tests (id=forbidden-mock-database)\n" in fast
    )
    recorded = [e for e in project.json("log") if e["type"] == "context.built"]
    assert [e["session"] for e in recorded] == ["sess-cli", "sess-cli"]


def test_hook_command_line_is_what_install_writes() -> None:
    from memory_review.cli import HOOK_AGENTS
    from memory_review.integrations.agents import AGENTS
    from memory_review.integrations.claude_settings import HOOK_ARGS

    assert HOOK_ARGS == HOOK_ARGV == AGENTS["claude-code"].hook_args
    assert set(HOOK_AGENTS) == set(AGENTS)  # every agent's hook command takes the fast path
