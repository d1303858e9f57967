"""Keyword selection finds query words without listing every word of every memory (ADR 0013):
it must choose exactly what listing the words (the ADR 0005 definition) chooses."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from injection_helpers import make_memory

from memory_review.injection.selection import keyword_select
from memory_review.lean import keywords as selection  # the algorithm lives with the per-prompt path


def _reference(memories, query: str, limit: int) -> set[str]:
    words, cjk = selection._terms(query)
    if not (words or cjk) or limit <= 0:
        return set()
    scored = []
    for memory in memories:
        folded = selection.fold(f"{memory.id} {memory.description} {memory.body}")
        score = len(words.intersection(selection._word_re().findall(folded))) + sum(t in folded for t in cjk)
        if score:
            scored.append((-score, memory.id))
    scored.sort()
    return {memory_id for _, memory_id in scored[:limit]}


# Few distinct letters, so query words keep turning up inside, before and after the memories' words.
_PIECES = st.sampled_from(
    [
        "ab",
        "abc",
        "abcd",
        "ba",
        "c",
        "_",
        " ",
        "-",
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


@settings(max_examples=500, deadline=None)
@given(st.lists(_TEXT, min_size=1, max_size=8), _TEXT, st.integers(min_value=0, max_value=4))
def test_same_choice_as_listing_every_word(bodies: list[str], query: str, limit: int) -> None:
    memories = [make_memory(f"m{i}", body=body, description="note") for i, body in enumerate(bodies)]
    expected = _reference(memories, query, limit)
    saved = selection._FEW_WORDS
    try:
        for few_words in (0, 1_000):  # text by text, then word by word
            selection._FEW_WORDS = few_words
            assert keyword_select(memories, query, limit) == expected
    finally:
        selection._FEW_WORDS = saved


def test_a_query_word_inside_a_longer_word_does_not_count() -> None:
    memories = [
        make_memory("a", body="tests and testing"),
        make_memory("b", body="a test, here"),
        make_memory("c", body="contest_test"),
        make_memory("d", body="café test"),
    ]
    assert keyword_select(memories, "test", 5) == {"b", "c", "d"} == _reference(memories, "test", 5)


def test_later_occurrence_counts_when_the_first_is_inside_a_word() -> None:
    finder = selection._WordFinder("test")
    assert finder.is_word_of("tests, contest and then test.")
    assert not finder.is_word_of("tests, contest, attested")
    assert finder._pattern is None  # ASCII text never compiles the word-character class


def test_non_ascii_text_uses_the_word_character_class() -> None:
    finder = selection._WordFinder("test")
    assert not finder.is_word_of("testé, attest")  # é is a word character
    assert finder._pattern is not None
    assert finder.is_word_of("testé, test数据")  # CJK is not: words and CJK runs split apart


@settings(max_examples=500, deadline=None)
@given(_TEXT)
def test_terms_of_ascii_text_equal_the_full_class_terms(text: str) -> None:
    folded = selection.fold(text)
    full = set(selection._word_re().findall(folded)), {r for r in selection._cjk_re().findall(folded)}
    words, cjk = selection._terms(text)
    assert words == full[0]
    if folded.isascii():
        assert cjk == set() == full[1]


@settings(max_examples=500, deadline=None)
@given(st.lists(_TEXT, min_size=1, max_size=8), _TEXT, st.integers(min_value=0, max_value=4))
def test_listed_words_choose_what_the_texts_choose(bodies: list[str], query: str, limit: int) -> None:
    """The read index keeps each memory's words listed (ADR 0030); matching on them is the same choice."""
    memories = [make_memory(f"m{i}", body=body, description="note") for i, body in enumerate(bodies)]
    texts = [selection.fold(f"{m.id} {m.description} {m.body}") for m in memories]
    listed = [selection.word_list(text) for text in texts]
    ids = [m.id for m in memories]
    assert selection.best_listed_matches(ids, listed, texts, query, limit) == keyword_select(memories, query, limit)
