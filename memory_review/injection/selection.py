"""Choosing the memories relevant to a query: a pluggable selector, with a keyword fallback.

``forbidden`` memories are always selected and do not count against ``limit``:
they are guard rails, not topical notes, and a query about Python must not make
"never force-push to main" disappear. The selector sees only the other memories.

The fallback is deterministic keyword matching over ``id + description + body``,
folded with NFKC and casefold: words are runs of 3 or more letters or digits;
runs of CJK characters (Han, kana, Hangul) give their bigrams (a lone CJK
character counts as itself, and is found anywhere in a memory's CJK text). A
memory's score is the number of distinct query terms it contains; the ``limit`` best are chosen, ties broken by id, and a
memory with score 0 is never chosen.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

import orjson

from memory_review.injection.result import DEFAULT_LIMIT, Selector
from memory_review.models import Memory

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


def select(
    memories: Sequence[Memory],
    query: str,
    *,
    limit: int = DEFAULT_LIMIT,
    selector: Selector | None = None,
) -> list[Memory]:
    """The forbidden memories plus at most ``limit`` others chosen for ``query``, in input order.

    ``selector``'s reply is used only if it is a JSON array of unique ids of the
    non-forbidden memories, at most ``limit`` long; otherwise, or without a
    selector, keyword matching decides.
    """
    candidates = [m for m in memories if m.type != "forbidden"]
    chosen = _ask(selector, query, candidates, limit) if selector is not None else None
    if chosen is None:
        chosen = keyword_select(candidates, query, limit)
    return [m for m in memories if m.type == "forbidden" or m.id in chosen]


def _ask(selector: Selector, query: str, candidates: list[Memory], limit: int) -> set[str] | None:
    reply = selector(query, tuple(candidates), limit)
    return parse_selector_reply(reply, {m.id for m in candidates}, limit)


def parse_selector_reply(reply: object, known: set[str], limit: int) -> set[str] | None:
    """The ids in a selector reply, or ``None`` when the reply is not a trustworthy answer."""
    if not isinstance(reply, (str, bytes)):
        return None
    try:
        ids = orjson.loads(reply)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(ids, list) or len(ids) > limit:
        return None
    if not all(isinstance(i, str) and i in known for i in ids) or len(set(ids)) != len(ids):
        return None
    return set(ids)


def keyword_select(memories: Sequence[Memory], query: str, limit: int) -> set[str]:
    """Ids of the ``limit`` best keyword matches for ``query`` (score > 0, ties by id)."""
    words, cjk = _terms(query)
    if not (words or cjk) or limit <= 0:
        return set()
    texts = [_fold(f"{memory.id} {memory.description} {memory.body}") for memory in memories]
    scores = _scores_by_word(texts, words) if len(words) <= _FEW_WORDS else _scores_by_text(texts, words)
    for term in cjk:
        # A CJK term (two CJK characters, or a lone one) is found as a substring: two adjacent
        # CJK characters are always one bigram of the memory's own CJK run.
        for index in [i for i, text in enumerate(texts) if term in text]:
            scores[index] += 1
    scored = sorted((-score, memory.id) for score, memory in zip(scores, memories, strict=True) if score)
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
    return [len(words.intersection(_ASCII_WORD_RE.findall(text) if text.isascii() else _word_re().findall(text)))
            for text in texts]


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


def tokens(text: str) -> set[str]:
    """The match terms of ``text``: 3+ character words and CJK bigrams (or lone CJK characters)."""
    words, cjk = _terms(text)
    return words | cjk


def _terms(text: str) -> tuple[set[str], set[str]]:
    folded = _fold(text)
    if folded.isascii():
        return set(_ASCII_WORD_RE.findall(folded)), set()
    cjk: set[str] = set()
    for run in _cjk_re().findall(folded):
        if len(run) == 1:
            cjk.add(run)
        else:
            cjk.update(run[i : i + 2] for i in range(len(run) - 1))
    return set(_word_re().findall(folded)), cjk


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()
