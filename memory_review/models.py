"""The records memory-review stores: memories, their sources, and the shared vocabularies.

These models are the boundary for files and JSON: every one forbids unknown
fields and validates on construction, so a record that exists is a valid record.
Serialisation to Markdown lives in ``record_io``; candidates in ``candidate``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from memory_review.errors import ValidationError
from memory_review.ids import check_slug
from memory_review.limits import (  # MAX_MEMORY_* are also read as models.MAX_MEMORY_*
    CANDIDATE_ID_CHARS,
    MAX_ACTOR_CHARS,
    MAX_DESCRIPTION_CHARS,
    MAX_MEMORY_BYTES,  # noqa: F401 - re-exported
    MAX_MEMORY_LINES,  # noqa: F401 - re-exported
    MAX_QUOTE_CHARS,
    MAX_SESSION_ID_CHARS,
    MAX_SOURCES,
    MAX_TURN_ID_CHARS,
)

MemoryType = Literal["preference", "convention", "fact", "forbidden"]
Scope = Literal["user", "project", "session"]
DurableScope = Literal["user", "project"]

MEMORY_TYPES: tuple[MemoryType, ...] = ("preference", "convention", "fact", "forbidden")
SCOPES: tuple[Scope, ...] = ("user", "project", "session")
OTHER_SCOPE: dict[DurableScope, DurableScope] = {"project": "user", "user": "project"}
"""The other durable store: the one whose memories the merge by id sets against a store's (tier flags)."""

SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
TIMESTAMP_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")


def durable_scope(value: str) -> DurableScope:
    """``value`` as the scope of a durable store (it came from outside the type checker: a flag, a file)."""
    if value == "user":
        return "user"
    if value == "project":
        return "project"
    raise ValidationError(f"scope must be 'user' or 'project', not {value!r}", field="scope")


def _one_line(value: str) -> str:
    if "\n" in value or "\r" in value or not value.strip():
        raise ValueError("must be one non-empty line")
    return value


OneLine = Annotated[str, AfterValidator(_one_line)]
"""A non-blank string without line breaks (descriptions)."""


def utc_now() -> str:
    """The current time in the one timestamp format records use (second precision, Z)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Strict(BaseModel):
    """Base for every boundary model: unknown fields are an error, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=False, defer_build=True)


class Source(Strict):
    """Evidence for a memory: where it was said and the exact quote."""

    session_id: str | None = Field(default=None, max_length=MAX_SESSION_ID_CHARS)
    turn_id: str | None = Field(default=None, max_length=MAX_TURN_ID_CHARS)
    evidence: str = Field(min_length=1, max_length=MAX_QUOTE_CHARS)


class Memory(Strict):
    """One remembered note, exactly as its Markdown file holds it (frontmatter + body)."""

    id: str
    type: MemoryType
    scope: Scope
    description: OneLine = Field(min_length=1, max_length=MAX_DESCRIPTION_CHARS)
    created_at: str
    updated_at: str
    applied_from: str | None = Field(default=None, max_length=CANDIDATE_ID_CHARS)
    applied_by: str | None = Field(default=None, max_length=MAX_ACTOR_CHARS)
    sources: tuple[Source, ...] = Field(default=(), max_length=MAX_SOURCES)
    related_sessions: tuple[Annotated[str, Field(max_length=MAX_SESSION_ID_CHARS)], ...] = Field(
        default=(), max_length=MAX_SOURCES
    )
    body: str = ""  # bounded by the file it must fit (record_io: MAX_MEMORY_BYTES, MAX_MEMORY_LINES)

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        return check_slug(value)

    @field_validator("created_at", "updated_at")
    @classmethod
    def _timestamp(cls, value: str) -> str:
        if not TIMESTAMP_RE.fullmatch(value) or not _real_time(value):
            raise ValueError("must be an ISO-8601 UTC timestamp like 2026-05-18T10:30:00Z")
        return value


def _real_time(value: str) -> bool:
    """Whether a string of TIMESTAMP_RE's shape names a real moment (no 30 February)."""
    try:
        datetime.fromisoformat(value[:-1])  # 30x faster than strptime; refuses leap seconds
        return True
    except ValueError:
        pass
    try:
        datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")  # what decides: it accepts :60 and :61
    except ValueError:
        return False
    return True
