"""Labelling lanes: the brief a labeller gets, and the merge of their branch (ADR 0153).

    python -m tools.labelled_lanes brief N --lane lane.md --worktree DIR --deadline HH:MM [--budget 18]
    python -m tools.labelled_lanes merge heldoutN [heldoutM ...]

``brief`` fills `LABELLING.md` (the labellers' brief beside the split files) for held-out split N with the lane's
text, and prints it. ``merge`` merges each lane's branch into the current branch: its split file as git merges it,
the labelled README built by hand. Every lane adds its section at the same place (before the `judged1.json` paragraph)
and appends to the same rows of the sources table, so git's merge of two lanes conflicts, and resolving it by hand
twice dropped the end of a section. Here each lane's section is inserted whole and each row addition appended, then
the section is checked to be in the result word for word; a lane that changed anything else in the README is refused.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tools.extraction_eval import LABELLED

BRIEF = LABELLED / "LABELLING.md"
README_PATH = "tests/memory_review/extract/labelled/README.md"
JUDGED = '`judged1.json` ("Judged 1"'
_ROW = re.compile(r"^\| (\[[^\]]+\]\([^)]+\)) \| ")
_LANE = "<the lane: where to look, the stretch fixed before reading, what earlier sections to read first>"


class LaneError(Exception):
    """A lane's branch that cannot be merged as a lane: it changed more than its section and its table cells."""


@dataclass(frozen=True)
class LaneChange:
    """What one lane adds to the labelled README."""

    section: list[str]  # its lines, from its opening line to the judged1 paragraph
    additions: dict[str, str]  # row key -> the text appended to that row's "what" cell
    new_rows: list[str]


def fill_brief(template: str, number: int, *, lane: str, worktree: str, deadline: str, budget: int, venv: str) -> str:
    """`LABELLING.md` for one lane, without its maintainer's comment."""
    text = template.split("-->", 1)[1].lstrip() if template.startswith("<!--") else template
    for placeholder, value in (
        ("<N>", str(number)),
        ("<budget>", str(budget)),
        ("<deadline>", deadline),
        ("<worktree>", worktree),
        ("<project venv>", venv),
    ):
        text = text.replace(placeholder, value)
    if _LANE not in text:
        raise LaneError("LABELLING.md has no lane placeholder under 'Your lane'")
    return text.replace(_LANE, lane.strip())


def _rows(lines: Sequence[str]) -> dict[str, str]:
    """The table's rows by repository link and occurrence: a repository can have a row per lane that read it."""
    rows: dict[str, str] = {}
    for line in lines:
        if match := _ROW.match(line):
            link = match.group(1)
            rows[f"{link}#{sum(key.startswith(link + '#') for key in rows)}"] = line
    return rows


def _what_and_licence(row: str) -> tuple[str, str]:
    cut = row.rindex(" | ")
    return row[:cut].rstrip(), row[cut:]


def lane_change(base: str, lane: str, number: int) -> LaneChange:
    """The section and table cells lane ``number`` added to the README it branched from; anything else refuses."""
    base_lines, lane_lines = base.split("\n"), lane.split("\n")
    opening = f'`heldout{number}.json` ("Held-out {number}")'
    starts = [i for i, line in enumerate(lane_lines) if line.startswith(opening)]
    ends = [i for i, line in enumerate(lane_lines) if line.startswith(JUDGED)]
    if len(starts) != 1 or len(ends) != 1 or starts[0] > ends[0]:
        raise LaneError(f"held-out {number}: no single section before the judged1 paragraph")
    section = lane_lines[starts[0] : ends[0]]
    base_rows, lane_rows = _rows(base_lines), _rows(lane_lines)
    additions, new_rows = {}, []
    for key, row in lane_rows.items():
        if key not in base_rows:
            new_rows.append(row)
        elif row != base_rows[key]:
            (what, licence), (base_what, base_licence) = _what_and_licence(row), _what_and_licence(base_rows[key])
            if licence != base_licence or not what.startswith(base_what):
                raise LaneError(f"held-out {number}: the row {key} was changed, not appended to")
            additions[key] = what[len(base_what) :]
    rebuilt = apply_change(base, LaneChange(section, additions, new_rows))
    if rebuilt != lane:
        raise LaneError(f"held-out {number}: the README changed beyond its section and its sources-table cells")
    return LaneChange(section, additions, new_rows)


