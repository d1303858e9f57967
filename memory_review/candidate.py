"""Candidates: one proposed change to a store, waiting for a person (docs/design.md §3).

A candidate holds full before/after snapshots, the sha256 of each ``before`` as
it was when proposed (its *base*), a unified diff derived from them, and the
why and the evidence. Its status is not stored in it: a file under
``candidates/`` is pending; the log says whether it was applied or discarded.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Annotated, Literal

import orjson
from pydantic import Field, field_validator
from pydantic import ValidationError as PydanticValidationError

from memory_review.errors import ValidationError
from memory_review.ids import check_candidate_id, check_slug
from memory_review.limits import (
    MAX_CANDIDATE_BYTES,
    MAX_CONSOLIDATE_RESULTS,
    MAX_CONSOLIDATE_SOURCES,
    MAX_EVIDENCE_ITEMS,
    MAX_FLAG_CHARS,
    MAX_FLAGS,
    MAX_RATIONALE_CHARS,
)
from memory_review.models import TIMESTAMP_RE, DurableScope, Memory, Strict
from memory_review.proposal import Evidence, Priority, Proposer, SessionRef
from memory_review.record_io import memory_sha256, render_memory

CandidateOp = Literal["create", "update", "delete", "consolidate"]
Status = Literal["pending", "applied", "discarded"]

FLAG_STALE_BASE = "stale-base"
FLAG_PREVIOUSLY_DISCARDED = "previously-discarded"
FLAG_UNTRUSTED_SOURCE = "untrusted-source"
"""An extractor's warning: the text came from what the agent read, not from the user (``extract.FLAG_UNTRUSTED``)."""
FLAG_SIMILAR = "similar-to:"
"""The prefix of a near-duplicate warning: ``similar-to:<memory id>`` (memory_review.near_duplicates)."""
FLAG_OVERRIDES = "overrides:"
"""``overrides:<memory id>``: a project candidate writes a memory the user store also holds. Injection merges
the tiers by id, the project one winning (docs/design.md §6), so once applied the user memory is no longer injected."""
FLAG_OVERRIDDEN = "overridden-by:"
"""``overridden-by:<memory id>``: a user candidate writes a memory the project store also holds; the project
memory wins the merge, so this one is never injected while that one is there."""
FLAG_UNCOVERS = "uncovers:"
"""``uncovers:<memory id>``: a project candidate deletes a memory that hides the user one of the same id; once
applied, the user memory is injected again."""
TIER_FLAGS = (FLAG_OVERRIDES, FLAG_OVERRIDDEN, FLAG_UNCOVERS)
_MOVED_AWAY = "moved to the {scope} store as candidate {candidate}"
_MOVED_AWAY_RE = re.compile(r"moved to the (?:user|project) store as candidate (cand_[0-9A-HJKMNP-TV-Z]{26})")
MAX_CHANGES = MAX_CONSOLIDATE_RESULTS + MAX_CONSOLIDATE_SOURCES
Flag = Annotated[str, Field(min_length=1, max_length=MAX_FLAG_CHARS, pattern=r"^[a-z0-9][a-z0-9:._-]*$")]


class CandidateChange(Strict):
    """One memory's before and after; ``None`` means absent (created or deleted)."""

    memory: str
    before: Memory | None
    after: Memory | None


