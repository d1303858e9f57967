"""Injection: turning approved memories into the block an agent puts in its prompt (docs/design.md §6).

This package is the pure core — no store I/O, no clock: merge the tiers, select
for a query, order by priority, render inert frames inside one delimited block,
and cut to the budget. The block format is a contract; see ``docs/adr/0005``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_HOME = {
    "build_context": "build",
    "merge_tiers": "order",
    "priority_order": "order",
    "ContextRequest": "result",
    "ContextResult": "result",
    "DroppedMemory": "result",
    "IncludedMemory": "result",
    "Selector": "result",
    "keyword_select": "selection",
    "select": "selection",
    "tokens": "selection",
}
"""Where each name lives. They are imported on first use: a module that needs only the renderer
(``injection.render``, as the read index writer does) does not load the block builder with this package
(docs/adr/0042)."""


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


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
