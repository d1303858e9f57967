"""Readers while the checkpoint is compacted again and again (issue #15, docs/adr/0029): real processes.

One process updates memories and compacts after each batch: the whole manifest is rewritten and the
versions it no longer names are collected from ``memory/``. Another reads without the lock, as the UI,
the MCP server and the prompt hook do: ``Workspace.memories()`` and ``Workspace.context()`` in process,
and ``memory-review memories --json`` / ``context --json`` as processes (the latter through the read
index). Every read must succeed and show every memory, each at a version no older than the last read
showed (a torn or half-compacted state would miss one, fail on a collected file, or go back).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memory_review.proposal import parse_proposal
from memory_review.workspace import Workspace
from tools.reliability.invariants import check_invariants

pytestmark = pytest.mark.usefixtures("verify_way")  # every finding the same, full and incremental (ADR 0056)

MEMORIES = 12
ROUNDS = 15
PER_ROUND = 4

COMPACTOR = """
import json, sys, time
from pathlib import Path
from memory_review.proposal import parse_proposal
from memory_review.workspace import Workspace

root, home, plan = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(Path(sys.argv[3]).read_text())
progress, done = root / "reader-progress", root / "compactor-done"


def reader_at() -> int:
    try:
        return int(progress.read_text() or 0)
    except FileNotFoundError:
        return 0


ws = Workspace(root, home, lock_timeout=60)
for batch in plan:
    seen = reader_at()
    while reader_at() <= seen:  # the reader has read since the last round: every round meets a reader
        if (root / "reader-ended").exists():
            sys.exit("the reader ended before the compactions did")
        time.sleep(0.005)
    states = ws.propose([parse_proposal(p) for p in batch])
    ws.apply([s.candidate.id for s in states], actor="alice")
    ws.project.compact()  # the whole manifest from the fold, then the superseded versions collected
done.write_text("done")
"""

READER = """
import json, os, subprocess, sys
from pathlib import Path
from memory_review.workspace import Workspace

root, home, EXPECTED = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
progress, done = root / "reader-progress", root / "compactor-done"
ws = Workspace(root, home, lock_timeout=60)
report = {"reads": 0, "cli_reads": 0, "during": 0, "problems": [], "seen": []}
latest = {}

def check(kind, versions):
    if sorted(versions) != sorted(EXPECTED):
        report["problems"].append(f"{kind}: ids {sorted(versions)}")
    for memory_id, version in versions.items():
        if version < latest.get(memory_id, 0):
            report["problems"].append(f"{kind}: {memory_id} went back from v{latest[memory_id]} to v{version}")
        latest[memory_id] = max(version, latest.get(memory_id, 0))

def version_of(body):
    return int(body.rsplit(" v", 1)[1].rstrip("."))

def cli(*args):
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(home)}
    done_ = subprocess.run([sys.executable, "-m", "memory_review.main", "--project", str(root), *args],
                           capture_output=True, env=env, timeout=120)
    if done_.returncode:
        report["problems"].append(f"{' '.join(args)} exited {done_.returncode}: {done_.stderr.decode()[-300:]}")
        return None
    return json.loads(done_.stdout)

step = 0
try:
    while True:
        finished = done.exists()
        step += 1
        (root / "reader-progress.tmp").write_text(str(step))
        os.replace(root / "reader-progress.tmp", progress)  # the compactor starts its next round
        # An error here ends the reader with its traceback: the test shows it.
        check("memories()", {m.id: version_of(m.body) for m in ws.memories()})
        built = ws.context(budget=1_000_000)
        if sorted(i.id for i in built.included) != sorted(EXPECTED):
            report["problems"].append(f"context(): included {sorted(i.id for i in built.included)}")
        report["reads"] += 2
        if step % 8 == 0:
            listed = cli("memories", "--json")
            if listed is not None:
                check("memories --json", {m["id"]: version_of(m["body"]) for m in listed})
            block = cli("context", "--json", "--budget", "1000000")
            if block is not None and sorted(i["id"] for i in block["included"]) != sorted(EXPECTED):
                report["problems"].append(f"context --json: included {sorted(i['id'] for i in block['included'])}")
            report["cli_reads"] += 2
        if not finished:
            report["during"] += 1
        else:
            break
    report["seen"] = sorted(latest.items())
finally:
    (root / "reader-ended").write_text("ended")  # also when a read failed: the compactor stops waiting
print(json.dumps(report))
"""


def _proposal(index: int, version: int) -> dict:
    return {
        "op": "create" if version == 0 else "update",
        "scope": "project",
        "memory": {
            "id": f"note-{index:02d}",
            "type": "fact",
            "description": f"Note {index}",
            "body": f"Note {index} says v{version}.",
        },
        "rationale": "the user said so",
        "evidence": [{"quote": f"note {index}", "session_id": "s1", "turn_id": "t1"}],
    }


def test_readers_never_see_a_torn_or_missing_state_while_compacting(tmp_path: Path) -> None:
    repo, home = tmp_path / "project", tmp_path / "home"
    repo.mkdir()
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(home), "MEMORY_REVIEW_ACTOR": "alice"}
    ws = Workspace(repo, home)
    ws.init()
    states = ws.propose([parse_proposal(_proposal(i, 0)) for i in range(MEMORIES)])
    ws.apply([s.candidate.id for s in states], actor="alice")
    plan = [
        [_proposal((round_ * PER_ROUND + k) % MEMORIES, round_) for k in range(PER_ROUND)]
        for round_ in range(1, ROUNDS + 1)
    ]
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    expected = json.dumps([f"note-{i:02d}" for i in range(MEMORIES)])
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(repo), str(home), expected],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    compactor = subprocess.run(
        [sys.executable, "-c", COMPACTOR, str(repo), str(home), str(tmp_path / "plan.json")],
        env=env,
        capture_output=True,
        timeout=900,
    )
    out, err = reader.communicate(timeout=900)
    assert reader.returncode == 0, err[-2000:]
    assert compactor.returncode == 0, compactor.stderr.decode()[-2000:]
    report = json.loads(out)
    assert report["problems"] == []
    assert report["during"] >= ROUNDS and report["cli_reads"] > 0  # a read began in every round
    final = {m.id: int(m.body.rsplit(" v", 1)[1].rstrip(".")) for m in Workspace(repo, home).memories()}
    assert sorted(final) == json.loads(expected) and max(final.values()) == ROUNDS
    assert dict(report["seen"]) == final  # the reader's last read, after the last compaction, is the store
    assert check_invariants(Workspace(repo, home)) == []
