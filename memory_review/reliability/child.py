"""Starting the driver as a real child process, armed through its environment, and reading what it said."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

import memory_review
from events.faults import ENV_VAR, FaultPlan

REPO_ROOT = Path(memory_review.__file__).resolve().parents[1]
KILLED = 137
"""The exit status a ``kill``/``partial`` fault ends the child with (the FaultPlan default)."""


def child_env(plan: FaultPlan | None) -> dict[str, str]:
    """This process's environment, with the fault plan (or none) and our packages importable."""
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    if plan is not None:
        env[ENV_VAR] = plan.model_dump_json()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return env


def spawn(command: str, args: dict[str, Any], *, plan: FaultPlan | None = None) -> subprocess.Popen[bytes]:
    """Start ``driver COMMAND`` with ``args``; the caller reads, waits or kills."""
    argv = [sys.executable, "-m", "memory_review.reliability.driver", command, orjson.dumps(args).decode()]
    return subprocess.Popen(argv, env=child_env(plan), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=REPO_ROOT)


@dataclass(frozen=True)
class ChildResult:
    """How a child ended: its exit status, its JSON lines and its stderr."""

    returncode: int
    lines: list[Any]
    stderr: str

    @property
    def crashed(self) -> bool:
        """Neither done, nor a library error, nor killed by the fault: the code under test blew up."""
        return self.returncode not in (0, 3, KILLED)


def parse_lines(raw: bytes) -> list[Any]:
    """The complete JSON lines a child printed (a line cut by its death is dropped)."""
    lines = []
    for line in raw.splitlines(keepends=True):
        if line.endswith(b"\n") and line.strip():
            lines.append(orjson.loads(line))
    return lines


def run_child(command: str, args: dict[str, Any], *, plan: FaultPlan | None = None,
              timeout: float = 60.0) -> ChildResult:
    """Run a child to its end (or its fault); a child that outlives ``timeout`` is killed and reported."""
    proc = spawn(command, args, plan=plan)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        return ChildResult(-9, parse_lines(out), f"timed out after {timeout}s (deadlock?)\n" + err.decode())
    return ChildResult(proc.returncode, parse_lines(out), err.decode("utf-8", "replace"))
