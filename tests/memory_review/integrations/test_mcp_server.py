"""``memory-review mcp`` as a real subprocess, driven by the official MCP SDK's stdio client.

An agent proposes, sees its proposal pending, finds no tool that could apply it; a
person applies it through the CLI; then the agent gets it in its context. The server
finds its project from ``--project``, the client's roots or ``$CLAUDE_PROJECT_DIR``,
never from the folder it was launched in.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from project_kit import PROPOSAL, Project

from memory_review.errors import NotFoundError, ValidationError
from memory_review.integrations.mcp_server import EXISTING_NOTE, NO_PROJECT, REVIEW_NOTE, TOOL_NAMES, MemoryTools
from memory_review.proposal import parse_proposal

mcp = pytest.importorskip("mcp", reason="the optional 'mcp' extra is not installed (pip install '.[mcp]')")
from mcp import ClientSession, StdioServerParameters  # noqa: E402 - only once mcp is known installed
from mcp import types as mcp_types  # noqa: E402 - only once mcp is known installed
from mcp.client.stdio import stdio_client  # noqa: E402 - only once mcp is known installed

READERS = ("get_context", "list_memories", "search_memories", "candidate_status")

SESSION = "sess-mcp-1"
DECIDING_WORDS = ("apply", "approve", "discard", "reject", "edit", "revert", "delete", "remove", "accept")
MEMORY = {
    "memory_id": "conv-pnpm-only",
    "type": "convention",
    "description": "Use pnpm, never npm or yarn",
    "body": "Install and run scripts with pnpm.",
    "rationale": "The user said it at the start of the task.",
    "evidence": ["we use pnpm here, not npm"],
}


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


def _server(project: Project, *args: str, cwd: Path | None = None, **env: str) -> StdioServerParameters:
    """``memory-review ARGS mcp`` as a client starts it (in ``cwd``, the project root by default)."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "memory_review.cli", *args, "mcp"],
        # The SDK passes only a safe few variables on; ours (and an import path, if the tests use one) too.
        env={**{k: project.env[k] for k in ("MEMORY_REVIEW_HOME", "HOME", "PYTHONPATH") if k in project.env}, **env},
        cwd=str(cwd or project.root),
    )


def _hint(annotations: Any, name: str) -> Any:
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in name)
    return getattr(annotations, snake, getattr(annotations, name, None))


async def _agent_session(project: Project) -> dict[str, Any]:
    params = _server(project, "--project", str(project.root), "--session", SESSION)
    seen: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        seen["tools"] = {tool.name: tool for tool in tools}

        proposed = _data(await session.call_tool("propose_memory", MEMORY))
        seen["proposed"] = proposed
        seen["again"] = _data(await session.call_tool("propose_memory", MEMORY))
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
        seen["missing"] = await session.call_tool(
            "candidate_status", {"candidate_id": "cand_00000000000000000000000000"}
        )
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
    assert seen["proposed"]["existing"] is False
    # The same proposal twice: the same candidate, said to be the existing one; nothing new in the queue.
    assert seen["again"]["id"] == seen["proposed"]["id"] and seen["again"]["existing"] is True
    assert seen["again"]["message"] == EXISTING_NOTE
    for name in READERS:
        annotations = seen["tools"][name].annotations
        assert _hint(annotations, "readOnlyHint") is True and _hint(annotations, "openWorldHint") is False, name
    propose = seen["tools"]["propose_memory"].annotations
    assert (_hint(propose, "readOnlyHint"), _hint(propose, "destructiveHint"), _hint(propose, "idempotentHint")) == (
        False,
        False,
        True,
    )
    assert seen["pending"]["status"] == "pending" and seen["pending"]["memories"] == ["conv-pnpm-only"]
    assert "conv-pnpm-only" not in seen["context_before"]  # proposed is not remembered
    assert "forbidden-mock-database" in seen["context_before"]
    attempt = seen["apply_attempt"]
    assert isinstance(attempt, Exception) or _is_error(attempt)
    assert _is_error(seen["bad_proposal"]) and "'Not A Slug!' is not valid" in seen["bad_proposal"].content[0].text

    assert seen["applied"]["status"] == "applied"
    assert "[memory:project:convention] Use pnpm, never npm or yarn (id=conv-pnpm-only)\n" in seen["context_after"]
    assert {m["id"] for m in seen["listed"]} == {"forbidden-mock-database", "conv-pnpm-only"}
    assert [m["id"] for m in seen["found"]] == ["conv-pnpm-only"]
    assert _is_error(seen["missing"]) and "no candidate" in seen["missing"].content[0].text

    ws = project.workspace()
    assert [c.candidate.id for c in ws.list_candidates()] == []  # applied; the duplicate never existed
    assert len(ws.log(type="candidate.created")) == 2  # PROPOSAL's and the agent's one
    state = ws.show(seen["proposed"]["id"])
    assert (state.candidate.proposer.kind, state.candidate.proposer.name) == ("agent", "mcp")
    assert state.candidate.evidence[0].session_id == SESSION
    [applied] = ws.log(type="candidate.applied", candidate=seen["proposed"]["id"])
    assert applied.actor == "alice"  # the person; no agent ever decides
    assert len(ws.log(type="context.built", session=SESSION)) == 2
    assert all(replayed.matches for replayed in ws.replay_session(SESSION))


