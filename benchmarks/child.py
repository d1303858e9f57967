"""Work run in a fresh process, so its peak RSS is its own: ``python -m benchmarks.child TASK PATH``.

Prints one JSON object: ``seconds`` (the task alone, imports excluded), ``rss_kb``
(peak resident set of the whole process) and ``events`` (lines or events seen).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from memory_review.events import EventLog, replay


def raw_loads(path: Path) -> int:
    """The floor of replay: orjson.loads of every line, streamed."""
    count = 0
    with open(path, "rb") as stream:
        for line in stream:
            orjson.loads(line)
            count += 1
    return count


def raw_verify(path: Path) -> int:
    """The floor of verify: orjson.loads and sha256 of every line, streamed."""
    count = 0
    with open(path, "rb") as stream:
        for line in stream:
            orjson.loads(line)
            hashlib.sha256(line).hexdigest()
            count += 1
    return count


def log_replay(path: Path) -> int:
    """The replay fold over the whole log (decoded, chain-checked, folded), streamed."""
    state = replay(EventLog(path, origin="0" * 16).read())
    return state.seq


def log_verify(path: Path) -> int:
    """``verify`` of the log: every line decoded, the chain and the cross-event rules checked."""
    report = EventLog(path, origin="0" * 16).verify()
    if not report.ok:
        raise SystemExit(f"verify found problems: {report.problems[:3]}")
    return report.events


def review_ui(root: Path, keys: int) -> dict[str, Any]:
    """Open the review UI headless on the workspace at ``root``; time to usable, then ``keys`` presses."""
    from benchmarks.case_ui import drive  # Textual only in this child, never in the runner

    return asyncio.run(drive(root, keys))


TASKS: dict[str, Callable[[Path], int]] = {
    "raw-loads": raw_loads,
    "raw-verify": raw_verify,
    "replay": log_replay,
    "verify": log_verify,
}


def peak_rss_kb() -> int:
    """This process's peak RSS since exec: VmHWM. ru_maxrss would carry the forking parent's peak over."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))


def main(argv: list[str]) -> int:
    if argv[0] == "ui":
        report = review_ui(Path(argv[1]), int(argv[2]))
    else:
        start = time.perf_counter()
        events = TASKS[argv[0]](Path(argv[1]))
        report = {"seconds": time.perf_counter() - start, "events": events}
    report["rss_kb"] = peak_rss_kb()
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
