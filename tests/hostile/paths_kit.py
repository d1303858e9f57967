"""Building hostile clones for the path attacks, and running what a victim runs in them.

An attacker's repository is built with real ``git``: a real store (made by the library, one
approved memory, one pending candidate), then one of its paths replaced by a committed symlink
(to a file or folder in the victim's fake HOME) or by a crafted file; the victim clones it. Hard
links and FIFOs cannot be committed: they are planted in the clone after it is made, as a local
process (or an unpacked archive) could. Every entry point then runs as a real subprocess with a
timeout, HOME and MEMORY_REVIEW_HOME pointing at temp folders.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forkserver_kit import run_cli

from memory_review.proposal import parse_proposal
from memory_review.workspace import Workspace

CALL_TIMEOUT = 90  # seconds per process: a hang fails the test, never the suite
STORE = ".memory-review"
SESSION = "3f1c2a9e-hostile-session"
BAD_NAME = "cand_$(touch${IFS}PWNED).json"
"""The candidate file name from issue 14: it ran as a command once its text reached ~/.bashrc."""
ESCAPE_NAME = "cand_\x1b]0;owned\x07\x1b[2J.json"
"""A name that would retitle and clear the terminal if printed raw."""

MEMORY = {
    "op": "create",
    "scope": "project",
    "memory": {
        "id": "conv-use-tabs",
        "type": "convention",
        "description": "Indent with tabs",
        "body": "Every source file is indented with tabs.",
    },
    "rationale": "The user said so.",
    "evidence": [{"quote": "tabs please", "session_id": "s1"}],
}
PENDING = {
    **MEMORY,
    "memory": {
        **MEMORY["memory"],
        "id": "fact-db-port",
        "type": "fact",
        "description": "The database listens on 5433",
        "body": "Port 5433, not 5432.",
    },
}


@dataclass(frozen=True)
class Attack:
    """One hostile path: ``path`` inside the store is replaced by ``kind`` (aimed at ``target`` in HOME)."""

    name: str
    path: str
    kind: str  # symlink | hardlink | fifo | name | oversize | malformed
    target: str = "token"  # relative to the victim's HOME
    flagged: bool = True  # whether `verify` must report it (naming the path)

    def __str__(self) -> str:
        return self.name


def fill_home(home: Path) -> None:
    """The victim's fake HOME: files worth stealing or clobbering, and a folder to aim a link at."""
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "authorized_keys").write_text("ssh-ed25519 AAAAC3Nza victim@laptop\n")
    (home / ".bashrc").write_text("export PATH=$HOME/bin:$PATH\n")
    (home / "token").write_text("ghp_notarealtokenbutprivate0123456789ab")  # no newline: a torn tail
    (home / ".hushlogin").write_text("")  # an empty file: a log aimed at it would be appended to
    (home / "outside").mkdir()
    (home / "outside" / "notes.txt").write_text("the victim's own folder\n")


def tree_digest(root: Path) -> dict[str, str]:
    """Every entry under ``root`` (not following links) with its kind and content hash."""
    found: dict[str, str] = {}
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            path = Path(folder) / name
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                found[str(path)] = "link:" + os.readlink(path)
            elif stat.S_ISREG(info.st_mode):
                found[str(path)] = "file:" + hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                found[str(path)] = f"mode:{stat.S_IFMT(info.st_mode):o}"
    return found


def build_template(folder: Path) -> Path:
    """A real project with a real store: one approved memory, one pending candidate, a session file."""
    root = folder / "template"
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    ws = Workspace(root, folder / "attacker-user")
    ws.init()
    [approved] = ws.propose([parse_proposal(MEMORY)])
    ws.apply([approved.candidate.id], actor="attacker")
    ws.propose([parse_proposal(PENDING)])
    ws.project.compact()  # the manifest names the memory's file (docs/adr/0029), as the attacks expect
    store = root / STORE
    (store / "sessions").mkdir(exist_ok=True)
    (store / "sessions" / f"{SESSION}.json").write_text(
        json.dumps({"version": 1, "session_id": SESSION, "memories": {}}) + "\n"
    )
    (store / "hooks" / "sessions").mkdir(parents=True, exist_ok=True)
    (store / "hooks" / "errors.jsonl").write_text("")
    (store / "hooks" / "sessions" / f"{SESSION}.json").write_text(
        json.dumps({"v": 1, "session": SESSION, "transcripts": {}}) + "\n"
    )
    return root


def store_path(store: Path, relative: str) -> Path:
    """``relative`` in ``store``, with the placeholders for the files whose names the store chose."""
    if relative == "memory/<the memory>.md":
        manifest = json.loads((store / "manifest.json").read_bytes())
        return store / manifest["memories"]["conv-use-tabs"]["file"]
    if relative == "candidates/<the pending>.json":
        [name] = [n for n in os.listdir(store / "candidates") if n.startswith("cand_")]
        return store / "candidates" / name
    return store / relative


def _replace(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif os.path.lexists(path):
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)


