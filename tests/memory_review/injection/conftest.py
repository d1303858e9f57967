"""Shared helpers for the injection tests: a memory factory, the fixed clock, the real data dir."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from injection_helpers import MakeMemory, make_memory


@pytest.fixture
def mem() -> MakeMemory:
    """The memory factory, as a fixture."""
    return make_memory


@pytest.fixture
def shared_data() -> Path:
    """The real test data folder (``MEMORY_REVIEW_TEST_DATA``), or skip when it is absent."""
    default = Path(__file__).resolve().parents[3] / ".." / "shared" / "data"
    path = Path(os.environ.get("MEMORY_REVIEW_TEST_DATA", default)).resolve()
    if not path.is_dir():
        pytest.skip(f"real test data not found at {path} (set MEMORY_REVIEW_TEST_DATA)")
    return path
