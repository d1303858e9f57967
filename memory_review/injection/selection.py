"""Choosing the memories relevant to a query: a pluggable selector, with a keyword fallback.

``forbidden`` memories are always selected and do not count against ``limit``:
they are guard rails, not topical notes, and a query about Python must not make
"never force-push to main" disappear. The selector sees only the other memories.

The fallback is deterministic keyword matching over ``id + description + body``,
folded with NFKC and casefold: words are runs of 3 or more letters or digits;
runs of CJK characters (Han, kana, Hangul) give their bigrams (a lone CJK
character counts as itself, and is found anywhere in a memory's CJK text). A
memory's score is the number of distinct query terms it contains; the ``limit`` best
are chosen, ties broken by id, and a memory with score 0 is never chosen.
"""

from __future__ import annotations

from collections.abc import Sequence

import orjson

from memory_review.injection.result import DEFAULT_LIMIT, Selector
from memory_review.lean.keywords import _terms, best_matches, fold  # noqa: F401 (_terms: tests)
from memory_review.models import Memory


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
    texts = [fold(f"{memory.id} {memory.description} {memory.body}") for memory in memories]
    return best_matches([memory.id for memory in memories], texts, query, limit)


def tokens(text: str) -> set[str]:
    """The match terms of ``text``: 3+ character words and CJK bigrams (or lone CJK characters)."""
    words, cjk = _terms(text)
    return words | cjk
