"""The bad-input corpus: every hostile input is refused with a clear typed error (or flagged), store unchanged."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tools.reliability import corpus_cases  # noqa: F401 — registers the cases
from tools.reliability.corpus import CASES, Case, run_case
from tools.reliability.crash import Prepared

pytestmark = pytest.mark.usefixtures("verify_way")  # every finding the same, full and incremental (ADR 0056)


def test_the_corpus_covers_every_category_of_reliability_md() -> None:
    categories = Counter(c.category for c in CASES)
    assert len(CASES) >= 30
    assert set(categories) == {"paths and keys", "YAML", "manifest", "log", "prompt injection"}
    assert min(categories.values()) >= 4
    assert len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("item", CASES, ids=lambda c: c.name)
def test_a_bad_input_is_refused_and_changes_nothing(prepared: Prepared, tmp_path: Path, item: Case) -> None:
    assert run_case(item, prepared.template, prepared.ctx, tmp_path / "case") == []
