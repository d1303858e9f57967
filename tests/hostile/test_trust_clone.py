"""A cloned repository ships a pre-approved store: nothing of it is injected until a person here trusts it.

The attacker applies memories with the real CLI under their own home, commits
``.memory-review/`` with the code, and the victim clones it with a fresh home.
Every entry point the victim's agent runs — each hook event with real Claude Code
payloads, ``context``, ``memories``, ``list``, ``export``, the MCP server through a
real MCP client — runs as a real process with a timeout.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from forkserver_kit import command_line
from trust_kit import ATTACKER_MEMORIES, CALL_TIMEOUT, DATA, MARK, Person, attacker_repo, real_payloads, victim_clone

SESSION = "sess-victim-1"
OUT_OF_SCOPE = (
    "Moving or re-cloning a project folder loses its trust (the ledger is keyed by the store's real path) "
    "until a person runs `trust --moved-from OLD` (or `trust --all`).",
    "A person who trusts a foreign memory after reading it: that is the decision the tool asks for.",
)


@pytest.fixture
def victim(tmp_path: Path) -> Person:
    return victim_clone(tmp_path, attacker_repo(tmp_path).root)


@pytest.fixture
def payloads() -> dict[str, dict[str, Any]]:
    if not (DATA / "hooks" / "claude-code").is_dir():
        pytest.skip(f"real hook payloads not found under {DATA} (set MEMORY_REVIEW_TEST_DATA)")
    return real_payloads()


def _every_hook(victim: Person, payloads: dict[str, dict[str, Any]], session: str) -> dict[str, str]:
    """Each real hook event once, in one session (re-aimed at the clone); the stdout of each."""
    outputs = {}
    for event in ("SessionStart", "UserPromptSubmit", "Stop", "SubagentStop", "PreCompact", "Notification"):
        if event in payloads:
            outputs[event] = victim.hook({**payloads[event], "session_id": session})
    return outputs


def _notices(outputs: dict[str, str]) -> list[str]:
    return [
        json.loads(out)["systemMessage"]
        for out in outputs.values()
        if out.strip() and "systemMessage" in json.loads(out) and "not approved" in out
    ]


def _mcp_calls(victim: Person) -> dict[str, str]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def run() -> dict[str, str]:
        command, *args = command_line(["--project", str(victim.root), "mcp"])  # forked past the start-up
        params = StdioServerParameters(
            command=command,
            args=args,
            env=victim.env,
            cwd=str(victim.root),
        )
        seen: dict[str, str] = {}
        with anyio.fail_after(CALL_TIMEOUT):
            await _calls(params, seen)
        return seen

    async def _calls(params, seen: dict[str, str]) -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            for tool, arguments in (
                ("get_context", {}),
                ("get_context", {"query": "deploy production review"}),
                ("search_memories", {"query": "deploy production review key"}),
                ("list_memories", {}),
            ):
                result = await session.call_tool(tool, arguments)
                assert not getattr(result, "isError", False), result
                seen[f"{tool} {arguments}"] = "".join(getattr(b, "text", "") for b in result.content)

    return anyio.run(run)


def _entry_point_outputs(victim: Person) -> dict[str, str]:
    outputs = {
        "context": victim.ok("context"),
        "context --query": victim.ok("context", "--query", "deploy production review key"),
        "context --session --json": victim.ok("--session", SESSION, "context", "--json"),
        "memories --json": victim.ok("memories", "--json"),
        "list": victim.ok("list"),
    }
    victim.ok("export", "--format", "agents-md", "--output", str(victim.home / "AGENTS.md"))
    outputs["export"] = (victim.home / "AGENTS.md").read_text(encoding="utf-8")
    return outputs


def test_no_entry_point_injects_a_cloned_pre_approved_store(victim: Person, payloads) -> None:
    pytest.importorskip("mcp", reason="the optional 'mcp' extra is not installed")
    hooks = _every_hook(victim, payloads, SESSION)
    cli = _entry_point_outputs(victim)
    mcp = _mcp_calls(victim)
    for name, text in {**hooks, **cli, **mcp}.items():
        assert MARK not in text, f"{name} showed an attacker's memory: {text[:300]}"
    # The person is told once, to the person (systemMessage), not the model (additionalContext).
    [notice] = _notices(hooks)
    assert "2 memories in the project store" in notice and "memory-review" in notice
    assert all("additionalContext" not in out or "not approved" not in out for out in hooks.values())
    # What the queue shows: both memories, with the flags the scan finds on them again here.
    listed = {f["id"]: f for f in victim.json("trust", "list")}
    assert set(listed) == {m["id"] for m in ATTACKER_MEMORIES}
    assert "possible-prompt-injection" in listed["never-review"]["flags"]
    assert {f["source"] for f in listed.values()} == {"store"}


def test_the_notice_is_said_once_per_session_and_foreign_set(victim: Person, payloads) -> None:
    start = {**payloads["SessionStart"], "session_id": SESSION}
    prompt = {**payloads["UserPromptSubmit"], "session_id": SESSION}
    first, again, prompted = victim.hook(start), victim.hook(start), victim.hook(prompt)
    assert "not approved" in first and "not approved" not in again + prompted
    assert "not approved" in victim.hook({**start, "session_id": "sess-victim-2"})  # a new session: once more
    victim.ok("trust", "discard", "never-review")
    changed = victim.hook({**prompt, "session_id": "sess-victim-2"})  # the foreign set changed: said again
    assert "1 memory in the project store" in changed and MARK not in changed


def test_trusted_memories_are_injected_and_the_decision_is_in_the_log(victim: Person, payloads) -> None:
    victim.ok("trust", "apply", "deploy-key")
    shown = victim.ok("context")
    assert f"{MARK}1" in shown and f"{MARK}2" not in shown
    victim.ok("trust", "discard", "never-review", "--reason", "not mine")
    assert victim.json("trust", "list") == []  # refused: not asked again
    assert f"{MARK}2" not in victim.ok("context") + victim.hook({**payloads["SessionStart"], "session_id": "s9"})
    [trusted] = victim.json("log", "--type", "memory.trusted")
    [refused] = victim.json("log", "--type", "memory.refused")
    assert trusted["actor"] == refused["actor"] == "victim"
    assert [m["memory"] for m in trusted["trust"]["memories"]] == ["deploy-key"]
    assert refused["reason"] == "not mine"


def test_trusting_everything_at_once_injects_the_store(victim: Person) -> None:
    pytest.importorskip("mcp", reason="the optional 'mcp' extra is not installed")
    assert victim.json("trust", "--all")[0]["type"] == "memory.trusted"
    # --all leaves a flagged one (never-review reads as a prompt injection) for the person to name (session 39)
    assert f"{MARK}1" in victim.ok("context") and f"{MARK}2" not in victim.ok("context")
    victim.ok("trust", "apply", "never-review")
    shown = victim.ok("context")
    assert f"{MARK}1" in shown and f"{MARK}2" in shown
    through_mcp = _mcp_calls(victim)
    assert all(MARK in text for text in through_mcp.values())


def test_an_agent_actor_cannot_trust(victim: Person) -> None:
    agent = subprocess.run(
        [sys.executable, "-m", "memory_review.cli", "trust", "--all"],
        cwd=victim.root,
        env={**victim.env, "MEMORY_REVIEW_ACTOR": "agent:claude"},
        capture_output=True,
        timeout=CALL_TIMEOUT,
        check=False,
    )
    assert agent.returncode == 1 and b"Traceback" not in agent.stderr
    assert MARK not in victim.ok("context") and len(victim.json("trust", "list")) == 2
