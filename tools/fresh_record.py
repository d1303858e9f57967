"""The fresh record by signal: ``python -m tools.fresh_record [--since N]`` (ADR 0110).

Each held-out split was first measured by the extractor as it stood when the split landed: the rounds were frozen
before its data was read, and the split came onto main after. This runs, for every held-out split from ``--since``
on, the extractor of the last commit on main's first-parent line that touched ``memory_review/extract`` before the
split's file landed (in a detached worktree of that commit, with the split's current file and labels), and counts its
proposals and those worth keeping by the signal its rationale names, and the durable prompts it found (quoted, or saying
a kept quote again: ADR 0113). Later rounds tuned on each split's mistakes, so
the current figures cannot show which kinds of rule fail on text no round has seen; this can.

It needs the repository's history (a full clone) and takes a few minutes: one worktree and one interpreter per
measuring commit. It changes nothing in the checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memory_review.extract.heuristic import SIGNAL_MEMORY_NOTE
from tools.extraction_eval import LABELLED, REPO, SPLITS, plain, says_again

# Before held-out 20 a split could land before the round that measured it was frozen; held-out 11 is the one where
# the rule below picks an earlier commit than the round its README names (the sixth, ADR 0059).
# Held-out 414 to 416 landed on main before round 93, but round 93's branch had merged them (2a027206, whose first
# parent is round 93's code) and was fast-forwarded onto main (session 35), so main's first-parent line shows them
# landing after round 93's code: round 92 measured them. 410 to 413 are named too, as one lane's splits.
MEASURED_BY = {"heldout11": "11fa775"} | {f"heldout{n}": "c024ba45" for n in range(410, 417)}
EXTRACT = "memory_review/extract"
_SIGNAL = re.compile(r'signal "([^"]+)"')
_REPEATED = re.compile(r"^The user gave the same instruction")
_REMINDED = re.compile(r"^The user (?:reminded|made what they said)")
_SHORTCUT = re.compile(r'^The user typed this in turn .+ with Claude Code\'s "#" memory shortcut')

# Run in a child interpreter whose path starts at an old commit's worktree: the names it uses (load_split,
# rule_passages, proposals_of) are in tools/extraction_eval.py since the sixth round.
_CHILD = """
import json, os, sys
import memory_review
assert memory_review.__file__.startswith(os.getcwd()), memory_review.__file__  # the old commit's extractor
from tools import extraction_eval as ev
for name in sys.argv[1:]:
    transcript, labels = ev.load_split(name)
    passages = ev.rule_passages(name)

    def worth_keeping(turn_id, quote):
        rule = passages.get(turn_id)
        in_rule = not rule or any(part in quote or quote in part for part in rule)
        return labels.get(turn_id, "one-off") in ("durable", "maybe") and in_rule

    covered, rules = set(), []
    for planned in ev.proposals_of(transcript):
        p = planned.proposal
        first = p.evidence[0]
        label = labels.get(str(first.turn_id), "one-off")
        print(json.dumps({"row": "proposal", "split": name, "label": label,
                          "kept": worth_keeping(str(first.turn_id), first.quote),
                          "rationale": p.rationale, "quote": first.quote}))
        kept = [e for e in p.evidence if worth_keeping(str(e.turn_id), e.quote)]
        covered.update(str(e.turn_id) for e in kept)
        rules.extend(e.quote for e in kept)
    for turn in transcript.turns:
        if labels[turn.turn_id] == "durable":
            print(json.dumps({"row": "durable", "split": name, "quoted": turn.turn_id in covered, "text": turn.text,
                              "passages": passages.get(turn.turn_id, []), "rules": rules}))
"""


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO, check=True, capture_output=True, text=True).stdout.strip()


def measuring_commit(split: str) -> str:
    """The extractor a split was first measured with: the last change to it before the split's file landed."""
    if split in MEASURED_BY:
        return MEASURED_BY[split]
    path = f"tests/memory_review/extract/labelled/{split}.json"
    landed = _git("log", "--first-parent", "--diff-filter=A", "--format=%h", "--", path).splitlines()[-1]
    return _git("log", "--first-parent", "-1", "--format=%h", f"{landed}^1", "--", EXTRACT)


