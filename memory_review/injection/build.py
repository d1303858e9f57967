"""``build_context``: merged memories in, one bounded, reproducible block out.

Pure: no store, no clock, no randomness — the request carries ``now`` — so the
same memories and request always give the same bytes, and a ``context.built``
event can be rebuilt exactly (render the recorded memories with the recorded
``now`` and budget and no query: they are ordered the same and fit again).

Budget (ADR 0005): notes are whole or absent. In priority order, notes are taken
while the block — delimiters and header included — stays within both
``budget_bytes`` and ``budget_lines``; the first note that does not fit and every
note after it are dropped with reason ``"budget"``. A lower-priority note never
displaces a higher one, and ``forbidden`` notes, first in the order, are the last
to go. Only the notes that are tried are rendered, so the cost is linear in the
input plus the size of the block.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from memory_review.errors import ValidationError
from memory_review.injection.order import check_unique, priority_order
from memory_review.injection.render import assemble, fixed_cost, frame_cost, render_frame
from memory_review.injection.result import (
    ContextRequest,
    ContextResult,
    DroppedMemory,
    DropReason,
    IncludedMemory,
    Selector,
)
from memory_review.injection.selection import select
from memory_review.models import Memory
from memory_review.record_io import memory_sha256

Sha256Of = Callable[[Memory], str]


def build_context(
    memories: Sequence[Memory],
    request: ContextRequest,
    *,
    selector: Selector | None = None,
    sha256_of: Sha256Of = memory_sha256,
) -> ContextResult:
    """Render the context block for already-merged ``memories``.

    With a query, only the forbidden memories and at most ``request.limit``
    selected others are candidates; the rest are reported as ``"not selected"``.
    ``sha256_of`` gives a memory's record hash (default: hash of its rendered
    file); a store may pass its manifest lookup to avoid re-rendering records.
    No included memory gives the empty text ``""`` (nothing to inject).
    """
    check_unique(memories)
    candidates = _candidates(memories, request, selector)
    ordered = priority_order(candidates)
    frames = _fit(ordered, request)
    text = assemble(frames)
    chosen = {m.id for m in candidates}
    not_selected = priority_order([m for m in memories if m.id not in chosen])
    return ContextResult(
        text=text,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        included=tuple(_included(m, sha256_of) for m in ordered[: len(frames)]),
        dropped=tuple(_dropped(m, "budget", sha256_of) for m in ordered[len(frames) :])
        + tuple(_dropped(m, "not selected", sha256_of) for m in not_selected),
    )


def _candidates(memories: Sequence[Memory], request: ContextRequest, selector: Selector | None) -> list[Memory]:
    query = request.query
    if query is None or not query.strip():
        return list(memories)
    return select(memories, query, limit=request.limit, selector=selector)


def _fit(ordered: list[Memory], request: ContextRequest) -> list[str]:
    """The rendered frames of the longest priority prefix that fits both budgets."""
    used_bytes, used_lines = fixed_cost()
    frames: list[str] = []
    for memory in ordered:
        frame = render_frame(memory, request.now, version=request.frame)
        add_bytes, add_lines = frame_cost(frame)
        if used_bytes + add_bytes > request.budget_bytes or used_lines + add_lines > request.budget_lines:
            break
        used_bytes += add_bytes
        used_lines += add_lines
        frames.append(frame)
    return frames


def _included(memory: Memory, sha256_of: Sha256Of) -> IncludedMemory:
    return IncludedMemory(id=memory.id, scope=memory.scope, type=memory.type, sha256=_sha(memory, sha256_of))


def _dropped(memory: Memory, reason: DropReason, sha256_of: Sha256Of) -> DroppedMemory:
    return DroppedMemory(
        id=memory.id,
        scope=memory.scope,
        type=memory.type,
        sha256=_sha(memory, sha256_of),
        reason=reason,
    )


def _sha(memory: Memory, sha256_of: Sha256Of) -> str:
    digest = sha256_of(memory)
    # Checked here so a bad hash source fails as our ValidationError, not pydantic's.
    if len(digest) != 64 or digest.strip("0123456789abcdef"):
        raise ValidationError(f"sha256 of memory {memory.id!r} is not a hex digest: {digest!r}")
    return digest
