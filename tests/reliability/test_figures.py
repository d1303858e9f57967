"""The figures script: it runs every suite (at the smoke scale here) and writes the document."""

from __future__ import annotations

from pathlib import Path

from tools.reliability.__main__ import main
from tools.reliability.figures import RunInfo, render
from tools.reliability.results import SuiteResult


def test_the_script_writes_the_document_with_every_suite(tmp_path: Path) -> None:
    output = tmp_path / "reliability.md"
    assert main(["--scale", "smoke", "--output", str(output), "--workdir", str(tmp_path)]) == 0
    text = output.read_text()
    for suite in (
        "crash matrix",
        "random SIGKILL",
        "I/O error matrix",
        "interrupted recovery",
        "concurrency",
        "bad-input corpus",
        "hypothesis state machine",
    ):
        assert f"| {suite} |" in text and f"## {suite}" in text
    assert "No failures." in text and "**FAILED**" not in text
    # The hostile section comes from the suites themselves (listed, not run, at the smoke scale).
    assert "## Hostile inputs (`tests/hostile/`)" in text
    for suite in sorted((Path(__file__).parents[1] / "hostile").glob("test_*.py")):
        assert f"| `tests/hostile/{suite.name}` |" in text and f"### `tests/hostile/{suite.name}`" in text
    assert "Out of scope, and why:" in text and "## What the log's hash chain proves" in text
    assert list(tmp_path.iterdir()) == [output]  # the trial folders are gone


def test_failures_are_published_not_rounded_away() -> None:
    result = SuiteResult("crash matrix", zero=("lost", "mixed states"))
    result.record("apply", "after", [], trial="t1")
    result.record("apply", "before", ["LOST committed change: expected after, found before"], trial="t2")
    text = render([result], RunInfo("quick", 60.0, 2, "ext4", "python -m tools.reliability"), "intro")
    assert "| crash matrix | 2 | 1 failed, 1 lost, 0 mixed states | 0s | **FAILED** |" in text
    assert "**1 failures** (listed below)" in text and "t2: LOST committed change" in text
