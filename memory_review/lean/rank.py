"""Ranking memories for a query (ADR 0038): BM25 over description and body, the description weighted.

Standard library only. A memory's terms (:mod:`.keywords`) are listed once, when it is indexed (or, on the
full path, when it is ranked), as ``" term:count term:count … "`` with its length; a query term is found
in a list with one substring test, so a prompt costs a scan of the lists, never a parse of them.

Score (Okapi BM25, ``k1`` 1.2, ``b`` 0.75) over the memories being ranked: for each distinct query term
in sorted order, ``idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))`` with
``idf = ln(1 + (N − df + 0.5)/(df + 0.5))``. A term in the id or description counts
:data:`DESCRIPTION_WEIGHT` times. The ``limit`` best with a score above 0 are chosen; equal scores go to
the more recently updated memory, then to the lower id. The same inputs give the same floats in the same
order on both paths, so the choice never depends on which path made it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from memory_review.lean.keywords import fold, query_terms, text_terms

K1 = 1.2
B = 0.75
DESCRIPTION_WEIGHT = 2
"""How many times a term of the id or description counts against one of the body: the description is the
one line a person wrote to say what the memory is about."""


def term_list(memory_id: str, description: str, body: str) -> tuple[str, int]:
    """A memory's listed terms and its length (the weighted number of terms): what the read index keeps."""
    headline = text_terms(fold(f"{memory_id} {description}"))
    rest = text_terms(fold(body))
    counts = Counter(rest)
    get = counts.get  # dict's own: Counter's ``+=`` on a new term goes through its __missing__ in Python
    for term in headline:
        counts[term] = get(term, 0) + DESCRIPTION_WEIGHT
    listed = " ".join([f"{term}:{count}" for term, count in sorted(counts.items())])
    return f" {listed} ", DESCRIPTION_WEIGHT * len(headline) + len(rest)


def best(
    ids: Sequence[str], updated: Sequence[str], listed: Sequence[str], lengths: Sequence[int], query: str, limit: int
) -> list[str]:
    """Of the memories ``ids`` (each with its ``updated_at``, listed terms and length), the ``limit`` best
    for ``query``, best first."""
    terms = sorted(query_terms(query))
    if not terms or limit <= 0 or not ids:
        return []
    scores = _scores(terms, listed, lengths)
    ranked = sorted((i for i, score in enumerate(scores) if score > 0), key=ids.__getitem__)
    ranked.sort(key=updated.__getitem__, reverse=True)  # stable: equal times keep the id order
    ranked.sort(key=scores.__getitem__, reverse=True)
    return [ids[i] for i in ranked[:limit]]


SCAN_TERMS = 20
"""Up to this many query terms, each is found with one substring test per memory; past it, one pass over
every memory's list collects all of them at once, so a long pasted prompt costs one pass, not one per word
(2,000 distinct words at 50,000 memories took 26 s of CPU by scanning, past the hook's deadline)."""


def _scores(terms: list[str], listed: Sequence[str], lengths: Sequence[int]) -> list[float]:
    count = len(listed)
    average = (sum(lengths) / count) or 1.0
    scores = [0.0] * count
    postings = _scanned(terms, listed) if len(terms) <= SCAN_TERMS else _collected(terms, listed)
    for term in terms:  # sorted, and each term's memories in index order: the same floats either way
        hits = postings.get(term)
        if not hits:
            continue
        idf = math.log(1 + (count - len(hits) + 0.5) / (len(hits) + 0.5))
        for i, tf in hits:
            scores[i] += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[i] / average))
    return scores


def _scanned(terms: list[str], listed: Sequence[str]) -> dict[str, list[tuple[int, int]]]:
    postings: dict[str, list[tuple[int, int]]] = {}
    for term in terms:
        needle = f" {term}:"
        postings[term] = [(i, _count(known, needle)) for i, known in enumerate(listed) if needle in known]
    return postings


def _collected(terms: list[str], listed: Sequence[str]) -> dict[str, list[tuple[int, int]]]:
    wanted = set(terms)
    postings: dict[str, list[tuple[int, int]]] = {}
    for i, known in enumerate(listed):
        for entry in known.split():
            term, _, tf = entry.rpartition(":")
            if term in wanted:
                postings.setdefault(term, []).append((i, int(tf)))
    return postings


def _count(known: str, needle: str) -> int:
    start = known.index(needle) + len(needle)
    return int(known[start : known.index(" ", start)])
