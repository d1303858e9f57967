"""Fixtures for the import tests: the real memory files, workspaces, and project folders."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from import_helpers import Place

from memory_review.workspace import Workspace


def _data_dir() -> Path:
    default = Path(__file__).resolve().parents[3] / ".." / "shared" / "data"
    return Path(os.environ.get("MEMORY_REVIEW_TEST_DATA", default)).resolve()


@pytest.fixture
def memory_files() -> Path:
    """The real memory files (``$MEMORY_REVIEW_TEST_DATA/memory-files``), or skip when absent."""
    path = _data_dir() / "memory-files"
    if not path.is_dir():
        pytest.skip(f"real memory files not found at {path} (set MEMORY_REVIEW_TEST_DATA)")
    return path


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    """A fresh workspace: project root ``tmp_path/p``, user store ``tmp_path/home``."""
    (tmp_path / "p").mkdir()
    workspace = Workspace(tmp_path / "p", tmp_path / "home")
    workspace.init()
    return workspace


@pytest.fixture
def place(ws: Workspace) -> Place:
    """Copy a real file into the workspace's project as ``name`` (in tmp_path, never the repo)."""

    def copy(source: Path, name: str) -> Path:
        target = ws.root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        return target

    return copy
