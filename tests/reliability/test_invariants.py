"""The invariant checker itself: silent on a healthy store, loud on each kind of damage it exists to catch."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tools.reliability.crash import Prepared
from tools.reliability.invariants import Outside, check_invariants, stores_of
from tools.reliability.scenario import Trial, copy_trial
from tools.reliability.state import snapshot_diff, store_state, tree_snapshot

pytestmark = pytest.mark.usefixtures("verify_way")  # every finding the same, full and incremental (ADR 0056)


@pytest.fixture
def trial(prepared: Prepared, tmp_path: Path) -> Trial:
    return copy_trial(prepared.template, tmp_path / "t")


def _store(trial: Trial) -> Path:
    return trial.project / ".memory-review"


def test_a_healthy_store_has_no_violation(trial: Trial) -> None:
    outside = Outside.take(trial.root, stores_of(trial.workspace()))
    assert check_invariants(trial.workspace(), outside=outside) == []


def _tamper_memory(trial: Trial) -> None:
    entry = trial.workspace().project.current_manifest().memories["alpha"]
    path = _store(trial) / entry.file
    path.write_bytes(path.read_bytes().replace(b"2 spaces", b"8 spaces"))


def _orphan_memory(trial: Trial) -> None:
    (_store(trial) / "memory" / "ghost-0123456789ab.md").write_bytes(b"---\n")


def _temp_file(trial: Trial) -> None:
    (_store(trial) / ".tmp-0123456789abcdef-manifest.json").write_bytes(b"{")


def _stray_candidate(trial: Trial) -> None:
    (_store(trial) / "candidates" / "cand_01ARZ3NDEKTSV4RRFFQ69G5FAV.json").write_bytes(b"{}")


def _lock_deleted(trial: Trial) -> None:
    (_store(trial) / ".lock").unlink()


def _manifest_behind(trial: Trial) -> None:
    path = _store(trial) / "manifest.json"
    doc = json.loads(path.read_bytes())
    doc["log_seq"] = 3
    path.write_text(json.dumps(doc))


def _log_line_altered(trial: Trial) -> None:
    path = _store(trial) / "events.jsonl"
    path.write_bytes(path.read_bytes().replace(b"the user said so", b"the user said no", 1))


@pytest.mark.parametrize(
    "damage, expected",
    [
        (_tamper_memory, "does not match its sha256"),
        (_orphan_memory, "unreferenced memory file"),
        (_temp_file, "temp file left"),
        (_stray_candidate, "candidate file without a pending candidate"),
        (_lock_deleted, ".lock was deleted"),
        (_manifest_behind, "the log does not continue from the manifest"),
        (_log_line_altered, "events.jsonl: line"),
    ],
)
def test_each_kind_of_damage_is_reported(trial: Trial, damage, expected: str) -> None:
    damage(trial)
    problems = check_invariants(trial.workspace().project)
    assert any(expected in p for p in problems), problems


def test_writes_outside_the_store_are_reported(trial: Trial) -> None:
    outside = Outside.take(trial.root, stores_of(trial.workspace()))
    (trial.project / "notes.txt").write_text("an agent wrote here")
    assert check_invariants(trial.workspace(), outside=outside) == ["outside the store: added project/notes.txt"]


def test_states_compare_equal_across_copies_and_differ_after_a_change(prepared: Prepared, tmp_path: Path) -> None:
    one, two = copy_trial(prepared.template, tmp_path / "a"), copy_trial(prepared.template, tmp_path / "b")
    assert store_state(one.workspace(), prepared.known) == prepared.before
    assert store_state(two.workspace(), prepared.known) == prepared.before
    two.workspace().discard([prepared.ctx.disc], actor="alice")
    assert store_state(two.workspace(), prepared.known) != prepared.before


def test_tree_snapshots_see_content_links_and_removals(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("1")
    before = tree_snapshot(tmp_path)
    (tmp_path / "a").write_text("2")
    os.symlink("/etc", tmp_path / "link")
    assert snapshot_diff(before, tree_snapshot(tmp_path)) == ["added link", "changed a"]
