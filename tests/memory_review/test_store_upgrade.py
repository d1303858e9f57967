"""A store written in format 1 (before the checkpoint of ADR 0029) opens, upgrades itself and loses nothing.

The fixture ``fixtures/store_format_1`` was written by the code of main at 41d6771 (see its README). Reads
never write, so a reader takes it as it is; the first writer upgrades it under the lock: a backup of its
files, a ``store.upgraded`` event saying from which format to which, and the manifest written whole in
format 2. A process killed anywhere in that step leaves a store the next one finishes, with one event.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from forkserver_kit import as_text, run_cli

from memory_review.events import EventLog, FaultPlan
from memory_review.manifest import MANIFEST_VERSION
from memory_review.workspace import Workspace
from tools.reliability.arming import fault_env

FIXTURE = Path(__file__).parent / "fixtures" / "store_format_1"
ACTOR = "alice"
MEMORIES = {
    "fact-0": "Fact number 0 about the build.",
    "fact-1": "Fact number 1, corrected.",
    "fact-2": "Fact number 2 about the build.",
    "fact-3": "Fact number 3 about the build.",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    shutil.copytree(FIXTURE, root / ".memory-review")
    return root


def _workspace(project: Path) -> Workspace:
    return Workspace(project, project.parent / "home")


def _manifest(project: Path) -> dict:
    return json.loads((project / ".memory-review" / "manifest.json").read_bytes())


def _types(project: Path) -> list[str]:
    return [event.type for event in EventLog(project / ".memory-review" / "events.jsonl", origin="0" * 16)]


def _cli(project: Path, *args: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "MEMORY_REVIEW_HOME": str(project.parent / "home"),
        "MEMORY_REVIEW_ACTOR": ACTOR,
        **(extra or {}),
    }
    # its own process, forked past the start-up unless a fault plan is armed (forkserver_kit)
    return as_text(run_cli(["--project", str(project), *args], env=env, cwd=Path.cwd(), timeout=120))


def _holds_everything(ws: Workspace) -> None:
    assert {m.id: m.body for m in ws.project.view().memories()} == MEMORIES  # served once trusted here
    assert [c.memory for s in ws.list_candidates(scope="project") for c in s.candidate.changes] == ["fact-pending"]
    assert list(ws.project.session_memories("sess-fixture")) == ["scratch"]  # held; served only if written here


def test_a_format_1_store_is_read_as_it_is(project: Path) -> None:
    before = (project / ".memory-review" / "manifest.json").read_bytes()
    assert _manifest(project)["version"] == 1
    _holds_everything(_workspace(project))
    assert (project / ".memory-review" / "manifest.json").read_bytes() == before  # reads never write


def test_the_first_writer_upgrades_it_recorded_backed_up_and_it_verifies(project: Path) -> None:
    types = _types(project)
    ws = _workspace(project)
    assert ws.trust(everything=True, actor=ACTOR)  # a copied store: a person approves it here (ADR 0021)
    assert _manifest(project)["version"] == MANIFEST_VERSION == 2
    [upgraded] = ws.log(type="store.upgraded")
    assert upgraded.seq == len(types) + 1 and "store format 1 -> 2" in upgraded.reason
    backup = Path(upgraded.reason.rpartition(" in ")[2])
    assert backup.parent == project / ".memory-review" / "backups"
    assert (backup / "manifest.json").read_bytes() == (FIXTURE / "manifest.json").read_bytes()
    assert all(report.ok for report in ws.verify()), [r.problems for r in ws.verify()]
    fresh = _workspace(project)
    _holds_everything(fresh)
    included = {item.id for item in fresh.context(session=None, query=None, budget=None).included}
    assert included == set(MEMORIES)
    fresh.apply([s.candidate.id for s in fresh.list_candidates(scope="project")], actor=ACTOR)
    assert "fact-pending" in {m.id for m in fresh.project.view().memories()}
    assert [e.type for e in fresh.log()].count("store.upgraded") == 1


# A kill before the event (in the backup, before the append) leaves format 1; after it, format 1 with the
# event in the tail; mid-compaction, the derived files half written. The next writer finishes each.
# (point, its nth hit, whether store.upgraded is in the log after the kill, the manifest's format then)
KILLS = [
    ("durable.write_new.before_open", 1, False, 1),
    ("durable.write_new.before_open", 9, False, 1),
    ("log.append.before_write", 1, False, 1),
    ("log.append.before_fsync", 1, True, 1),
    ("durable.atomic_replace.before_rename", 1, True, 1),
    ("durable.atomic_replace.after_rename", 1, True, 2),
]


@pytest.mark.parametrize(("point", "nth", "recorded", "version"), KILLS)
def test_an_upgrade_killed_anywhere_is_finished_by_the_next_writer(
    project: Path, point: str, nth: int, recorded: bool, version: int
) -> None:
    _workspace(project).user.init()  # so every kill below lands in the project store's upgrade
    plan = FaultPlan(action="kill", point=point, nth=nth).model_dump_json()
    killed = _cli(project, "init", extra=fault_env(plan))
    assert killed.returncode == 137, killed.stderr
    assert _manifest(project)["version"] == version  # the manifest is the last file a compaction writes
    assert _types(project).count("store.upgraded") == (1 if recorded else 0)
    _holds_everything(_workspace(project))  # a reader in between: whatever the kill left, it reads
    finished = _cli(project, "init")
    assert finished.returncode == 0, finished.stderr
    assert _manifest(project)["version"] == 2
    assert _types(project).count("store.upgraded") == 1
    ws = _workspace(project)
    _holds_everything(ws)
    assert all(report.ok for report in ws.verify()), [r.problems for r in ws.verify()]
