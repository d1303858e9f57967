"""The terms selection reads (ADR 0005, ADR 0038): folded words, lightly stemmed, and CJK bigrams.

Standard library only: ``injection.selection`` lists a memory's terms when it ranks memories, the read
index (ADR 0030) stores the same list for the per-prompt path, and both rank with :mod:`.rank`, so both
choose the same memories for the same query.

A text is folded (NFKC, then casefold). Its words are runs of 3 or more letters or digits; each is
stemmed (:func:`stem`) and English function words are left out (:data:`STOPWORDS`). Runs of CJK
characters (Han, kana, Hangul) give their bigrams (close to words: Chinese is not written with spaces)
and each character on its own (a word of one character, 菜 or 书; a character in most texts, 我 or 的,
weighs next to nothing in BM25), the same for a query and for a memory.
"""

from __future__ import annotations

import functools
import re
import unicodedata

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
_ASCII_SPACES = str.maketrans({chr(cp): " " for cp in range(128) if not chr(cp).isalnum()})
"""Every ASCII character but a letter or digit, to a space: ``translate`` then ``split`` finds the words."""

STOPWORDS = frozenset(
    """the and for are was were has have had been being with what when where which who whom whose why how
    did does doing done you your yours she her hers him his they them their theirs our ours its this that
    these those from into onto about than then there here also just very really some any all each can
    could would should will shall may might must but out too get got let lets yes yeah hey thanks thank""".split()  # noqa: SIM905 (a word list reads better as prose)
)
"""English function words of 3+ letters: nearly every text has them, so they only add noise to a score.
Words that carry a rule (``not``, ``never``, ``always``, ``don``) are kept."""


@functools.cache
def _cjk_re() -> re.Pattern[str]:
    return re.compile(f"[{_CJK}]+")


@functools.cache
def _word_re() -> re.Pattern[str]:
    return re.compile(f"{_WORD_CHAR}{{3,}}")


def fold(text: str) -> str:
    """The text as matching sees it: NFKC, then casefold."""
    if text.isascii():  # NFKC leaves ASCII as it is, and casefold() of ASCII is lower()
        return text.lower()
    return unicodedata.normalize("NFKC", text).casefold()


def query_terms(query: str) -> set[str]:
    """The distinct terms of a query."""
    return set(text_terms(fold(query)))


def text_terms(folded: str) -> list[str]:
    """The terms of a folded text, each as often as it occurs: stems, CJK bigrams and CJK characters."""
    terms = _stems(folded)
    if not folded.isascii():
        for run in _cjk_re().findall(folded):
            terms.extend(_bigrams(run))
            terms.extend(run)
    return terms


def _stems(folded: str) -> list[str]:
    if folded.isascii():
        tokens = folded.split()
        try:
            return [term for token in tokens for term in _TERMS_OF_TOKEN[token]]
        except KeyError:  # a token not met before
            return [term for token in tokens for term in _token_terms(token)]
    return [term for term in map(_term, _word_re().findall(folded)) if term]


_TERMS_OF_TOKEN: dict[str, tuple[str, ...]] = {}
"""Each ASCII token met so far (a run between whitespace, as ``split()`` cuts) -> the terms of its words.
Words and tokens repeat (a store of 10,000 memories has a few thousand distinct ones): each is cut and
stemmed once, and a text costs one ``split()`` and a lookup per token."""
_TERM_OF: dict[str, str] = {}
"""Each word met so far -> its term: its stem, or "" for a stop word."""
_MAX_LEARNT = 1 << 16
"""A bound on each table, for a long-lived process fed endless new words."""


def _token_terms(token: str) -> tuple[str, ...]:
    """The terms of one ASCII token: its runs of 3+ letters or digits (what findall of "[A-Za-z0-9]{3,}"
    finds: every other character becomes a space and ``split()`` cuts there), stemmed, stop words left out."""
    terms = _TERMS_OF_TOKEN.get(token)
    if terms is None:
        words = [word for word in token.translate(_ASCII_SPACES).split() if len(word) > 2]
        terms = tuple(term for term in map(_term, words) if term)
        if len(_TERMS_OF_TOKEN) >= _MAX_LEARNT:
            _TERMS_OF_TOKEN.clear()
        _TERMS_OF_TOKEN[token] = terms
    return terms


def _term(word: str) -> str:
    term = _TERM_OF.get(word)
    if term is None:
        if len(_TERM_OF) >= _MAX_LEARNT:
            _TERM_OF.clear()
        term = _TERM_OF[word] = "" if word in STOPWORDS else stem(word)
    return term


def _bigrams(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(len(run) - 1)]


def stem(word: str) -> str:
    """A light English stemmer: plural, ``-ed`` and ``-ing`` endings, a doubled last consonant, a final
    ``e`` or ``y`` — so "painting", "painted" and "paints" meet at "paint", "hiking" and "hike" at "hik",
    "agencies" and "agency" at "agenci". Other words, and words of other scripts, are kept as they are."""
    if len(word) <= 3 or not word.isascii():
        return word
    word = _plural(word)
    for suffix in ("ing", "ed"):
        rest = word[: -len(suffix)]
        if word.endswith(suffix) and len(rest) >= 3 and _has_vowel(rest):
            word = rest[:-1] if rest[-1] == rest[-2] and rest[-1] not in "aeiouylsz" else rest
            break
    if len(word) > 3 and word[-1] in "ey":
        word = word[:-1] + ("i" if word[-1] == "y" else "")
    return word


def _plural(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _has_vowel(text: str) -> bool:
    return any(letter in "aeiouy" for letter in text)
