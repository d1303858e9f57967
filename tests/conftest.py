"""Suite-wide: tests marked ``slow`` run only with ``MEMORY_REVIEW_FULL=1`` (the marker is declared in
pyproject.toml). Each is a heavier variant of a guarantee a default test keeps (docs/adr/0039).

No test reads or writes the real user store: every test process gets a user store of its own in a temporary folder
(``MEMORY_REVIEW_HOME``), and a test that wants another sets it. A pending candidate in the developer's own store
once showed up in tests that open a ``Workspace`` in process, and made them fail."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from verify_ways import verify_way  # noqa: F401 - the fixture that runs a suite's verifies both ways (ADR 0056)

FULL = os.environ.get("MEMORY_REVIEW_FULL") == "1"
_OWN_HOME = Path(tempfile.mkdtemp(prefix="memory-review-tests-"))


def pytest_configure(config: pytest.Config) -> None:
    os.environ["MEMORY_REVIEW_HOME"] = str(_OWN_HOME / "user-store")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_OWN_HOME, ignore_errors=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if FULL:
        return
    skip = pytest.mark.skip(reason="slow: a heavier variant of a default test; MEMORY_REVIEW_FULL=1 runs it")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)
