"""Arming fault points in a child process: the test harness's job, never the product's.

``events.faults`` only has points and :func:`events.faults.arm`; nothing in the
shipped packages reads a fault plan from the environment (a user's shell with
``MEMORY_REVIEW_FAULT`` set must not be able to kill the Claude Code hook). A
child is armed by :func:`fault_env`: the plan goes in ``MEMORY_REVIEW_FAULT`` and
``armed_site/`` goes first on ``PYTHONPATH``, so the child's interpreter runs
``armed_site/sitecustomize.py`` at start-up, which arms the plan. Every Python
process started with that environment is armed, including the child's children.
"""

from __future__ import annotations

import os
from pathlib import Path

from memory_review.events.faults import FaultPlan

FAULT_ENV = "MEMORY_REVIEW_FAULT"
"""Read only by ``armed_site/sitecustomize.py``, i.e. only in a process the harness put that folder in front of."""
REPO_ROOT = Path(__file__).resolve().parents[2]
SITE_DIR = Path(__file__).resolve().with_name("armed_site")


def python_path(*first: Path) -> str:
    """``PYTHONPATH`` with ``first`` and the repository in front of whatever this process has."""
    entries = [str(p) for p in (*first, REPO_ROOT)]
    return os.pathsep.join(filter(None, [*entries, os.environ.get("PYTHONPATH")]))


def fault_env(plan: FaultPlan | str | dict) -> dict[str, str]:
    """The variables that arm ``plan`` in a child: merge them into the child's environment."""
    if isinstance(plan, dict):
        plan = FaultPlan.model_validate(plan)
    raw = plan if isinstance(plan, str) else plan.model_dump_json()
    return {FAULT_ENV: raw, "PYTHONPATH": python_path(SITE_DIR)}


def unarmed_env() -> dict[str, str]:
    """This process's environment without any fault plan, with the repository importable."""
    env = {k: v for k, v in os.environ.items() if k != FAULT_ENV}
    env["PYTHONPATH"] = python_path()
    return env
