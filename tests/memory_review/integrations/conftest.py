"""Fixtures for the integration tests: real data, a real git project with stores, and the CLI as a subprocess."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from project_kit import Project, data_dir, make_project


@pytest.fixture
def shared_data() -> Path:
    """The real test data folder (``MEMORY_REVIEW_TEST_DATA``), or skip when it is absent."""
    path = data_dir()
    if not path.is_dir():
        pytest.skip(f"real test data not found at {path} (set MEMORY_REVIEW_TEST_DATA)")
    return path


@pytest.fixture
def hook_payloads(shared_data: Path) -> dict[str, list[dict[str, Any]]]:
    """Every real Claude Code hook payload, by file name (each file is a JSON array of payloads)."""
    folder = shared_data / "hooks" / "claude-code"
    files = sorted(folder.glob("*/*.json"))
    if not files:
        pytest.skip(f"no Claude Code hook payloads in {folder}")
    return {path.name: json.loads(path.read_text(encoding="utf-8")) for path in files}


@pytest.fixture
def real_transcripts(shared_data: Path) -> list[Path]:
    """The real Claude Code transcripts (JSONL sessions and JSON arrays of their records)."""
    folder = shared_data / "transcripts" / "claude-code"
    files = sorted(p for p in folder.glob("*/*") if p.suffix in (".jsonl", ".json"))
    if not files:
        pytest.skip(f"no real transcripts in {folder}")
    return files


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """An initialised project (both stores exist)."""
    return make_project(tmp_path)


@pytest.fixture
def payload_for(project: Project) -> Callable[..., dict[str, Any]]:
    """A real payload re-aimed at the test project (``cwd``) and, optionally, a transcript."""

    def aim(payload: dict[str, Any], transcript: Path | None = None) -> dict[str, Any]:
        aimed = {**payload, "cwd": str(project.root)}
        if transcript is not None:
            aimed["transcript_path"] = str(transcript)
        return aimed

    return aim


@pytest.fixture
def lock_holder(project: Project) -> Iterator[subprocess.Popen]:
    """Another process holding the project store's lock (as a long apply would); SIGKILL lets it go."""
    code = (
        "import sys, time; from pathlib import Path; from memory_review.locking import store_lock\n"
        "with store_lock(Path(sys.argv[1]), 5):\n    print('locked', flush=True); time.sleep(60)\n"
    )
    lock = (project.root / ".memory-review" / ".lock").resolve()
    child = subprocess.Popen([sys.executable, "-c", code, str(lock)], stdout=subprocess.PIPE, env=project.env)
    assert child.stdout is not None and child.stdout.readline() == b"locked\n"
    yield child
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdout.close()
