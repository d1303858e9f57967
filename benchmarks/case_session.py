"""``memory-review context --session``, the prompt hook's call, as a whole process: wall and CPU.

Each run records a ``context.built`` event; the row shows what one prompt costs a
user at 1,000 and 5,000 memories, beside ``python -c "import json"`` run in
between (a bare interpreter), and whether the manifest was rewritten.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.build import filled_project
from benchmarks.measure import Row, console_script, median
from benchmarks.scale import Scale

BARE = [sys.executable, "-c", "import json"]


def run_measured(argv: Sequence[str], env: dict[str, str], cwd: Path | None = None) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one process run to completion (it must exit 0)."""
    start = time.perf_counter()
    child = subprocess.Popen(list(argv), env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    stderr = child.stderr.read() if child.stderr else b""
    if child.stderr:
        child.stderr.close()
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {child.returncode}: {stderr.decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def session_context_rows(work: Path, scale: Scale, env: dict[str, str]) -> list[Row]:
    """``context --session`` at each store size of ``scale.session_memories`` (user + project)."""
    rows = []
    for count in scale.session_memories:
        rows += _rows_at(work / f"m{count}", count, scale.cli_runs, env)
    return rows


def _rows_at(root: Path, count: int, runs: int, env: dict[str, str]) -> list[Row]:
    ws = filled_project(root, count)
    env = {**env, "MEMORY_REVIEW_HOME": str(ws.user.root)}
    argv = [*console_script(), "context", "--session", "sess-bench", "--query", "database migration tests"]
    before = ws.project.manifest_path.stat().st_mtime_ns
    run_measured(argv, env, ws.root)  # warm-up (bytecode, page cache)
    run_measured(BARE, env)
    ops, bares = [], []
    for _ in range(runs):
        ops.append(run_measured(argv, env, ws.root))
        bares.append(run_measured(BARE, env))
    rewritten = ws.project.manifest_path.stat().st_mtime_ns != before
    note = (
        f"{count:,} memories (user + project), {runs} runs; manifest "
        f"{'rewritten' if rewritten else 'untouched'} across {runs + 1} prompts"
    )
    wall, cpu = median([w for w, _c in ops]), median([c for _w, c in ops])
    bare_wall, bare_cpu = median([w for w, _c in bares]), median([c for _w, c in bares])
    name = f"`memory-review context --session` at {count:,} memories"
    return [
        Row(f"{name} (wall)", wall, "python -c 'import json' (wall)", bare_wall, "report", None, note=note),
        Row(f"{name} (CPU)", cpu, "python -c 'import json' (CPU)", bare_cpu, "report", None, note=note),
    ]


if __name__ == "__main__":  # python -m benchmarks.case_session WORK RUNS COUNT...
    import tempfile

    from benchmarks.measure import child_env
    from benchmarks.scale import TINY

    with tempfile.TemporaryDirectory(dir=sys.argv[1]) as scratch:
        sizes = tuple(int(c) for c in sys.argv[3:])
        scaled = Scale(**{**TINY.__dict__, "cli_runs": int(sys.argv[2]), "session_memories": sizes})
        for row in session_context_rows(Path(scratch), scaled, child_env(Path(scratch))):
            print(
                f"{row.name}: {row.seconds * 1000:.1f} ms vs {row.baseline_seconds * 1000:.1f} ms "
                f"= {row.ratio:.1f}x  [{row.note}]"
            )