def kind_of(rationale: str) -> str:
    """The kind of finding a rationale names: its signal, or how it was found without one."""
    if found := _SIGNAL.search(rationale):
        return found.group(1)
    if _REPEATED.search(rationale):
        return "repeated across sessions"
    if _REMINDED.search(rationale):
        return "reminded / made a rule"
    if _SHORTCUT.search(rationale):
        return SIGNAL_MEMORY_NOTE  # its rationale names no signal; without this the row was the rationale's start
    return rationale.split(":")[0][:60]


def first_proposals(splits: Sequence[str], workdir: Path) -> list[dict[str, object]]:
    by_commit: dict[str, list[str]] = defaultdict(list)
    for split in splits:
        by_commit[measuring_commit(split)].append(split)
    rows: list[dict[str, object]] = []
    for done, (commit, names) in enumerate(by_commit.items(), 1):
        tree = workdir / commit
        _git("worktree", "add", "--quiet", "--detach", str(tree), commit)
        try:
            for name in names:
                shutil.copy(LABELLED / f"{name}.json", tree / "tests/memory_review/extract/labelled" / f"{name}.json")
            env = {**os.environ, "PYTHONPATH": str(tree)}
            out = subprocess.run(
                [sys.executable, "-c", _CHILD, *names], cwd=tree, env=env, check=True, capture_output=True, text=True
            ).stdout
            rows.extend(json.loads(line) for line in out.splitlines())
        finally:
            _git("worktree", "remove", "--force", str(tree))
        print(f"{done}/{len(by_commit)} {commit}: {', '.join(names)}", file=sys.stderr)
    return rows


def table(rows: Sequence[dict[str, object]]) -> str:
    """Proposals and those worth keeping by kind, then the durable prompts found when first measured."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    proposals = [row for row in rows if row.get("row", "proposal") == "proposal"]
    for row in proposals:
        count = counts[kind_of(str(row["rationale"]))]
        count[0] += 1
        count[1] += bool(row["kept"])
        count[2] += bool(row["kept"]) and row["label"] == "durable"
    lines = ["| kind | proposals | worth keeping | of them durable |", "|---|---|---|---|"]
    for kind, (made, kept, durable) in sorted(counts.items(), key=lambda item: -item[1][0]):
        lines.append(f"| {kind} | {made} | {kept} ({kept / made:.0%}) | {durable} |")
    made = len(proposals)
    kept = sum(bool(row["kept"]) for row in proposals)
    lines.append(f"| **all** | {made} | {kept} ({kept / made:.0%}) | |" if made else "| **all** | 0 | 0 | |")
    return "\n".join([*lines, "", found_line([row for row in rows if row.get("row") == "durable"])])


def found_line(durable: Sequence[dict[str, Any]]) -> str:
    """How many durable prompts the first measurement found: quoted, or saying a kept quote again (ADR 0113)."""
    quoted = sum(bool(row["quoted"]) for row in durable)
    again = sum(
        not row["quoted"]
        and says_again(plain(row["text"]), [plain(p) for p in row["passages"]], {plain(r) for r in row["rules"]})
        for row in durable
    )
    share = f" ({(quoted + again) / len(durable):.0%})" if durable else ""
    return f"Durable prompts found when first measured: {quoted} quoted, {again} said again, of {len(durable)}{share}."


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--since", type=int, default=11, help="the first held-out split to count (default 11)")
    parser.add_argument("--until", type=int, default=None, help="the last held-out split to count (default: all)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON lines (proposals, durable prompts)")
    args = parser.parse_args(argv)
    numbered = [(name, int(name[7:])) for name in SPLITS if re.fullmatch(r"heldout\d+", name)]
    last = args.until if args.until is not None else max(number for _, number in numbered)
    splits = [name for name, number in numbered if args.since <= number <= last]
    with tempfile.TemporaryDirectory(prefix="fresh-record-") as workdir:
        rows = first_proposals(splits, Path(workdir))
    print("\n".join(json.dumps(row) for row in rows) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
