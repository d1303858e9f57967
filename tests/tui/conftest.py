"""Fixtures for the review UI tests: a real demo workspace on disk (see ``tui_helpers``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_review.demo import build_demo
from memory_review.workspace import Workspace


@pytest.fixture
def demo(tmp_path: Path) -> Workspace:
    """The demo workspace: 3 approved memories, 6 pending candidates (2 of them flagged)."""
    return build_demo(tmp_path)
