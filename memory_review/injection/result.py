"""The inputs and outputs of context building: the request, the result, the selector seam.

``ContextRequest`` is a plain frozen dataclass (it is built by code, not parsed
from files); the result models are pydantic ``Strict`` models because they cross
the boundary as ``context --json`` output and as ``context.built`` event content.
``DroppedMemory`` is the exception: a build on a big store reports every memory it
left out (10,000 on a 10,000-memory store), and a pydantic instance costs ~3-4 µs
where a slotted dataclass checking the same rules costs well under one
(docs/adr/0013). It is never parsed from outside; ``ContextResult`` still types it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import Field

from memory_review.errors import ValidationError
from memory_review.injection.render import FRAME_VERSION, FRAME_VERSIONS
from memory_review.models import MEMORY_TYPES, SCOPES, TIMESTAMP_RE, Memory, MemoryType, Scope, Strict

DropReason = Literal["budget", "not selected"]
DROP_REASONS = frozenset({"budget", "not selected"})

DEFAULT_BUDGET_BYTES = 25_000
DEFAULT_BUDGET_LINES = 200
DEFAULT_LIMIT = 5
# A count goes into the context.built event, whose JSON integers must fit in 64 bits;
# past this a budget means "everything" as much as any smaller absurd one does.
MAX_COUNT = 2**63 - 1

_SHA256 = r"^[0-9a-f]{64}$"
_HEX = "0123456789abcdef"
_LABELS = frozenset((scope, kind, reason) for scope in SCOPES for kind in MEMORY_TYPES for reason in DROP_REASONS)


@dataclass(frozen=True, kw_only=True)
class ContextRequest:
    """What to build: an optional query, the budget, the selection limit and the clock.

    ``now`` is an input (``YYYY-MM-DDTHH:MM:SSZ``) so that the same request always
    renders the same bytes; a blank or missing ``query`` means "no selection".
    """

    query: str | None = None
    budget_bytes: int = DEFAULT_BUDGET_BYTES
    budget_lines: int = DEFAULT_BUDGET_LINES
    limit: int = DEFAULT_LIMIT
    now: str
    frame: int = FRAME_VERSION  # the note layout; a replay passes the one its event recorded

    def __post_init__(self) -> None:
        if not isinstance(self.now, str) or not TIMESTAMP_RE.fullmatch(self.now):
            raise ValidationError("must be an ISO-8601 UTC timestamp like 2026-05-18T10:30:00Z", field="now")
        if self.query is not None and not isinstance(self.query, str):
            raise ValidationError("must be a string or None", field="query")
        for name in ("budget_bytes", "budget_lines", "limit"):
            _check_count(name, getattr(self, name))
        if self.frame not in FRAME_VERSIONS or isinstance(self.frame, bool):
            raise ValidationError(f"not a frame layout: {self.frame!r}", field="frame")


def _check_count(name: str, value: object) -> None:
    # bool is an int subclass; True as a budget is a caller bug, not "1 byte".
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValidationError("must be a non-negative integer", field=name)
    if value > MAX_COUNT:
        raise ValidationError(f"must be at most {MAX_COUNT} (2^63 - 1)", field=name)


class IncludedMemory(Strict):
    """One memory that went into the block, with the sha256 of its record file."""

    id: str
    scope: Scope
    type: MemoryType
    sha256: str = Field(pattern=_SHA256)


@dataclass(frozen=True, slots=True)
class DroppedMemory:
    """One memory left out, and why: it did not fit, or the query did not select it.

    Checked on construction like a ``Strict`` model: scope, type and reason from their
    vocabularies, a hex sha256; a bad value is a ``ValidationError`` naming the field.
    """

    id: str
    scope: Scope
    type: MemoryType
    sha256: str
    reason: DropReason

    def __post_init__(self) -> None:
        # One combined test (this runs ~10,000 times per build); the slow path names the field.
        sha = self.sha256
        if (
            (self.scope, self.type, self.reason) not in _LABELS
            or type(sha) is not str
            or len(sha) != 64
            or sha.strip(_HEX)
            or type(self.id) is not str
        ):
            raise _refusal(self)


def _refusal(dropped: DroppedMemory) -> ValidationError:
    if not isinstance(dropped.id, str):
        return ValidationError("must be a string", field="id")
    if dropped.scope not in SCOPES:
        return ValidationError(f"not a scope: {dropped.scope!r}", field="scope")
    if dropped.type not in MEMORY_TYPES:
        return ValidationError(f"not a memory type: {dropped.type!r}", field="type")
    if dropped.reason not in DROP_REASONS:
        return ValidationError(f"not a drop reason: {dropped.reason!r}", field="reason")
    return ValidationError(f"not a sha256 hex digest: {dropped.sha256!r}", field="sha256")


class ContextResult(Strict):
    """The rendered block (``""`` when nothing is included), its sha256, and the accounting."""

    text: str
    sha256: str = Field(pattern=_SHA256)
    included: tuple[IncludedMemory, ...]
    dropped: tuple[DroppedMemory, ...]


class Selector(Protocol):
    """A pluggable chooser, e.g. model-backed: returns its raw reply, ideally a JSON array of ids.

    The reply is trusted only if it is a JSON array of unique ids, each one of
    ``memories``, at most ``limit`` long; anything else falls back to keyword
    matching. Exceptions are not caught: a selector handles its own I/O failures
    (by returning a reply that is not a valid array, for example ``""``).
    """

    def __call__(self, query: str, memories: Sequence[Memory], limit: int) -> str: ...
