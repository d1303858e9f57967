"""Deterministic keyword matching (ADR 0005, ADR 0013), over texts folded ahead of time.

Standard library only: ``injection.selection`` folds a memory's ``id description body`` and calls
:func:`best_matches`; the per-prompt path reads the same folded text from the read index
(ADR 0030), so both choose the same memories for the same query.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs, extension A, compatibility
    "\uac00-\ud7af"  # hangul syllables
    "\U00020000-\U0003134f"  # CJK extensions B-G
)
# A word character that is neither "_" nor CJK, so words and CJK runs split apart.
_WORD_CHAR = f"[^\\W_{_CJK}]"
# In ASCII text the word characters are the letters and digits, and there is no CJK. The full
# classes take milliseconds to compile, so they are compiled when non-ASCII text first needs them.
_ASCII_WORD_RE = re.compile("[A-Za-z0-9]{3,}")


@functools.cache
def _cjk_re() -> re.Pattern[str]:
    return re.compile(f"[{_CJK}]+")


@functools.cache
def _word_re() -> re.Pattern[str]:
    return re.compile(f"{_WORD_CHAR}{{3,}}")


def best_matches(ids: Sequence[str], texts: Sequence[str], query: str, limit: int) -> set[str]:
    """Of ``ids`` (each with its :func:`fold`-ed text), the ``limit`` best matches for ``query``."""
    words, cjk = _terms(query)
    if not (words or cjk) or limit <= 0:
        return set()
    scores = _scores_by_word(texts, words) if len(words) <= _FEW_WORDS else _scores_by_text(texts, words)
    return _best(ids, _with_cjk(scores, texts, cjk), limit)


def best_listed_matches(
    ids: Sequence[str], listed: Sequence[str], texts: Sequence[str], query: str, limit: int
) -> set[str]:
    """:func:`best_matches`, with each text's words listed ahead of time (:func:`word_list`)."""
    words, cjk = _terms(query)
    if not (words or cjk) or limit <= 0:
        return set()
    scores = [0] * len(ids)
    for word in words:
        needle = f" {word} "  # words hold no space: this is "word is one of the text's words"
        for index in [i for i, known in enumerate(listed) if needle in known]:
            scores[index] += 1
    return _best(ids, _with_cjk(scores, texts, cjk), limit)


def word_list(folded: str) -> str:
    """The distinct words of a folded text, sorted, each between spaces (what the read index keeps)."""
    found = _ASCII_WORD_RE.findall(folded) if folded.isascii() else _word_re().findall(folded)
    return " " + " ".join(sorted(set(found))) + " "


def _with_cjk(scores: list[int], texts: Sequence[str], cjk: set[str]) -> list[int]:
    for term in cjk:
        # A CJK term (two CJK characters, or a lone one) is found as a substring: two adjacent
        # CJK characters are always one bigram of the memory's own CJK run.
        for index in [i for i, text in enumerate(texts) if term in text]:
            scores[index] += 1
    return scores


def _best(ids: Sequence[str], scores: list[int], limit: int) -> set[str]:
    """The ``limit`` best scored ids (score > 0, ties by id)."""
    scored = sorted((-score, memory_id) for score, memory_id in zip(scores, ids, strict=True) if score)
    return {memory_id for _, memory_id in scored[:limit]}


# Up to this many query words, each is looked for in every text (a substring test rules most texts
# out, cheaply); past it, listing each text's words once costs less (an agent's prompt is often long).
_FEW_WORDS = 16


def _scores_by_word(texts: list[str], words: set[str]) -> list[int]:
    """For each text, how many of ``words`` are among its words: word by word."""
    scores = [0] * len(texts)
    for word in words:
        finder = _WordFinder(word)
        for index in [i for i, text in enumerate(texts) if word in text]:
            scores[index] += finder.is_word_of(texts[index])
    return scores


def _scores_by_text(texts: list[str], words: set[str]) -> list[int]:
    """For each text, how many of ``words`` are among its words: text by text."""
    return [
        len(words.intersection(_ASCII_WORD_RE.findall(text) if text.isascii() else _word_re().findall(text)))
        for text in texts
    ]


class _WordFinder:
    """Whether a query word is one of a text's words, without listing the text's words.

    A word is a maximal run of 3+ word characters, so ``word`` is one of ``text``'s words
    exactly when it occurs with no word character right before or after it. In ASCII text
    the word characters are the ASCII letters and digits (``str.isalnum``); other text is
    searched with the word-character class itself, compiled only when such a text needs it
    (the class spans the CJK ranges: compiling it costs ~2 ms, and each prompt brings new words).
    """

    def __init__(self, word: str) -> None:
        self.word = word
        self._pattern: re.Pattern[str] | None = None

    def is_word_of(self, text: str) -> bool:
        start = text.find(self.word)
        if start < 0:
            return False
        if text.isascii():
            return self._bounded_in_ascii(text, start)
        if self._pattern is None:
            escaped = re.escape(self.word)
            self._pattern = re.compile(f"(?<!{_WORD_CHAR}){escaped}(?!{_WORD_CHAR})")
        return self._pattern.search(text, start) is not None

    def _bounded_in_ascii(self, text: str, start: int) -> bool:
        end = len(self.word)
        while start >= 0:
            if not text[start - 1 : start].isalnum() and not text[start + end : start + end + 1].isalnum():
                return True
            start = text.find(self.word, start + 1)
        return False


def _terms(text: str) -> tuple[set[str], set[str]]:
    folded = fold(text)
    if folded.isascii():
        return set(_ASCII_WORD_RE.findall(folded)), set()
    cjk: set[str] = set()
    for run in _cjk_re().findall(folded):
        if len(run) == 1:
            cjk.add(run)
        else:
            cjk.update(run[i : i + 2] for i in range(len(run) - 1))
    return set(_word_re().findall(folded)), cjk


def fold(text: str) -> str:
    """The text as matching sees it: NFKC, then casefold."""
    return unicodedata.normalize("NFKC", text).casefold()
