"""The benchmark suite still runs: every case at the ``tiny`` scale, in a scratch folder (seconds)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEGIN = "<!-- benchmarks:begin"


def test_the_suite_runs_at_tiny_scale_and_writes_its_page(tmp_path: Path) -> None:
    docs, rows_file = tmp_path / "docs", tmp_path / "rows.json"
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--scale", "tiny", "--docs", str(docs),
         "--json", str(rows_file), "--work", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = json.loads(rows_file.read_text())
    names = " | ".join(row["name"] for row in rows)
    for expected in ("apply one candidate (library call)", "marked candidates in one call", "replay 1,000 events",
                     "verify 1,000 events", "peak RSS replaying", "memory-review context", "open the review UI",
                     "extract a 3.7 MB"):
        assert expected in names
    measured = [row for row in rows if row["seconds"] is not None]
    assert all(row["seconds"] > 0 for row in measured)
    assert {row["name"] for row in measured} >= {"apply one candidate (library call)", "replay 1,000 events"}
    assert "apply one candidate (library call)" in done.stdout  # the table is printed
    page = (docs / "performance.md").read_text(encoding="utf-8")
    assert BEGIN in page and "| apply one candidate (library call) |" in page
    charts = sorted(p.name for p in (docs / "performance").glob("*.png"))
    assert charts == ["apply-growth.png", "ratios.png", "replay-growth.png", "replay-rss.png"]
    assert all((docs / "performance" / name).read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for name in charts)
