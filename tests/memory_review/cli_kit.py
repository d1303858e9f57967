"""The command line as a subprocess, for the tests that drive it the way a user and an agent do."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def run(args: list[str], env: dict, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``memory-review ARGS`` in ``cwd`` (a real process, 60 s at most)."""
    return subprocess.run([sys.executable, "-m", "memory_review.cli", *args], input=stdin, env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=60)


def run_json(args: list[str], env: dict, cwd: Path, stdin: str | None = None):
    """``memory-review ARGS --json``, which must succeed, decoded."""
    done = run([*args, "--json"], env, cwd, stdin)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
