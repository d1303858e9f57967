"""Suite-wide: tests marked ``slow`` run only with ``MEMORY_REVIEW_FULL=1`` (the marker is declared in
pyproject.toml). Each is a heavier variant of a guarantee a default test keeps (docs/adr/0039)."""

from __future__ import annotations

import os

import pytest
from verify_ways import verify_way  # noqa: F401 - the fixture that runs a suite's verifies both ways (ADR 0056)

FULL = os.environ.get("MEMORY_REVIEW_FULL") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if FULL:
        return
    skip = pytest.mark.skip(reason="slow: a heavier variant of a default test; MEMORY_REVIEW_FULL=1 runs it")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)
