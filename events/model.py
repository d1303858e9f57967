"""The event schema and its one byte encoding (docs/design.md §4).

An event is one line: a JSON object with sorted keys, written by orjson, fields
whose value is None omitted, ended by ``\\n``. ``prev`` is the sha256 of the
previous line's exact bytes, so the encoding is a contract in bytes: a decoded
line must re-encode to exactly itself, or it is reported as damaged.

Snapshots and records (``before``/``after``, ``record``, ``context``) are plain
JSON values. They are checked and copied on construction, so an event never
shares a mutable dict with its caller and always round-trips through the log.
A line decoded from the log is the exception: what orjson just parsed from it
belongs to nobody else and can only hold JSON values, so it is not copied
(docs/adr/0012).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Final, Literal, get_args

import orjson
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, model_validator
from pydantic import ValidationError as PydanticValidationError

from .errors import LogIntegrityError

EventType = Literal[
    "candidate.created",
    "candidate.edited",
    "candidate.applied",
    "candidate.discarded",
    "candidate.restored",
    "memory.reverted",
    "memory.deleted",
    "context.built",
    "store.recovered",
    "store.upgraded",
    "session.written",
    "sync.merged",
    "store.forgotten",
    "memory.trusted",
    "memory.refused",
    "trust.remote",
]

TERMINAL_TYPES = frozenset({"candidate.applied", "candidate.discarded"})
"""At most one of these per candidate while it is resolved: only ``candidate.restored`` reopens it."""

RESTORED: Final = "candidate.restored"
"""A person's undo of an apply or discard: the candidate is pending again with ``record`` (docs/adr/0032).

It names the terminal event it undoes in ``reverts``; an undone apply's memory comes back by the
``memory.reverted`` committed in the same batch.
"""

MEMORY_TYPES = frozenset({"candidate.applied", "memory.reverted", "memory.deleted", "sync.merged"})
"""Events that change durable memory: all but ``sync.merged`` must carry ``changes``.

``sync.merged`` (docs/adr/0007) takes teammates' changes in; it carries ``changes`` only when
a memory moved, and its ``sync`` object says what was merged (it may only open conflict candidates).
"""

CHANGE_TYPES = MEMORY_TYPES | {"session.written"}
"""Events that may carry ``changes`` (session writes change session memory, not durable memory)."""

CANDIDATE_TYPES = frozenset(
    {"candidate.created", "candidate.edited", "candidate.applied", "candidate.discarded", RESTORED}
)
RECORD_TYPES = frozenset({"candidate.created", "candidate.edited", RESTORED})
TRUST_TYPES = frozenset({"memory.trusted", "memory.refused", "trust.remote"})
"""A person on this machine trusting (or refusing) memories it did not approve itself (docs/adr/0021)."""
PERSON_TYPES = (
    frozenset(
        {"candidate.applied", "candidate.discarded", RESTORED, "memory.reverted", "memory.deleted", "store.forgotten"}
    )
    | TRUST_TYPES
)
"""Only a person may take these actions; an ``agent:`` actor is refused."""

GENESIS = "0" * 64
"""The ``prev`` of the first line."""

TS_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")
_MAX_DEPTH = 64
_INT_MIN, _INT_MAX = -(2**63), 2**64 - 1  # what orjson can write


def _json_copy(value: Any, depth: int = 0) -> Any:
    """A deep copy of a JSON value; raises ValueError for anything that would not round-trip."""
    if depth > _MAX_DEPTH:
        raise ValueError(f"nested deeper than {_MAX_DEPTH} levels")
    if value is None or isinstance(value, (bool, str)):
        return _checked_str(value) if isinstance(value, str) else value
    if isinstance(value, int):
        if not _INT_MIN <= value <= _INT_MAX:
            raise ValueError(f"integer {value} does not fit in 64 bits")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value} is not a JSON number")
        return value
    if isinstance(value, (list, tuple)):
        return [_json_copy(item, depth + 1) for item in value]
    if isinstance(value, dict):
        return {_checked_key(k): _json_copy(v, depth + 1) for k, v in value.items()}
    raise ValueError(f"{type(value).__name__} is not a JSON value")


def _checked_str(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:  # lone surrogates cannot be written as UTF-8
        raise ValueError(f"string is not valid Unicode: {exc.reason}") from exc
    return value


def _checked_key(key: object) -> str:
    if not isinstance(key, str):
        raise ValueError(f"object key {key!r} is not a string")
    return _checked_str(key)


_FRESH: dict[str, bool] = {"fresh_from_orjson": True}
"""The validation context of :func:`_decode_canonical` (compared by identity)."""


def _json_object(value: dict[str, Any], info: ValidationInfo) -> dict[str, Any]:
    if info.context is _FRESH:
        # Parsed by orjson from one canonical line for this event alone, its depth checked by
        # _decode_canonical: it shares nothing, and orjson yields no NaN, lone surrogate, int
        # beyond 64 bits or non-string key, so the copy below would only cost time.
        return value
    copied: dict[str, Any] = _json_copy(value)
    return copied


JsonObject = Annotated[dict[str, Any], AfterValidator(_json_object)]
"""A JSON object that round-trips exactly through orjson (checked and copied)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Change(_Frozen):
    """One memory before and after an event: full records as JSON, None for "absent"."""

    memory: str = Field(min_length=1, max_length=200)
    before: JsonObject | None
    after: JsonObject | None

    @model_validator(mode="after")
    def _consistent(self) -> Change:
        if self.before is None and self.after is None:
            raise ValueError(f"change to memory {self.memory!r} has neither before nor after")
        for side in (self.before, self.after):
            if side is not None and "id" in side and side["id"] != self.memory:
                raise ValueError(f"change to memory {self.memory!r} carries a record with id {side['id']!r}")
        return self


