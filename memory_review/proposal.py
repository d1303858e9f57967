"""The `propose` input contract (DESIGN §9): the only way an agent writes anything durable-bound.

A proposal is what an agent, an extractor or an importer hands in; the store turns
it into a candidate (with before/after snapshots, base hashes, a diff and flags).
Parsing accepts one JSON object, a JSON array, or JSON Lines, all-or-nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import orjson
from pydantic import Field, TypeAdapter, field_validator
from pydantic import ValidationError as PydanticValidationError

from memory_review.errors import ValidationError
from memory_review.ids import check_slug
from memory_review.models import DurableScope, MemoryType, OneLine, Strict
from memory_review.record_io import check_body

Priority = Literal["high", "medium", "low"]
ProposerKind = Literal["heuristic", "llm", "agent", "import", "human"]


class Evidence(Strict):
    """A quote that supports a proposal, with where it was said."""

    quote: str = Field(min_length=1, max_length=2000)
    session_id: str | None = None
    turn_id: str | None = None


class Proposer(Strict):
    """Who proposed a change; a proposer can never be the one who applies it."""

    kind: ProposerKind = "agent"
    name: str = Field(default="agent", min_length=1, max_length=100)
    model: str | None = None


class ProposedMemory(Strict):
    """The memory an agent wants created or updated (timestamps and provenance are the store's job)."""

    id: str
    type: MemoryType
    description: OneLine = Field(min_length=1, max_length=200)
    body: str = Field(default="", max_length=4096)

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        return check_slug(value)

    @field_validator("body")
    @classmethod
    def _storable(cls, value: str) -> str:
        return check_body(value, path="proposal")


class _ProposalBase(Strict):
    scope: DurableScope
    rationale: str = Field(min_length=1, max_length=2000)
    evidence: tuple[Evidence, ...] = ()
    proposer: Proposer = Proposer()
    priority: Priority = "medium"
    session_id: str | None = None

    @field_validator("rationale")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must say why this should be remembered")
        return value


class UpsertProposal(_ProposalBase):
    """Create a new memory, or update an existing one (the store decides which from the current set)."""

    op: Literal["create", "update"]
    memory: ProposedMemory


class DeleteProposal(_ProposalBase):
    """Remove an approved memory."""

    op: Literal["delete"]
    memory_id: str

    @field_validator("memory_id")
    @classmethod
    def _slug(cls, value: str) -> str:
        return check_slug(value, field="memory_id")


class ConsolidateProposal(_ProposalBase):
    """Replace several memories by merged results (sources not among results are deleted)."""

    op: Literal["consolidate"]
    sources: tuple[str, ...] = Field(min_length=1)
    results: tuple[ProposedMemory, ...] = Field(min_length=1)


Proposal = Annotated[
    Union[UpsertProposal, DeleteProposal, ConsolidateProposal], Field(discriminator="op")
]
_PROPOSAL = TypeAdapter(Proposal)
MAX_PROPOSAL_INPUT_BYTES = 8 * 1024 * 1024


def parse_proposal(data: Any, *, where: str = "proposal") -> UpsertProposal | DeleteProposal | ConsolidateProposal:
    """Validate one decoded JSON object as a proposal; errors name the field."""
    try:
        return _PROPOSAL.validate_python(data)
    except PydanticValidationError as exc:
        raise ValidationError(_describe(exc), path=where) from exc
    except ValidationError as exc:  # our own checks (ids, bodies) run inside pydantic's validators
        if exc.path is not None:
            raise
        raise type(exc)(str(exc), path=where, hint=exc.hint) from exc


def parse_proposals(raw: bytes, *, where: str = "input") -> list[UpsertProposal | DeleteProposal | ConsolidateProposal]:
    """Parse a JSON object, a JSON array or JSON Lines of proposals; any bad item rejects all."""
    if len(raw) > MAX_PROPOSAL_INPUT_BYTES:
        raise ValidationError(f"input is larger than {MAX_PROPOSAL_INPUT_BYTES} bytes", path=where)
    items = _decode_json_or_lines(raw, where)
    if not items:
        raise ValidationError("no proposal found", path=where)
    return [parse_proposal(item, where=f"{where}[{i}]") for i, item in enumerate(items)]


def _decode_json_or_lines(raw: bytes, where: str) -> list[Any]:
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return _decode_lines(raw, where)
    return doc if isinstance(doc, list) else [doc]


def _decode_lines(raw: bytes, where: str) -> list[Any]:
    items = []
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            items.append(orjson.loads(line))
        except orjson.JSONDecodeError as exc:
            raise ValidationError(f"not valid JSON: {exc}", path=where, line=number) from exc
    return items


def _describe(exc: PydanticValidationError) -> str:
    first = exc.errors()[0]
    loc = ".".join(str(part) for part in first["loc"]) or "(root)"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{loc}: {first['msg']}{more}"
