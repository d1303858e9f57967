"""The records memory-review stores: memories, their sources, and the shared vocabularies.

These models are the boundary for files and JSON: every one forbids unknown
fields and validates on construction, so a record that exists is a valid record.
Serialisation to Markdown lives in ``record_io``; candidates in ``candidate``.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from memory_review.ids import check_slug

MemoryType = Literal["preference", "convention", "fact", "forbidden"]
Scope = Literal["user", "project", "session"]
DurableScope = Literal["user", "project"]

MEMORY_TYPES: tuple[str, ...] = ("preference", "convention", "fact", "forbidden")
SCOPES: tuple[str, ...] = ("user", "project", "session")

SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
TIMESTAMP_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")

MAX_MEMORY_BYTES = 4096
MAX_MEMORY_LINES = 200
MAX_DESCRIPTION_CHARS = 200


def _one_line(value: str) -> str:
    if "\n" in value or "\r" in value or not value.strip():
        raise ValueError("must be one non-empty line")
    return value


OneLine = Annotated[str, AfterValidator(_one_line)]
"""A non-blank string without line breaks (descriptions)."""


def utc_now() -> str:
    """The current time in the one timestamp format records use (second precision, Z)."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Strict(BaseModel):
    """Base for every boundary model: unknown fields are an error, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=False, defer_build=True)


class Source(Strict):
    """Evidence for a memory: where it was said and the exact quote."""

    session_id: str | None = None
    turn_id: str | None = None
    evidence: str = Field(min_length=1, max_length=2000)


class Memory(Strict):
    """One remembered note, exactly as its Markdown file holds it (frontmatter + body)."""

    id: str
    type: MemoryType
    scope: Scope
    description: OneLine = Field(min_length=1, max_length=MAX_DESCRIPTION_CHARS)
    created_at: str
    updated_at: str
    applied_from: str | None = None
    applied_by: str | None = None
    sources: tuple[Source, ...] = ()
    related_sessions: tuple[str, ...] = ()
    body: str = ""

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
