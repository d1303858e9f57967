"""``memory-review mcp`` beside other writers: the store lock held elsewhere, the same proposal at once.

A tool call waiting for the store lock (a person's apply, another agent's server) runs off the event loop,
so the server still answers ping meanwhile. The same proposal made by several processes at once is one
candidate: its twin is looked for under the store lock, not before it. Real processes; the moment a
process waits for the lock is read from ``/proc`` (it holds the lock file open), never guessed by a sleep.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from project_kit import Project

pytest.importorskip("mcp", reason="the optional 'mcp' extra is not installed (pip install '.[mcp]')")
from mcp import ClientSession, StdioServerParameters  # noqa: E402 - only once mcp is known installed
from mcp.client.stdio import stdio_client  # noqa: E402 - only once mcp is known installed

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="watches processes' open files in /proc")

MEMORY = {
    "memory_id": "conv-pnpm-only",
    "type": "convention",
    "description": "Use pnpm, never npm or yarn",
    "body": "Install and run scripts with pnpm.",
    "rationale": "The user said it at the start of the task.",
}


def _lock(project: Project) -> Path:
    return (project.root / ".memory-review" / ".lock").resolve()


def _waiting(lock: Path, holder: int) -> set[int]:
    """The processes other than ``holder`` that hold ``lock`` open: waiting for it (or about to)."""
    found = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == holder:
            continue
        try:
            if any(Path(os.readlink(fd)) == lock for fd in (proc / "fd").iterdir()):
                found.add(int(proc.name))
        except OSError:  # not ours to read, or gone meanwhile
            continue
    return found


async def _until_waiting(lock: Path, holder: int, count: int) -> None:
    deadline = time.monotonic() + 60  # a safety bound, not a measurement
    while len(_waiting(lock, holder)) < count:
        assert time.monotonic() < deadline, f"never saw {count} processes wait for {lock}"
        await anyio.sleep(0.01)


def _server(project: Project) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "memory_review.cli", "--project", str(project.root), "mcp"],
        env={k: project.env[k] for k in ("MEMORY_REVIEW_HOME", "HOME", "PYTHONPATH") if k in project.env},
        cwd=str(project.root),
    )


async def _ping_while_a_call_waits(project: Project, holder: subprocess.Popen) -> tuple[list[str], Any]:
    answered: list[str] = []
    proposed: dict[str, Any] = {}

    async def propose(session: ClientSession) -> None:
        proposed["result"] = await session.call_tool("propose_memory", MEMORY)
        answered.append("propose_memory")

    async with stdio_client(_server(project)) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        async with anyio.create_task_group() as calls:
            calls.start_soon(propose, session)
            await _until_waiting(_lock(project), holder.pid, 1)  # the call now waits for the store lock
            await session.send_ping()
            answered.append("ping")
            holder.send_signal(signal.SIGKILL)  # the lock is free: the waiting call goes through
    return answered, proposed["result"]


def test_ping_is_answered_while_a_tool_call_waits_for_the_store_lock(
    project: Project, lock_holder: subprocess.Popen
) -> None:
    answered, result = anyio.run(_ping_while_a_call_waits, project, lock_holder)
    assert answered == ["ping", "propose_memory"]  # before, the waiting call held up the whole server
    assert not getattr(result, "is_error", getattr(result, "isError", False)), result
    [pending] = project.workspace().list_candidates()
    assert pending.candidate.id in result.content[0].text  # the call that waited made the candidate


PROPOSER = """
import json, sys
from pathlib import Path
from memory_review.integrations.mcp_server import MemoryTools
from memory_review.workspace import Workspace
root, home, memory = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
# A lock wait longer than the test's safety bound: it ends when the test lets the lock go, never by timing out.
tools = MemoryTools(Workspace(root, home, lock_timeout=120))
print(json.dumps(tools.propose_memory(**memory)))
"""


async def _proposed_at_once(project: Project, holder: subprocess.Popen, count: int) -> list[dict[str, Any]]:
    argv = [str(project.root), project.env["MEMORY_REVIEW_HOME"], json.dumps(MEMORY)]
    proposers = [
        subprocess.Popen([sys.executable, "-c", PROPOSER, *argv], stdout=subprocess.PIPE, env=project.env)
        for _ in range(count)
    ]
    try:
        await _until_waiting(_lock(project), holder.pid, count)  # every one is past any lock-free look
        holder.send_signal(signal.SIGKILL)
        outputs = [await anyio.to_thread.run_sync(lambda p=p: p.communicate(timeout=60)[0]) for p in proposers]
    finally:
        for proposer in proposers:
            proposer.kill()
            proposer.wait()
    assert [p.returncode for p in proposers] == [0] * count
    return [json.loads(out) for out in outputs]


def test_the_same_proposal_from_several_processes_at_once_is_one_candidate(
    project: Project, lock_holder: subprocess.Popen
) -> None:
    replies = anyio.run(_proposed_at_once, project, lock_holder, 4)
    [candidate] = project.workspace().list_candidates()
    assert {reply["id"] for reply in replies} == {candidate.candidate.id}
    assert sorted(reply["existing"] for reply in replies) == [False, True, True, True]
