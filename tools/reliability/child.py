"""Starting the driver as a real child process, and reading what it said.

Two launchers, one interface (:data:`Launcher`): ``spawn`` starts a fresh
interpreter armed through :func:`tools.reliability.arming.fault_env` (what a user's crash looks
like, 0.2-0.3 s each); ``fork`` asks a :class:`Zygote` — a driver process that has
imported everything once — to fork the child and arm it after the fork (a few
milliseconds each). Both children are separate processes that die by
``os._exit`` at their fault point.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from memory_review.events.faults import FaultPlan
from tools.reliability.arming import REPO_ROOT, fault_env, unarmed_env

KILLED = 137
"""The exit status a ``kill``/``partial`` fault ends the child with (the FaultPlan default)."""


def child_env(plan: FaultPlan | None) -> dict[str, str]:
    """This process's environment, with the fault plan (or none) and our packages importable."""
    env = unarmed_env()
    return env if plan is None else {**env, **fault_env(plan)}


def spawn(
    command: str, args: dict[str, Any], *, plan: FaultPlan | None = None, stdin: int | None = None
) -> subprocess.Popen[bytes]:
    """Start ``driver COMMAND`` with ``args``; the caller reads, waits or kills."""
    argv = [sys.executable, "-m", "tools.reliability.driver", command, orjson.dumps(args).decode()]
    return subprocess.Popen(
        argv, env=child_env(plan), stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO_ROOT
    )


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


def run_child(
    command: str, args: dict[str, Any], *, plan: FaultPlan | None = None, timeout: float = 60.0
) -> ChildResult:
    """Run a child to its end (or its fault); a child that outlives ``timeout`` is killed and reported."""
    proc = spawn(command, args, plan=plan)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        return ChildResult(-9, parse_lines(out), f"timed out after {timeout}s (deadlock?)\n" + err.decode())
    return ChildResult(proc.returncode, parse_lines(out), err.decode("utf-8", "replace"))


Launcher = Callable[[str, dict[str, Any], FaultPlan | None], ChildResult]
"""Run ``driver COMMAND ARGS`` in a child armed with the plan, to its end: ``launcher(command, args, plan)``."""


def spawn_launcher(command: str, args: dict[str, Any], plan: FaultPlan | None) -> ChildResult:
    """A fresh interpreter per child, armed through the environment."""
    return run_child(command, args, plan=plan)


class Zygote:
    """A driver process that forks one child per request (see ``driver.cmd_zygote``)."""

    def __init__(self, scratch: Path) -> None:
        self.scratch = scratch
        self.proc = spawn("zygote", {}, stdin=subprocess.PIPE)
        self.proc.stdout.readline()  # {"ready": true}
        self.count = 0

    def run(self, command: str, args: dict[str, Any], plan: FaultPlan | None, *, timeout: float = 60.0) -> ChildResult:
        """Fork a child for ``command``, wait for it, and return what it did."""
        self.count += 1
        out, err = self.scratch / f"child{self.count}.out", self.scratch / f"child{self.count}.err"
        request = {
            "command": command,
            "args": args,
            "plan": plan.model_dump() if plan else None,
            "out": str(out),
            "err": str(err),
            "timeout": timeout,
        }
        self.proc.stdin.write(orjson.dumps(request) + b"\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()
        if not reply:
            raise RuntimeError(f"the zygote died: {self.proc.stderr.read().decode()[-500:]}")
        result = ChildResult(
            orjson.loads(reply)["code"], parse_lines(out.read_bytes()), err.read_text("utf-8", "replace")
        )
        out.unlink()
        err.unlink()
        return result

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(10)
        self.proc.stdout.close()
        self.proc.stderr.close()


class ZygotePool:
    """One zygote per thread that asks (a trial runner's worker threads share nothing)."""

    def __init__(self, scratch: Path) -> None:
        self.scratch = scratch
        self.local = threading.local()
        self.all: list[Zygote] = []
        self.guard = threading.Lock()

    def __call__(self, command: str, args: dict[str, Any], plan: FaultPlan | None) -> ChildResult:
        zygote = getattr(self.local, "zygote", None)
        if zygote is None:
            with self.guard:
                folder = self.scratch / f"zygote{len(self.all)}"
                folder.mkdir(parents=True, exist_ok=True)
                zygote = self.local.zygote = Zygote(folder)
                self.all.append(zygote)
        return zygote.run(command, args, plan)

    def __enter__(self) -> ZygotePool:
        return self

    def __exit__(self, *exc: object) -> None:
        for zygote in self.all:
            zygote.close()


@contextmanager
def launcher(kind: str, scratch: Path) -> Iterator[Launcher]:
    """``fork`` (a zygote per worker thread) or ``spawn`` (a fresh interpreter per child)."""
    if kind == "spawn":
        yield spawn_launcher
        return
    with ZygotePool(scratch) as pool:
        yield pool
