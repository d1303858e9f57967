"""What the integration tests share: a real git project with both stores, the CLI as a subprocess, one proposal.

Imported by name (``from project_kit import ...``), never through ``conftest``: a module named ``conftest``
exists in every test folder, so importing it by name breaks when two folders run in one session.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forkserver_kit import run_cli

from memory_review.proposal import parse_proposal
from memory_review.workspace import Workspace

PROPOSAL = {
    "op": "create",
    "scope": "project",
    "memory": {
        "id": "forbidden-mock-database",
        "type": "forbidden",
        "description": "Never mock the database in tests",
        "body": "Integration tests run against the Postgres test container.",
    },
    "rationale": "The user corrected this twice.",
    "evidence": [{"quote": "no, don't mock the database", "session_id": "s1", "turn_id": "t4"}],
}


def data_dir() -> Path:
    default = Path(__file__).resolve().parents[3] / ".." / "shared" / "data"
    return Path(os.environ.get("MEMORY_REVIEW_TEST_DATA", default)).resolve()


@dataclass
class Project:
    """A real git repository with both stores, and the environment the CLI runs in."""

    root: Path
    env: dict[str, str]

    def workspace(self) -> Workspace:
        """A library view of the same stores (for assertions)."""
        return Workspace(self.root, Path(self.env["MEMORY_REVIEW_HOME"]))

    def run(
        self,
        *args: str,
        stdin: str | bytes | None = None,
        env: dict[str, str] | None = None,
        timeout: float = 60,
        fresh: bool = False,
    ) -> subprocess.CompletedProcess:
        """``memory-review ARGS`` as a process of its own in the project (``fresh``: a new interpreter,
        else forked without the start-up, see forkserver_kit)."""
        data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        return run_cli(list(args), env=env or self.env, cwd=self.root, stdin=data, timeout=timeout, fresh=fresh)

    def json(self, *args: str, stdin: str | None = None) -> Any:
        """``memory-review ARGS --json``, which must succeed."""
        done = self.run(*args, "--json", stdin=stdin)
        assert done.returncode == 0, done.stderr.decode()
        return json.loads(done.stdout)

    def hook(
        self,
        payload: dict[str, Any],
        *,
        env: dict[str, str] | None = None,
        timeout: float = 30,
        agent: str = "claude-code",
    ) -> subprocess.CompletedProcess:
        """``memory-review hook <agent>`` with ``payload`` on stdin, as the agent runs it (a new interpreter)."""
        return self.run("hook", agent, stdin=json.dumps(payload), env=env, timeout=timeout, fresh=True)

    def install(self, agent: str, *args: str) -> str:
        """``memory-review install AGENT ARGS``, which must succeed; what it printed."""
        done = self.run("install", agent, *args)
        assert done.returncode == 0, done.stderr.decode()
        return done.stdout.decode()

    def approve(self, proposal: dict[str, Any]) -> str:
        """Propose and apply (a person, through the library); the candidate id."""
        ws = self.workspace()
        [state] = ws.propose([parse_proposal(proposal)])
        ws.apply([state.candidate.id], actor="alice")
        return state.candidate.id


def in_this_process(project: Project, monkeypatch: Any) -> None:
    """This test process's environment as the hook's would be in ``project`` (the lean path called in-process):
    its stores and person, no project folder named by Claude Code, not nested in our own extractor."""
    for name in ("MEMORY_REVIEW_HOME", "MEMORY_REVIEW_ACTOR", "HOME"):
        monkeypatch.setenv(name, project.env[name])
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("MEMORY_REVIEW_NESTED", raising=False)


def make_project(base: Path, *, init: bool = True) -> Project:
    """A fresh project under ``base`` (its own user store and HOME, so nothing leaks out)."""
    root = base / "repo"
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    env = {
        **os.environ,
        "MEMORY_REVIEW_HOME": str(base / "user-store"),
        "MEMORY_REVIEW_ACTOR": "alice",
        "HOME": str(base / "home"),
    }
    for name in ("CLAUDE_CONFIG_DIR", "CLAUDE_PROJECT_DIR"):  # the tests say where Claude Code would be
        env.pop(name, None)
    env.pop("MEMORY_REVIEW_HOOK_DEADLINE", None)
    project = Project(root.resolve(), env)
    if init:
        Workspace(project.root, base / "user-store").init()
    return project
