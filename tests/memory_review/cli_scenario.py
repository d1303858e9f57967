"""Every command with ``--json`` once, on one real project: what the JSON-shape tests pin (issue 19).

``run_scenario`` drives the CLI's own ``main`` (in this process: one start-up for some forty command
lines, each with its own environment and streams) on a real git repository through a review cycle that
reaches every command that prints a result (all but ``review``, ``mcp`` and ``hook
claude-code|codex|gemini|worker``, whose output is a UI, a protocol or a hook's reply) and returns each
command line's decoded ``--json`` document under a label. ``shape`` reduces a document to its structure:
the keys in their order, the type of every value.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from memory_review import cli
from memory_review.proposal import ProposedMemory
from memory_review.workspace import Workspace


def proposal(memory_id: str, body: str = "Use the test container.") -> dict[str, Any]:
    return {
        "op": "create",
        "scope": "project",
        "memory": {
            "id": memory_id,
            "type": "convention",
            "description": f"What {memory_id} says about the tests",
            "body": body,
        },
        "rationale": "The user said so twice.",
        "evidence": [{"quote": "no, don't mock the database", "session_id": "s1", "turn_id": "t4"}],
    }


TRANSCRIPT = """From now on, always run the linter before you commit.

Never push directly to main; open a pull request instead.
"""

EDITOR = """import pathlib, sys
path = pathlib.Path(sys.argv[1])
path.write_text(path.read_text().replace("Use the test container.", "Use the test container, always."))
"""

CLAUDE_MD = """# Project rules

