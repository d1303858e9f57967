"""Run the benchmark suite, print the table, and update ``docs/performance.md`` and its charts.

python -m benchmarks                 # the full suite (several minutes)
python -m benchmarks --scale quick   # smaller stores and logs, about a minute
python -m benchmarks --only apply context --no-docs
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

if __package__ in (None, ""):  # `python benchmarks/run.py`: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import (
    case_apply,
    case_context,
    case_extract,
    case_history,
    case_hook,
    case_log,
    case_session,
    case_ui,
    report,
)
from benchmarks.measure import REPO, Row, Series, child_env
from benchmarks.scale import SCALES, Scale

CASES = ("apply", "growth", "history", "log", "replay-growth", "context", "session-context", "hook", "ui", "extract")


class Results:
    """Rows and growth series collected across the cases."""

    def __init__(self) -> None:
        self.rows: list[Row] = []
        self.series: dict[str, Series] = {}


def _run_case(name: str, work: Path, scale: Scale, env: dict[str, str], results: Results) -> None:
    if name == "apply":
        results.rows += case_apply.process_rows(work, scale, env)  # whole process first, in-process beside it
        rows, _one = case_apply.apply_rows(work, scale)
        results.rows += rows
    elif name == "growth":
        proposed, applied, with_git, bare = case_apply.propose_growth(work, scale)
        results.series.update(apply=applied, propose=proposed, git=with_git, bare=bare)
        results.rows += case_apply.growth_rows(applied, goal=True) + case_apply.growth_rows(bare, goal=False)
        results.rows += case_apply.growth_rows(with_git, goal=False) + [case_apply.against_bare_row(applied, bare)]
        results.rows += case_apply.growth_rows(proposed, goal=False)
        results.rows.append(case_apply.history_row(applied, with_git))
    elif name == "history":
        results.rows += case_history.history_rows(work, scale)
    elif name == "log":
        results.rows += case_log.log_rows(work, scale, env)
    elif name == "replay-growth":
        replay, rows = case_log.replay_growth(work, scale, env)
        results.series["replay"] = replay
        results.rows += rows
    elif name == "context":
        results.rows += case_context.context_rows(work, scale, env)
    elif name == "session-context":
        results.rows += case_session.session_context_rows(work, scale, env)
    elif name == "hook":
        results.rows += case_hook.hook_rows(work, scale, env)
    elif name == "ui":
        results.rows += case_ui.ui_rows(work, scale, env)
    elif name == "extract":
        results.rows += case_extract.extract_rows(scale) + case_extract.scan_rows(scale)


def run(scale: Scale, cases: Sequence[str], work: Path, log: Callable[[str], None]) -> Results:
    """Run ``cases`` in a scratch folder under ``work``; the folder is removed afterwards."""
    results = Results()
    env = child_env(work)
    for name in cases:
        started = time.perf_counter()
        folder = work / name
        folder.mkdir(parents=True, exist_ok=True)
        _run_case(name, folder, scale, env, results)
        shutil.rmtree(folder, ignore_errors=True)
        log(f"{name}: {time.perf_counter() - started:.1f} s")
    return results


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", choices=sorted(SCALES), default="full", help="sizes (default: full)")
    parser.add_argument(
        "--only", nargs="+", choices=CASES, metavar="CASE", help=f"run only these cases: {', '.join(CASES)}"
    )
    parser.add_argument(
        "--docs",
        type=Path,
        default=REPO / "docs",
        help="folder of performance.md and its charts (default: the repo's docs/)",
    )
    parser.add_argument("--no-docs", action="store_true", help="print the table only")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the rows as JSON")
    parser.add_argument("--work", type=Path, help="scratch parent folder (default: the system temp dir)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; exit status 0 even when a goal is missed (the table says so)."""
    args = build_parser().parse_args(argv)
    scale = SCALES[args.scale]
    cases = args.only or CASES
    work = Path(tempfile.mkdtemp(prefix="memory-review-bench-", dir=args.work))
    try:
        results = run(scale, cases, work, lambda line: print(line, file=sys.stderr, flush=True))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(report.table(results.rows))
    if args.json:
        args.json.write_text(json.dumps([r.to_json() for r in results.rows], indent=2) + "\n")
    if not args.no_docs:
        command = "python -m benchmarks" + (f" --scale {scale.name}" if scale.name != "full" else "")
        page = report.write_page(args.docs, results.rows, results.series, scale.name, command)
        print(f"wrote {page}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
