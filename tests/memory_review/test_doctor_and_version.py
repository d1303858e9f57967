"""``--version``, ``doctor`` and the store-format rule, through the real command line.

An older memory-review that meets a store a newer one wrote refuses in one line and changes
nothing, including ``verify --repair`` and ``forget``, which would otherwise treat the unknown
format as damage and rewrite it (docs/upgrading.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from cli_kit import git_repo, run

from memory_review.workspace import Workspace

NOTE = {
    "op": "create",
    "scope": "project",
    "rationale": "said so",
    "memory": {
        "id": "db-tests",
        "type": "forbidden",
        "description": "Never mock the database in tests",
        "body": "Integration tests run against the Postgres test container.",
    },
}


def _propose(repo: Path, env: dict, proposal: dict = NOTE) -> str:
    done = run(["propose", "--file", "-", "--json"], env, repo, stdin=json.dumps(proposal))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["id"]


def test_version_comes_from_the_package_metadata(repo: Path, env: dict) -> None:
    done = run(["--version"], env, repo)
    assert (done.returncode, done.stdout) == (0, f"memory-review {version('memory-review')}\n")
    verified = json.loads(run(["verify", "--json"], env, repo).stdout)
    assert verified["version"] == version("memory-review") and verified["store_format"] == 2


def test_doctor_on_a_healthy_project_says_nothing_is_off(repo: Path, env: dict) -> None:
    run(["apply", _propose(repo, env)], env, repo)
    done = run(["doctor"], env, repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "nothing is off" in done.stdout and f"memory-review {version('memory-review')}" in done.stdout
    report = json.loads(run(["doctor", "--json"], env, repo).stdout)
    names = [c["name"] for c in report["checks"]]
    assert report["ok"] and {"user store", "project store", "trust", "hook errors", "verify (project)"} <= set(names)
    [project] = [c for c in report["checks"] if c["name"] == "project store"]
    assert str(repo / ".memory-review") in project["detail"]


def test_doctor_reports_each_thing_that_is_off(tmp_path: Path, env: dict) -> None:
    # A store someone else applied (their own user store): foreign here.
    author = {**env, "MEMORY_REVIEW_HOME": str(tmp_path / "author-home")}
    root = git_repo(tmp_path / "cloned", author)
    run(["apply", _propose(root, author)], author, root)
    Workspace(root, tmp_path / "author-home").project.compact()  # the manifest names the memory's file
    claude = tmp_path / "claude-config"
    mine = {**env, "CLAUDE_CONFIG_DIR": str(claude)}
    # Hooks that start an executable which is gone (an uninstalled virtualenv).
    installed = run(
        ["install", "claude-code", "--local", "--command", "/gone/venv/bin/memory-review hook claude-code"], mine, root
    )
    assert installed.returncode == 0, installed.stderr
    # A hook failure today, as Claude Code would cause it: a payload that is not JSON.
    hooked = subprocess.run(
        [sys.executable, "-m", "memory_review.cli", "hook", "claude-code"],
        input=b"{not json",
        env=mine,
        cwd=root,
        capture_output=True,
        timeout=60,
    )
    assert hooked.returncode == 0

    done = run(["doctor", "--json"], mine, root)
    assert done.returncode == 1, done.stderr
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    assert not checks["trust"]["ok"] and "not approved here" in checks["trust"]["detail"]
    hooks = checks["claude-code (local)"]
    assert not hooks["ok"] and "/gone/venv/bin/memory-review" in hooks["detail"] and "--local" in hooks["advice"]
    assert not checks["hook errors"]["ok"] and "1 in the last day" in checks["hook errors"]["detail"]
    assert checks["verify (project)"]["ok"]
    text = run(["doctor"], mine, root)
    assert text.returncode == 1 and "3 thing(s) to look at" in text.stdout and "Traceback" not in text.stderr

    # A memory file edited by hand: verify's finding, and a check that cannot run says why.
    [memory] = (root / ".memory-review" / "memory").iterdir()
    memory.write_bytes(memory.read_bytes() + b"\nedited outside\n")
    checks = {c["name"]: c for c in json.loads(run(["doctor", "--json"], mine, root).stdout)["checks"]}
    assert not checks["verify (project)"]["ok"] and "sha256" in checks["verify (project)"]["detail"]
    assert not checks["trust"]["ok"] and memory.name in checks["trust"]["detail"]


def test_a_store_from_a_newer_tool_is_refused_and_never_rewritten(repo: Path, env: dict) -> None:
    pending = _propose(repo, env)
    manifest = repo / ".memory-review" / "manifest.json"
    newer = manifest.read_bytes().replace(b'"version": 2', b'"version": 3')
    assert newer != manifest.read_bytes()
    manifest.write_bytes(newer)
    store = {p: p.read_bytes() for p in (repo / ".memory-review").rglob("*") if p.is_file()}
    for args, stdin in (
        (["list"], None),
        (["apply", pending], None),
        (["verify"], None),
        (["verify", "--repair"], None),
        (["forget", "--text-from", "-", "--reason", "x", "--yes"], "Postgres"),
    ):
        done = run(args, env, repo, stdin=stdin)
        assert done.returncode == 1, (args, done.stdout, done.stderr)
        first = done.stderr.splitlines()[0]
        assert "store format 3 was written by a newer memory-review" in first, (args, done.stderr)
        assert "upgrade memory-review" in done.stderr and "Traceback" not in done.stderr
    after = {p: p.read_bytes() for p in (repo / ".memory-review").rglob("*") if p.is_file()}
    assert after == store
