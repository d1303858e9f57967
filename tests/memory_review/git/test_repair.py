"""``verify --repair`` never loses (issue 15 §6, docs/adr/0024): it folds what is provably committed (the log,
then the git history, then manifest and files as corroboration), shows its plan unless ``--apply``, backs up
first, refuses when the sources disagree, and records a ``store.recovered`` event saying what it did."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from git_helpers import Clone, Team, history_log

STORE = ".memory-review"


def _files(root: Path) -> dict[str, bytes]:
    """Every file of a store (but the lock), by relative path: what 'nothing changed' is checked against."""
    store = root / STORE
    return {
        str(p.relative_to(store)): p.read_bytes()
        for p in sorted(store.rglob("*"))
        if p.is_file() and p.name != ".lock" and "history.git" not in p.parts
    }


def _plain_clone(tmp_path: Path) -> Clone:
    """A project that is not a git repository: no history to restore from."""
    root = tmp_path / "plain"
    root.mkdir()
    return Clone("ann", root, tmp_path / "home-plain")


def _lines(clone: Clone) -> list[bytes]:
    return (clone.root / STORE / "events.jsonl").read_bytes().splitlines(keepends=True)


def _refused(clone: Clone, *, why: str) -> None:
    before = _files(clone.root)
    done = clone.cli("verify", "--repair", "--apply")
    assert done.returncode == 1
    [line] = done.stderr.strip().splitlines()[:1]
    assert "repair refuses" in line and why in line, done.stderr
    assert len(done.stderr.strip().splitlines()) <= 2  # one line (and at most a hint): never a traceback
    assert _files(clone.root) == before  # nothing changed, no backup made


def test_a_missing_log_is_restored_from_the_git_history_and_nothing_is_lost(team: Team) -> None:
    ann = team["ann"]
    ann.approve("one", "first")
    ann.approve("two", "second")
    pending = ann.propose("later", "proposed after the last history commit")
    log = ann.root / STORE / "events.jsonl"
    old_log = log.read_bytes()
    log.unlink()
    before = _files(ann.root)

    shown = ann.cli("verify", "--repair")  # a dry run by default: the plan, nothing changed
    assert shown.returncode == 1
    assert "would: write events.jsonl again from the git history" in shown.stdout
    assert f"would: log pending candidate {pending} again from its file" in shown.stdout
    assert "nothing was changed" in shown.stdout and _files(ann.root) == before

    done = ann.cli("verify", "--repair", "--apply", "--json")
    assert done.returncode == 0, done.stderr
    [project, _user] = json.loads(done.stdout)["stores"]
    assert project["problems"] == [] and any("backed up" in line for line in project["repaired"])
    assert set(ann.bodies()) == {"one", "two"}  # no approved memory lost
    assert [c.candidate.id for c in ann.pending()] == [pending]  # nor the pending candidate
    events = ann.events()
    assert log.read_bytes().startswith(old_log[: old_log.rindex(b"\n", 0, len(old_log) - 1) + 1])
    assert [e.type for e in events[-2:]] == ["candidate.created", "store.recovered"]
    recovered = events[-1]
    assert "git history" in recovered.reason and "backups/repair-" in recovered.reason
    [backup] = (ann.root / STORE / "backups").iterdir()
    assert (backup / "manifest.json").read_bytes() == before["manifest.json"]
    assert not (backup / "events.jsonl").exists()  # there was none to copy
    ann.assert_valid()
    assert history_log(ann.root) == log.read_bytes()  # the repair itself is in the history


def test_without_a_history_a_missing_log_is_refused_and_the_memories_stay(tmp_path: Path) -> None:
    ann = _plain_clone(tmp_path)
    ann.approve("one", "first")
    ann.propose("two", "pending")
    (ann.root / STORE / "events.jsonl").unlink()
    _refused(ann, why="changed memory (one)")  # the memory file and manifest.json are left as they were


def test_without_a_history_a_lost_proposal_is_logged_again_from_its_file(tmp_path: Path) -> None:
    ann = _plain_clone(tmp_path)
    ann.approve("one", "first")
    pending = ann.propose("two", "pending")
    log = ann.root / STORE / "events.jsonl"
    log.write_bytes(b"".join(_lines(ann)[:-1]))  # the proposal's line is lost
    done = ann.cli("verify", "--repair", "--apply")
    assert done.returncode == 0, done.stderr
    assert [c.candidate.id for c in ann.pending()] == [pending]
    assert [e.type for e in ann.events()[-2:]] == ["candidate.created", "store.recovered"]
    ann.assert_valid()


@pytest.mark.parametrize("where", ["git", "plain"])
def test_an_altered_last_line_is_never_blessed(team: Team, tmp_path: Path, where: str) -> None:
    ann = team["ann"] if where == "git" else _plain_clone(tmp_path)
    ann.approve("one", "first")
    ann.approve("two", "the real body")
    lines = _lines(ann)
    raw = orjson.loads(lines[-1])
    raw["changes"][0]["after"]["body"] = "a forged body"
    lines[-1] = orjson.dumps(raw, option=orjson.OPT_SORT_KEYS) + b"\n"  # still chains: it is the last line
    (ann.root / STORE / "events.jsonl").write_bytes(b"".join(lines))
    _refused(ann, why="disagree from seq" if where == "git" else "never blesses")


@pytest.mark.parametrize("where", ["git", "plain"])
def test_a_lost_last_discard_never_brings_the_candidate_back(team: Team, tmp_path: Path, where: str) -> None:
    ann = team["ann"] if where == "git" else _plain_clone(tmp_path)
    ann.approve("one", "first")
    ws = ann.ws
    cid = ann.propose("noise", "not worth keeping")
    ws.discard([cid], actor="ann", reason="noise")
    log = ann.root / STORE / "events.jsonl"
    log.write_bytes(b"".join(_lines(ann)[:-1]))  # the discard's line is lost
    if where == "plain":
        _refused(ann, why=f"candidate {cid} is pending")
        return
    done = ann.cli("verify", "--repair", "--apply")  # the history holds the discard: it is restored
    assert done.returncode == 0, done.stderr
    assert ann.pending() == [] and ann.events()[-2].type == "candidate.discarded"
    ann.assert_valid()


def test_a_damaged_line_in_the_middle_is_restored_from_the_history(team: Team) -> None:
    ann = team["ann"]
    for name in ("one", "two", "three"):
        ann.approve(name, f"about {name}")
    log = ann.root / STORE / "events.jsonl"
    good = log.read_bytes()
    lines = _lines(ann)
    lines[1] = lines[1].replace(b'"seq":2', b'"seq":9')
    log.write_bytes(b"".join(lines))
    shown = ann.cli("verify", "--repair")
    assert "would: write events.jsonl again from the git history" in shown.stdout
    assert log.read_bytes() != good  # the dry run changed nothing
    done = ann.cli("verify", "--repair", "--apply")
    assert done.returncode == 0, done.stderr
    assert log.read_bytes().startswith(good)
    assert set(ann.bodies()) == {"one", "two", "three"}
    ann.assert_valid()


def test_apply_without_repair_is_a_usage_error(tmp_path: Path) -> None:
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", "memory_review.cli", "--project", str(tmp_path), "verify", "--apply"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "--apply goes with --repair" in done.stderr
