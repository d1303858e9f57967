"""Merging the three tiers and putting memories in priority order.

Priority, highest first (ADR 0005):

1. group: ``forbidden``, then ``preference`` and ``convention`` together, then ``fact``;
2. scope: ``session``, then ``project``, then ``user`` — the narrower tier is the
   more specific one, the same direction in which a later tier overrides an earlier;
3. recency: ``updated_at``, newest first;
4. ``id``, ascending, so the order is total and the output byte-identical.

The budget drops from the end of this order, so "lowest priority" means "last".
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Protocol, TypeVar

from memory_review.errors import ValidationError
from memory_review.lean.block import RANK as _RANK
from memory_review.models import Memory, MemoryType, Scope


class Listed(Protocol):
    """What merging and ordering read of a memory: a ``Memory``, or an outline the manifest lists
    (``context.Outline``), which orders the same without its file being read."""

    @property
    def id(self) -> str: ...
    @property
    def scope(self) -> Scope: ...
    @property
    def type(self) -> MemoryType: ...
    @property
    def updated_at(self) -> str: ...


M = TypeVar("M", bound=Listed)


def merge_tiers(user: Sequence[M], project: Sequence[M], session: Sequence[M]) -> list[M]:
    """One memory per id, a later tier overriding an earlier one; sorted by id.

    The project tier overrides the user tier (a person approved both, and review flags it: ``overrides:``). A
    session note never overrides: the agent writes it with no review, so it cannot take an approved memory — a
    ``forbidden`` one above all — out of the block by reusing its id (session 39's review); it is left out.

    Each tier must hold only memories of its own scope and no id twice —
    anything else means a store handed over the wrong set, so it is an error.
    """
    merged: dict[str, M] = {}
    durable: tuple[tuple[Scope, Sequence[M]], ...] = (("user", user), ("project", project))
    for scope, tier in durable:
        merged.update(_tier_by_id(scope, tier))
    for memory_id, memory in _tier_by_id("session", session).items():
        merged.setdefault(memory_id, memory)
    return [merged[key] for key in sorted(merged)]


def _tier_by_id(scope: Scope, tier: Sequence[M]) -> dict[str, M]:
    by_id: dict[str, M] = {}
    for memory in tier:
        if memory.scope != scope:
            raise ValidationError(
                f"memory {memory.id!r} has scope {memory.scope!r} in the {scope} tier",
                field="scope",
            )
        if memory.id in by_id:
            raise ValidationError(f"memory {memory.id!r} appears twice in the {scope} tier", field="id")
        by_id[memory.id] = memory
    return by_id


def check_unique(memories: Sequence[Memory]) -> None:
    """Raise ``ValidationError`` if an id appears twice (the input was not merged)."""
    seen: set[str] = set()
    for memory in memories:
        if memory.id in seen:
            raise ValidationError(f"memory {memory.id!r} appears twice; merge the tiers first", field="id")
        seen.add(memory.id)


def priority_order(memories: Sequence[M]) -> list[M]:
    """``memories`` from highest to lowest priority (see the module docstring)."""
    # Stable sorts from the least to the most significant key: id asc, recency desc, then rank.
    ordered = sorted(memories, key=attrgetter("id"))
    ordered.sort(key=attrgetter("updated_at"), reverse=True)
    ordered.sort(key=lambda m: _RANK[m.type, m.scope])
    return ordered
