"""Git history per apply, as a user runs it: ``.git`` growth and whole-process CPU (issue 15 §4, ADR 0024).

Each store gets ``size`` approved memories and a git repository, one apply to write its
first (whole) history commit, then ``applies`` more, each a ``memory-review apply`` process.
Per apply: the bytes ``.git/objects`` grew by (loose objects, as git writes them; nothing is
packed in between) and the CPU the process and its git children used (``RUSAGE_CHILDREN``),
next to a bare interpreter (``python -c pass``) run interleaved with it.

    python -m benchmarks.case_history [--sizes 100 4000] [--applies 9]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.build import fill_store, proposal, workspace
from benchmarks.measure import Row, child_env, console_script
from benchmarks.scale import Scale

GROWTH_GOAL_KB = 256
CPU_GOAL = 1.5
SIZES = {"full": (100, 4_000), "quick": (100, 1_000), "tiny": (20, 100)}
"""Store sizes per scale: the issue's goals are stated at 100 and 4,000 memories."""


def objects_bytes(git_dir: Path) -> int:
    """Bytes of every file under ``objects/`` (loose objects and any packs)."""
    return sum(path.stat().st_size for path in (git_dir / "objects").rglob("*") if path.is_file())


def child_cpu(argv: list[str], env: dict[str, str]) -> float:
    """User + system CPU seconds of one process and everything it started (it must exit 0)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, env=env, capture_output=True, timeout=300, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode()[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(work: Path, size: int, applies: int, env: dict[str, str]) -> dict[str, float]:
    """Median growth (bytes) and CPU (s) of one apply at ``size`` memories, and the bare interpreter's CPU."""
    ws = workspace(work / f"history-{size}")
    fill_store(ws.project, size)
    project = ws.project.root.parent
    subprocess.run(["git", "init", "-q", str(project)], check=True, timeout=60)
    ids = [s.candidate.id for s in ws.propose([proposal(i, "project", prefix="hist") for i in range(applies + 1)])]
    cli = [*console_script(), "--project", str(project), "apply"]  # as the user runs it (docs/adr/0048)
    run_env = {**env, "MEMORY_REVIEW_HOME": str(ws.user.root), "MEMORY_REVIEW_ACTOR": "bench"}
    child_cpu([*cli, ids[0]], run_env)  # the first history commit is built whole (O(store), once)
    git_dir = project / ".git"
    growth, cpu, bare = [], [], []
    for cid in ids[1:]:
        start = objects_bytes(git_dir)
        cpu.append(child_cpu([*cli, cid], run_env))
        growth.append(objects_bytes(git_dir) - start)
        bare.append(child_cpu([sys.executable, "-c", "pass"], run_env))
    return {
        "growth": statistics.median(growth),
        "growth_max": max(growth),
        "cpu": statistics.median(cpu),
        "bare": statistics.median(bare),
    }


def history_rows(
    work: Path, scale: Scale | None = None, *, sizes: tuple[int, ...] | None = None, applies: int | None = None
) -> list[Row]:
    """Rows: growth per apply at each size (goal at the largest), CPU largest vs smallest, vs bare."""
    env = child_env(work)
    sizes = sizes or SIZES.get(scale.name if scale else "full", SIZES["full"])
    applies = applies or (max(3, scale.repeat // 2) if scale else 9)
    results = {size: measure(work, size, applies, env) for size in sizes}
    small, large = sizes[0], sizes[-1]
    rows = [
        Row(
            f".git growth per apply at {size:,} memories",
            r["growth"] / 1024,
            "the goal",
            GROWTH_GOAL_KB,
            f"≤ {GROWTH_GOAL_KB} KB" if size == large else "report",
            1.0 if size == large else None,
            unit="KB",
            note=f"median of {applies}; largest {r['growth_max'] / 1024:.0f} KB",
        )
        for size, r in results.items()
    ]
    rows.append(
        Row(
            f"apply one, whole process with git history (CPU), {large:,} memories",
            results[large]["cpu"],
            f"same at {small:,} memories",
            results[small]["cpu"],
            f"≤ {CPU_GOAL}×",
            CPU_GOAL,
            note=f"bare interpreter in the same run: {results[large]['bare'] * 1000:.0f} ms",
        )
    )
    rows.append(
        Row(
            f"apply one, whole process with git history (CPU), {small:,} memories",
            results[small]["cpu"],
            "bare interpreter (python -c pass), interleaved",
            results[small]["bare"],
            "report",
            None,
        )
    )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.case_history",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 4_000])
    parser.add_argument("--applies", type=int, default=9)
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (default: a temporary one)")
    args = parser.parse_args(argv)
    import tempfile  # noqa: PLC0415

    with tempfile.TemporaryDirectory(prefix="mr-bench-history-", dir=args.work) as folder:
        rows = history_rows(Path(folder), sizes=tuple(args.sizes), applies=args.applies)
    for row in rows:
        print(json.dumps(row.to_json()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
