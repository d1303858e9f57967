"""A project whose stores hold a secret everywhere it can get in, built through the real CLI."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forkserver_kit import as_text, run_cli, text_input

from memory_review.integrations.hook_state import HookError, hooks_dir, log_error

SECRET = "tangerine-omelette-4242"
"""A secret the propose-time detectors do not know (the case forget exists for)."""


@dataclass
class Planted:
    """Where the secret went, and the environment to run the CLI in."""

    repo: Path
    home: Path
    env: dict[str, str]
    pending: str
    discarded: str

    def run(
        self,
        *args: str,
        stdin: str | None = None,
        extra_env: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        env = {**self.env, **(extra_env or {})}
        return as_text(run_cli(list(args), env=env, cwd=self.repo, stdin=text_input(stdin), timeout=120))

    def json(self, *args: str, stdin: str | None = None) -> Any:
        done = self.run(*args, "--json", stdin=stdin)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def git(self, *args: str, git_dir: Path | None = None) -> bytes:
        where = ["--git-dir", str(git_dir)] if git_dir else ["-C", str(self.repo)]
        return subprocess.run(["git", *where, *args], env=self.env, capture_output=True, check=True, timeout=60).stdout

    def forget(self, *extra: str, text: str = SECRET) -> subprocess.CompletedProcess[str]:
        return self.run("forget", "--text-from", "-", "--reason", "leaked staging codeword", *extra, stdin=text + "\n")

    @property
    def stores(self) -> list[Path]:
        return [self.repo / ".memory-review", self.home]

    def files_holding(self, text: str = SECRET) -> list[str]:
        """``grep -r`` over both stores (the user store holds its own git repository too)."""
        found = []
        for store in self.stores:
            for path in sorted(store.rglob("*")):
                if path.is_file() and not path.is_symlink() and text.encode() in path.read_bytes():
                    found.append(str(path))
        return found

    def objects_holding(self, text: str = SECRET) -> list[str]:
        """``git cat-file --batch-all-objects --batch`` of both repositories, searched."""
        return [
            str(where)
            for where in (None, self.home / "history.git")
            if text.encode() in self.git("cat-file", "--batch-all-objects", "--batch", git_dir=where)
        ]

    def tree_bytes(self) -> dict[str, bytes]:
        return {str(p): p.read_bytes() for store in self.stores for p in sorted(store.rglob("*")) if p.is_file()}


def _proposal(memory_id: str, body: str, *, scope: str = "project", quote: str = "said so") -> str:
    return json.dumps(
        {
            "op": "create",
            "scope": scope,
            "memory": {"id": memory_id, "type": "fact", "description": f"About {memory_id}", "body": body},
            "rationale": "the user said so",
            "evidence": [{"quote": quote, "session_id": "s1", "turn_id": "t1"}],
        }
    )


def git_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MEMORY_REVIEW_"))}
    env.update(
        {
            "MEMORY_REVIEW_HOME": str(tmp_path / "home"),
            "MEMORY_REVIEW_ACTOR": "alice",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_AUTHOR_NAME": "Alice",
            "GIT_AUTHOR_EMAIL": "alice@example.invalid",
            "GIT_COMMITTER_NAME": "Alice",
            "GIT_COMMITTER_EMAIL": "alice@example.invalid",
        }
    )
    return env


def plant(tmp_path: Path) -> Planted:
    """A git repository whose project and user stores hold SECRET in every kind of place."""
    repo = tmp_path / "repo"
    env = git_env(tmp_path)
    subprocess.run(["git", "init", "-q", str(repo)], env=env, check=True, timeout=60)
    kit = Planted(repo, tmp_path / "home", env, pending="", discarded="")
    kit.json("init")
    body = f"The staging codeword is {SECRET}. Deploys need it."
    applied = kit.json(
        "propose", "--file", "-", stdin=_proposal("staging-codeword", body, quote=f"user: the codeword is {SECRET}")
    )
    kit.json("apply", applied["id"])
    kit.json("apply", kit.json("propose", "--file", "-", stdin=_proposal("use-tabs", "Indent with tabs."))["id"])
    kit.discarded = kit.json("propose", "--file", "-", stdin=_proposal("dup", f"Codeword: {SECRET}"))["id"]
    kit.json("discard", kit.discarded, "--reason", "duplicate")
    kit.pending = kit.json(
        "propose", "--file", "-", stdin=_proposal("ci-note", "CI runs nightly.", quote=f"as in {SECRET}")
    )["id"]
    kit.json("--session", "s1", "context", "--query", f"staging codeword {SECRET}")
    user = kit.json("propose", "--file", "-", stdin=_proposal("my-codeword", f"Mine is {SECRET} too.", scope="user"))
    kit.json("apply", user["id"])
    log_error(
        hooks_dir(repo / ".memory-review"),
        HookError(ts="2026-12-01T10:00:00Z", event="Stop", error="ValidationError", message=f"bad {SECRET}"),
    )
    kit.json("apply", kit.json("propose", "--file", "-", stdin=_proposal("later", "Written after."))["id"])
    return kit
