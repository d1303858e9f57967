"""The model extractors judged on the held-out splits: ``python -m tools.model_eval --extractor claude`` (ADR 0156).

``docs/extraction.md`` measures the offline heuristic. The model extractors (``extract --extractor
claude|codex|gemini|model``, and the hooks) need a model, which this project's machines and CI do not have, so
their figures are not there. This runs the extraction ``extract --extractor X`` runs, through your own CLI and
login (or ``MEMORY_REVIEW_LLM_*`` for ``model``), on each labelled held-out split, and judges its proposals exactly
as the heuristic's are judged (``tools.extraction_eval.evaluate_split``): worth keeping, durable found, recall.

Every prompt of the chosen splits (public text from public repositories: the labelled README names each source and
licence) is sent to the CLI's provider, one call per 60,000 characters (ADR 0155); ``--dry-run`` counts the calls
without making any. A split whose run fails is listed with its failure and counted in no figure.

    python -m tools.model_eval --extractor claude --dry-run
    python -m tools.model_eval --extractor claude --since 300 --json claude-figures.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from memory_review.errors import ValidationError
from memory_review.extract.cli_config import AGENT_CLIS, read_config, resolve
from memory_review.extract.model_extractor import (
    ModelExtraction,
    Progress,
    batches,
    extract_with_agent_cli,
    extract_with_model,
)
from memory_review.extract.plan import PlannedProposal, plan
from memory_review.extract.transcript import Transcript
from memory_review.paths import user_store_dir
from tools.extraction_eval import LABELLED, ROLES, SPLITS, Figures, evaluate_split, load_split, table

EXTRACTORS = (*AGENT_CLIS, "model")
_HELD_OUT = re.compile(r"heldout(\d*)")


@dataclass
class SplitRun:
    """One split's figures under the model, or why the model gave none."""

    figures: Figures
    calls: int
    failure: str | None = None


def held_out_splits(since: int = 0) -> list[str]:
    """The splits no heuristic round was tuned on (not renamed "seen"), from held-out ``since`` on."""
    chosen = []
    for name in SPLITS:
        match = _HELD_OUT.fullmatch(name)
        if match and name not in ROLES and int(match.group(1) or 1) >= since:
            chosen.append(name)
    return chosen


Extraction = Callable[[Transcript, Progress], ModelExtraction]


def extractor_for(extractor: str) -> Extraction:
    """The extraction ``extract --extractor X`` runs, its CLI found once; ValidationError when it cannot be."""
    if extractor == "model":
        return lambda transcript, progress: extract_with_model(transcript, progress=progress)
    config = resolve(extractor, config=read_config(user_store_dir()))
    return lambda transcript, progress: extract_with_agent_cli(transcript, config, progress=progress)


def run_split(name: str, extraction: Extraction, folder: Path = LABELLED) -> SplitRun:
    """Ask the model about one split (every prompt, as many calls as needed) and judge what it proposes."""
    asked: list[ModelExtraction] = []

    def progress(batch: int, total: int) -> None:
        print(f"{name}: call {batch} of {total}", file=sys.stderr, flush=True)

    def proposals(transcript: Transcript) -> list[PlannedProposal]:
        result = extraction(transcript, progress)
        asked.append(result)
        if result.failure is not None:
            return []
        return plan(result.findings, approved=[], pending=[], discarded=[], proposer=result.proposer).proposals

    figures = evaluate_split(name, folder, proposals)
    [result] = asked
    failure = None if result.failure is None else f"{result.failure.kind}: {result.failure.message}"
    failed_call = failure is not None and result.batches > 0  # a model not configured made no call
    return SplitRun(figures, calls=result.answered + failed_call, failure=failure)


def total(runs: list[SplitRun]) -> Figures:
    """The answered splits' figures added up (a failed split counts in none)."""
    whole = Figures(name="**all answered**")
    for run in runs:
        if run.failure is not None:
            continue
        f = run.figures
        whole.prompts += f.prompts
        whole.durable += f.durable
        whole.maybe += f.maybe
        whole.proposals += f.proposals
        whole.kept += f.kept
        whole.unjudged += f.unjudged
        whole.durable_found += f.durable_found
        whole.durable_said_again += f.durable_said_again
        whole.missed += f.missed
    return whole


def report(extractor: str, runs: list[SplitRun]) -> str:
    answered = [run for run in runs if run.failure is None]
    lines = [f"# {extractor} on {len(runs)} held-out splits ({len(answered)} answered)", ""]
    lines.append(table([run.figures for run in answered] + [total(runs)]))
    failed = [run for run in runs if run.failure is not None]
    if failed:
        lines += ["", "Failed (counted in no figure):"] + [f"- {run.figures.name}: {run.failure}" for run in failed]
    return "\n".join(lines)


def dry_run(names: list[str], folder: Path) -> str:
    """How many calls and characters the splits would send, without calling."""
    lines, calls, chars = [], 0, 0
    for name in names:
        transcript, _ = load_split(name, folder)
        turns = transcript.user_turns()
        split_calls = len(batches(transcript))
        split_chars = sum(len(turn.text) for turn in turns)
        lines.append(f"{name}: {len(turns)} prompts, {split_chars:,} characters, {split_calls} call(s)")
        calls, chars = calls + split_calls, chars + split_chars
    lines.append(f"all: {len(names)} splits, {chars:,} characters, {calls} call(s); nothing was sent")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--extractor", choices=EXTRACTORS, required=True, help="the model extractor to judge")
    parser.add_argument("--split", action="append", default=[], help="a split by name (repeat); default: all held-out")
    parser.add_argument("--since", type=int, default=0, help="only held-out splits numbered from this on")
    parser.add_argument("--dry-run", action="store_true", help="count the calls and characters; send nothing")
    parser.add_argument("--json", type=Path, help="also write each split's figures and failure to this file")
    parser.add_argument("--folder", type=Path, default=LABELLED, help=argparse.SUPPRESS)  # the tests' own splits
    args = parser.parse_args(argv)
    names = args.split or held_out_splits(args.since)
    if not names:
        parser.error("no split chosen")
    if args.dry_run:
        print(dry_run(names, args.folder))
        return 0
    try:
        extraction = extractor_for(args.extractor)
    except ValidationError as exc:  # the CLI is not found, the person's config.json is damaged
        hint = f" ({exc.hint})" if exc.hint else ""
        print(f"model_eval: error: {exc}{hint}", file=sys.stderr)
        return 2
    runs = [run_split(name, extraction, args.folder) for name in names]
    print(report(args.extractor, runs))
    if args.json:
        document = [{**asdict(run.figures), "calls": run.calls, "failure": run.failure} for run in runs]
        args.json.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 1 if all(run.failure is not None for run in runs) else 0


if __name__ == "__main__":
    raise SystemExit(main())
