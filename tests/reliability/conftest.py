"""Fixtures of the reliability suite: no fault left armed, a shared prepared template, the run's scale.

The heavy variants (thousands of trials) run only with ``MEMORY_REVIEW_FULL=1``;
by default each suite runs its quick mode, the same one CI's figures script runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_review.events import faults
from tools.reliability.crash import Prepared, prepare


@pytest.fixture(autouse=True)
def _disarmed() -> Iterator[None]:
    """Every test starts and ends with fault injection off, whatever it armed."""
    faults.arm(None)
    yield
    faults.arm(None)


@pytest.fixture(scope="session")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Prepared:
    """The template store and, per operation, its fault-point trace and after-state (built once)."""
    return prepare(tmp_path_factory.mktemp("prepared"))


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    return tmp_path
