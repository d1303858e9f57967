"""Ranking reads listed terms with one substring test per query term (ADR 0038): it must choose exactly
what BM25 computed from the memories' term bags chooses, whatever the order the memories come in."""

from __future__ import annotations

import math
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples
from injection_helpers import make_memory

from memory_review.injection.selection import keyword_select, ranked
from memory_review.lean import keywords, rank


def _reference(memories, query: str, limit: int) -> list[str]:
    """BM25 straight from the definition: a bag of terms per memory, the description's counted twice."""
    terms = sorted(set(keywords.text_terms(keywords.fold(query))))
    bags = []
    for memory in memories:
        bag: Counter[str] = Counter()
        for term in keywords.text_terms(keywords.fold(f"{memory.id} {memory.description}")):
            bag[term] += rank.DESCRIPTION_WEIGHT
        bag.update(keywords.text_terms(keywords.fold(memory.body)))
        bags.append(bag)
    if not terms or limit <= 0 or not memories:
        return []
    lengths = [sum(bag.values()) for bag in bags]
    average = sum(lengths) / len(bags) or 1.0
    scores = [0.0] * len(bags)
    for term in terms:
        df = sum(term in bag for bag in bags)
        for i, bag in enumerate(bags):
            if bag[term]:
                idf = math.log(1 + (len(bags) - df + 0.5) / (df + 0.5))
                tf = bag[term]
                scores[i] += idf * tf * (rank.K1 + 1) / (tf + rank.K1 * (1 - rank.B + rank.B * lengths[i] / average))
    order = sorted(range(len(bags)), key=lambda i: (-scores[i], _descending(memories[i].updated_at), memories[i].id))
    return [memories[i].id for i in order if scores[i] > 0][:limit]


def _descending(timestamp: str) -> tuple[int, ...]:
    return tuple(-ord(ch) for ch in timestamp)


# Few distinct letters, so query words keep turning up inside, before and after the memories' words.
_PIECES = st.sampled_from(
    [
        "ab",
        "abc",
        "abcd",
        "ba",
        "abcs",
        "abcing",
        "abced",
        "the",
        "c",
        "_",
        " ",
        "-",
        ":",
        "1",
        "é",
        "É",
        "ß",
        "ss",
        "ﬁ",
        "fi",
        "数据",
        "库",
        "テスト",
        "\u0301",
        "ａｂｃ",
        ".",
        "\n",
        "abc_abc",
        "abc1",
    ]
)
_TEXT = st.lists(_PIECES, max_size=12).map("".join)
_TIMES = st.sampled_from(["2026-07-05T09:00:00Z", "2026-07-04T09:00:00Z", "2026-07-05T10:00:00Z"])


@settings(max_examples=examples(500), deadline=None)
@given(
    st.lists(st.tuples(_TEXT, _TEXT, _TIMES), min_size=1, max_size=8),
    _TEXT,
    st.integers(min_value=0, max_value=4),
    st.randoms(use_true_random=False),
)
def test_same_choice_as_bm25_from_the_definition(memories_spec, query: str, limit: int, shuffler) -> None:
    memories = [
        make_memory(f"m{i}", body=body, description=" ".join(description.split()) or "note", updated_at=when)
        for i, (description, body, when) in enumerate(memories_spec)
    ]
    expected = _reference(memories, query, limit)
    assert ranked(memories, query, limit) == expected
    shuffler.shuffle(memories)
    assert ranked(memories, query, limit) == expected  # the input order never matters


_WORD = st.from_regex(r"[bcdfk]{3,4}", fullmatch=True)  # no vowel, no suffix: each word is its own term
_WORDS = st.lists(_WORD, max_size=30).map(" ".join)


@settings(max_examples=examples(100), deadline=None)
@given(
    st.lists(st.tuples(_WORDS, _WORDS), min_size=1, max_size=8),
    st.lists(_WORD, min_size=rank.SCAN_TERMS + 1, max_size=80, unique=True).map(" ".join),
    st.integers(min_value=1, max_value=4),
)
def test_a_long_prompt_collects_every_term_in_one_pass_with_the_same_choice(memories_spec, query, limit) -> None:
    # Past SCAN_TERMS query terms the scores come from one pass over the lists (a pasted log at 50,000
    # memories must not cost one scan per word); the choice must be BM25's all the same.
    assert len(keywords.query_terms(query)) > rank.SCAN_TERMS
    memories = [
        make_memory(f"m{i}", body=body, description=description or "note", updated_at="2026-07-05T09:00:00Z")
        for i, (description, body) in enumerate(memories_spec)
    ]
    assert ranked(memories, query, limit) == _reference(memories, query, limit)


def test_a_query_word_inside_a_longer_word_does_not_count() -> None:
    memories = [
        make_memory("a", body="contest attested"),
        make_memory("b", body="a test, here"),
        make_memory("c", body="contest_test"),
        make_memory("d", body="café test"),
    ]
    assert keyword_select(memories, "test", 5) == {"b", "c", "d"}


def test_stems_meet() -> None:
    assert {keywords.stem(w) for w in ("painting", "painted", "paints", "paint")} == {"paint"}
    assert {keywords.stem(w) for w in ("hiking", "hiked", "hike", "hikes")} == {"hik"}
    assert {keywords.stem(w) for w in ("running", "runs")} == {"run"}
    assert {keywords.stem(w) for w in ("agencies", "agency")} == {"agenci"}
    assert keywords.stem("process") == "process" and keywords.stem("bring") == "bring"
    assert keywords.stem("café") == "café"  # English rules only


def test_equal_scores_go_to_the_more_recent_memory_then_the_lower_id() -> None:
    memories = [
        make_memory("old", body="deploy on fridays", updated_at="2026-01-01T00:00:00Z"),
        make_memory("new", body="deploy on mondays", updated_at="2026-06-01T00:00:00Z"),
        make_memory("b-new", body="deploy on sundays", updated_at="2026-06-01T00:00:00Z"),
    ]
    assert ranked(memories, "deploy", 3) == ["b-new", "new", "old"]
    assert keyword_select(memories, "deploy", 1) == {"b-new"}


def test_the_description_weighs_more_than_the_body() -> None:
    memories = [
        make_memory("a", description="Release checklist", body="Steps to follow."),
        make_memory("b", description="Steps", body="The release checklist lives in docs."),
    ]
    assert ranked(memories, "release checklist", 2) == ["a", "b"]


def test_listed_terms_are_what_the_index_keeps() -> None:
    terms, length = rank.term_list("db", "Database backups", "Backups run nightly; 数据库 too.")
    # "db" is under 3 letters; the description's terms count twice; CJK gives bigrams and characters
    assert terms == " backup:3 databas:2 nightli:1 run:1 库:1 据:1 据库:1 数:1 数据:1 "
    assert length == 12
