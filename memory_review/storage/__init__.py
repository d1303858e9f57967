"""The storage engine's pure core: the one fold of events into a store's derived state (docs/adr/0023)."""

from __future__ import annotations

from memory_review.storage.fold import EMPTY, SESSION_EVENT, Folded, Folding, fold, fold_all

__all__ = ["EMPTY", "SESSION_EVENT", "Folded", "Folding", "fold", "fold_all"]
