"""Applying candidates: one against the bare writes it needs, a batch of 1,000, and growth with store size."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from benchmarks.build import fill_store, proposal, trust_filled, workspace
from benchmarks.measure import Row, Series, console_script, interleaved, median, process_cpu, timed
from benchmarks.scale import Scale
from memory_review.workspace import Workspace

ACTOR = "bench"


class BareCommit:
    """A plain script doing the same durable writes as one apply, and nothing else.

    Memory file (O_EXCL, write, fsync) and its directory fsync; the log line
    (O_APPEND, write, fsync); the manifest (temp, write, fsync, rename, directory fsync).
    """

    def __init__(self, folder: Path, memory: bytes, line: bytes, manifest: bytes) -> None:
        self.folder, self.memory, self.line, self.manifest = folder, memory, line, manifest
        (folder / "memory").mkdir(parents=True, exist_ok=True)
        self.count = 0

    def __call__(self, files: int = 1) -> None:
        self.commit_point(files)
        self.replace({"manifest.json": self.manifest})

    def commit_point(self, files: int) -> None:
        """The memory files and their directory, then the log line(s)."""
        for _ in range(files):
            self.count += 1
            _write_synced(self.folder / "memory" / f"m-{self.count}.md", os.O_CREAT | os.O_EXCL, self.memory)
        _fsync_dir(self.folder / "memory")
        _write_synced(self.folder / "events.jsonl", os.O_CREAT | os.O_APPEND, self.line * files)

    def replace(self, files: dict[str, bytes]) -> None:
        """Each file by temp + fsync + rename, then one fsync of the folder."""
        for name, data in files.items():
            temp = self.folder / f".tmp-{self.count}-{name}"
            _write_synced(temp, os.O_CREAT | os.O_EXCL, data)
            os.replace(temp, self.folder / name)
        _fsync_dir(self.folder)


class DesignCommit(BareCommit):
    """The bare writes plus the two more docs/design.md §5 requires of an apply, in the store's order.

    The resolved candidate file's removal (unlink, fsync ``candidates/``) before the checkpoint,
    and ``MEMORY.md`` (temp, write, fsync, rename) sharing the manifest's directory fsync.
    """

    def __init__(self, folder: Path, memory: bytes, line: bytes, manifest: bytes, index: bytes, resolved: int) -> None:
        super().__init__(folder, memory, line, manifest)
        self.index = index
        (folder / "candidates").mkdir(exist_ok=True)
        for number in range(resolved):  # made up front: the apply's candidate file existed before it too
            (folder / "candidates" / f"c-{number}.json").write_bytes(b"{}")
        self.resolved = 0

    def __call__(self, files: int = 1) -> None:
        self.commit_point(files)
        os.unlink(self.folder / "candidates" / f"c-{self.resolved}.json")
        self.resolved += 1
        _fsync_dir(self.folder / "candidates")
        self.replace({"MEMORY.md": self.index, "manifest.json": self.manifest})


def _write_synced(path: Path, flags: int, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | flags, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def pending_ids(ws: Workspace, count: int, prefix: str) -> list[str]:
    """Propose ``count`` new memories in one call; their candidate ids."""
    return [s.candidate.id for s in ws.propose([proposal(i, "project", prefix=prefix) for i in range(count)])]


def _apply_each(ws: Workspace, ids: list[str]) -> Callable[[], object]:
    queue: Iterator[str] = iter(ids)
    return lambda: ws.apply([next(queue)], actor=ACTOR)


def _bare_for(ws: Workspace, folder: Path, *, design: int = 0) -> BareCommit:
    """A bare script writing the same sizes as the apply just done in ``ws`` (``design``: a
    :class:`DesignCommit` with that many candidate files to remove)."""
    store = ws.project
    manifest = store.manifest_path.read_bytes()
    last = store.log_path.read_bytes().rsplit(b"\n", 2)[-2] + b"\n"
    newest = max((p for p in store.memory_dir.iterdir() if p.suffix == ".md"), key=lambda p: p.stat().st_mtime_ns)
    if design:
        return DesignCommit(folder, newest.read_bytes(), last, manifest, store.index_path.read_bytes(), design)
    return BareCommit(folder, newest.read_bytes(), last, manifest)


BARE = [sys.executable, "-c", "pass"]
PROCESS_GOAL = 6.0  # issue #15: one apply at 100 memories <= 6x a bare interpreter, whole process CPU


def process_rows(work: Path, scale: Scale, env: dict[str, str]) -> list[Row]:
    """``memory-review apply ID`` in a git project of ``apply_base`` memories, as a whole process, against
    ``python -c pass`` interleaved in the same run (CPU and wall, medians with the spread)."""
    ws = workspace(work / "apply-process")
    fill_store(ws.project, scale.apply_base)
    trust_filled(ws)
    subprocess.run(["git", "init", "-q", str(ws.root)], check=True, timeout=60)
    runs = scale.cli_runs
    ids = pending_ids(ws, runs + 1, "proc")
    env = {**env, "MEMORY_REVIEW_HOME": str(ws.user.root), "MEMORY_REVIEW_ACTOR": ACTOR}
    apply = [*console_script(), "--project", str(ws.root), "apply"]
    process_cpu([*apply, ids[0]], env)  # warm-up: bytecode, page cache, the first history commit (built whole)
    process_cpu(BARE, env)
    ops, bares = [], []
    for candidate_id in ids[1:]:
        ops.append(process_cpu([*apply, candidate_id], env))
        bares.append(process_cpu(BARE, env))
    cpu, wall = [c for _w, c in ops], [w for w, _c in ops]
    bare_cpu, bare_wall = [c for _w, c in bares], [w for w, _c in bares]
    note = (
        f"{runs} runs at {scale.apply_base} memories, git project; apply {_spread(cpu)} CPU, {_spread(wall)} wall;"
        f" bare {_spread(bare_cpu)} CPU, {_spread(bare_wall)} wall; load {os.getloadavg()[0]:.1f}"
    )
    name = f"`memory-review apply` one candidate at {scale.apply_base} memories"
    return [
        Row(
            f"{name} (whole process, CPU)",
            median(cpu),
            "python -c pass (CPU)",
            median(bare_cpu),
            f"≤ {PROCESS_GOAL:g}×",
            PROCESS_GOAL,
            note=note,
        ),
        Row(
            f"{name} (whole process, wall)",
            median(wall),
            "python -c pass (wall)",
            median(bare_wall),
            "report",
            None,
            note=note,
        ),
    ]


def _spread(samples: list[float]) -> str:
    return f"{min(samples) * 1000:.0f}–{median(samples) * 1000:.0f}–{max(samples) * 1000:.0f} ms"


def apply_rows(work: Path, scale: Scale) -> tuple[list[Row], float]:
    """Apply one vs the bare writes, and 1,000 marked in one go vs one; returns the one-apply median too."""
    ws = workspace(work / "apply-one")
    fill_store(ws.project, scale.apply_base)
    ids = pending_ids(ws, 1 + 2 * scale.repeat + scale.batch_probe, "one")
    ws.apply([ids[0]], actor=ACTOR)
    bare = _bare_for(ws, work / "bare")
    one, floor = interleaved(_apply_each(ws, ids[1:]), bare, scale.repeat, warmup=0)
    rows = [
        Row(
            "apply one candidate (library call)",
            one,
            "bare script: same writes + fsyncs",
            floor,
            "≤ 2×",
            2.0,
            note=f"store of {scale.apply_base} memories",
        )
    ]
    design = _bare_for(ws, work / "design", design=scale.repeat)
    again, design_floor = interleaved(_apply_each(ws, ids[1 + scale.repeat :]), design, scale.repeat, warmup=0)
    rows.append(
        Row(
            "apply one candidate (library call)",
            again,
            "bare script: every write docs/design.md §5 requires (+ MEMORY.md, candidate removal)",
            design_floor,
            "report",
            None,
            note="7 fsyncs, as the apply makes",
        )
    )
    batch_ids = pending_ids(ws, scale.batch, "batch")
    apply_next = _apply_each(ws, ids[1 + 2 * scale.repeat :])
    probe = median([timed(apply_next) for _ in range(scale.batch_probe)])
    batch = timed(lambda: ws.apply(batch_ids, actor=ACTOR))
    bare_batch = timed(lambda: bare(scale.batch))
    rows.append(
        Row(
            f"apply {scale.batch:,} marked candidates in one call",
            batch,
            "one apply (same store)",
            probe,
            "≤ 10×",
            10.0,
            note=f"one lock, one log fsync; each new memory file is fsynced: the bare "
            f"writes of {scale.batch:,} files take {bare_batch * 1000:.0f} ms",
        )
    )
    rows.append(
        Row(
            f"apply {scale.batch:,} marked candidates in one call",
            batch,
            f"bare script: the same {scale.batch:,} files + log + manifest",
            bare_batch,
            "report",
            None,
        )
    )
    return rows, one


def propose_growth(work: Path, scale: Scale) -> tuple[Series, Series, Series, Series]:
    """Propose one, apply one, apply one with git history on, and the bare writes, at each store size."""
    label = "approved memories in the store"
    propose_series, apply_series = Series("propose one candidate", label), Series("apply one candidate", label)
    git_series = Series("apply one, git history on", label)
    bare_series = Series("bare script, same writes", label)
    for size in scale.growth_memories:
        ws = workspace(work / f"growth-{size}")
        fill_store(ws.project, size)
        git_ws = with_git(ws, work / f"growth-git-{size}")
        proposed = [
            timed(lambda i=i, ws=ws: ws.propose([proposal(i, "project", prefix="grow")]))
            for i in range(scale.repeat + 1)
        ][1:]
        propose_series.points.append((size, median(proposed)))
        ids = pending_ids(ws, scale.repeat + 1, "grow-apply")
        ws.apply([ids[0]], actor=ACTOR)  # a warm-up, and the sizes the bare script copies
        bare = _bare_for(ws, work / f"bare-{size}")  # its manifest grows with the store too
        applied, floor = interleaved(_apply_each(ws, ids[1:]), bare, scale.repeat, warmup=0)
        apply_series.points.append((size, applied))
        bare_series.points.append((size, floor))
        git_series.points.append((size, _apply_median(git_ws, scale.repeat)))
    return propose_series, apply_series, git_series, bare_series


def with_git(ws: Workspace, root: Path) -> Workspace:
    """A copy of ``ws`` whose project is a git repository: each change also becomes a history commit."""
    shutil.copytree(ws.root.parent, root)
    subprocess.run(["git", "init", "-q", str(root / "project")], check=True)
    return workspace(root)


def _apply_median(ws: Workspace, repeat: int) -> float:
    """Median seconds of applying one fresh candidate at a time (the first, a warm-up, is left out)."""
    ids = pending_ids(ws, repeat + 1, "grow-apply")
    apply_next = _apply_each(ws, ids)
    return median([timed(apply_next) for _ in ids][1:])


def growth_rows(series: Series, goal: bool) -> list[Row]:
    """Each size against the smallest: the apply goal is ≤ 2× at the largest size."""
    (small, base), *rest = series.points
    rows = []
    for size, seconds in rest:
        last = goal and size == series.points[-1][0]
        rows.append(
            Row(
                f"{series.name} at {size:,} memories",
                seconds,
                f"same at {small:,} memories",
                base,
                "≤ 2×" if last else "report",
                2.0 if last else None,
            )
        )
    return rows


def history_row(plain: Series, with_git: Series) -> Row:
    """What git history adds to an apply, at the smallest store size."""
    (size, base), (_size, seconds) = plain.points[0], with_git.points[0]
    return Row(
        f"apply one candidate with git history on ({size:,} memories)",
        seconds,
        "the same apply, project not a git repository",
        base,
        "report",
        None,
        note="history commit built with git plumbing, in subprocesses",
    )


def against_bare_row(applied: Series, bare: Series) -> Row:
    """Apply at the largest size against the bare writes of the same sizes, measured interleaved."""
    (size, seconds), (_size, floor) = applied.points[-1], bare.points[-1]
    return Row(
        f"apply one candidate at {size:,} memories",
        seconds,
        "bare script: same writes, same manifest size",
        floor,
        "report",
        None,
    )


if __name__ == "__main__":  # python -m benchmarks.case_apply WORK RUNS [MEMORIES]: the whole-process rows only
    import tempfile

    from benchmarks.measure import child_env
    from benchmarks.scale import TINY

    with tempfile.TemporaryDirectory(dir=sys.argv[1]) as scratch:
        memories = int(sys.argv[3]) if len(sys.argv) > 3 else 100
        scaled = Scale(**{**TINY.__dict__, "cli_runs": int(sys.argv[2]), "apply_base": memories})
        for row in process_rows(Path(scratch), scaled, child_env(Path(scratch))):
            print(
                f"{row.name}: {row.seconds * 1000:.1f} ms vs {row.baseline_seconds * 1000:.1f} ms "
                f"= {row.ratio:.2f}x  [{row.note}]"
            )