def apply_change(current: str, change: LaneChange) -> str:
    """``current`` with the lane's section before the judged1 paragraph and its table cells appended."""
    lines = current.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(JUDGED))
    lines[at:at] = change.section
    rows = _rows(lines)
    for key, added in change.additions.items():
        index = lines.index(rows[key])
        what, licence = _what_and_licence(rows[key])
        lines[index] = what + added + licence
    if change.new_rows:
        last = max(i for i, line in enumerate(lines) if _ROW.match(line))
        lines[last + 1 : last + 1] = change.new_rows
    return "\n".join(lines)


def _git(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=check)


def merge_lane(branch: str) -> str:
    """Merge lane ``branch`` (``heldoutN``) into HEAD with its README section rebuilt; the merge commit's subject."""
    named = re.fullmatch(r"heldout(\d+)", branch)
    if named is None:
        raise LaneError(f"{branch}: a lane's branch is named heldoutN")
    number = int(named.group(1))
    fork = _git("merge-base", "HEAD", branch).stdout.strip()
    changed = set(_git("diff", "--name-only", fork, branch).stdout.split())
    allowed = {README_PATH, f"tests/memory_review/extract/labelled/heldout{number}.json"}
    if not changed <= allowed:
        raise LaneError(f"{branch}: changes files a lane does not write: {', '.join(sorted(changed - allowed))}")
    change = lane_change(
        _git("show", f"{fork}:{README_PATH}").stdout, _git("show", f"{branch}:{README_PATH}").stdout, number
    )
    current = _git("show", f"HEAD:{README_PATH}").stdout
    merged = apply_change(current, change)
    _git("merge", "--no-ff", "--no-commit", branch, check=False)  # the README may conflict; it is written below
    Path(README_PATH).write_text(merged, encoding="utf-8")
    _git("add", "--", *sorted(changed))
    if _git("diff", "--name-only", "--diff-filter=U").stdout.strip():
        raise LaneError(f"{branch}: a conflict outside the README is left for you to resolve")
    subject = f"Merge held-out {number}"
    _git("commit", "-q", "-m", subject)
    if "\n".join(change.section) not in Path(README_PATH).read_text(encoding="utf-8"):
        raise LaneError(f"{branch}: its section is not in the merged README word for word")
    return subject


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    brief = commands.add_parser("brief", help="print LABELLING.md filled in for one lane")
    brief.add_argument("number", type=int, help="the held-out split's number")
    brief.add_argument("--lane", type=Path, required=True, help="a file holding the lane's text")
    brief.add_argument("--worktree", required=True, help="the labeller's worktree")
    brief.add_argument("--deadline", required=True, help="UTC time to finish by, e.g. 23:55")
    brief.add_argument("--budget", type=int, default=18, help="look-ups allowed (default 18)")
    brief.add_argument("--venv", default=".venv", help="the project venv the format check runs with")
    merge = commands.add_parser("merge", help="merge lanes' branches into the current branch (run at the repo root)")
    merge.add_argument("branches", nargs="+", help="heldoutN branches, merged in this order")
    args = parser.parse_args(argv)
    try:
        if args.command == "brief":
            lane = args.lane.read_text(encoding="utf-8")
            print(
                fill_brief(
                    BRIEF.read_text(encoding="utf-8"),
                    args.number,
                    lane=lane,
                    worktree=args.worktree,
                    deadline=args.deadline,
                    budget=args.budget,
                    venv=args.venv,
                )
            )
        else:
            for branch in args.branches:
                print(merge_lane(branch))
    except (LaneError, OSError, subprocess.CalledProcessError) as error:
        print(f"labelled_lanes: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
