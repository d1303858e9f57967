"""The labelled set's "Counts:" paragraph, made from the split files: ``python -m tools.labelled_counts [--write]``.

Each labeller adds their split to the paragraph in `tests/memory_review/extract/labelled/README.md` by hand, and
merging several labellers' branches leaves it torn (two half lines, a split counted twice). This prints the paragraph
the split files give — every split in the order the paragraph already lists them, new ones after the others by number,
judged ones last — and with ``--write`` puts it in place. `test_labelled_counts` checks the README holds it.
"""

from __future__ import annotations

import argparse
import json
import re
import textwrap
from collections.abc import Sequence

from tools.extraction_eval import LABELLED, UNJUDGED

README = LABELLED / "README.md"
WIDTH = 120
_PARAGRAPH = re.compile(r"^Counts:.*?(?=\n\n)", re.DOTALL | re.MULTILINE)
_LISTED = re.compile(r"\b(dev|held-out|judged)(?:\s+(\d+))?\s+\d+\s+prompts?\s+\(")  # the paragraph is wrapped
_KINDS = {"dev": "dev", "held-out": "heldout", "judged": "judged"}
_LABELS = {kind: label for label, kind in _KINDS.items()}


def _name(kind: str, number: str | None) -> str:
    return _KINDS[kind] + (number or "")


def _label(name: str) -> str:
    kind = re.sub(r"\d+$", "", name)
    number = name[len(kind) :]
    return _LABELS[kind] + (f" {number}" if number else "")


def _entry(name: str) -> str:
    split = json.loads((LABELLED / f"{name}.json").read_text(encoding="utf-8"))
    prompts = [prompt for session in split["sessions"] for prompt in session["prompts"]]
    durable = sum(prompt["label"] == "durable" for prompt in prompts)
    maybe = sum(prompt["label"] == "maybe" for prompt in prompts)
    shape = f"{_label(name)} {len(prompts)} prompt{'' if len(prompts) == 1 else 's'}"
    if split.get("judged"):
        judged = sum(prompt["label"] != UNJUDGED for prompt in prompts)
        return f"{shape} ({judged} judged: {durable} durable, {maybe} maybe)"
    return f"{shape} ({durable} durable, {maybe} maybe)"


def _number(name: str) -> int:
    digits = re.sub(r"^\D+", "", name)
    return int(digits) if digits else 1


def _judged(name: str) -> bool:
    return name.startswith("judged")


def order(listed: Sequence[str], present: Sequence[str]) -> list[str]:
    """The splits present, in the order ``listed`` first has them; new ones after the others, by number; judged last."""
    kept = [name for name in dict.fromkeys(listed) if name in present]
    new = sorted((name for name in present if name not in kept), key=_number)
    ordered = kept + new
    return [name for name in ordered if not _judged(name)] + [name for name in ordered if _judged(name)]


def paragraph(readme: str) -> str:
    """The "Counts:" paragraph the split files give, in the order ``readme``'s paragraph lists them."""
    current = _PARAGRAPH.search(readme)
    listed = [_name(kind, number) for kind, number in _LISTED.findall(current.group(0))] if current else []
    present = sorted(path.stem for path in LABELLED.glob("*.json"))
    text = "Counts: " + ", ".join(_entry(name) for name in order(listed, present)) + "."
    return textwrap.fill(text, WIDTH, break_long_words=False, break_on_hyphens=False)


def rewrite(readme: str) -> str:
    """``readme`` with its "Counts:" paragraph made again from the split files."""
    made = paragraph(readme)
    text, count = _PARAGRAPH.subn(lambda _: made, readme, count=1)
    if count != 1:
        raise SystemExit(f'{README}: no "Counts:" paragraph (a line starting "Counts:", ended by a blank line)')
    return text


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.labelled_counts", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--write", action="store_true", help=f"put the paragraph in place in {README.name}")
    args = parser.parse_args(argv)
    readme = README.read_text(encoding="utf-8")
    if args.write:
        README.write_text(rewrite(readme), encoding="utf-8")
    print(paragraph(readme))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