class EventDraft(_Frozen):
    """What a caller builds; the log fills in ``v``, ``seq``, ``prev``, ``ts`` and ``origin``."""

    type: EventType
    actor: str = Field(min_length=1, max_length=200)
    session: str | None = Field(default=None, min_length=1)
    candidate: str | None = Field(default=None, min_length=1)
    changes: tuple[Change, ...] | None = None
    record: JsonObject | None = None
    reason: str | None = None
    reverts: int | None = Field(default=None, ge=1)
    forced: bool | None = None
    context: JsonObject | None = None
    sync: JsonObject | None = None
    """``sync.merged`` only: the versions, adoptions and conflicts of one merge (docs/adr/0007)."""
    forgotten: JsonObject | None = None
    """``store.forgotten`` only: where a forgotten text was redacted, as counts (docs/adr/0019)."""
    trust: JsonObject | None = None
    """Trust events only: the memories (id, sha256) trusted or refused, or the remote (docs/adr/0021)."""

    @model_validator(mode="after")
    def _fits_its_type(self) -> EventDraft:
        problems = draft_problems(self)
        if problems:
            raise ValueError("; ".join(problems))
        return self


def draft_problems(draft: EventDraft) -> list[str]:
    """The rules of docs/design.md §4-5 that one event must meet on its own, as messages (empty: fine)."""
    kind = draft.type
    problems = _field_problems(draft)
    if kind in PERSON_TYPES and draft.actor.startswith("agent:"):
        problems.append(f"{kind} is a person's action; actor {draft.actor!r} is an agent")
    if draft.changes:
        problems += _change_problems(kind, draft.changes)
    record = draft.record
    record_id = record.get("id") if record is not None else None
    if record_id is not None and draft.candidate is not None and record_id != draft.candidate:
        problems.append(f"record is candidate {record_id!r}, event names {draft.candidate!r}")
    return problems


def _change_problems(kind: str, changes: tuple[Change, ...]) -> list[str]:
    problems = []
    if kind == "memory.deleted" and any(c.after is not None for c in changes):
        problems.append("memory.deleted changes must have after = null")
    if len(changes) > 1 and len({c.memory for c in changes}) != len(changes):
        problems.append("changes name the same memory twice")
    return problems


_REQUIRES = (
    ("changes", MEMORY_TYPES - {"sync.merged"}),
    ("candidate", CANDIDATE_TYPES),
    ("record", RECORD_TYPES),
    ("reverts", {"memory.reverted", RESTORED}),
    ("context", {"context.built"}),
    ("forgotten", {"store.forgotten"}),
    ("trust", TRUST_TYPES),
)
_ALLOWS = (
    ("changes", CHANGE_TYPES),
    ("reverts", {"memory.reverted", RESTORED}),
    ("forced", {"memory.reverted"}),
    ("sync", {"sync.merged"}),
    ("forgotten", {"store.forgotten"}),
    ("trust", TRUST_TYPES),
)
# Per type, once: every event is checked against them, and a log holds many.
_REQUIRED = {k: tuple(n for n, kinds in _REQUIRES if k in kinds) for k in get_args(EventType)}
_FORBIDDEN = {k: tuple(n for n, kinds in _ALLOWS if k not in kinds) for k in get_args(EventType)}
_ABSENT = (None, ())  # an empty tuple of changes is as good as none


def _field_problems(draft: EventDraft) -> list[str]:
    kind, fields = draft.type, draft.__dict__
    problems = []
    for name in _REQUIRED[kind]:  # plain loops: every decoded line runs this
        if fields[name] in _ABSENT:
            problems.append(f"{kind} must carry {name}")
    for name in _FORBIDDEN[kind]:
        if fields[name] is not None:
            problems.append(f"{name} is not allowed on {kind}")
    return problems


class Event(EventDraft):
    """One stored line of the log."""

    v: Literal[1] = 1
    seq: int = Field(ge=1)
    prev: str = Field(pattern=r"^[0-9a-f]{64}$")
    ts: str = Field(pattern=TS_RE.pattern)
    origin: str = Field(min_length=1, max_length=200)
    more: Literal[True] | None = None
    """Set on every line of a multi-line batch but its last: the batch commits with it."""


