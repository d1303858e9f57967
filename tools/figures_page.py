"""The command line both evaluators share: print the figures, or write them into their Markdown page."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path


def main(argv: list[str] | None, doc: str, figures: Callable[[], str], render: Callable[[str], str]) -> int:
    """Parse ``--write PAGE``, compute the figures' text once, print it, and write ``render(text)`` if asked."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--write", type=Path, help="write the figures into this Markdown file")
    args = parser.parse_args(argv)
    text = figures()
    if args.write:
        args.write.write_text(render(text), encoding="utf-8")
    print(text)
    return 0