def commit_attack(template: Path, attacker: Path, attack: Attack, home: Path) -> None:
    """The attacker's repository: the template with the committed part of ``attack`` applied."""
    shutil.copytree(template, attacker, symlinks=True)
    store = attacker / STORE
    if attack.kind == "symlink":
        if attack.path == ".":
            moved = home / "outside" / "planted-store"
            shutil.copytree(store, moved)  # a real store outside, so a followed link finds one
            shutil.rmtree(store)
            store.symlink_to(moved)
        else:
            path = store_path(store, attack.path)
            _replace(path)
            path.symlink_to(home / attack.target)
    elif attack.kind == "name":
        source = store_path(store, "candidates/<the pending>.json")
        shutil.copyfile(source, store / "candidates" / attack.target)
    elif attack.kind == "oversize":
        (store / "candidates" / "cand_01JZZZZZZZZZZZZZZZZZZZZZZZ.json").write_bytes(b" " * (2 * 1024 * 1024))
    elif attack.kind == "malformed":
        (store / "candidates" / "cand_01JZZZZZZZZZZZZZZZZZZZZZZZ.json").write_bytes(b'{"v": 1, "id": ')
    git = ["git", "-C", str(attacker), "-c", "user.name=mallory", "-c", "user.email=m@example.invalid"]
    subprocess.run([*git, "add", "-f", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "helpful project memory"], check=True)


def clone_and_plant(attacker: Path, clone: Path, attack: Attack, home: Path) -> None:
    """``git clone`` as the victim does, then plant what git cannot carry (hard links, FIFOs)."""
    subprocess.run(["git", "clone", "-q", str(attacker), str(clone)], check=True)
    if attack.kind in ("hardlink", "fifo"):
        path = store_path(clone / STORE, attack.path)
        _replace(path)
        if attack.kind == "hardlink":
            os.link(home / attack.target, path)
        else:
            os.mkfifo(path)


@dataclass
class Victim:
    """The victim's machine: a fake HOME, their own user store, and the clone."""

    home: Path
    user_store: Path
    clone: Path

    @property
    def env(self) -> dict[str, str]:
        env = {
            **os.environ,
            "HOME": str(self.home),
            "MEMORY_REVIEW_HOME": str(self.user_store),
            "MEMORY_REVIEW_ACTOR": "victim",
            "GIT_CONFIG_NOSYSTEM": "1",
        }
        for name in ("CLAUDE_CONFIG_DIR", "CLAUDE_PROJECT_DIR", "MEMORY_REVIEW_HOOK_DEADLINE"):
            env.pop(name, None)
        return env

    def run(self, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
        """``memory-review ARGS`` in the clone, as a process of its own that cannot hang the suite (forked
        without the interpreter's start-up, see forkserver_kit)."""
        return run_cli(list(args), env=self.env, cwd=self.clone, stdin=stdin, timeout=CALL_TIMEOUT)

    def hook(self, payload: dict[str, Any]) -> subprocess.CompletedProcess:
        return self.run("hook", "claude-code", stdin=json.dumps(payload).encode())


def hook_payloads(data: Path, victim: Victim, transcript: Path) -> dict[str, dict[str, Any]]:
    """One real payload per event, re-aimed at the clone and a real transcript.

    The recorded data holds no SessionEnd payload: it is the SessionStart one with the event renamed
    and Claude Code's ``reason`` field (memory-review does not act on it; it must still exit 0).
    """
    folder = data / "hooks" / "claude-code" / "kesslerio-attio-mcp-server"
    first = {
        name: json.loads((folder / f"{name}.json").read_text())[0]
        for name in ("session_start", "user_prompt_submit", "stop")
    }
    aimed = {
        name: {**payload, "cwd": str(victim.clone), "session_id": SESSION, "transcript_path": str(transcript)}
        for name, payload in first.items()
    }
    end = {**aimed["session_start"], "hook_event_name": "SessionEnd", "reason": "exit"}
    end.pop("source", None)
    # A Stop whose transcript is gone fails inside the hook: the failure goes to hooks/errors.jsonl.
    failing = {**aimed["stop"], "transcript_path": str(victim.clone / "no-such-transcript.jsonl")}
    return {
        "SessionStart": aimed["session_start"],
        "UserPromptSubmit": aimed["user_prompt_submit"],
        "Stop": aimed["stop"],
        "Stop (failing)": failing,
        "SessionEnd": end,
    }


def one_line_error(done: subprocess.CompletedProcess) -> str:
    """What a failing command said: its one ``error:`` line (plus at most a hint), or the report it
    printed (``verify`` exits 1 with its problems on stdout); never a traceback, exit 0 or 1 only."""
    err = done.stderr.decode("utf-8", "replace")
    # Warnings and notes (``context``'s "memory-review: 3 injected ...") share stderr; they are not errors.
    lines = [
        line
        for line in err.splitlines()
        if not line.startswith("warning: ")
        and not (line.startswith("memory-review: ") and not line.startswith("memory-review: error: "))
    ]
    assert "Traceback" not in err, err
    assert done.returncode in (0, 1), (done.returncode, err)
    if lines:
        assert done.returncode == 1 and lines[0].startswith("memory-review: error: "), err
        assert len(lines) <= 2 and all(line.startswith("  hint: ") for line in lines[1:]), err
        return lines[0]
    return done.stdout.decode("utf-8", "replace") if done.returncode else ""
