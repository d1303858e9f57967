"""Extraction of a real multi-megabyte transcript against a plain ``json`` parse of the same file, and the
safety scan of every real transcript against one pass of a plain regular expression over the same text."""

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
            "≤ 8×",  # the bound the test suite held as a timed assertion until ADR 0039; measured about 2x
            8.0,
            note=f"{size:.1f} MB; read + detect + extract + dedup plan",
        )
    ]


def scan_rows(scale: Scale) -> list[Row]:
    """``safety.scan`` + ``redact`` of all real transcripts vs one ``\\w+`` findall over the same text
    (the test suite once held this as a timed assertion, ``test_real_transcripts_scan_quickly``)."""
    name = "scan + redact every real transcript"
    files = sorted(p for p in (data_dir() / "transcripts").rglob("*.json*") if p.is_file())
    if not files:
        return [Row(name, None, "one \\w+ findall", None, "report", None, note="not run: no transcripts")]
    import re

    from memory_review.safety import redact, scan

    text = "\n".join(p.read_text(encoding="utf-8") for p in files)
    words = re.compile(r"\w+")

    def run() -> object:
        return scan(text), redact(text)

    seconds, floor = interleaved(run, lambda: words.findall(text), max(3, scale.repeat // 3))
    return [
        Row(
            name,
            seconds,
            "one \\w+ findall over the same text",
            floor,
            "report",
            None,
            note=f"{len(files)} files, {len(text) / 1e6:.1f} M characters",
        )
    ]
