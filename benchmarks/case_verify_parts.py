"""What ``verify --full`` at 4,000 memories is made of: each of its checks' own work, timed alone (ADR 0061).

``python -m benchmarks.case_verify_parts [SIZE]`` builds the store ``case_checkpoint`` verifies (SIZE
memories, default 4,000, a ``trust`` of all of them, a git repository and two applies that commit its
history) and times, in this process, interleaved (one of each per round, 9 rounds), CPU min and median:

- the floor: orjson + sha256 of every line (what ``case_checkpoint`` divides by);
- the per-line decode: ``events.decode_event`` of every line (orjson, the canonical re-encode, one strict
  validation of ``Event``);
- the chain: the sha256 of each line (the next line's ``prev``) and the running sha256 of the log (the
  record's proof of the bytes walked);
- the memory snapshots: each applied ``after`` validated as a ``Memory``, rendered and hashed
  (``record_io.hashed_memory_from_json``, what the fold does);
- the candidate records: each ``candidate.created`` record validated as a ``Candidate`` (the fold);
- the reviewed-record check: ``reviewed.ReviewedRecords.check`` over the decoded events;
- the memory files: each one read and hashed (``Store._read_child`` + sha256);
- the read index: each memory's entry made again (``read_index.entry_of``) and its digest;
- ``Workspace.verify(full=True)`` itself.

Each part is the least any verify making that check with today's models and renderers must do (no walk
glue, no fold maps, no reports); their sum against 10× the floor says whether trimming the rest could
reach the goal. The cycle collector is off while timing, as in ``verify``.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from statistics import median

from benchmarks.build import fill_store, proposal, trust_filled, workspace
from benchmarks.case_verify_batch import floor, interleaved
from memory_review.candidate import candidate_from_json
from memory_review.events import Event, decode_event, line_hash
from memory_review.read_index import entry_digest, entry_of
from memory_review.record_io import hashed_memory_from_json
from memory_review.reviewed import ReviewedRecords
from memory_review.workspace import Workspace


def build(root: Path, size: int) -> Workspace:
    """The store ``case_checkpoint`` verifies, its git history caught up by two applies."""
    ws = workspace(root)
    fill_store(ws.project, size)
    trust_filled(ws)
    subprocess.run(["git", "init", "-q", str(ws.project.root.parent)], check=True, timeout=60)
    for state in ws.propose([proposal(i, "project", prefix="pt") for i in range(2)]):
        ws.apply([state.candidate.id], actor="bench")
    ws.verify(full=True)  # pydantic builds its validators; the page cache fills; the read index is current
    return ws


def parts(ws: Workspace) -> dict[str, Callable[[], object]]:
    """Each check's own work over the whole store, as a callable; then the whole ``verify --full``."""
    store = ws.project
    lines = store.log_path.read_bytes().splitlines(keepends=True)
    events = [decode_event(line, path=store.log_path, line_no=n) for n, line in enumerate(lines, 1)]
    afters = [c.after for e in events if e.type != "session.written" for c in e.changes or () if c.after]
    records = [e.record for e in events if e.type == "candidate.created" and e.record is not None]
    manifest = store.current_manifest()
    files = [entry.file for entry in manifest.memories.values()]
    memories = [hashed_memory_from_json(after)[0] for after in afters]
    hashes = [hashlib.sha256(store._read_child(name)).hexdigest() for name in files]

    def chain() -> None:
        running = hashlib.sha256()
        for line in lines:
            running.update(line)
            line_hash(line)
        running.hexdigest()

    def reviewed(decoded: list[Event] = events) -> None:
        folded = ReviewedRecords()
        for event in decoded:
            folded.check(event)

    return {
        "floor": lambda: floor(lines),
        "decode": lambda: [decode_event(line, path=store.log_path, line_no=n) for n, line in enumerate(lines, 1)],
        "chain": chain,
        "snapshots": lambda: [hashed_memory_from_json(after, where="event") for after in afters],
        "records": lambda: [candidate_from_json(record, where="event") for record in records],
        "reviewed": reviewed,
        "files": lambda: [hashlib.sha256(store._read_child(name)).hexdigest() for name in files],
        "index": lambda: [entry_digest(entry_of(m, h)) for m, h in zip(memories, hashes, strict=False)],
        "full": lambda: ws.verify(full=True),
    }


LABELS = {
    "floor": "floor: orjson + sha256 of every line",
    "decode": "decode: canonical check + Event per line",
    "chain": "chain: line sha256 + running sha256",
    "snapshots": "snapshots: Memory + render + sha256",
    "records": "records: Candidate per created",
    "reviewed": "reviewed-record check",
    "files": "memory files: read + sha256",
    "index": "read index: entries made again",
    "full": "Workspace.verify(full=True)",
}


def main(argv: list[str]) -> int:
    size = int(argv[0]) if argv and argv[0].isdigit() else 4_000
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="memory-review-parts-") as tmp:
        samples = interleaved(parts(build(Path(tmp), size)), rounds=9)
    print(f"load average after: {os.getloadavg()}")
    base = median(samples["floor"])
    print(f"{size:,} memories, CPU min / median, in process, 9 rounds interleaved:")
    for key, label in LABELS.items():
        low, mid = min(samples[key]), median(samples[key])
        print(f"  {label:44} {low * 1000:6.1f} / {mid * 1000:6.1f} ms  {mid / base:5.1f}x")
    checks = [key for key in LABELS if key not in ("floor", "full")]
    total = sum(median(samples[key]) for key in checks)
    print(f"  {'sum of the checks alone':44} {'':8} {total * 1000:6.1f} ms  {total / base:5.1f}x")
    rest = median(samples["full"]) - total
    print(f"  {'the rest of verify --full (glue, fold, maps)':44} {'':8} {rest * 1000:6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
