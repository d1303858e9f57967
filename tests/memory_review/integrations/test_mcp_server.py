"""``memory-review mcp`` as a real subprocess, driven by the official MCP SDK's stdio client.

An agent proposes, sees its proposal pending, finds no tool that could apply it; a
person applies it through the CLI; then the agent gets it in its context.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
import pytest
from conftest import PROPOSAL, Project

from memory_review.errors import NotFoundError, ValidationError
from memory_review.integrations.mcp_server import REVIEW_NOTE, TOOL_NAMES, MemoryTools

mcp = pytest.importorskip("mcp", reason="the optional 'mcp' extra is not installed (pip install '.[mcp]')")
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SESSION = "sess-mcp-1"
DECIDING_WORDS = ("apply", "approve", "discard", "reject", "edit", "revert", "delete", "remove", "accept")
MEMORY = {"memory_id": "conv-pnpm-only", "type": "convention", "description": "Use pnpm, never npm or yarn",
          "body": "Install and run scripts with pnpm.", "rationale": "The user said it at the start of the task.",
          "evidence": ["we use pnpm here, not npm"]}


def _is_error(result: Any) -> bool:
    return bool(getattr(result, "is_error", getattr(result, "isError", False)))


def _data(result: Any) -> Any:
    """A tool's JSON result (structured content when the SDK gives it, else the text)."""
    assert not _is_error(result), result
    structured = getattr(result, "structured_content", getattr(result, "structuredContent", None))
    if structured is not None:
        return structured.get("result", structured) if set(structured) == {"result"} else structured
    [block] = result.content
    return json.loads(block.text)


def _text(result: Any) -> str:
    assert not _is_error(result), result
    return "".join(block.text for block in result.content)


async def _agent_session(project: Project) -> dict[str, Any]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "memory_review.cli", "--session", SESSION, "mcp"],
        # The SDK passes only a safe few variables on; ours (and an import path, if the tests use one) too.
        env={k: project.env[k] for k in ("MEMORY_REVIEW_HOME", "HOME", "PYTHONPATH") if k in project.env},
        cwd=str(project.root))
    seen: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        seen["tools"] = {tool.name: tool for tool in tools}

        proposed = _data(await session.call_tool("propose_memory", MEMORY))
        seen["proposed"] = proposed
        seen["pending"] = _data(await session.call_tool("candidate_status", {"candidate_id": proposed["id"]}))
        seen["context_before"] = _text(await session.call_tool("get_context", {"query": "install packages"}))
        seen["apply_attempt"] = await _try(session, "apply_candidate", {"candidate_id": proposed["id"]})
        seen["bad_proposal"] = await session.call_tool("propose_memory", {**MEMORY, "memory_id": "Not A Slug!"})

        # A person, not the agent, applies it — through the CLI, while the server keeps running.
        applied = await anyio.to_thread.run_sync(lambda: project.run("apply", proposed["id"]))
        assert applied.returncode == 0, applied.stderr

        seen["applied"] = _data(await session.call_tool("candidate_status", {"candidate_id": proposed["id"]}))
        seen["context_after"] = _text(await session.call_tool("get_context", {"query": "install packages"}))
        seen["listed"] = _data(await session.call_tool("list_memories", {}))
        seen["found"] = _data(await session.call_tool("search_memories", {"query": "pnpm scripts"}))
        seen["missing"] = await session.call_tool("candidate_status",
                                                  {"candidate_id": "cand_00000000000000000000000000"})
    return seen


async def _try(session: ClientSession, name: str, arguments: dict) -> Any:
    """Call a tool that should not exist: an error result or a protocol error, never a success."""
    try:
        return await session.call_tool(name, arguments)
    except Exception as exc:  # noqa: BLE001 — the SDK may raise its protocol error for an unknown tool
        return exc


def test_an_agent_can_propose_and_read_but_never_decide(project: Project) -> None:
    project.approve(PROPOSAL)
    seen = anyio.run(_agent_session, project)

    assert set(seen["tools"]) == set(TOOL_NAMES)
    for tool in seen["tools"].values():
        assert not any(word in tool.name for word in DECIDING_WORDS), tool.name
    assert seen["proposed"]["status"] == "pending" and seen["proposed"]["message"] == REVIEW_NOTE
    assert seen["pending"]["status"] == "pending" and seen["pending"]["memories"] == ["conv-pnpm-only"]
    assert "conv-pnpm-only" not in seen["context_before"]  # proposed is not remembered
    assert "forbidden-mock-database" in seen["context_before"]
    attempt = seen["apply_attempt"]
    assert isinstance(attempt, Exception) or _is_error(attempt)
    assert _is_error(seen["bad_proposal"]) and "'Not A Slug!' is not valid" in seen["bad_proposal"].content[0].text

    assert seen["applied"]["status"] == "applied"
    assert "[memory:project:convention] id=conv-pnpm-only" in seen["context_after"]
    assert {m["id"] for m in seen["listed"]} == {"forbidden-mock-database", "conv-pnpm-only"}
    assert [m["id"] for m in seen["found"]] == ["conv-pnpm-only"]
    assert _is_error(seen["missing"]) and "no candidate" in seen["missing"].content[0].text

    ws = project.workspace()
    state = ws.show(seen["proposed"]["id"])
    assert (state.candidate.proposer.kind, state.candidate.proposer.name) == ("agent", "mcp")
    assert state.candidate.evidence[0].session_id == SESSION
    [applied] = ws.log(type="candidate.applied", candidate=seen["proposed"]["id"])
    assert applied.actor == "alice"  # the person; no agent ever decides
    assert len(ws.log(type="context.built", session=SESSION)) == 2
    assert all(replayed.matches for replayed in ws.replay_session(SESSION))


def test_the_tools_without_the_sdk(project: Project) -> None:
    tools = MemoryTools(project.workspace())
    proposed = tools.propose_memory(**MEMORY)
    assert tools.candidate_status(candidate_id=proposed["id"])["status"] == "pending"
    assert tools.list_memories() == [] and tools.search_memories(query="pnpm") == []
    assert tools.get_context() == ""  # no session: nothing recorded, nothing to say
    with pytest.raises(ValidationError, match="type: Input should be"):
        tools.propose_memory(**{**MEMORY, "type": "instruction"})
    with pytest.raises(NotFoundError):
        tools.candidate_status(candidate_id="cand_00000000000000000000000000")
    assert not hasattr(tools, "apply") and not any(n.startswith(DECIDING_WORDS) for n in dir(tools))
