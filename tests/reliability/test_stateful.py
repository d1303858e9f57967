"""The hypothesis state machine: random operation sequences, replay == disk == model after every step."""

from __future__ import annotations

import pytest
from scale_kit import FULL

from tools.reliability.stateful import run_stateful

pytestmark = pytest.mark.usefixtures("verify_way")  # every finding the same, full and incremental (ADR 0056)


def test_random_operation_sequences_keep_log_disk_and_model_equal() -> None:
    result = run_stateful(examples=300 if FULL else 30, steps=30 if FULL else 20, derandomize=not FULL)
    assert result.failures == []
    assert result.counts["examples"] >= 30 and result.counts["steps checked"] > result.counts["examples"]
