"""Extraction of a real multi-megabyte transcript against a plain ``json`` parse of the same file."""

from __future__ import annotations

import json
import os
from pathlib import Path

from benchmarks.measure import REPO, Row, interleaved
from benchmarks.scale import Scale

BIG = Path("transcripts/claude-code/kesslerio-attio-mcp-server/logs_chat.json")


def data_dir() -> Path:
    """The shared real data: ``$MEMORY_REVIEW_TEST_DATA``, else ``<repo>/../shared/data``."""
    return Path(os.environ.get("MEMORY_REVIEW_TEST_DATA") or REPO.parent / "shared" / "data")


def extract_rows(scale: Scale) -> list[Row]:
    """Read, extract and plan (against an empty store) vs ``json.loads`` of the file."""
    path = data_dir() / BIG
    name = "extract a 3.7 MB Claude Code transcript"
    if not path.exists():
        return [Row(name, None, "json.loads of the file", None, "report", None, note=f"not run: {path} missing")]
    from memory_review.extract.heuristic import extract
    from memory_review.extract.plan import plan
    from memory_review.extract.readers import read_transcript

    def run() -> object:
        return plan(extract(read_transcript(path)), approved=[], pending=[], discarded=[])

    def parse() -> object:
        return json.loads(path.read_bytes())

    seconds, floor = interleaved(run, parse, max(3, scale.repeat // 3))
    size = path.stat().st_size / 1e6
    return [
        Row(
            name,
            seconds,
            "json.loads of the same file",
            floor,
            "report",
            None,
            note=f"{size:.1f} MB; read + detect + extract + dedup plan",
        )
    ]
