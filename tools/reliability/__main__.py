"""``python -m tools.reliability [--full]``: run every reliability suite and write docs/reliability.md.

Quick mode (the default) runs the same trials as CI's test suite in a few
minutes; ``--full`` runs thousands. The exit status is 1 if any trial failed
(the document is written either way, failures included).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from tools.reliability.child import REPO_ROOT
from tools.reliability.figures import RunInfo, filesystem_of, render
from tools.reliability.hostile import hostile_suites
from tools.reliability.results import SuiteResult
from tools.reliability.runner import SCALES, run_all

INTRO = (
    "memory-review promises that nothing approved is ever lost or half-written and nothing unreviewed ever "
    "becomes memory. These are the figures of the suite that tries to break that promise "
    "(`tools/reliability/`, tests in `tests/reliability/`; the bar is `../shared/RELIABILITY.md`): "
    "child processes killed at every fault point of every operation and at random moments, `OSError`s "
    "injected at every call, recovery itself interrupted, racing processes and threads, hostile inputs, "
    "and a hypothesis state machine. After every trial the six invariants are checked "
    "(`tools.reliability.invariants.check_invariants`). Regenerate with "
    "`python -m tools.reliability --full` (quick: without `--full`)."
)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tools.reliability", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--full", action="store_true", help="thousands of trials (tens of minutes)")
    parser.add_argument("--scale", choices=sorted(SCALES), help="pick a scale by name (smoke: seconds)")
    parser.add_argument(
        "--output",
        type=Path,
        default=REPO_ROOT / "docs" / "reliability.md",
        help="where to write the figures (default: docs/reliability.md)",
    )
    parser.add_argument("--workdir", type=Path, help="trial folders go here (default: a new temp folder)")
    parser.add_argument("--jobs", type=int, default=max(2, os.cpu_count() or 2), help="children at a time")
    return parser.parse_args(argv)


def _progress(result: SuiteResult) -> None:
    print(result.summary(), flush=True)
    for failure in result.failures[:20]:
        print(f"  FAIL {failure[:400]}", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the suites, print a line per suite, write the document; 1 if anything failed."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    scale = SCALES[args.scale or ("full" if args.full else "quick")]
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="memory-review-reliability-", dir=args.workdir) as folder:
        workdir = Path(folder)
        results = run_all(scale, workdir, jobs=args.jobs, progress=_progress)
        hostile = hostile_suites(workdir, run=scale.name != "smoke")  # smoke: listed, not run (see hostile.py)
        for suite in hostile:
            counts = suite.counts()
            print(
                f"hostile {suite.name}: {len(suite.cases)} attacks, {counts['passed']} passed, "
                f"{counts['failed']} failed",
                flush=True,
            )
        filesystem = filesystem_of(workdir)
    command = "python -m tools.reliability" + (" --full" if args.full else "")
    command += f" --scale {args.scale}" if args.scale else ""
    info = RunInfo(scale.name, time.monotonic() - start, args.jobs, filesystem, command)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(render(results, info, INTRO, hostile), encoding="utf-8")
    print(f"wrote {args.output}")
    return 0 if all(r.ok for r in results) and all(s.ok for s in hostile) else 1


if __name__ == "__main__":
    sys.exit(main())
