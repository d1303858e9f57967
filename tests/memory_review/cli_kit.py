"""The command line as a process of its own, for the tests that drive it the way a user and an agent do."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from forkserver_kit import as_text, run_cli, text_input


def run(args: list[str], env: dict, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``memory-review ARGS`` in ``cwd`` (its own process, forked past the start-up: forkserver_kit; 60 s at most)."""
    return as_text(run_cli(args, env=env, cwd=cwd, stdin=text_input(stdin), timeout=60))


def run_json(args: list[str], env: dict, cwd: Path, stdin: str | None = None):
    """``memory-review ARGS --json``, which must succeed, decoded."""
    done = run([*args, "--json"], env, cwd, stdin)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def cli_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a CLI run: the user store under ``tmp_path/home``, the person ``alice``."""
    return {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home"), "MEMORY_REVIEW_ACTOR": "alice"}


def git_repo(root: Path, env: dict | None = None) -> Path:
    """A fresh git repository at ``root``; with ``env``, its stores initialised through the CLI."""
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True, timeout=60)
    if env is not None:
        assert run(["init"], env, root).returncode == 0
    return root
