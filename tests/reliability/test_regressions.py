"""Regression tests for the bugs the reliability suite found, one per fix (see docs/reliability.md)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from memory_review.events import faults
from memory_review.events.faults import FaultPlan
from memory_review.proposal import ProposedMemory
from tools.reliability import corpus_cases  # noqa: F401 — registers the corpus
from tools.reliability.corpus import CASES, run_case
from tools.reliability.crash import Point, Prepared, crash_trial
from tools.reliability.iofaults import io_trial
from tools.reliability.recovery import interrupted_trial, make_crash_state
from tools.reliability.scenario import copy_trial, upsert

pytestmark = pytest.mark.usefixtures("verify_way")  # every finding the same, full and incremental (ADR 0056)


def _point(prepared: Prepared, op: str, name: str, nth: int = 1, *, partial: bool = False) -> Point:
    trace = prepared.traces[op]
    index = [i for i, n in enumerate(trace) if n == name][nth - 1]
    return Point(name, nth, index, partial=partial)


def test_a_resolved_candidate_never_outlives_a_crash_after_the_checkpoint(prepared: Prepared, tmp_path: Path) -> None:
    # Found: the candidate file was removed AFTER manifest.json moved, so a crash between the two left an
    # applied (or discarded) candidate "pending" forever — and a discarded one could then be applied.
    for op in ("apply", "discard"):
        point = _point(prepared, op, "durable.remove.before_unlink")
        outcome, problems = crash_trial(prepared, op, point, tmp_path / op, by_write=False)
        assert (outcome, problems) == ("after", [])


def test_temp_files_of_a_crashed_manifest_replace_are_collected(prepared: Prepared, tmp_path: Path) -> None:
    # Found: only memory/ was swept, so a crash inside the atomic replace of manifest.json or MEMORY.md
    # left a .tmp-* file in the store root for good.
    trace = prepared.traces["apply"]
    renames = [i for i, name in enumerate(trace) if name == "durable.atomic_replace.before_rename"]
    assert len(renames) >= 2
    commit_point = trace.index("log.append.after_fsync")
    # The trust ledger's before the commit point (docs/adr/0021), then MEMORY.md if its lines change, then
    # manifest.json after it.
    for nth, at in enumerate(renames, 1):
        point = _point(prepared, "apply", "durable.atomic_replace.before_rename", nth)
        outcome, problems = crash_trial(prepared, "apply", point, tmp_path / f"n{nth}", by_write=True)
        assert (outcome, problems) == ("before" if at < commit_point else "after", [])
        assert not [n for n in os.listdir(tmp_path / f"n{nth}/project/.memory-review") if n.startswith(".tmp")]


def test_verify_passes_right_after_a_torn_append(prepared: Prepared, tmp_path: Path) -> None:
    # Found: recovery left a dead writer's torn tail for the next append to cut, so `verify` failed
    # ("torn last line") right after a crash although nothing was damaged.
    point = _point(prepared, "apply", "log.append.before_write", partial=True)
    outcome, problems = crash_trial(prepared, "apply", point, tmp_path / "torn", by_write=False)
    assert (outcome, problems) == ("before", [])


def test_recovery_cuts_the_torn_tail_under_the_lock(prepared: Prepared, tmp_path: Path) -> None:
    trial = copy_trial(prepared.template, tmp_path / "t")
    store = trial.workspace().project
    size = store.log_path.stat().st_size
    with open(store.log_path, "ab") as log:
        log.write(b'{"v":1,"seq":')
    [project, user] = trial.workspace().verify()
    assert project.ok and user.ok, project.problems
    assert store.log_path.stat().st_size == size and store.log().torn_tail() is None


def _io_point(prepared: Prepared, op: str, name: str, nth: int = 1) -> int:
    return [i for i, n in enumerate(prepared.traces[op]) if n == name][nth - 1] + 1


def test_a_success_whose_candidate_files_failed_is_visible_at_once(prepared: Prepared, tmp_path: Path) -> None:
    # Found: after the commit point a failed candidate-file write is only a warning, but `list`/`show`
    # read candidates/ alone: the new proposal was missing, an applied one still "pending".
    cases = [
        ("create", "durable.atomic_replace.before_open"),
        ("apply", "durable.remove.before_unlink"),
        ("edit", "durable.atomic_replace.before_write"),
        ("discard", "durable.remove.before_unlink"),
    ]
    for op, name in cases:
        n = _io_point(prepared, op, name)
        outcome, problems = io_trial(prepared, op, n, "once", errno.EIO, tmp_path / op)
        assert (outcome, problems) == ("success→after", []), op


def test_show_and_apply_see_a_candidate_the_log_holds_before_its_file(prepared: Prepared, tmp_path: Path) -> None:
    trial = copy_trial(prepared.template, tmp_path / "t")
    ws = trial.workspace()
    faults.arm(FaultPlan(action="raise", point="durable.atomic_replace.before_open", nth=1))
    [state] = ws.propose([upsert("kappa", "Prefer small commits.")])
    faults.arm(None)
    cid = state.candidate.id
    assert ws.warnings and not (ws.project.candidate_dir / f"{cid}.json").exists()
    assert ws.show(cid).status == "pending"
    assert cid in [s.candidate.id for s in ws.list_candidates()]
    ws.apply([cid], actor="alice")
    assert ws.show(cid).status == "applied" and cid not in [s.candidate.id for s in ws.list_candidates()]


def test_list_ignores_temp_candidate_files_and_recovery_collects_them(prepared: Prepared, tmp_path: Path) -> None:
    # Found: Store.pending() took a writer's in-flight (or a dead writer's) `.tmp-*-cand_*.json` for a
    # candidate and raised UnsafePathError, so `list` broke while another process wrote, or for good
    # once recovery had nothing left to roll forward (leftovers were collected only at a commit).
    trial = copy_trial(prepared.template, tmp_path / "t")
    ws = trial.workspace()
    temp = ws.project.candidate_dir / f".tmp-0123456789abcdef-{prepared.ctx.new}.json"
    temp.write_bytes(b'{"half": ')
    assert len(ws.list_candidates()) == len(prepared.known)
    assert all(r.ok for r in ws.verify())
    assert not temp.exists()


def test_recovery_killed_after_its_checkpoint_leaves_nothing_behind(prepared: Prepared, tmp_path: Path) -> None:
    crashed, expected = make_crash_state(
        prepared, "edit", Point("durable.atomic_replace.before_rename", 1, -1), tmp_path / "state"
    )
    # Recovery renames the edited candidate's file, then manifest.json (an edit leaves MEMORY.md as it is).
    target = Point("durable.atomic_replace.after_rename", 2, -1)
    outcome, problems = interrupted_trial(prepared, "edit", crashed.root, expected, target, tmp_path / "r")
    assert (outcome, problems) == ("after", [])


def test_a_missing_memory_file_is_a_typed_error_naming_it(prepared: Prepared, tmp_path: Path) -> None:
    # Found: applying a change to a memory whose file is missing leaked the store's internal
    # _FileMovedUnderUs (a traceback through the CLI), and readers said "store kept changing while
    # being read" without naming the file.
    [item] = [c for c in CASES if c.name == "memory file listed in manifest.json is missing"]
    assert run_case(item, prepared.template, prepared.ctx, tmp_path / "case") == []


def test_a_session_write_whose_file_failed_is_visible_at_once(prepared: Prepared, tmp_path: Path) -> None:
    # Found: a session write is committed by its event, and a failure to write the session file after
    # it is only a warning — but session_memories() read the file alone, so the write was invisible.
    trial = copy_trial(prepared.template, tmp_path / "t")
    ws = trial.workspace()
    faults.arm(FaultPlan(action="raise", point="durable.atomic_replace.before_open", nth=1))
    ws.write_session_memory("sess-1", ProposedMemory(id="scratch", type="fact", description="d", body="b"))
    faults.arm(None)
    assert ws.warnings
    assert [m.id for m in ws.session_memories("sess-1")] == ["scratch"]
    assert "scratch" in [m.id for m in ws.memories(session="sess-1")]
    n = prepared.traces["session-write"].index("durable.atomic_replace.before_open") + 1
    assert io_trial(prepared, "session-write", n, "once", errno.EACCES, tmp_path / "io") == ("success→after", [])
