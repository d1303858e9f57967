"""Would one batch validation in pydantic-core make ``verify``'s walk cheaper? (ADR 0053)

``python -m benchmarks.case_verify_batch [SIZE]`` builds the store ``case_checkpoint`` verifies (SIZE
memories, default 4,000, then a ``trust`` of all of them) and times, in this process, interleaved
(one of each per round, 11 rounds), CPU min and median:

- the floor: orjson + sha256 of every line (what ``case_checkpoint`` divides by);
- the walk's decode as it is: ``events.model._decode_canonical`` per line (orjson, the canonical
  re-encode, one strict ``validate_python`` of ``Event``);
- one ``TypeAdapter(list[Event]).validate_json`` over the whole log as one JSON array (pydantic-core's
  parser and validator, one call), with and without the 430 KB trust line, and ``validate_json`` per line;
  none of these includes the canonical-bytes check, which a batch would still need per line;
- the 4,000 snapshots validated as ``Memory`` one by one and as one ``TypeAdapter(list[Memory])`` call.

The cycle collector is off while timing, as in ``verify``; the load average is printed before and after.
"""

from __future__ import annotations

import gc
import hashlib
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from statistics import median

import orjson
from pydantic import TypeAdapter

from benchmarks.build import fill_store, trust_filled, workspace
from memory_review.events import Event
from memory_review.events.model import _FRESH, _decode_canonical
from memory_review.models import Memory


def floor(lines: list[bytes]) -> None:
    """``case_checkpoint``'s floor: orjson-decode and sha256 every line, keeping nothing."""
    for line in lines:
        orjson.loads(line)
        hashlib.sha256(line).digest()


def interleaved(actions: dict[str, Callable[[], object]], rounds: int = 11) -> dict[str, list[float]]:
    """CPU seconds of each action, ``rounds`` times, one of each per round (a noisy machine drifts)."""
    samples: dict[str, list[float]] = {label: [] for label in actions}
    gc.collect()
    gc.disable()  # as verify runs (memory_review/verify.py: _collector_paused)
    try:
        for _ in range(rounds):
            for label, action in actions.items():
                start = time.process_time()
                action()
                samples[label].append(time.process_time() - start)
    finally:
        gc.enable()
    return samples


def main(argv: list[str]) -> int:
    size = int(argv[0]) if argv and argv[0].isdigit() else 4_000
    with tempfile.TemporaryDirectory(prefix="memory-review-batch-") as tmp:
        ws = workspace(Path(tmp))
        fill_store(ws.project, size)
        trust_filled(ws)
        lines = ws.project.log_path.read_bytes().splitlines(keepends=True)
    small = [line for line in lines if len(line) < 100_000]  # all but the trust line
    events = TypeAdapter(list[Event])
    memories = TypeAdapter(list[Memory])
    one_event = Event.__pydantic_validator__
    one_memory = Memory.__pydantic_validator__
    decoded = [_decode_canonical(line) for line in lines]
    snapshots = [
        change.after
        for event in decoded
        if event is not None and event.type == "candidate.applied"
        for change in event.changes or ()
        if change.after is not None
    ]
    del decoded

    def array(of: list[bytes]) -> bytes:
        return b"[" + b",".join(line[:-1] for line in of) + b"]"

    whole, without_trust = array(lines), array(small)
    figures = {
        "floor: orjson + sha256 per line": lambda: floor(lines),
        "decode per line (now)": lambda: [_decode_canonical(x) for x in lines],
        "batch validate_json, whole log": lambda: events.validate_json(whole, strict=True, context=_FRESH),
        "decode per line (now), no trust line": lambda: [_decode_canonical(x) for x in small],
        "batch validate_json, no trust line": lambda: events.validate_json(without_trust, strict=True, context=_FRESH),
        "validate_json per line, no trust line": lambda: [
            one_event.validate_json(x, strict=True, context=_FRESH) for x in small
        ],
        f"{len(snapshots)} snapshots as Memory, one by one": lambda: [one_memory.validate_python(s) for s in snapshots],
        f"{len(snapshots)} snapshots as Memory, one batch": lambda: memories.validate_python(snapshots),
    }
    print(f"{len(lines):,} lines, {sum(map(len, lines)):,} bytes; load average before: {os.getloadavg()}")
    samples = interleaved(figures)
    now = median(samples["decode per line (now)"])
    for label, cpu in samples.items():
        print(
            f"  {label:<45} min {min(cpu) * 1000:6.1f}  median {median(cpu) * 1000:6.1f} ms CPU"
            f"   {median(cpu) / now:.2f}x the decode now"
        )
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
