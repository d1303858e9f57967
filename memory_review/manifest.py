"""``manifest.json``: the only authority for a store's current set of memories, and the derived ``MEMORY.md``.

The manifest is the compacted state readers start from (docs/adr/0029): which file
holds each memory and its sha256, and the log position (seq and line hash) it
reflects; the chain-checked log past that position is the tail they fold over it. Each entry also
carries a copy of its memory's type, description and updated_at, so ``MEMORY.md``
and the context build can order and list memories without opening every file
(entries written before these fields existed simply lack them). Parsing is
strict: duplicate keys, NaN, deep nesting and unknown fields are all errors.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import orjson
from pydantic import Field
from pydantic import ValidationError as PydanticValidationError

from memory_review.errors import FormatTooNewError, IntegrityError, MemoryReviewError
from memory_review.ids import SESSION_ID_RE
from memory_review.models import MAX_DESCRIPTION_CHARS, TIMESTAMP_RE, Memory, MemoryType, Strict

GENESIS = "0" * 64
MAX_MANIFEST_BYTES = 64 * 1024 * 1024
INDEX_MAX_LINES = 200
INDEX_MAX_BYTES = 25_000


Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
SessionKey = Annotated[str, Field(pattern=SESSION_ID_RE.pattern)]
MANIFEST_VERSION: Final = 2
"""The store format this tool writes (docs/upgrading.md, docs/adr/0029); newer ones are refused, never
rewritten. Format 1 (a manifest rewritten per commit) is read, and upgraded by the first writer."""


class ManifestEntry(Strict):
    """Where one memory lives, what its bytes hash to, and the fields needed to list it without reading it."""

    file: str = Field(pattern=r"^memory/[a-z0-9][a-z0-9_-]{0,63}-[0-9a-f]{12}\.md$")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    type: MemoryType | None = None
    description: str | None = Field(default=None, min_length=1, max_length=MAX_DESCRIPTION_CHARS, pattern=r"^[^\n\r]+$")
    updated_at: str | None = Field(default=None, pattern=TIMESTAMP_RE.pattern)

    @classmethod
    def of(cls, file: str, sha256: str, memory: Memory) -> ManifestEntry:
        """The entry for ``memory`` stored in ``file`` with content hash ``sha256``."""
        return cls(
            file=file, sha256=sha256, type=memory.type, description=memory.description, updated_at=memory.updated_at
        )

    @property
    def listed(self) -> bool:
        """Whether the entry carries its memory's type, description and updated_at."""
        return self.type is not None and self.description is not None and self.updated_at is not None


class Manifest(Strict):
    """The current set: memory id -> entry, and the log position it reflects."""

    version: Literal[1, 2] = MANIFEST_VERSION
    log_seq: int = Field(default=0, ge=0)
    log_head: str = Field(default=GENESIS, pattern=r"^[0-9a-f]{64}$")
    origin: str = Field(pattern=r"^[0-9a-f]{16}$")
    memories: dict[str, ManifestEntry] = {}
    sessions: dict[SessionKey, Sha256] | None = None
    """The sha256 of each session file the commit path wrote (docs/adr/0017); absent: none yet."""


def encode_manifest(manifest: Manifest) -> bytes:
    """Deterministic bytes: sorted keys, two-space indent, final newline (absent fields left out)."""
    return orjson.dumps(manifest.model_dump(mode="json", exclude_none=True), option=_CANONICAL) + b"\n"


_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2


def decode_manifest(data: bytes, *, where: str) -> Manifest:
    """Parse a manifest strictly; any damage is an IntegrityError naming the file."""
    if len(data) > MAX_MANIFEST_BYTES:
        raise IntegrityError("manifest is implausibly large", path=where)
    raw = _canonical_json(data)
    if raw is None:
        raw = _strict_json(data, where)
    check_format(raw, where)
    try:
        return Manifest.model_validate(raw)
    except PydanticValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "(root)"
        raise IntegrityError(f"{loc}: {first['msg']}", path=where, hint=_REPAIR) from exc


_REPAIR = "run `memory-review verify --repair` to rebuild it from the event log"


def refuse_newer_format(path: Path) -> None:
    """FormatTooNewError if the manifest at ``path`` is a newer format; anything else is left to the reader.

    For the commands that rewrite a store (``verify --repair``, ``forget``): they must refuse a newer
    store before they judge anything in it as damage.
    """
    from memory_review.file_reads import read_store_file  # noqa: PLC0415

    try:
        data = read_store_file(path, MAX_MANIFEST_BYTES)
        raw = orjson.loads(data) if data is not None else None
    except (MemoryReviewError, orjson.JSONDecodeError):
        return  # missing or damaged: the reader reports it, as it always has
    check_format(raw, str(path))


def check_format(raw: Any, where: str) -> None:
    """FormatTooNewError for a manifest a newer memory-review wrote (before any field is judged)."""
    found = raw.get("version") if isinstance(raw, dict) else None
    if isinstance(found, int) and not isinstance(found, bool) and found > MANIFEST_VERSION:
        raise FormatTooNewError(where, found, MANIFEST_VERSION)


def _canonical_json(data: bytes) -> Any | None:
    """The parsed manifest if ``data`` is exactly what :func:`encode_manifest` writes, else None.

    The fast path (orjson, in C): bytes that re-encode to themselves cannot hide a
    duplicate key, NaN or a huge integer, so the strict parser's checks hold.
    Anything else — hand-edited, damaged — goes through :func:`_strict_json`.
    """
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    try:
        same = orjson.dumps(raw, option=_CANONICAL) + b"\n" == data
    except TypeError:
        return None
    return raw if same else None


def _strict_json(data: bytes, where: str) -> Any:
    try:
        text = data.decode("utf-8")
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise IntegrityError(f"manifest is not valid JSON: {exc}", path=where, hint=_REPAIR) from exc


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def render_index(memories: list[Memory]) -> bytes:
    """``MEMORY.md``: a bounded, derived index of the store; never read back as truth."""
    return render_index_lines([(m.type, m.id, m.description) for m in memories])


def render_index_lines(items: Sequence[tuple[str, str, str]]) -> bytes:
    """``MEMORY.md`` from ``(type, id, description)`` triples (e.g. from manifest entries)."""
    header = [
        "# Memory index",
        "",
        "Generated by memory-review from manifest.json; edits here are overwritten.",
        "",
    ]
    lines = list(header)
    size = sum(len(line.encode()) + 1 for line in lines)
    # Only the first lines can be shown: no need to sort a 10,000-memory store on every commit.
    ordered = heapq.nsmallest(INDEX_MAX_LINES, items)
    for shown, (kind, memory_id, description) in enumerate(ordered):
        line = f"- [{kind}] {memory_id}: {description}"
        more = len(items) - shown
        if len(lines) + 2 > INDEX_MAX_LINES or size + len(line.encode()) + 60 > INDEX_MAX_BYTES:
            lines.append(f"- … and {more} more (see `memory-review memories`)")
            break
        lines.append(line)
        size += len(line.encode()) + 1
    return ("\n".join(lines) + "\n").encode("utf-8")
