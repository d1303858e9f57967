"""The benchmark suite still runs (every case at the ``tiny`` scale, in seconds), and the optimisations
it led to give the same answers as the slow paths they replaced."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.case_extract_growth import JOINERS, TRIGGERS

ROOT = Path(__file__).resolve().parents[1]
BEGIN = "<!-- benchmarks:begin"


def test_the_suite_runs_at_tiny_scale_and_writes_its_page(tmp_path: Path) -> None:
    docs, rows_file = tmp_path / "docs", tmp_path / "rows.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks",
            "--scale",
            "tiny",
            "--docs",
            str(docs),
            "--json",
            str(rows_file),
            "--work",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = json.loads(rows_file.read_text())
    names = " | ".join(row["name"] for row in rows)
    for expected in (
        "apply one candidate (library call)",
        "marked candidates in one call",
        "replay 1,000 events",
        "verify 1,000 events",
        "peak RSS replaying",
        "memory-review context",
        "open the review UI",
        "extract a 3.7 MB",
    ):
        assert expected in names
    measured = [row for row in rows if row["seconds"] is not None]
    # A stall the UI never had is a true 0 (seen on a quiet machine); a time is never negative.
    assert all(row["seconds"] >= 0 for row in measured)
    timed = {row["name"]: row["seconds"] for row in measured}
    assert timed["apply one candidate (library call)"] > 0 and timed["replay 1,000 events"] > 0
    assert "apply one candidate (library call)" in done.stdout  # the table is printed
    page = (docs / "performance.md").read_text(encoding="utf-8")
    assert BEGIN in page and "| apply one candidate (library call) |" in page
    charts = sorted(p.name for p in (docs / "performance").glob("*.png"))
    assert charts == ["apply-growth.png", "ratios.png", "replay-growth.png", "replay-rss.png"]
    assert all((docs / "performance" / name).read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for name in charts)


# --- what the benchmarks led to change still gives the same answers --------------------------

NOW = "2027-03-01T00:00:00Z"


def _proposals(scope: str, start: int, count: int) -> list:
    from memory_review.proposal import parse_proposal

    kinds = ("forbidden", "preference", "convention", "fact", "fact")
    return [
        parse_proposal(
            {
                "op": "create",
                "scope": scope,
                "rationale": "said twice",
                "memory": {
                    "id": f"note-{i:03d}",
                    "type": kinds[i % 5],
                    "description": f"{scope} note {i}",
                    "body": f"{scope} body {i}: " + "words " * (i % 40),
                },
            }
        )
        for i in range(start, start + count)
    ]


def _full_build(ws, budget: int, session: str | None, query: str | None = None):
    """The context as it was built before the lazy paths: every memory file read, no shortcut."""
    from memory_review.injection import ContextRequest, build_context, merge_tiers
    from memory_review.record_io import memory_sha256

    tiers = merge_tiers(
        ws.user.view().memories(), ws.project.view().memories(), ws.session_memories(session) if session else []
    )
    request = ContextRequest(query=query, budget_bytes=budget, now=NOW)
    return build_context(tiers, request, sha256_of=memory_sha256)


def _without_listing(store) -> None:
    """Rewrite a manifest as written before entries carried type/description/updated_at (a format-1 store)."""
    from memory_review.manifest import Manifest, ManifestEntry, encode_manifest

    old = store.read_manifest()
    bare = {k: ManifestEntry(file=e.file, sha256=e.sha256) for k, e in old.memories.items()}
    store.manifest_path.write_bytes(encode_manifest(Manifest(**{**old.model_dump(), "version": 1, "memories": bare})))


def test_lazy_context_and_manifest_index_equal_the_full_reads(tmp_path: Path) -> None:
    from memory_review.manifest import render_index
    from memory_review.proposal import ProposedMemory
    from memory_review.workspace import Workspace

    (tmp_path / "project").mkdir()
    ws = Workspace(tmp_path / "project", tmp_path / "user")
    for scope, start in (("user", 0), ("project", 25)):  # ids 25..39 are in both: project overrides
        ws.apply([s.candidate.id for s in ws.propose(_proposals(scope, start, 40))], actor="ann")
    cjk = _proposals("project", 90, 1)[0].model_copy(
        update={
            "memory": ProposedMemory(
                id="note-cjk", type="convention", description="数据库测试", body="测试时不要模拟数据库\n---\nwords"
            )
        }
    )
    ws.apply([ws.propose([cjk])[0].candidate.id], actor="ann")
    ws.write_session_memory(
        "s1", ProposedMemory(id="note-030", type="forbidden", description="session", body="session body")
    )
    for legacy in (False, True):
        for budget in (25_000, 3_000, 400, 1, 10_000_000):
            for session in (None, "s1"):
                if legacy:
                    _without_listing(ws.project)  # again: a commit upgrades it and lists every entry (ADR 0029)
                lazy = ws.context(session=session, budget=budget, now=NOW)
                assert lazy == _full_build(ws, budget, session), (legacy, budget, session)
        for query in ("user body 7 words", "project note 33", "数据库", "nothing-like-it", "body"):
            lazy = ws.context(query=query, budget=3_000, now=NOW)
            assert lazy == _full_build(ws, 3_000, None, query), (legacy, query)
    ws.apply([s.candidate.id for s in ws.propose(_proposals("project", 100, 1))], actor="ann")
    assert all(entry.listed for entry in ws.project.current_manifest().memories.values())
    for store in (ws.user, ws.project):
        assert store.index_path.read_bytes() == render_index(store.view().memories())


def test_the_benchmark_stores_are_trusted_so_their_context_holds_every_memory(tmp_path: Path) -> None:
    # fill_store writes a log this machine did not write (a foreign store, ADR 0021); untrusted, a
    # context benchmark would time a block without the project's memories.
    sys.path.insert(0, str(ROOT))
    from benchmarks.build import fill_store, trust_filled, workspace

    ws = workspace(tmp_path)
    fill_store(ws.user, 6)
    fill_store(ws.project, 6, start=6)
    trust_filled(ws)
    block = workspace(tmp_path).context(budget=100_000)
    assert (len(block.included), len(block.dropped)) == (12, 0)
    # Every apply writes what its candidate proposed: nothing is "never served" (ADR 0025).
    assert [r.problems for r in workspace(tmp_path).verify()] == [[], []]


@pytest.mark.skipif(sys.platform != "linux", reason="the resident server is Linux only")
def test_the_resident_case_runs_and_stops_its_server(tmp_path: Path) -> None:
    """``benchmarks.case_resident`` (ADR 0060) at one round: it prints the three figures, and the server it
    started is gone when it returns (its work folder, with the user store in it, is removed)."""
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.case_resident", "--rounds", "1", "--pending", "1"],
        cwd=ROOT,
        env={**os.environ, "BENCH_WORK": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    for expected in ("python -c pass", "apply, in-process", "apply, resident (whole)", "x bare"):
        assert expected in done.stdout
    assert list(tmp_path.iterdir()) == []
    servers = [
        p for p in Path("/proc").glob("[0-9]*") if _cmdline(p).count(str(tmp_path)) and "resident.server" in _cmdline(p)
    ]
    assert servers == []


def test_the_extract_growth_case_prints_a_row_per_trigger_and_joiner() -> None:
    """``benchmarks.case_extract_growth`` (ADR 0075) at a tiny count: a header and a row per trigger and joiner."""
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.case_extract_growth", "--count", "5", "--factor", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    header, *rows = done.stdout.splitlines()
    assert header.split()[-1] == "ratio"
    assert len(rows) == len(TRIGGERS) * len(JOINERS) == 114 * 4
    assert all(float(row.split()[-1].rstrip("s")) >= 0 for row in rows if "<-" not in row)


def _cmdline(process: Path) -> str:
    try:
        return (process / "cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""