class Candidate(Strict):
    """A proposed change, as stored in ``candidates/<id>.json`` and in ``candidate.created`` events."""

    id: str
    op: CandidateOp
    scope: DurableScope
    changes: tuple[CandidateChange, ...] = Field(min_length=1, max_length=MAX_CHANGES)
    base: dict[str, str | None] = Field(max_length=MAX_CHANGES)
    diff: str = Field(max_length=MAX_CANDIDATE_BYTES)
    rationale: str = Field(min_length=1, max_length=MAX_RATIONALE_CHARS)
    evidence: tuple[Evidence, ...] = Field(default=(), max_length=MAX_EVIDENCE_ITEMS)
    proposer: Proposer
    priority: Priority = "medium"
    flags: tuple[Flag, ...] = Field(default=(), max_length=MAX_FLAGS)
    session_id: SessionRef | None = None
    created_at: str = Field(pattern=TIMESTAMP_RE.pattern)

    @field_validator("id")
    @classmethod
    def _candidate_id(cls, value: str) -> str:
        return check_candidate_id(value)

    @field_validator("base")
    @classmethod
    def _base_ids(cls, value: dict[str, str | None]) -> dict[str, str | None]:
        for memory_id in value:
            check_slug(memory_id, field="base")
        return value

    def memory_ids(self) -> tuple[str, ...]:
        """The ids of every memory this candidate touches."""
        return tuple(change.memory for change in self.changes)

    def movable_memory(self) -> Memory:
        """The record of the one new memory this candidate proposes: only such a candidate can move to the
        other store (ADR 0154); one that changes what its store holds is refused here."""
        [*_, last] = self.changes
        if len(self.changes) != 1 or last.before is not None or last.after is None:
            raise ValidationError(
                f"candidate {self.id} changes memory of the {self.scope} store; only a new memory can move",
                field="scope",
            )
        return last.after

    def fingerprint(self) -> str:
        """What the candidate would make memory say; equal fingerprints are the same proposal."""
        results = [_content_key(change.after) for change in self.changes]
        return orjson.dumps([self.op, self.scope, results]).decode()


def _content_key(memory: Memory | None) -> list[str] | None:
    if memory is None:
        return None
    return [memory.id, memory.type, memory.description, memory.body]


def base_of(changes: tuple[CandidateChange, ...]) -> dict[str, str | None]:
    """The sha256 of each ``before`` (None for a memory that must not exist yet)."""
    return {c.memory: (memory_sha256(c.before) if c.before else None) for c in changes}


def render_diff(changes: tuple[CandidateChange, ...]) -> str:
    """A unified diff of every change, memory files as they would be written."""
    parts: list[str] = []
    for change in changes:
        before = _lines(change.before)
        after = _lines(change.after)
        label = f"memory/{change.memory}.md"
        old = f"a/{label}" if change.before else "/dev/null"  # git's convention for an absent side
        new = f"b/{label}" if change.after else "/dev/null"
        import difflib  # noqa: PLC0415 - only a diff shown to a person: never a write's start-up

        parts.extend(difflib.unified_diff(before, after, fromfile=old, tofile=new))
    return "".join(parts)


def _lines(memory: Memory | None) -> list[str]:
    if memory is None:
        return []
    return render_memory(memory).decode("utf-8").splitlines(keepends=True)


