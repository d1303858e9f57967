"""Fault injection at named points, the way SQLite's test VFS fails the Nth I/O call.

Every write, fsync, rename, unlink and truncate in ``durable`` and ``log`` calls
:func:`point` just before and just after it (``"log.append.before_write"``,
``"durable.atomic_replace.after_rename"`` ...). Unarmed, a point costs one global
lookup. Armed with a :class:`FaultPlan`, the Nth matching point can:

- ``kill``: end the process on the spot (``os._exit``), like a crash or SIGKILL;
- ``raise``: raise ``OSError(errno)`` once, or at every matching point from the Nth on;
- ``partial``: at a ``*.before_write`` point, write half of the bytes, then die (a torn write);
- ``record``: nothing, just list the points hit (tests enumerate crash points this way).

Only the test harness arms a plan: in-process with :func:`arm`, or in a child
process through ``tools/reliability/arming.py`` (a test-only ``sitecustomize`` on
the child's ``PYTHONPATH``). Nothing here reads the environment: a variable in a
user's shell can never make a real command die or fail (docs/adr/0025).
"""

from __future__ import annotations

import errno as errno_codes
import os
import threading
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

WRITE_SUFFIX = ".before_write"


class FaultPlan(BaseModel):
    """What to do, and at which hit of which point."""

    # Built on the first plan a test arms: every process imports this module, none but the harness's makes one.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    action: Literal["record", "kill", "raise", "partial"] = "record"
    point: str | None = None
    """Exact point name to match; None matches every point (``partial``: every write point)."""
    nth: int = Field(default=1, ge=1)
    """Act at the Nth matching hit (counted from arming)."""
    mode: Literal["once", "from"] = "once"
    """``raise`` only: fail just the Nth hit, or every hit from the Nth on."""
    errno: int = errno_codes.EIO
    exit_code: int = 137
    trace: str | None = None
    """A file to append each hit point's name to, one per line (for child processes)."""

    @model_validator(mode="after")
    def _sensible(self) -> FaultPlan:
        if self.action == "partial" and self.point is not None and not self.point.endswith(WRITE_SUFFIX):
            raise ValueError(f"a partial write needs a point ending in {WRITE_SUFFIX!r}")
        if self.mode == "from" and self.action != "raise":
            raise ValueError("mode 'from' only applies to action 'raise'")
        return self

    def matches(self, name: str) -> bool:
        """Whether a hit of point ``name`` counts towards this plan."""
        if self.action == "partial" and not name.endswith(WRITE_SUFFIX):
            return False
        return self.point is None or self.point == name


class _Armed:
    """The live state of an armed plan: hits so far and the matching count."""

    def __init__(self, plan: FaultPlan) -> None:
        self.plan = plan
        self.hits: list[str] = []
        self.count = 0
        self.lock = threading.Lock()

    def hit(self, name: str) -> str | None:
        """Record a hit; return the action to take now (None: carry on)."""
        with self.lock:
            self.hits.append(name)
            if self.plan.trace:
                _append_line(self.plan.trace, name)
            if not self.plan.matches(name):
                return None
            self.count += 1
            due = self.count == self.plan.nth or (self.plan.mode == "from" and self.count > self.plan.nth)
            return self.plan.action if due and self.plan.action != "record" else None


_armed: _Armed | None = None


def arm(plan: FaultPlan | None) -> None:
    """Arm ``plan`` (counting starts afresh), or disarm with None."""
    global _armed
    _armed = _Armed(plan) if plan is not None else None


def points_hit() -> list[str]:
    """Names of the points hit since arming, in order ([] when unarmed)."""
    armed = _armed
    if armed is None:
        return []
    with armed.lock:
        return list(armed.hits)


def point(name: str) -> None:
    """A step of a durable operation; may kill the process or raise OSError when armed."""
    armed = _armed
    if armed is None:
        return
    _act(armed, name, armed.hit(name))


def write_point(name: str, fd: int, data: bytes) -> None:
    """The point before writing ``data`` to ``fd``; a ``partial`` plan writes half and dies."""
    armed = _armed
    if armed is None:
        return
    action = armed.hit(name)
    if action == "partial":
        os.write(fd, data[: len(data) // 2])
        os._exit(armed.plan.exit_code)
    _act(armed, name, action)


def _act(armed: _Armed, name: str, action: str | None) -> None:
    if action in ("kill", "partial"):  # a partial plan at a point that writes nothing: just die
        os._exit(armed.plan.exit_code)
    if action == "raise":
        code = armed.plan.errno
        raise OSError(code, os.strerror(code), f"<fault injected at {name}>")


def _append_line(path: str, text: str) -> None:
    # O_APPEND keeps lines whole when several armed processes share one trace file.
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        os.write(fd, text.encode("utf-8") + b"\n")
    finally:
        os.close(fd)