_validate_event: Callable[..., Event] = Event.__pydantic_validator__.validate_python
"""Event's own validator, without ``model_validate``'s Python wrapper (it runs once per line)."""


def encode_event(event: Event) -> bytes:
    """The line for ``event``: orjson, sorted keys, None-valued fields omitted, ends in ``\\n``."""
    fields: dict[str, Any] = {}
    for name in Event.model_fields:
        value = getattr(event, name)
        if value is None:
            continue
        if name == "changes":
            # Inside a change, None is meaningful ("absent before"), so it is written as null.
            value = [{"memory": c.memory, "before": c.before, "after": c.after} for c in value]
        fields[name] = value
    return orjson.dumps(fields, option=orjson.OPT_SORT_KEYS) + b"\n"


def decode_event(line: bytes, *, path: Path | str, line_no: int) -> Event:
    """Parse one stored line; all but a valid event in canonical form is a LogIntegrityError."""
    event = _decode_canonical(line)
    return event if event is not None else _decode_checked(line, path=path, line_no=line_no)


def _decode_canonical(line: bytes) -> Event | None:
    """The event of a line that is canonical and valid, else None (the full check says why).

    The line is canonical when it is exactly orjson's sorted encoding of what orjson parses
    from it, carries ``v`` (a default ``encode_event`` would add) and no null field (which it
    would omit). Strict validation of that dict accepts what the strict JSON validation of the
    line accepts and keeps every value as parsed (the Literal fields are checked first: pydantic
    would turn the ``true`` of a ``"v":true`` into ``1``), so ``encode_event`` would write the
    line again: the result equals :func:`_decode_checked`'s without the re-encode or the copies.
    Anything unusual, even if valid, goes the full way.
    """
    body = line[:-1] if line.endswith(b"\n") else line
    raw = _parse_canonical(body)
    if raw is None:
        return None
    if body.count(b"{") + body.count(b"[") > _MAX_DEPTH and not _shallow(raw):
        return None  # maybe nested too deep: _json_copy says how deep
    changes = raw.get("changes")
    if type(changes) is list:
        raw["changes"] = tuple(changes)  # strict Python validation takes a tuple, JSON an array
    try:
        return _validate_event(raw, strict=True, context=_FRESH)
    except PydanticValidationError:
        return None


def _parse_canonical(body: bytes) -> dict[str, Any] | None:
    """What orjson parses from ``body`` if that is an object whose encoding is ``body`` itself."""
    try:
        raw = orjson.loads(body)
        if type(raw) is not dict:
            return None
        # v and more must hold what their Literal types give back: a "v":true validates as 1.
        if type(raw.get("v")) is not int or raw.get("more", True) is not True:
            return None
        if None in raw.values() or orjson.dumps(raw, option=orjson.OPT_SORT_KEYS) != body:
            return None
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):  # e.g. nested past orjson's limit
        return None
    return raw


def _shallow(raw: dict[str, Any]) -> bool:
    """Whether no container of the line sits deeper than ``_MAX_DEPTH`` (the line itself is 1).

    Every JSON object of an event is nested at least one level in its line, so none of them
    then holds a value deeper than ``_json_copy`` allows.
    """
    level: list[Any] = [raw]
    for _ in range(_MAX_DEPTH):
        level = [
            item
            for container in level
            for item in (container.values() if type(container) is dict else container)
            if type(item) is dict or type(item) is list
        ]
        if not level:
            return True
    return False


def _decode_checked(line: bytes, *, path: Path | str, line_no: int) -> Event:
    """The full decode: strict JSON validation, snapshots copied, then the canonical re-encode."""
    try:
        event = Event.model_validate_json(line, strict=True)
        canonical = encode_event(event)
    except (ValueError, TypeError) as exc:  # pydantic's ValidationError is a ValueError
        raise LogIntegrityError(path, line_no, f"not a valid event: {_describe(exc)}") from exc
    if canonical != (line if line.endswith(b"\n") else line + b"\n"):
        raise LogIntegrityError(path, line_no, "not in canonical form (sorted keys, orjson spacing)")
    return event


def line_hash(line: bytes) -> str:
    """The sha256 (hex) of a line's exact bytes, including its ``\\n``: the next line's ``prev``."""
    return hashlib.sha256(line).hexdigest()


def _describe(exc: Exception) -> str:
    if isinstance(exc, PydanticValidationError):
        parts = [_one_error(e) for e in exc.errors(include_url=False)[:3]]
        text = "; ".join(parts)
    else:
        text = " ".join(str(exc).split())
    return text if len(text) <= 300 else text[:297] + "..."


def _one_error(error: Any) -> str:
    where = ".".join(str(part) for part in error["loc"])
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message