def encode_candidate(candidate: Candidate) -> bytes:
    """The candidate file's bytes: sorted keys, indented for people and git."""
    return orjson.dumps(candidate.model_dump(mode="json"), option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"


def check_candidate_size(candidate: Candidate) -> None:
    """Refuse a candidate whose file the readers would refuse (limits.py makes a valid one fit)."""
    size = len(encode_candidate(candidate))
    if size > MAX_CANDIDATE_BYTES:
        raise ValidationError(
            f"the candidate would be {size} bytes; at most {MAX_CANDIDATE_BYTES} are allowed "
            "(shorten the evidence or the texts)"
        )


def candidate_to_json(candidate: Candidate) -> dict:
    """The candidate as a JSON-able dict (for events and ``--json``)."""
    return candidate.model_dump(mode="json")


def decode_candidate(data: bytes, *, where: str) -> Candidate:
    """Parse and validate a candidate file; every failure names the file."""
    if len(data) > MAX_CANDIDATE_BYTES:
        raise ValidationError(f"candidate file is larger than {MAX_CANDIDATE_BYTES} bytes", path=where)
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise ValidationError(f"not valid JSON: {exc}", path=where) from exc
    return candidate_from_json(raw, where=where)


def candidate_from_json(raw: object, *, where: str) -> Candidate:
    """Validate a decoded candidate (from a file or an event)."""
    try:
        return Candidate.model_validate(raw)
    except PydanticValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "(root)"
        raise ValidationError(f"{loc}: {first['msg']}", path=where) from exc


def live_flags(
    candidate: Candidate,
    sha256_of: Callable[[str], str | None],
    other_sha256_of: Callable[[str], str | None] | None = None,
) -> tuple[str, ...]:
    """The candidate's flags, plus ``stale-base`` if a memory it changes has moved on since it was proposed,
    plus the :func:`tier_flags` the other store's memories raise now.

    ``sha256_of`` gives the current hash of a memory of the candidate's store (``None``: absent);
    ``other_sha256_of`` the same for the other durable store (``None``: it has no memories). The one
    place the stale-base rule is written; the commit path's conflict check (``rules``) is its twin at apply.
    """
    stale = any(sha256_of(mid) != sha for mid, sha in candidate.base.items())
    tiers = tier_flags(candidate, other_sha256_of) if other_sha256_of is not None else set()
    return tuple(sorted(set(candidate.flags) | tiers | ({FLAG_STALE_BASE} if stale else set())))


def tier_flags(candidate: Candidate, other_sha256_of: Callable[[str], str | None]) -> set[str]:
    """What the merge by id (user, then project) makes of each memory the candidate writes or deletes, when
    the other store holds one with that id: ``overrides:``, ``overridden-by:`` or ``uncovers:`` it.

    Kept live, never stored: what the other store holds changes without the candidate changing.
    """
    flags: set[str] = set()
    for change in candidate.changes:
        if other_sha256_of(change.memory) is None:
            continue
        if candidate.scope == "user":
            if change.after is not None:  # deleting a user memory the project one hides changes no block
                flags.add(FLAG_OVERRIDDEN + change.memory)
        else:
            flags.add((FLAG_OVERRIDES if change.after is not None else FLAG_UNCOVERS) + change.memory)
    return flags


def tier_flag_ids(flags: Iterable[str]) -> list[str]:
    """The memory ids a candidate's ``overrides:``, ``overridden-by:`` and ``uncovers:`` flags name."""
    return [flag.split(":", 1)[1] for flag in flags if flag.startswith(TIER_FLAGS)]


@dataclass(frozen=True)
class CandidateState:
    """A candidate and where it stands: pending (with live flags such as stale-base), applied or discarded."""

    candidate: Candidate
    status: str
    flags: tuple[str, ...]
    moved_to: str | None = field(default=None, kw_only=True)
    """Discarded by a move (ADR 0154): the candidate of the other store that proposes its record now."""

    def document(self) -> CandidateDocument:
        """What ``list``, ``show`` and ``edit`` print with ``--json`` (``cli_render.to_json``)."""
        fields = {**dict(self.candidate), "flags": self.flags, "status": self.status, "moved_to": self.moved_to}
        return CandidateDocument.model_construct(**fields)  # built from a checked candidate: no revalidation


class CandidateDocument(Candidate):
    """A candidate and where it stands, as one document: its fields, with the live flags (``stale-base``
    and the rest) in place of the proposed ones, then its status (and where a move took its record)."""

    status: str
    moved_to: str | None = None


def moved_away_reason(scope: DurableScope, candidate_id: str) -> str:
    """The reason of the discard that moves a candidate to the other store as ``candidate_id`` (ADR 0154)."""
    return _MOVED_AWAY.format(scope=scope, candidate=candidate_id)


def moved_to(reason: str | None) -> str | None:
    """The candidate a discard moved its record to, when its reason is a move's: nobody rejected it."""
    found = _MOVED_AWAY_RE.fullmatch(reason) if reason is not None else None
    return found.group(1) if found else None
