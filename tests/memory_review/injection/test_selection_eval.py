"""Selection quality on public QA data (ADR 0038): at or above plain BM25, and docs/selection.md current.

A quality assertion, not a timing one: the recall@5 figures are deterministic for the fixture.
"""

from __future__ import annotations

import pytest

from tools.selection_eval import REPO, figures, render, report


@pytest.fixture(scope="module")
def rows():
    return figures()


def test_ours_is_at_or_above_plain_bm25_on_both_sets(rows) -> None:
    assert [row.name for row in rows] == ["LoCoMo (English)", "MemoryBank (Chinese)"]
    for row in rows:
        assert row.questions >= 20
        assert row.recall("ours") >= row.recall("plain BM25"), row.name
    assert rows[0].recall("ours") >= 0.65  # issue #16's aim, on the English long-conversation set


def test_the_published_page_is_current(rows) -> None:
    page = (REPO / "docs" / "selection.md").read_text(encoding="utf-8")
    assert page == render(report(rows)), (
        "docs/selection.md is stale: run python -m tools.selection_eval --write docs/selection.md"
    )
