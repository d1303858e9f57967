"""Choosing the memories relevant to a query: a pluggable selector, with a keyword fallback.

``forbidden`` memories are always selected and do not count against ``limit``:
they are guard rails, not topical notes, and a query about Python must not make
"never force-push to main" disappear. The selector sees only the other memories.

The fallback is deterministic ranking (ADR 0038): BM25 over the terms of
``id + description`` (weighted) and ``body`` — folded words of 3+ letters or digits,
lightly stemmed, English function words left out, CJK bigrams (a lone CJK character
in the query counts as itself and is found anywhere in a memory's CJK text). The
``limit`` best are chosen, equal scores going to the more recent memory, then to the
lower id; a memory with score 0 is never chosen. The per-prompt path ranks the very
same term lists, read from the read index (:mod:`memory_review.lean.rank`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, overload

import orjson

from memory_review.injection.order import Listed
from memory_review.injection.result import DEFAULT_LIMIT, Selector
from memory_review.lean.keywords import query_terms
from memory_review.lean.rank import best, term_list
from memory_review.models import Memory


class Selectable(Listed, Protocol):
    """What keyword selection reads of a memory: a ``Memory``, or an outline with its texts
    (``context.TextOutline``), so that only the chosen memories are parsed."""

    @property
    def description(self) -> str: ...
    @property
    def body(self) -> str: ...


S = TypeVar("S", bound=Selectable)


@overload
def select(
    memories: Sequence[Memory], query: str, *, limit: int = DEFAULT_LIMIT, selector: Selector | None = None
) -> list[Memory]: ...
@overload
def select(memories: Sequence[S], query: str, *, limit: int = DEFAULT_LIMIT) -> list[S]: ...


def select(
    memories: Sequence[Any],  # the overloads above: a selector is given whole memories only
    query: str,
    *,
    limit: int = DEFAULT_LIMIT,
    selector: Selector | None = None,
) -> list[Any]:
    """The forbidden memories plus at most ``limit`` others chosen for ``query``, in input order.

    ``selector``'s reply is used only if it is a JSON array of unique ids of the
    non-forbidden memories, at most ``limit`` long; otherwise, or without a
    selector, keyword matching decides. Without a selector, outlines with their texts
    are selected as memories are (they are what ``context`` ranks on a big store).
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


def keyword_select(memories: Sequence[Selectable], query: str, limit: int) -> set[str]:
    """Ids of the ``limit`` best ranked memories for ``query`` (score > 0; ties by recency, then id)."""
    return set(ranked(memories, query, limit))


def ranked(memories: Sequence[Selectable], query: str, limit: int) -> list[str]:
    """Ids of the ``limit`` best ranked memories for ``query``, best first."""
    listed = [term_list(memory.id, memory.description, memory.body) for memory in memories]
    return best(
        [memory.id for memory in memories],
        [memory.updated_at for memory in memories],
        [terms for terms, _length in listed],
        [length for _terms, length in listed],
        query,
        limit,
    )


def tokens(text: str) -> set[str]:
    """The terms of a query: stemmed words of 3+ characters, CJK bigrams (or a lone CJK character)."""
    return query_terms(text)
