"""The checkpoint of ADR 0029 as a user runs it: whole-process figures, next to a bare interpreter.

``python -m benchmarks.case_checkpoint [SIZE ...]`` prints, per store size (default 100 and 4,000):

- one ``memory-review apply`` in a git project (whole process, CPU and wall: min / median / max of
  ``--runs`` applies), interleaved with ``python -c pass`` in the same run;
- how often the manifest was rewritten across those applies, and one compaction's cost (in process)
  with its amortised share per commit (1 / ``COMPACT_AFTER``);
- ``verify`` against reading the log with orjson + sha256 per line (the floor: what any check of every
  line must do), in the same run, interleaved: in this process ``Workspace.verify(full=True)`` (every
  line), ``Workspace.verify()`` with nothing new since the last one, and ``Workspace.verify()`` right
  after one more apply (the realistic case: the incremental verify of docs/adr/0056), against the floor
  in this process; as whole processes ``memory-review verify --full`` and ``memory-review verify`` right
  after one more apply against the floor as a whole process (``python -c`` importing orjson and hashing
  each line); CPU and wall of each;
- ``context --session``: whether it rewrote the manifest.
"""

from __future__ import annotations

import hashlib
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from statistics import median

import orjson

from benchmarks.build import fill_store, proposal, trust_filled, workspace
from benchmarks.measure import child_env, console_script, scratch
from benchmarks.measure import process_cpu as run
from memory_review.store import COMPACT_AFTER
from memory_review.workspace import Workspace

BARE = [sys.executable, "-c", "pass"]
FLOOR_SCRIPT = (
    "import hashlib, sys\n"
    "import orjson\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    for line in f.read().splitlines():\n"
    "        orjson.loads(line)\n"
    "        hashlib.sha256(line).digest()\n"
)
"""The floor as a whole process: the interpreter, orjson, and :func:`floor_of_log`'s loop."""


def spread(values: list[float]) -> str:
    return f"{min(values) * 1000:.0f} / {median(values) * 1000:.0f} / {max(values) * 1000:.0f} ms"


def floor_of_log(path: Path) -> tuple[float, float]:
    """Wall and CPU seconds to read the log and orjson-decode and sha256 every line: any full check's cost."""
    wall, start = time.perf_counter(), time.process_time()
    for line in path.read_bytes().splitlines():
        orjson.loads(line)
        hashlib.sha256(line).digest()
    return time.perf_counter() - wall, time.process_time() - start


