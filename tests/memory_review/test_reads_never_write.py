"""Reads never write (issue 15, point 3; docs/adr/0023).

``context --session`` (the prompt hook's call) records what the session was given as a
``context.built`` event: one durable log append under the lock, and nothing else. The manifest,
``MEMORY.md`` and every other file keep their bytes and their mtime; the manifest then lags the log
by context builds only, a legal at-rest state that readers, recovery, ``verify``, replay and the git
history all accept, and the next commit's checkpoint moves past.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_kit import run, run_json

from memory_review.errors import IntegrityError
from memory_review.events import EventLog
from memory_review.workspace import Workspace

SESSION = "sess-reads"
QUERY = "which database do the tests use"


def _workspace(repo: Path, env: dict) -> Workspace:
    return Workspace(repo, Path(env["MEMORY_REVIEW_HOME"]))


def _approve(repo: Path, env: dict, memory_id: str, body: str, scope: str = "project") -> None:
    doc = {
        "op": "create",
        "scope": scope,
        "rationale": "said twice",
        "memory": {"id": memory_id, "type": "fact", "description": f"About {memory_id}", "body": body},
    }
    proposed = run_json(["propose", "--file", "-"], env, repo, json.dumps(doc))
    run_json(["apply", proposed["id"]], env, repo)


def _snapshot(root: Path) -> dict[str, tuple[bytes | None, int]]:
    """Every entry under a store but its log: the bytes of each file (None: a folder) and its mtime."""
    entries: dict[str, tuple[bytes | None, int]] = {}
    for path in sorted(root.rglob("*")):
        if path.name == "events.jsonl" or "history.git" in path.parts:
            continue
        stat = path.lstat()
        entries[path.relative_to(root).as_posix()] = (path.read_bytes() if path.is_file() else None, stat.st_mtime_ns)
    return entries


def _log_types(store_root: Path) -> list[str]:
    return [event.type for event in EventLog(store_root / "events.jsonl", origin="0" * 16)]


@pytest.fixture
def stocked(repo: Path, env: dict) -> Path:
    _approve(repo, env, "fact-db", "The tests use Postgres 16 in a container.")
    _approve(repo, env, "fact-ci", "CI runs the database tests on every push.")
    _approve(repo, env, "pref-user", "Answer in short sentences.", scope="user")
    ws = _workspace(repo, env)
    ws.project.compact(), ws.user.compact()  # the manifests at the log heads: only context builds follow
    return repo


def test_context_session_changes_no_file_but_the_log(stocked: Path, env: dict) -> None:
    project, user = stocked / ".memory-review", Path(env["MEMORY_REVIEW_HOME"])
    before = {"project": _snapshot(project), "user": _snapshot(user)}
    types_before = _log_types(project)
    manifest = (project / "manifest.json").read_bytes()
    for turn in range(3):
        done = run(["--session", SESSION, "context", "--query", f"{QUERY} {turn}", "--json"], env, stocked)
        assert done.returncode == 0, done.stderr
        assert "fact-db" in done.stdout
    assert {"project": _snapshot(project), "user": _snapshot(user)} == before  # bytes and mtimes
    assert (project / "manifest.json").read_bytes() == manifest
    assert _log_types(project) == [*types_before, "context.built", "context.built", "context.built"]
    assert json.loads(manifest)["log_seq"] <= len(types_before)  # behind the log: a tail, then context builds


def test_a_lagging_manifest_is_at_rest_for_readers_verify_and_replay(stocked: Path, env: dict) -> None:
    listed = run_json(["memories"], env, stocked)
    for _turn in range(2):
        assert run(["--session", SESSION, "context", "--query", QUERY], env, stocked).returncode == 0
    ws = _workspace(stocked, env)
    manifest = ws.project.read_manifest()
    assert manifest is not None and manifest.log_seq < ws.project.log().head().seq
    assert ws.project.at_rest(manifest)
    assert run_json(["memories"], env, stocked) == listed
    assert run_json(["verify"], env, stocked)["ok"] is True
    replayed = ws.replay()
    assert {m.id: m for m in ws.project.view().memories()} == replayed
    rebuilt = ws.replay_session(SESSION)
    assert len(rebuilt) == 2 and all(context.matches for context in rebuilt)
    assert (stocked / ".memory-review" / "manifest.json").read_bytes() == manifest_bytes(stocked)


def manifest_bytes(repo: Path) -> bytes:
    return (repo / ".memory-review" / "manifest.json").read_bytes()


def test_verify_reads_without_moving_a_lagging_manifest(stocked: Path, env: dict) -> None:
    assert run(["--session", SESSION, "context"], env, stocked).returncode == 0
    manifest = manifest_bytes(stocked)
    assert run_json(["verify"], env, stocked)["ok"] is True
    assert manifest_bytes(stocked) == manifest


def test_the_next_commits_join_the_tail_past_the_context_builds(stocked: Path, env: dict) -> None:
    for _turn in range(3):
        assert run(["--session", SESSION, "context"], env, stocked).returncode == 0
    before = manifest_bytes(stocked)
    _approve(stocked, env, "fact-lint", "Lint with ruff before every commit.")
    ws = _workspace(stocked, env)
    assert manifest_bytes(stocked) == before  # a commit under the bound appends to the tail (docs/adr/0029)
    current, head = ws.project.current_manifest(), ws.project.log().head()
    assert (current.log_seq, current.log_head) == (head.seq, head.hash)
    assert "fact-lint" in current.memories
    assert [e.type for e in ws.project.past_checkpoint(ws.project.read_manifest())[1]] == [
        "candidate.created",
        "candidate.applied",
    ]  # the context builds are skimmed, never in the tail
    assert run_json(["verify"], env, stocked)["ok"] is True


def test_git_history_records_a_lagging_store_at_the_log_head(stocked: Path, env: dict) -> None:
    ws = _workspace(stocked, env)
    history = ws.history["project"]
    assert history.position() is not None  # each apply recorded a commit
    assert run(["--session", SESSION, "context"], env, stocked).returncode == 0
    with ws.project.transact():
        commit = history.record()  # e.g. what sync does first, under the lock
        again = history.record()
    head = ws.project.log().head()
    assert commit is not None and again is None
    assert history.position() is not None and history.position().seq == head.seq


def test_an_altered_context_line_past_the_manifest_is_refused_not_skipped(stocked: Path, env: dict) -> None:
    for turn in range(2):
        assert run(["--session", SESSION, "context", "--query", f"{QUERY} {turn}"], env, stocked).returncode == 0
    log = stocked / ".memory-review" / "events.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    lines[-2] = lines[-2].replace(b'"query_chars":', b'"query_chars":1')  # a skimmed line, altered
    log.write_bytes(b"".join(lines))
    with pytest.raises(IntegrityError, match="prev"):
        _workspace(stocked, env).memories()
    done = run(["--session", SESSION, "context"], env, stocked)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("memory-review: error: ") and "events.jsonl:6: prev" in done.stderr


def test_a_new_store_is_created_by_its_first_context_build(tmp_path: Path, env: dict) -> None:
    project = tmp_path / "fresh"
    project.mkdir()
    assert run(["--session", SESSION, "--project", str(project), "context"], env, tmp_path).returncode == 0
    store = project / ".memory-review"
    assert json.loads((store / "manifest.json").read_bytes())["log_seq"] == 0  # its origin; the build is a tail
    assert _log_types(store) == ["context.built"]
    assert os.path.exists(store / "MEMORY.md")
