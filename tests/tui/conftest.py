"""Fixtures for the review UI tests: the fixed scenario workspace on disk (see ``scenario.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario import build_scenario

from memory_review.workspace import Workspace


@pytest.fixture
def scenario(tmp_path: Path) -> Workspace:
    """Three approved memories and six pending candidates (two of them flagged), all on disk."""
    return build_scenario(tmp_path)
