"""The Claude Code prompt hook as users run it: a whole ``memory-review hook claude-code`` process.

Claude Code starts the hook as a fresh process before every prompt, with the payload on stdin. Each
size (user + project memories, all trusted, read index built as a commit leaves it) is measured as
whole-process CPU (user + system, from ``wait4``) and wall, interleaved with ``python -c "import json"``
(a bare interpreter) in the same run; medians, with the spread (min–max) in the note. Beside them, the
in-process figure: the fast path's ``answer`` alone, without start-up (docs/performance.md says which
is which). The last row per size is the slowest wall time against the hook's own 5 s deadline.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.build import filled_project, trust_filled
from benchmarks.measure import Row, console_script, median
from benchmarks.scale import Scale

BARE = [sys.executable, "-c", "import json"]
PROMPT = "how do the database migration tests run?"
LONG_PROMPT = PROMPT + " Here is the log:\n" + " ".join(f"step{i} failed with code{i * 7 % 1000}" for i in range(1_000))
"""A prompt with a pasted log: about 2,000 distinct words, each a term selection looks up."""
GOALS = {100: 2.5, 5_000: 4.0}  # issue #16: ≤ 2.5× a bare interpreter at 100, ≤ 4× at 5,000 (CPU)
DEADLINE = 5.0


def run_with_stdin(
    argv: Sequence[str], env: dict[str, str], data: bytes, cwd: Path | None = None
) -> tuple[float, float, bytes]:
    """Wall and CPU seconds of one process fed ``data`` on stdin, and its stdout (it must exit 0)."""
    start = time.perf_counter()
    child = subprocess.Popen(
        list(argv), env=env, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(data)
    child.stdin.close()
    out = child.stdout.read()
    child.stdout.close()
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, out


def hook_rows(work: Path, scale: Scale, env: dict[str, str]) -> list[Row]:
    rows = [_help_row(scale.cli_runs, env)]
    for count in scale.hook_memories:
        rows += _rows_at(work / f"h{count}", count, scale.cli_runs, env)
    return rows


def _rows_at(root: Path, count: int, runs: int, env: dict[str, str]) -> list[Row]:
    ws = filled_project(root, count)
    trust_filled(ws)  # a commit: it also builds each store's read index
    env = {**env, "MEMORY_REVIEW_HOME": str(ws.user.root)}
    payload = json.dumps(
        {"hook_event_name": "UserPromptSubmit", "session_id": "sess-bench", "cwd": str(ws.root), "prompt": PROMPT}
    ).encode()
    argv = [*console_script(), "hook", "claude-code"]
    _wall, _cpu, out = run_with_stdin(argv, env, payload, ws.root)  # warm-up (bytecode, page cache)
    if b"additionalContext" not in out:
        raise RuntimeError(f"the hook at {count} memories added no context: {out[:300]!r}")
    run_with_stdin(BARE, env, b"")
    ops, bares = [], []
    for _ in range(runs):
        ops.append(run_with_stdin(argv, env, payload, ws.root)[:2])
        bares.append(run_with_stdin(BARE, env, b"")[:2])
    fast = _in_process(payload, env)
    return [*_rows(count, runs, ops, bares, fast), _long_prompt_row(count, runs, argv, env, ws.root)]


def _long_prompt_row(count: int, runs: int, argv: list[str], env: dict[str, str], cwd: Path) -> Row:
    """A pasted log as the prompt: selection must cost one pass over the index, not one per word."""
    payload = json.dumps(
        {"hook_event_name": "UserPromptSubmit", "session_id": "sess-bench", "cwd": str(cwd), "prompt": LONG_PROMPT}
    ).encode()
    samples = [run_with_stdin(argv, env, payload, cwd)[:2] for _ in range(max(runs // 3, 1))]
    cpu, wall = [c for _w, c in samples], [w for w, _c in samples]
    return Row(
        f"prompt hook at {count:,} memories, a 2,000-word pasted log (slowest wall)",
        max(wall),
        "the hook's deadline",
        DEADLINE,
        "< 1×",
        1.0,
        note=f"{len(samples)} runs; CPU {_spread(cpu)}; never misses its deadline",
    )


def _help_row(runs: int, env: dict[str, str]) -> Row:
    """``memory-review --help``: the parser alone, no command imported (issue #16: ≤ 3× a bare interpreter)."""
    argv = [*console_script(), "--help"]
    run_with_stdin(argv, env, b"")
    ops, bares = [], []
    for _ in range(runs):
        ops.append(run_with_stdin(argv, env, b"")[1])
        bares.append(run_with_stdin(BARE, env, b"")[1])
    return Row(
        "`memory-review --help` (whole process, CPU)",
        median(ops),
        "python -c 'import json' (CPU)",
        median(bares),
        "≤ 3×",
        3.0,
        note=f"{runs} runs; {_spread(ops)} vs {_spread(bares)}",
    )


def _in_process(payload: bytes, env: dict[str, str]) -> float | None:
    """The fast path's answer in this process (no start-up); None when it stepped aside (a finding)."""
    from memory_review.lean import hook
    from memory_review.lean.files import Fallback

    saved = os.environ.get("MEMORY_REVIEW_HOME")
    os.environ["MEMORY_REVIEW_HOME"] = env["MEMORY_REVIEW_HOME"]
    try:
        samples = []
        for _ in range(5):
            start = time.perf_counter()
            hook.answer(payload, None)
            samples.append(time.perf_counter() - start)
        return median(samples)
    except Fallback:
        return None
    finally:
        if saved is None:
            os.environ.pop("MEMORY_REVIEW_HOME", None)
        else:
            os.environ["MEMORY_REVIEW_HOME"] = saved


def _spread(samples: list[float]) -> str:
    return f"{min(samples) * 1000:.0f}–{max(samples) * 1000:.0f} ms"


def _rows(
    count: int, runs: int, ops: list[tuple[float, float]], bares: list[tuple[float, float]], fast: float | None
) -> list[Row]:
    name = f"prompt hook at {count:,} memories"
    cpu, wall = [c for _w, c in ops], [w for w, _c in ops]
    bare_cpu, bare_wall = [c for _w, c in bares], [w for w, _c in bares]
    note = f"{runs} runs; hook {_spread(cpu)} CPU, {_spread(wall)} wall; bare {_spread(bare_cpu)} CPU"
    limit = GOALS.get(count)
    return [
        Row(
            f"{name} (whole process, CPU)",
            median(cpu),
            "python -c 'import json' (CPU)",
            median(bare_cpu),
            f"≤ {limit}×" if limit else "report",
            limit,
            note=note,
        ),
        Row(
            f"{name} (whole process, wall)",
            median(wall),
            "python -c 'import json' (wall)",
            median(bare_wall),
            "report",
            None,
            note=note,
        ),
        Row(
            f"{name} (in process: the fast path's answer)",
            fast,
            "bare start-up (CPU)",
            median(bare_cpu),
            "report",
            None,
            note="no start-up; — means it stepped aside to the full path",
        ),
        Row(
            f"{name} (slowest wall)",
            max(wall),
            "the hook's deadline",
            DEADLINE,
            "< 1×",
            1.0,
            note="never misses its deadline",
        ),
    ]


if __name__ == "__main__":  # python -m benchmarks.case_hook WORK RUNS COUNT...
    import tempfile

    from benchmarks.measure import child_env
    from benchmarks.scale import TINY

    with tempfile.TemporaryDirectory(dir=sys.argv[1]) as scratch:
        sizes = tuple(int(c) for c in sys.argv[3:])
        scaled = Scale(**{**TINY.__dict__, "cli_runs": int(sys.argv[2]), "hook_memories": sizes})
        for row in hook_rows(Path(scratch), scaled, child_env(Path(scratch))):
            ratio = f"{row.ratio:.2f}x" if row.ratio is not None else "-"
            shown = f"{row.seconds * 1000:.1f} ms" if row.seconds is not None else "-"
            print(f"{row.name}: {shown} vs {row.baseline_seconds * 1000:.1f} ms = {ratio}  [{row.note}]")
