"""An MCP client's over-size proposal (issue 13, point 3) is refused, and the queue stays readable."""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
import pytest
from project_kit import Project

from memory_review import limits

mcp = pytest.importorskip("mcp", reason="the optional 'mcp' extra is not installed (pip install '.[mcp]')")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

SESSION = "sess-mcp-bounds"
MEMORY = {
    "memory_id": "conv-pnpm-only",
    "type": "convention",
    "description": "Use pnpm, never npm or yarn",
    "body": "Install and run scripts with pnpm.",
    "rationale": "The user said it at the start of the task.",
}


async def _propose(project: Project, calls: list[dict], tool: str = "propose_memory") -> list[Any]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memory_review.cli", "--project", str(project.root), "--session", SESSION, "mcp"],
        env={k: project.env[k] for k in ("MEMORY_REVIEW_HOME", "HOME", "PYTHONPATH") if k in project.env},
        cwd=str(project.root),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return [await session.call_tool(tool, arguments) for arguments in calls]


def _is_error(result: Any) -> bool:
    return bool(getattr(result, "is_error", getattr(result, "isError", False)))


def test_a_605_quote_proposal_is_refused_and_a_bounded_one_is_tied_to_the_session(project: Project) -> None:
    huge = {**MEMORY, "evidence": [f"quote {i} " + "x" * 1500 for i in range(605)]}
    bounded = {**MEMORY, "evidence": ["we use pnpm here"] * limits.MAX_EVIDENCE_ITEMS}
    refused, accepted = anyio.run(_propose, project, [huge, bounded])

    assert _is_error(refused) and "evidence" in refused.content[0].text and "at most 10" in refused.content[0].text
    assert not _is_error(accepted)
    listed = project.run("list", "--json")
    assert listed.returncode == 0
    [candidate] = json.loads(listed.stdout)
    assert candidate["session_id"] == SESSION
    logged = json.loads(project.run("log", "--session", SESSION, "--json").stdout)
    assert [e["candidate"] for e in logged if e["type"] == "candidate.created"] == [candidate["id"]]
    assert json.loads(project.run("verify", "--json").stdout)["ok"] is True


def test_a_context_budget_past_64_bits_is_refused_and_the_server_goes_on(project: Project) -> None:
    calls = [{"session_id": SESSION, "budget": 2**64}, {"session_id": SESSION, "budget": 2**63 - 1}]
    refused, built = anyio.run(_propose, project, calls, "get_context")
    assert _is_error(refused) and "budget" in refused.content[0].text and "Traceback" not in refused.content[0].text
    assert not _is_error(built)
    logged = json.loads(project.run("log", "--session", SESSION, "--json").stdout)
    assert [e["context"]["budget_bytes"] for e in logged if e["type"] == "context.built"] == [2**63 - 1]