async def _moved_by_a_person(project: Project) -> dict[str, Any]:
    params = _server(project, "--project", str(project.root), "--session", SESSION)
    seen: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        proposed = _data(await session.call_tool("propose_memory", MEMORY))
        moved = await anyio.to_thread.run_sync(lambda: project.run("edit", proposed["id"], "--scope", "user"))
        assert moved.returncode == 0, moved.stderr
        seen["old"] = _data(await session.call_tool("candidate_status", {"candidate_id": proposed["id"]}))
        new_id = seen["old"].get("moved_to", "")
        seen["new"] = _data(await session.call_tool("candidate_status", {"candidate_id": new_id}))
    return seen


def test_an_agent_sees_where_a_person_moved_its_proposal(project: Project) -> None:
    """ADR 0154: discarded by a move is not a rejection; the agent is told the id its record lives on as."""
    seen = anyio.run(_moved_by_a_person, project)
    assert seen["old"]["status"] == "discarded" and seen["old"]["scope"] == "project"
    assert seen["new"]["id"] == seen["old"]["moved_to"]
    assert (seen["new"]["status"], seen["new"]["scope"], seen["new"]["memories"]) == (
        "pending",
        "user",
        ["conv-pnpm-only"],
    )
    assert "moved_to" not in seen["new"]


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


def _roots_callback(*folders: Path):
    async def list_roots(context: Any) -> Any:
        return mcp_types.ListRootsResult(
            roots=[mcp_types.Root(uri=f"file://{folder}", name=folder.name) for folder in folders]
        )

    return list_roots


async def _propose_and_list(
    params: StdioServerParameters,
    roots=None,
    *,
    scope: str = "project",
    status_of: str = "cand_00000000000000000000000000",
) -> dict:
    extra = {"list_roots_callback": roots} if roots else {}
    async with stdio_client(params) as (read, write), ClientSession(read, write, **extra) as session:
        await session.initialize()
        proposed = await session.call_tool("propose_memory", {**MEMORY, "scope": scope})
        listed = await session.call_tool("list_memories", {})
        context = await session.call_tool("get_context", {"session_id": "s-x"})
        project_only = await session.call_tool("list_memories", {"scope": "project"})
        status = await session.call_tool("candidate_status", {"candidate_id": status_of})
    return {"proposed": proposed, "listed": listed, "context": context, "project_only": project_only, "status": status}


def _launch_folder(tmp_path: Path) -> Path:
    """Where a client happens to start the server: a git repository of its own, no store."""
    folder = tmp_path / "launched-here"
    folder.mkdir()
    (folder / ".git").mkdir()
    return folder


def test_the_clients_roots_name_the_project(project: Project, tmp_path: Path) -> None:
    launched = _launch_folder(tmp_path)
    other = tmp_path / "other-root"
    other.mkdir()
    params = _server(project, cwd=launched)
    seen = anyio.run(_propose_and_list, params, _roots_callback(other, project.root))
    proposed = _data(seen["proposed"])
    # The root holding a store wins; the launch folder gets nothing.
    assert project.workspace().show(proposed["id"]).candidate.scope == "project"
    assert not (launched / ".memory-review").exists() and not (other / ".memory-review").exists()
    assert len(project.workspace().log(type="context.built", session="s-x")) == 1


def test_claude_project_dir_names_the_project(project: Project, tmp_path: Path) -> None:
    launched = _launch_folder(tmp_path)
    params = _server(project, cwd=launched, CLAUDE_PROJECT_DIR=str(project.root))
    seen = anyio.run(_propose_and_list, params)
    assert project.workspace().show(_data(seen["proposed"])["id"]).status == "pending"
    assert not (launched / ".memory-review").exists()


def test_without_a_project_only_the_user_store_is_used(project: Project, tmp_path: Path) -> None:
    project.approve({**PROPOSAL, "scope": "user", "memory": {**PROPOSAL["memory"], "id": "user-note"}})
    waiting = project.workspace().propose([parse_proposal(PROPOSAL)])[0].candidate.id
    launched = _launch_folder(tmp_path)
    params = _server(project, cwd=launched)
    refused = anyio.run(lambda: _propose_and_list(params, status_of=waiting))
    assert _is_error(refused["proposed"]) and NO_PROJECT in refused["proposed"].content[0].text
    assert _is_error(refused["project_only"]) and NO_PROJECT in refused["project_only"].content[0].text
    # A project candidate the server cannot see: not found, and why.
    assert _is_error(refused["status"]) and NO_PROJECT in refused["status"].content[0].text
    assert [m["id"] for m in _data(refused["listed"])] == ["user-note"]
    assert "user-note" in _text(refused["context"])

    user = anyio.run(lambda: _propose_and_list(params, scope="user"))
    assert project.workspace().show(_data(user["proposed"])["id"]).candidate.scope == "user"
    assert not (launched / ".memory-review").exists()  # never a store in the folder it was started in
    assert project.workspace().log(type="context.built") == []  # no project log to record in: nothing recorded