def in_process(action: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of one call of ``action`` in this process."""
    wall, start = time.perf_counter(), time.process_time()
    action()
    return time.perf_counter() - wall, time.process_time() - start


def verify_pairs(
    ws: Workspace, cli: list[str], env: dict[str, str], runs: int, more: list[str]
) -> dict[str, list[tuple[float, float]]]:
    """``verify`` full and incremental and its floor, in process and as whole processes, interleaved:
    (wall, CPU) samples of each. ``more``: 2 × ``runs`` candidates, one applied (untimed, in process)
    before each timed "after one apply" verify.

    In process, the first ``Workspace.verify()`` builds pydantic's validators and fills the page cache;
    it is a warm-up, as is one run of each process (bytecode written once, as in any install).
    """
    log = ws.project.log_path
    floor_process = [sys.executable, "-c", FLOOR_SCRIPT, str(log)]

    def checked(walk: str, **kwargs: bool) -> Callable[[], None]:
        def call() -> None:
            reports = ws.verify(**kwargs)
            problems = [p for report in reports for p in report.problems]
            if problems:
                raise RuntimeError(f"verify found problems in the benchmark's store: {problems[:3]}")
            project = next(report for report in reports if report.scope == "project")
            if project.walk != walk:
                raise RuntimeError(f"a {walk} verify was meant, and a {project.walk} one ran: {project.walk_note}")

        return call

    def apply_one() -> None:
        ws.apply([more.pop()], actor="bench")

    checked("full", full=True)(), floor_of_log(log), run([*cli, "verify", "--full"], env), run(floor_process, env)
    samples: dict[str, list[tuple[float, float]]] = {key: [] for key, _label in VERIFY_KINDS}
    for _ in range(runs):
        samples["full"].append(in_process(checked("full", full=True)))
        samples["floor"].append(floor_of_log(log))
        samples["again"].append(in_process(checked("incremental")))
        apply_one()
        samples["after_apply"].append(in_process(checked("incremental")))
        samples["full_process"].append(run([*cli, "verify", "--full"], env))
        samples["floor_process"].append(run(floor_process, env))
        apply_one()
        samples["after_apply_process"].append(run([*cli, "verify"], env))
    return samples


VERIFY_KINDS = (
    ("full", "verify --full, in process"),
    ("again", "verify, nothing new since the last, in process"),
    ("after_apply", "verify right after one apply, in process"),
    ("floor", "orjson+sha256 of the log, in process"),
    ("full_process", "verify --full, whole process"),
    ("after_apply_process", "verify right after one apply, whole process"),
    ("floor_process", "orjson+sha256 of the log, whole process"),
)
VERIFY_RATIOS = (
    ("full", "floor"),
    ("again", "floor"),
    ("after_apply", "floor"),
    ("full_process", "floor_process"),
    ("after_apply_process", "floor_process"),
)


def measure(work: Path, size: int, runs: int) -> dict[str, object]:
    ws = workspace(work / f"ckpt-{size}")
    fill_store(ws.project, size)
    trust_filled(ws)
    project = ws.project.root.parent
    subprocess.run(["git", "init", "-q", str(project)], check=True, timeout=60)
    ids = [s.candidate.id for s in ws.propose([proposal(i, "project", prefix="ck") for i in range(3 * runs + 1)])]
    more = ids[runs + 1 :]  # applied before the "verify after one apply" samples
    ids = ids[: runs + 1]
    # Bytecode cached, as in any install: with PYTHONDONTWRITEBYTECODE inherited, every run compiled the
    # library again (hundreds of ms) while the bare interpreter compiled nothing.
    env = {**child_env(work), "MEMORY_REVIEW_HOME": str(ws.user.root), "MEMORY_REVIEW_ACTOR": "bench"}
    cli = [*console_script(), "--project", str(project)]  # as the user runs it (docs/adr/0048)
    run([*cli, "apply", ids[0]], env)  # the first history commit is built whole (O(store), once)
    rewrites, applies, bares = 0, [], []
    for cid in ids[1:]:
        before = ws.project.manifest_path.stat().st_mtime_ns
        applies.append(run([*cli, "apply", cid], env))
        rewrites += ws.project.manifest_path.stat().st_mtime_ns != before
        bares.append(run(BARE, env))
    start = time.process_time()
    ws.project.compact()
    compaction = time.process_time() - start
    manifest = ws.project.manifest_path.stat().st_mtime_ns
    run([*cli, "--session", "sess-bench", "context", "--query", "prefer"], env)
    context_rewrote = ws.project.manifest_path.stat().st_mtime_ns != manifest
    pairs = verify_pairs(ws, cli, env, runs, more)
    return {
        "size": size,
        "apply_cpu": [c for _w, c in applies],
        "apply_wall": [w for w, _c in applies],
        "bare_cpu": [c for _w, c in bares],
        "bare_wall": [w for w, _c in bares],
        "rewrites": rewrites,
        "compaction": compaction,
        "context_rewrote": context_rewrote,
        **pairs,
        "manifest_bytes": ws.project.manifest_path.stat().st_size,
    }


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv if a.isdigit()] or [100, 4_000]
    runs = 9
    with scratch("ckpt") as work:
        results = [measure(work, size, runs) for size in sizes]
    print(f"load average: {os.getloadavg()}")
    for r in results:
        print(f"\n{r['size']:,} memories (manifest {r['manifest_bytes']:,} bytes), {runs} applies:")
        print(
            f"  apply CPU   {spread(r['apply_cpu'])}   bare CPU  {spread(r['bare_cpu'])}   "
            f"ratio {median(r['apply_cpu']) / median(r['bare_cpu']):.1f}x"
        )
        print(f"  apply wall  {spread(r['apply_wall'])}   bare wall {spread(r['bare_wall'])}")
        print(
            f"  manifest rewritten by {r['rewrites']} of {runs} applies; one compaction {r['compaction'] * 1000:.0f} ms"
            f" CPU in process, {r['compaction'] * 1000 / COMPACT_AFTER:.1f} ms per commit amortised"
        )
        print(f"  context --session rewrote the manifest: {r['context_rewrote']}")
        for kind, index in (("CPU", 1), ("wall", 0)):
            for key, label in VERIFY_KINDS:
                values = [sample[index] for sample in r[key]]  # type: ignore[attr-defined]
                print(f"  {kind:4} {label:50} {spread(values)}")
            for key, floor in VERIFY_RATIOS:
                mine = [sample[index] for sample in r[key]]  # type: ignore[attr-defined]
                base = [sample[index] for sample in r[floor]]  # type: ignore[attr-defined]
                print(f"  {kind:4} {key} / {floor}: {median(mine) / median(base):.1f}x (medians)")
    if len(results) > 1:
        small, large = results[0], results[-1]
        print(
            f"\napply CPU {large['size']:,} vs {small['size']:,}: "
            f"{median(large['apply_cpu']) / median(small['apply_cpu']):.2f}x"
        )
    resource.getrusage(resource.RUSAGE_CHILDREN)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
