"""The term lists are a contract between the hook's read index and the full path (ADR 0038): the same
memory gives the same listed terms, byte for byte, whichever code made them. These properties pin the
term functions to the definition they were first written as (kept here as the reference), so a faster
rewrite can never change a single term, count or length."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples

from memory_review.lean import keywords, rank

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0003134f"
_WORD_RE = re.compile(f"[^\\W_{_CJK}]{{3,}}")
_CJK_RE = re.compile(f"[{_CJK}]+")
_ASCII_WORD_RE = re.compile("[A-Za-z0-9]{3,}")


def _reference_fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _reference_terms(folded: str) -> list[str]:
    found = _ASCII_WORD_RE.findall(folded) if folded.isascii() else _WORD_RE.findall(folded)
    terms = [keywords.stem(word) for word in found if word not in keywords.STOPWORDS]
    if not folded.isascii():
        for run in _CJK_RE.findall(folded):
            terms.extend(run[i : i + 2] for i in range(len(run) - 1))
            terms.extend(run)
    return terms


def _reference_term_list(memory_id: str, description: str, body: str) -> tuple[str, int]:
    counts: Counter[str] = Counter()
    for term in _reference_terms(_reference_fold(f"{memory_id} {description}")):
        counts[term] += rank.DESCRIPTION_WEIGHT
    counts.update(_reference_terms(_reference_fold(body)))
    listed = " ".join(f"{term}:{count}" for term, count in sorted(counts.items()))
    return f" {listed} ", sum(counts.values())


# Words, stop words, suffixes, every ASCII punctuation and control character, letters that fold
# (ß, ﬁ, full width, a combining accent), CJK, and a few characters of other scripts.
_PIECES = st.sampled_from(
    [
        "the", "and", "Painting", "painted", "PAINTS", "agencies", "hiking", "stopped", "glasses",
        "ab", "abc", "abcd", "a1b2c3", "x_y_z", "don't", "e-mail", "über", "ÉTÉ", "ß", "ﬁle", "ａｂｃ",
        "e\u0301té", "数据库", "测试", "テスト", "한국어", "Ωmega", "İstanbul", "ǅungla", "١٢٣٤",
    ]
    + [chr(cp) for cp in range(128)]
)  # fmt: skip
_TEXT = st.one_of(st.lists(_PIECES, max_size=24).map("".join), st.text(max_size=60))


@settings(max_examples=examples(1500), deadline=None)
@given(_TEXT)
def test_fold_and_terms_are_the_definitions(text: str) -> None:
    assert keywords.fold(text) == _reference_fold(text)
    folded = _reference_fold(text)
    assert keywords.text_terms(folded) == _reference_terms(folded)
    assert keywords.text_terms(text) == _reference_terms(text)  # unfolded text too: the words as they are
    assert keywords.query_terms(text) == set(_reference_terms(folded))


@settings(max_examples=examples(1500), deadline=None)
@given(_TEXT, _TEXT, _TEXT)
def test_a_term_list_is_the_one_the_definition_gives(memory_id: str, description: str, body: str) -> None:
    assert rank.term_list(memory_id, description, body) == _reference_term_list(memory_id, description, body)


def test_words_met_again_after_the_cache_is_full_give_the_same_terms() -> None:
    words = [f"word{i}ing" for i in range(keywords._MAX_LEARNT + 10)]
    text = " ".join(words)
    assert keywords.text_terms(text) == _reference_terms(text)
    assert len(keywords._TERM_OF) <= keywords._MAX_LEARNT
    assert len(keywords._TERMS_OF_TOKEN) <= keywords._MAX_LEARNT
