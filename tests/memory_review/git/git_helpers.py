"""Helpers for the git tests: run git, build a team of clones, snapshot what git must never touch."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from forkserver_kit import as_text, run_cli

from memory_review.events import Event
from memory_review.history_tree import memory_id_of, shard_of
from memory_review.models import Memory
from memory_review.proposal import parse_proposals
from memory_review.sync import StoreSync
from memory_review.workspace import CandidateState, Workspace

REF = "refs/memory-review/project"


def in_history(store_file: str) -> str:
    """Where a store's ``memory/<id>-<rev>.md`` lies in a history commit's tree: ``memory/<shard>/...``."""
    name = store_file.rpartition("/")[2]
    return f"memory/{shard_of(memory_id_of(name))}/{name}"


def history_log(root: Path, ref: str = REF) -> bytes:
    """The event log a history commit holds, its ``log/`` chunks joined in order (read with plain git)."""
    names = git("ls-tree", "--name-only", f"{ref}:log", cwd=root).split()
    assert names == sorted(names)
    return b"".join(git_bytes("show", f"{ref}:log/{name}", cwd=root) for name in names)


def git_bytes(*args: str, cwd: Path) -> bytes:
    """Run git; its stdout as bytes."""
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    if done.returncode:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr.decode(errors='replace')}")
    return done.stdout


def git(*args: str, cwd: Path, check: bool = True, stdin: bytes | None = None) -> str:
    """Run git the way a person would; its stdout."""
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, input=stdin, check=False)
    if check and done.returncode:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr.decode(errors='replace')}")
    return done.stdout.decode("utf-8", "replace")


def proposal(
    memory_id: str, body: str, *, scope: str = "project", kind: str = "fact", description: str | None = None
) -> dict:
    return {
        "op": "create",
        "scope": scope,
        "rationale": "the team agreed",
        "memory": {"id": memory_id, "type": kind, "description": description or f"About {memory_id}", "body": body},
    }


@dataclass
class Clone:
    """One teammate: a clone of the project and its workspace (project store + own user store)."""

    name: str
    root: Path
    home: Path

    @property
    def ws(self) -> Workspace:
        return Workspace(self.root, self.home)

    def propose(self, memory_id: str, body: str, **kw) -> str:
        [state] = self.ws.propose(parse_proposals(json.dumps(proposal(memory_id, body, **kw)).encode()))
        return state.candidate.id

    def approve(self, memory_id: str, body: str, **kw) -> list[Event]:
        ws = self.ws
        events = ws.apply([self.propose(memory_id, body, **kw)], actor=self.name)
        assert ws.warnings == []
        return events

    def sync(self, scope: str = "project") -> StoreSync:
        ws = self.ws
        [result] = ws.sync(scope=scope, actor=self.name)
        assert ws.warnings == [], ws.warnings
        return result

    def memories(self) -> dict[str, Memory]:
        return {m.id: m for m in self.ws.project.view().memories()}

    def bodies(self) -> dict[str, str]:
        return {k: m.body for k, m in self.memories().items()}

    def pending(self) -> list[CandidateState]:
        return self.ws.list_candidates(scope="project")

    def events(self) -> list[Event]:
        return self.ws.log()

    def assert_valid(self) -> None:
        reports = self.ws.verify()
        assert all(r.ok for r in reports), [r.problems for r in reports]
        ws = self.ws
        assert set(ws.replay()) == set(ws.project.current_manifest().memories)

    def cli(self, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        full = {**os.environ, "MEMORY_REVIEW_HOME": str(self.home), "MEMORY_REVIEW_ACTOR": self.name, **(env or {})}
        # its own process, forked past the interpreter's start-up (forkserver_kit)
        return as_text(run_cli(["--project", str(self.root), *args], env=full, cwd=self.root, timeout=120))


class Team:
    """A bare remote and clones of it, each cloned when first asked for."""

    def __init__(self, tmp: Path, remote: Path, names: list[str]) -> None:
        self.tmp = tmp
        self.remote = remote
        self.names = names
        self._clones: dict[str, Clone] = {}

    def __getitem__(self, name: str) -> Clone:
        if name not in self._clones:
            root = self.tmp / f"clone-{name}"
            git("clone", "-q", str(self.remote), str(root), cwd=self.tmp)
            self._clones[name] = Clone(name, root, self.tmp / f"home-{name}")
        return self._clones[name]

    @property
    def clones(self) -> list[Clone]:
        """The clones made so far, in name order."""
        return [self._clones[name] for name in self.names if name in self._clones]

    def pair(self) -> tuple[Clone, Clone]:
        return self["ann"], self["ben"]

    def trio(self) -> tuple[Clone, Clone, Clone]:
        return self["ann"], self["ben"], self["cat"]

    def sync_all(self, rounds: int = 2) -> None:
        """Every clone syncs, in order, ``rounds`` times (two rounds carry anything to everyone)."""
        for _ in range(rounds):
            for clone in self.clones:
                clone.sync()


def manifest_memories(clone: Clone) -> dict:
    return clone.ws.project.current_manifest().model_dump()["memories"]


def user_git_state(root: Path) -> dict[str, bytes]:
    """What memory-review must never touch: HEAD, the index, every branch, every working file."""
    state: dict[str, bytes] = {}
    for name in ("HEAD", "index", "packed-refs", "config"):
        path = root / ".git" / name
        if path.exists():
            state[f".git/{name}"] = path.read_bytes()
    state["branches"] = git("for-each-ref", "refs/heads", "refs/remotes", "refs/tags", cwd=root).encode()
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not rel.startswith((".git/", ".memory-review/")):
            state[rel] = path.read_bytes()
    return state


def history(clone: Clone, ref: str = REF) -> list[str]:
    """Subjects of the clone's history commits, newest first."""
    return git("log", "--format=%s", ref, "--", cwd=clone.root).splitlines()


def plant_replica(team: Team, name: str, events: bytes | None = None, *, blob: str | None = None) -> str:
    """Someone pushes a replica ref by hand, its tree holding only ``events.jsonl`` (bytes, or a blob id)."""
    if blob is None:
        blob = git("hash-object", "-w", "--stdin", cwd=team.remote, stdin=events).strip()
    tree = git("mktree", cwd=team.remote, stdin=f"100644 blob {blob}\tevents.jsonl\n".encode()).strip()
    commit = git("commit-tree", tree, "-m", "not a store", cwd=team.remote).strip()
    ref = f"refs/memory-review/replicas/project/{name}"
    git("update-ref", ref, commit, cwd=team.remote)
    return ref
