"""What ships: the built wheel holds the product packages and none of the test machinery (ADR 0025)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = {"memory_review", "events", "tui"}


def _source_copy(dest: Path) -> Path:
    """The files git would put in a clone (tracked, plus new ones not ignored), copied to ``dest``."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=True, timeout=60).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    if shutil.which("git") is None:
        pytest.skip("git is needed to list the source files")
    base = tmp_path_factory.mktemp("wheel")
    source = _source_copy(base / "src")
    argv = [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(base / "out")]
    built = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    assert built.returncode == 0, built.stderr[-2000:]
    [wheel] = (base / "out").glob("memory_review-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_the_wheel_holds_no_reliability_harness_or_tests(wheel_names: list[str]) -> None:
    tops = {name.split("/")[0] for name in wheel_names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == SHIPPED
    assert not [n for n in wheel_names if "reliability" in n or "sitecustomize" in n or "faults_plan" in n]


def test_the_wheel_still_holds_the_product(wheel_names: list[str]) -> None:
    for needed in ("memory_review/cli.py", "events/faults.py", "events/log.py", "tui/__init__.py",
                   "memory_review/data/demo_transcript.jsonl"):
        assert needed in wheel_names


def test_no_shipped_module_reads_a_fault_plan_or_imports_the_harness() -> None:
    for package in sorted(SHIPPED):
        for path in (ROOT / package).rglob("*.py"):
            source = path.read_text(encoding="utf-8")
            assert "MEMORY_REVIEW_FAULT" not in source, path
            assert "from tools" not in source and "import tools" not in source, path
