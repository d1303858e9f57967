"""The context block from read-index entries: merge, select, order, fit, exactly as ``injection`` does.

``injection.build_context`` is the definition (ADR 0005); this is the same computation over entries
whose notes were rendered at commit time (``render_frame(memory, None)``), so a prompt renders
nothing but the age. ``tests/memory_review/test_lean_context.py`` holds the two byte-identical.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memory_review.lean.block import RANK, aged, assemble, fixed_cost, frame_cost
from memory_review.lean.index import FRAME, ID, LENGTH, SHA256, TERMS, TYPE, UPDATED_AT, Entry
from memory_review.lean.rank import best

DEFAULT_BUDGET_LINES = 200
DEFAULT_LIMIT = 5


@dataclass(frozen=True)
class Block:
    """What a build gives: the text, its sha256, what went in (``context.built``'s ``included``) and, when
    asked for, what was left out and why (``ContextResult.dropped``: budget drops, then the unselected)."""

    text: str
    sha256: str
    included: list[dict[str, str]]
    dropped: list[dict[str, str]] | None = None


def build(
    tiers: Sequence[tuple[str, Sequence[Entry]]],
    *,
    query: str | None,
    now: str,
    budget_bytes: int,
    budget_lines: int = DEFAULT_BUDGET_LINES,
    limit: int = DEFAULT_LIMIT,
    dropped: bool = False,
) -> Block:
    """The block for entries of several tiers (later tiers override earlier ones by id)."""
    notes = _merged(tiers)
    chosen = _selected(notes, query, limit) if query is not None and query.strip() else notes
    ordered = _priority_order(chosen)
    fitted = _fit(ordered, now, budget_bytes, budget_lines)
    text = assemble([frame for frame, _note in fitted])
    included = [_named(note) for _frame, note in fitted]
    left_out = _left_out(notes, chosen, ordered[len(fitted) :]) if dropped else None
    return Block(text, hashlib.sha256(text.encode("utf-8")).hexdigest(), included, left_out)


def _named(note: tuple[str, Entry]) -> dict[str, str]:
    scope, entry = note
    return {"id": entry[ID], "scope": scope, "type": entry[TYPE], "sha256": entry[SHA256]}


def _left_out(
    notes: list[tuple[str, Entry]], chosen: list[tuple[str, Entry]], over_budget: list[tuple[str, Entry]]
) -> list[dict[str, str]]:
    """As ``build_context`` reports them: the budget's drops in priority order, then the unselected."""
    picked = {entry[ID] for _scope, entry in chosen}
    unselected = _priority_order([note for note in notes if note[1][ID] not in picked])
    return [_named(note) | {"reason": "budget"} for note in over_budget] + [
        _named(note) | {"reason": "not selected"} for note in unselected
    ]


def note(included: int, reasons: Sequence[str]) -> str:
    """The line for people on stderr: ``3 injected, 7 dropped: 5 over budget (raise --budget), 2 not
    selected by the query`` (both paths of ``context`` print it)."""
    if not included and not reasons:
        return "memory-review: no approved memories to inject"
    counts: dict[str, int] = {}
    for reason in reasons:
        counts[reason] = counts.get(reason, 0) + 1
    words = {"budget": "over budget (raise --budget)", "not selected": "not selected by the query"}
    why = ", ".join(f"{n} {words.get(reason, reason)}" for reason, n in counts.items())
    return f"memory-review: {included} injected" + (f", {len(reasons)} dropped: {why}" if why else "")


def matching(tiers: Sequence[tuple[str, Sequence[Entry]]], query: str, limit: int) -> list[tuple[str, Entry]]:
    """Of every merged note (forbidden ones too), the ``limit`` best ranked for ``query``, in priority order."""
    notes = _merged(tiers)
    chosen = set(_best([entry for _scope, entry in notes], query, limit))
    return _priority_order([(scope, e) for scope, e in notes if e[ID] in chosen])


def _merged(tiers: Sequence[tuple[str, Sequence[Entry]]]) -> list[tuple[str, Entry]]:
    merged: dict[str, tuple[str, Entry]] = {}
    for scope, entries in tiers:
        merged.update((entry[ID], (scope, entry)) for entry in entries)
    return [merged[key] for key in sorted(merged)]


def _selected(notes: list[tuple[str, Entry]], query: str, limit: int) -> list[tuple[str, Entry]]:
    """The forbidden notes plus at most ``limit`` others chosen by ranking (``select``)."""
    chosen = set(_best([entry for _scope, entry in notes if entry[TYPE] != "forbidden"], query, limit))
    return [(scope, e) for scope, e in notes if e[TYPE] == "forbidden" or e[ID] in chosen]


def _best(entries: list[Entry], query: str, limit: int) -> list[str]:
    return best(
        [e[ID] for e in entries],
        [e[UPDATED_AT] for e in entries],
        [e[TERMS] for e in entries],
        [e[LENGTH] for e in entries],
        query,
        limit,
    )


def _priority_order(notes: list[tuple[str, Entry]]) -> list[tuple[str, Entry]]:
    # As injection.order.priority_order: stable sorts, id asc, recency desc, then (group, scope) rank.
    ordered = sorted(notes, key=lambda note: note[1][ID])
    ordered.sort(key=lambda note: note[1][UPDATED_AT], reverse=True)
    ordered.sort(key=lambda note: RANK[note[1][TYPE], note[0]])
    return ordered


def _fit(
    ordered: list[tuple[str, Entry]], now: str, budget_bytes: int, budget_lines: int
) -> list[tuple[str, tuple[str, Any]]]:
    """The aged frames of the longest priority prefix that fits both budgets (``build._fit``)."""
    used_bytes, used_lines = fixed_cost()
    fitted = []
    for scope, entry in ordered:
        frame = aged(entry[FRAME], entry[UPDATED_AT], now)
        add_bytes, add_lines = frame_cost(frame)
        if used_bytes + add_bytes > budget_bytes or used_lines + add_lines > budget_lines:
            break
        used_bytes, used_lines = used_bytes + add_bytes, used_lines + add_lines
        fitted.append((frame, (scope, entry)))
    return fitted