- Always use pnpm, never npm, in this repository.
- The API server listens on port 8080 in development.
"""


class Scenario:
    """A git repository with a bare remote, its stores made by ``init``, and the outputs so far."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.env = {
            **os.environ,
            "MEMORY_REVIEW_HOME": str(tmp_path / "home"),
            "MEMORY_REVIEW_ACTOR": "alice",
            "HOME": str(tmp_path / "person"),
            "CODEX_HOME": str(tmp_path / "person" / ".codex"),
        }
        self.env.pop("CLAUDE_PROJECT_DIR", None)
        self.root = tmp_path / "repo"
        self.root.mkdir()
        (tmp_path / "person").mkdir()
        subprocess.run(["git", "init", "-q", str(self.root)], check=True, timeout=60)
        subprocess.run(["git", "init", "-q", "--bare", str(tmp_path / "remote.git")], check=True, timeout=60)
        subprocess.run(
            ["git", "-C", str(self.root), "remote", "add", "origin", str(tmp_path / "remote.git")],
            check=True,
            timeout=60,
        )
        self.outputs: dict[str, Any] = {}

    def json(self, label: str, args: list[str], stdin: str | None = None, **env: str) -> Any:
        code, stdout, stderr = self.run([*args, "--json"], stdin, {**self.env, **env})
        assert code == 0, (label, stderr)
        document = json.loads(stdout)
        self.outputs[label] = document
        return document

    def run(self, argv: list[str], stdin: str | None, env: dict[str, str]) -> tuple[int, bytes, str]:
        """``memory-review ARGV`` in this process (one start-up for the whole scenario): the CLI's own
        ``main`` with its environment, folder and streams for the call."""
        saved = (dict(os.environ), Path.cwd(), sys.stdin, sys.stdout, sys.stderr)
        out, err = io.BytesIO(), io.StringIO()
        os.environ.clear()
        os.environ.update(env)
        os.chdir(self.root)
        sys.stdin = io.TextIOWrapper(io.BytesIO((stdin or "").encode()), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
        sys.stderr = err
        try:
            code = cli.main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        finally:
            sys.stdout.flush()
            sys.stdout.detach()  # keep ``out`` open: the wrapper closes what it wraps when collected
            os.environ.clear()
            os.environ.update(saved[0])
            os.chdir(saved[1])
            sys.stdin, sys.stdout, sys.stderr = saved[2:]
        return code, out.getvalue(), err.getvalue()

    def file(self, name: str, text: str) -> str:
        path = self.tmp / name
        path.write_text(text, encoding="utf-8")
        return str(path)


def run_scenario(tmp_path: Path) -> dict[str, Any]:
    """Each command's ``--json`` document, by label (the command and what about its input differs)."""
    s = Scenario(tmp_path)
    s.json("init", ["init"])
    first = s.json("propose object", ["propose", "--file", "-"], json.dumps(proposal("m-one")))
    s.json("propose array", ["propose", "--file", "-"], json.dumps([proposal("m-two")]))
    lines = "\n".join(json.dumps(proposal(name)) for name in ("m-three", "m-four", "m-five"))
    s.json("propose json lines", ["propose", "--file", "-"], lines + "\n")
    ids = [c["id"] for c in s.json("list", ["list"])]
    s.json("show", ["show", first["id"]])
    editor = s.file("editor.py", EDITOR)
    s.json("edit", ["edit", first["id"]], EDITOR=f"{sys.executable} {editor}", VISUAL="")
    applied = s.json("apply", ["apply", first["id"], ids[1], ids[2]])
    s.json("discard", ["discard", ids[3], "--reason", "one-off"])
    s.json("restore", ["restore", ids[3]])
    s.json("revert one", ["revert", str(applied[0]["seq"])])
    s.json("revert several", ["revert", str(applied[1]["seq"]), str(applied[2]["seq"]), "--force"])
    s.json("apply again", ["apply", ids[3]])
    s.json("delete", ["delete", "m-four"])
    twins = [proposal(name, "Run the database tests against the real Postgres container.") for name in ("m-6", "m-7")]
    s.json("propose near-duplicates", ["propose", "--file", "-"], json.dumps(twins))
    s.json("apply several", ["apply", ids[4], *[c["id"] for c in s.outputs["propose near-duplicates"]]])
    s.json("memories", ["memories"])
    s.json("log", ["log"])
    s.json("log --git", ["log", "--git"])
    s.json("sync", ["sync"])
    s.json("trust list", ["trust"])
    s.json("context", ["context", "--query", "tests database"])
    s.json("context --budget", ["context", "--budget", "300"])
    s.json("context --session", ["--session", "sess-1", "context"])
    s.json("extract", ["extract", s.file("transcript.txt", TRANSCRIPT), "--format", "text"])
    s.json("import", ["import", s.file("CLAUDE.md", CLAUDE_MD)])
    s.json("consolidate", ["consolidate"])
    s.json("sessions", ["sessions"])
    s.json("replay --at", ["replay", "--at", str(applied[0]["seq"])])
    s.json("replay --session", ["replay", "--session", "sess-1"])
    s.json("verify", ["verify"])
    s.json("verify --repair", ["verify", "--repair"])
    s.json("doctor", ["doctor"])
    s.json("forget dry run", ["forget", "--pattern", "pnpm", "--reason", "a test"])
    Workspace.open(s.root).write_session_memory(
        "sess-2", ProposedMemory(id="scratch", type="fact", description="Working on auth", body="Auth refactor")
    )
    s.json("promote", ["promote", "sess-2", "scratch", "--scope", "user"])
    s.json("hook errors", ["hook", "errors"])
    s.json("install", ["install", "claude-code"])
    s.json("uninstall", ["uninstall", "claude-code"])
    s.json("export", ["export", "--format", "agents-md"])
    s.json("demo", ["demo", "--no-tui", "--dir", str(tmp_path / "demo")])
    # Another person's home on the same project: nobody there approved the project's memories.
    elsewhere = {"MEMORY_REVIEW_HOME": str(tmp_path / "home-2")}
    s.json("trust list, foreign", ["trust"], **elsewhere)
    s.json("trust apply", ["trust", "apply", "m-6"], **elsewhere)
    return s.outputs


def shape(document: Any) -> Any:
    """The structure of a JSON document: objects keep their keys (in order), arrays the distinct shapes
    of their items, and every other value becomes the name of its JSON type."""
    if isinstance(document, dict):
        return {key: shape(value) for key, value in document.items()}
    if isinstance(document, list):
        distinct: list[Any] = []
        for item in map(shape, document):
            if item not in distinct:
                distinct.append(item)
        return distinct
    if document is None:
        return "null"
    return {bool: "bool", int: "int", float: "float", str: "str"}[type(document)]
