"""The budget: whole notes only, lowest priority dropped first, header and footer counted."""

from __future__ import annotations

import pytest
from injection_helpers import NOW, MakeMemory

from memory_review.injection import ContextRequest, build_context
from memory_review.injection.render import fixed_cost
from memory_review.models import Memory


@pytest.fixture
def ranked(mem: MakeMemory) -> list[Memory]:
    """Five notes whose priority order is their id order."""
    return [
        mem("a-forbidden", "forbidden", body="Never commit secrets."),
        mem("b-session", "preference", "session", body="Short answers this session.\nNo emoji."),
        mem("c-project", "convention", "project", body="Use ruff for linting."),
        mem("d-user", "preference", "user", body="Prefer British spelling."),
        mem("e-fact", "fact", body="The API listens on port 8080."),
    ]


def test_budget_cuts_whole_notes_from_the_end_and_reports_them(ranked: list[Memory]) -> None:
    full = build_context(ranked, ContextRequest(now=NOW)).text
    cut_at = full.index("[memory:project:convention]")
    # Exactly the bytes of the first two notes plus the closing delimiter.
    budget = len(full[:cut_at].rstrip("\n").encode()) + 1 + len("</memory-review-context>\n")

    result = build_context(ranked, ContextRequest(now=NOW, budget_bytes=budget))

    assert [m.id for m in result.included] == ["a-forbidden", "b-session"]
    assert [(m.id, m.reason) for m in result.dropped] == [
        ("c-project", "budget"),
        ("d-user", "budget"),
        ("e-fact", "budget"),
    ]
    assert len(result.text.encode()) == budget
    assert "Use ruff" not in result.text and "Prefer British" not in result.text
    assert result.text.endswith("No emoji.\n</memory-review-context>\n")
    one_less = build_context(ranked, ContextRequest(now=NOW, budget_bytes=budget - 1))
    assert [m.id for m in one_less.included] == ["a-forbidden"]


def test_block_never_exceeds_either_budget(ranked: list[Memory]) -> None:
    for budget_bytes in range(0, 1200, 7):
        for budget_lines in (0, 5, 8, 10, 12, 15, 200):
            request = ContextRequest(now=NOW, budget_bytes=budget_bytes, budget_lines=budget_lines)
            result = build_context(ranked, request)
            assert len(result.text.encode()) <= budget_bytes
            assert result.text.count("\n") <= budget_lines
            kept = [m.id for m in result.included]
            assert kept == [m.id for m in ranked][: len(kept)]  # always a priority prefix
            assert len(kept) + len(result.dropped) == len(ranked)


def test_line_budget_counts_header_and_footer(ranked: list[Memory]) -> None:
    _, fixed_lines = fixed_cost()
    # The first note costs 3 lines (blank separator, tag, body); the second 4.
    result = build_context(ranked, ContextRequest(now=NOW, budget_lines=fixed_lines + 3 + 3))
    assert [m.id for m in result.included] == ["a-forbidden"]
    result = build_context(ranked, ContextRequest(now=NOW, budget_lines=fixed_lines + 3 + 4))
    assert [m.id for m in result.included] == ["a-forbidden", "b-session"]
    assert result.text.count("\n") == fixed_lines + 7


def test_forbidden_is_kept_before_anything_else(mem: MakeMemory) -> None:
    memories = [mem(f"pref-{i}", "preference", "session", body="x" * 300) for i in range(10)]
    memories.append(mem("zz-forbidden", "forbidden", "user", body="Never delete the backups."))
    result = build_context(memories, ContextRequest(now=NOW, budget_bytes=1000))
    assert result.included[0].id == "zz-forbidden"
    assert "Never delete the backups." in result.text


def test_budget_below_the_header_gives_empty_text(ranked: list[Memory]) -> None:
    fixed_bytes, _ = fixed_cost()
    result = build_context(ranked, ContextRequest(now=NOW, budget_bytes=fixed_bytes + 5))
    assert result.text == ""
    assert result.included == ()
    assert [m.reason for m in result.dropped] == ["budget"] * 5


def test_a_big_note_blocks_lower_ones_rather_than_being_skipped(mem: MakeMemory) -> None:
    # Strict priority: a small low-priority note never gets in ahead of a bigger higher one.
    memories = [mem("a", "preference", body="y" * 2000), mem("b", "fact", body="tiny")]
    result = build_context(memories, ContextRequest(now=NOW, budget_bytes=1500))
    assert result.included == ()
    assert [m.id for m in result.dropped] == ["a", "b"]


def test_budget_and_selection_reasons_together(mem: MakeMemory) -> None:
    memories = [
        mem("a-db", "fact", body="database details"),
        mem("b-db", "fact", body="database " + "z" * 900),
        mem("c-web", "fact", body="web server"),
    ]
    result = build_context(memories, ContextRequest(now=NOW, query="database", budget_bytes=1200))
    assert [m.id for m in result.included] == ["a-db"]
    assert [(m.id, m.reason) for m in result.dropped] == [
        ("b-db", "budget"),
        ("c-web", "not selected"),
    ]
