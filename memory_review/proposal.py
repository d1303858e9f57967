"""The `propose` input contract (docs/design.md §9): the only way an agent writes anything durable-bound.

A proposal is what an agent, an extractor or an importer hands in; the store turns
it into a candidate (with before/after snapshots, base hashes, a diff and flags).
Parsing accepts one JSON object, a JSON array, or JSON Lines, all-or-nothing.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal

import orjson
from pydantic import AfterValidator, Field, TypeAdapter, field_validator
from pydantic import ValidationError as PydanticValidationError

from memory_review import safety
from memory_review.errors import ValidationError
from memory_review.ids import check_session_id, check_slug
from memory_review.limits import (
    MAX_BODY_CHARS,
    MAX_CONSOLIDATE_RESULTS,
    MAX_CONSOLIDATE_SOURCES,
    MAX_DESCRIPTION_CHARS,
    MAX_EVIDENCE_ITEMS,
    MAX_PROPOSAL_INPUT_BYTES,
    MAX_PROPOSALS_PER_CALL,
    MAX_PROPOSER_MODEL_CHARS,
    MAX_PROPOSER_NAME_CHARS,
    MAX_QUOTE_CHARS,
    MAX_RATIONALE_CHARS,
    MAX_TURN_ID_CHARS,
)
from memory_review.models import DurableScope, MemoryType, OneLine, Strict
from memory_review.record_io import check_body

Priority = Literal["high", "medium", "low"]
ProposerKind = Literal["heuristic", "llm", "agent", "import", "human"]


def check_session_ref(value: str, *, field: str = "session_id") -> str:
    """A session id a record may carry: a safe id (ids.check_session_id) that holds no secret.

    An id is a key other records refer to, so a secret in it is refused rather than redacted.
    """
    check_session_id(value, field=field)
    if shape := safety.secret_shape(value):
        raise ValidationError(f"{shape}; session ids are stored in the log", field=field)
    return value


def check_turn_id(value: str) -> str:
    """A turn id is a label, not a file name: one line, no control or invisible characters."""
    if any(ch in "\t\n" or safety.is_control_char(ch) or safety.is_invisible_char(ch) for ch in value):
        raise ValueError("must be one line without control or invisible characters")
    return value


SessionRef = Annotated[str, AfterValidator(check_session_ref)]
"""A session id field of a proposal: validated like every session id, secrets refused."""
TurnRef = Annotated[str, Field(min_length=1, max_length=MAX_TURN_ID_CHARS), AfterValidator(check_turn_id)]


class Evidence(Strict):
    """A quote that supports a proposal, with where it was said."""

    quote: str = Field(min_length=1, max_length=MAX_QUOTE_CHARS)
    session_id: SessionRef | None = None
    turn_id: TurnRef | None = None


class Proposer(Strict):
    """Who proposed a change; a proposer can never be the one who applies it."""

    kind: ProposerKind = "agent"
    name: OneLine = Field(default="agent", min_length=1, max_length=MAX_PROPOSER_NAME_CHARS)
    model: OneLine | None = Field(default=None, min_length=1, max_length=MAX_PROPOSER_MODEL_CHARS)


class ProposedMemory(Strict):
    """The memory an agent wants created or updated (timestamps and provenance are the store's job)."""

    id: str
    type: MemoryType
    description: OneLine = Field(min_length=1, max_length=MAX_DESCRIPTION_CHARS)
    body: str = Field(default="", max_length=MAX_BODY_CHARS)

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        # A memory's id names its file and every event about it: a secret in it is refused, as in a session id
        # (session 38's review: a lower-case Slack token is a valid slug). Delete and consolidate name ids
        # that exist, and a store holding such an id must stay able to drop it.
        check_slug(value)
        if shape := safety.secret_shape(value):
            raise ValidationError(f"{shape}; a memory id names its file and its events", field="id")
        return value

    @field_validator("body")
    @classmethod
    def _storable(cls, value: str) -> str:
        return check_body(value, path="proposal")


class _ProposalBase(Strict):
    scope: DurableScope
    rationale: str = Field(min_length=1, max_length=MAX_RATIONALE_CHARS)
    evidence: tuple[Evidence, ...] = Field(default=(), max_length=MAX_EVIDENCE_ITEMS)
    proposer: Proposer = Proposer()
    priority: Priority = "medium"
    session_id: SessionRef | None = None

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
    sources: tuple[str, ...] = Field(min_length=1, max_length=MAX_CONSOLIDATE_SOURCES)
    results: tuple[ProposedMemory, ...] = Field(min_length=1, max_length=MAX_CONSOLIDATE_RESULTS)

    @field_validator("sources")
    @classmethod
    def _slugs(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(check_slug(source, field="sources") for source in value)


Proposal = Annotated[UpsertProposal | DeleteProposal | ConsolidateProposal, Field(discriminator="op")]
AnyProposal = UpsertProposal | DeleteProposal | ConsolidateProposal


@functools.cache
def _proposal_adapter() -> TypeAdapter:
    """Built on first use: a command that reads no proposal (``apply``) never pays for its schema."""
    return TypeAdapter(Proposal)


def parse_proposal(data: Any, *, where: str = "proposal") -> UpsertProposal | DeleteProposal | ConsolidateProposal:
    """Validate one decoded JSON object as a proposal; errors name the field."""
    try:
        return _proposal_adapter().validate_python(data)
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
    if len(items) > MAX_PROPOSALS_PER_CALL:
        raise ValidationError(
            f"{len(items)} proposals in one call; at most {MAX_PROPOSALS_PER_CALL} are allowed", path=where
        )
    return [parse_proposal(item, where=f"{where}[{i}]") for i, item in enumerate(items)]


def is_one_object(raw: bytes) -> bool:
    """Whether the input is one JSON object (however it is laid out): its ``propose`` result is one object
    too, where an array or JSON Lines gets an array (docs/design.md §9)."""
    try:
        return isinstance(orjson.loads(raw), dict)
    except orjson.JSONDecodeError:
        return False  # JSON Lines (one line is also one JSON document, so it parsed above)


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


def in_session(proposal: AnyProposal, session_id: str) -> AnyProposal:
    """The proposal tied to ``session_id`` (the caller's session); one naming another is refused."""
    check_session_ref(session_id, field="session")
    if proposal.session_id not in (None, session_id):
        raise ValidationError(
            f"the proposal names session {proposal.session_id!r}, but it comes from session {session_id!r}",
            field="session_id",
        )
    return proposal.model_copy(update={"session_id": session_id})


# --- redaction: every free-text field, at the boundary ----------------------------------------


def redacted_memory(memory: ProposedMemory) -> tuple[ProposedMemory, frozenset[str]]:
    """A proposed record with secrets redacted, and the flags its text as sent raises."""
    flags = safety.scan(f"{memory.description}\n{memory.body}")
    clean = memory.model_copy(
        update={
            "description": safety.redact_within(memory.description, MAX_DESCRIPTION_CHARS),
            "body": safety.redact_within(memory.body, MAX_BODY_CHARS),
        }
    )
    return clean, flags


def redacted(proposal: AnyProposal) -> tuple[AnyProposal, frozenset[str]]:
    """The proposal with a secret in any free-text field redacted, and the flags the raw text raises.

    Covers what a candidate stores: the memory texts, the rationale, each quote and turn id, and
    the proposer's name and model. Session ids hold no secret: :func:`check_session_ref` refused it.
    """
    raw = [proposal.rationale, proposal.proposer.name, proposal.proposer.model or ""]
    raw += [text for e in proposal.evidence for text in (e.quote, e.turn_id or "")]
    flags = frozenset().union(*(safety.scan(text) for text in raw if text))
    update: dict[str, object] = {
        "rationale": safety.redact_within(proposal.rationale, MAX_RATIONALE_CHARS),
        "evidence": tuple(_redacted_evidence(e) for e in proposal.evidence),
        "proposer": _redacted_proposer(proposal.proposer),
    }
    if isinstance(proposal, UpsertProposal):
        update["memory"], found = redacted_memory(proposal.memory)
        flags |= found
    elif isinstance(proposal, ConsolidateProposal):
        results = [redacted_memory(result) for result in proposal.results]
        update["results"] = tuple(clean for clean, _ in results)
        flags = flags.union(*(found for _, found in results))
    return proposal.model_copy(update=update), flags


def _redacted_evidence(evidence: Evidence) -> Evidence:
    turn = evidence.turn_id and safety.redact_within(evidence.turn_id, MAX_TURN_ID_CHARS)
    return evidence.model_copy(update={"quote": safety.redact_within(evidence.quote, MAX_QUOTE_CHARS), "turn_id": turn})


def _redacted_proposer(proposer: Proposer) -> Proposer:
    model = proposer.model and safety.redact_within(proposer.model, MAX_PROPOSER_MODEL_CHARS)
    name = safety.redact_within(proposer.name, MAX_PROPOSER_NAME_CHARS)
    return proposer.model_copy(update={"name": name, "model": model})
