"""Fixtures for the event log tests: a log with a fixed clock; no fault left armed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from events_testkit import ORIGIN, fixed_clock

from memory_review.events import EventLog, faults


@pytest.fixture(autouse=True)
def _disarmed() -> Iterator[None]:
    """Every test starts and ends with fault injection off, whatever it armed."""
    faults.arm(None)
    yield
    faults.arm(None)


@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    return tmp_path / "events.jsonl"


@pytest.fixture
def log(log_path: Path) -> EventLog:
    return EventLog(log_path, origin=ORIGIN, clock=fixed_clock)
