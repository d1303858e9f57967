"""Helpers shared by the injection tests (a unique module name, so it never clashes on sys.path)."""

from __future__ import annotations

from collections.abc import Callable

from memory_review.models import Memory

NOW = "2026-07-05T12:00:00Z"
MakeMemory = Callable[..., Memory]


def make_memory(
    id: str,
    type: str = "fact",
    scope: str = "project",
    *,
    body: str = "",
    description: str | None = None,
    updated_at: str = "2026-07-05T09:00:00Z",
) -> Memory:
    """A valid memory with sensible defaults; only what a test cares about needs saying."""
    return Memory(
        id=id,
        type=type,
        scope=scope,
        description=description or f"About {id}",
        created_at="2026-01-01T00:00:00Z",
        updated_at=updated_at,
        applied_from="cand_test",
        applied_by="user",
        body=body,
    )
