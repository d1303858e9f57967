"""Injection: turning approved memories into the block an agent puts in its prompt (docs/design.md §6).

This package is the pure core — no store I/O, no clock: merge the tiers, select
for a query, order by priority, render inert frames inside one delimited block,
and cut to the budget. The block format is a contract; see ``docs/adr/0005``.
"""

from __future__ import annotations

from memory_review.injection.build import build_context
from memory_review.injection.order import merge_tiers, priority_order
from memory_review.injection.result import (
    ContextRequest,
    ContextResult,
    DroppedMemory,
    IncludedMemory,
    Selector,
)
from memory_review.injection.selection import keyword_select, select, tokens

__all__ = [
    "ContextRequest",
    "ContextResult",
    "DroppedMemory",
    "IncludedMemory",
    "Selector",
    "build_context",
    "keyword_select",
    "merge_tiers",
    "priority_order",
    "select",
    "tokens",
]
