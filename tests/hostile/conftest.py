"""The hostile suite runs every test both ways: its verifies full, and resuming from a record (ADR 0056)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _verify_both_ways(verify_way: str) -> str:
    return verify_way
