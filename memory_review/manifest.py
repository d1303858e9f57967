"""``manifest.json``: the only authority for a store's current set of memories, and the derived ``MEMORY.md``.

The manifest is the checkpoint readers use: which file holds each memory and
its sha256, and the log position (seq and line hash) it reflects. Each entry also
carries a copy of its memory's type, description and updated_at, so ``MEMORY.md``
and the context build can order and list memories without opening every file
(entries written before these fields existed simply lack them). Parsing is
strict: duplicate keys, NaN, deep nesting and unknown fields are all errors.
"""

from __future__ import annotations

import bisect
import heapq
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, Literal

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
MANIFEST_VERSION = 1
"""The store format this tool reads and writes (docs/upgrading.md); newer ones are refused, never rewritten."""


class ManifestEntry(Strict):
    """Where one memory lives, what its bytes hash to, and the fields needed to list it without reading it."""

    file: str = Field(pattern=r"^memory/[a-z0-9][a-z0-9_-]{0,63}-[0-9a-f]{12}\.md$")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    type: MemoryType | None = None
    description: str | None = Field(default=None, min_length=1, max_length=MAX_DESCRIPTION_CHARS,
                                    pattern=r"^[^\n\r]+$")
    updated_at: str | None = Field(default=None, pattern=TIMESTAMP_RE.pattern)

    @classmethod
    def of(cls, file: str, sha256: str, memory: Memory) -> ManifestEntry:
        """The entry for ``memory`` stored in ``file`` with content hash ``sha256``."""
        return cls(file=file, sha256=sha256, type=memory.type, description=memory.description,
                   updated_at=memory.updated_at)

    @property
    def listed(self) -> bool:
        """Whether the entry carries its memory's type, description and updated_at."""
        return self.type is not None and self.description is not None and self.updated_at is not None


class Manifest(Strict):
    """The current set: memory id -> entry, and the log position it reflects."""

    version: Literal[1] = MANIFEST_VERSION
    log_seq: int = Field(default=0, ge=0)
    log_head: str = Field(default=GENESIS, pattern=r"^[0-9a-f]{64}$")
    origin: str = Field(pattern=r"^[0-9a-f]{16}$")
    memories: dict[str, ManifestEntry] = {}
    sessions: dict[SessionKey, Sha256] | None = None
    """The sha256 of each session file the commit path wrote (docs/adr/0017); absent: none yet."""


def encode_manifest(manifest: Manifest, lines: list[bytes] | None = None) -> bytes:
    """Deterministic bytes: sorted keys, two-space indent, final newline (absent fields left out).

    Exactly ``orjson.dumps(manifest.model_dump(mode="json", exclude_none=True), option=_CANONICAL)``
    plus a newline, which is what it writes without ``lines``; with them (one per entry in key order,
    as :class:`ManifestLines` keeps them) it is assembled from them (a test holds the two equal).
    """
    if lines is None or not manifest.memories:
        return orjson.dumps(manifest.model_dump(mode="json", exclude_none=True), option=_CANONICAL) + b"\n"
    outer = orjson.dumps(manifest.model_dump(mode="json", exclude={"memories"}, exclude_none=True) | {"memories": {}},
                         option=_CANONICAL)
    before, _placeholder, after = outer.partition(b'"memories": {}')
    return before + b'"memories": {\n' + b",\n".join(lines) + b"\n  }" + after + b"\n"


def entry_line(memory_id: str, entry: ManifestEntry) -> bytes:
    """One entry of ``memories`` as :func:`encode_manifest` writes it, indented for its depth."""
    raw = orjson.dumps(entry.model_dump(mode="json", exclude_none=True), option=_CANONICAL)
    return b"    " + orjson.dumps(memory_id) + b": " + raw.replace(b"\n", b"\n    ")


def _all_entry_lines(manifest: Manifest, keys: list[str]) -> list[bytes]:
    """Every entry's line, from one bulk encoding cut at the entry boundaries (3x faster than each alone).

    At depth 2 of the indented form an entry ends with ``\\n    }``, and its flat string fields
    can hold no raw newline, so ``\\n    },\\n`` occurs only between entries.
    """
    if not keys:
        return []
    memories = manifest.model_dump(mode="json", exclude_none=True, include={"memories"})["memories"]
    blob = orjson.dumps({"m": memories}, option=_CANONICAL)
    body = blob[len(b'{\n  "m": {\n'): -len(b"\n  }\n}")]
    parts = body.split(b"\n    },\n")
    lines = [part + b"\n    }" for part in parts[:-1]] + parts[-1:]
    if len(lines) != len(keys):  # cannot happen for valid entries; the slow way is always right
        return [entry_line(k, manifest.memories[k]) for k in keys]
    return lines


class ManifestLines:
    """A manifest's entry lines in key order, kept from checkpoint to checkpoint by one writer.

    A writer that checkpointed ``previous`` itself re-encodes only the entries a commit changed
    (placed by bisect) instead of walking 10,000 entries again.
    """

    def __init__(self) -> None:
        self._manifest: Manifest | None = None
        self._keys: list[str] = []
        self._lines: list[bytes] | None = None

    def lines(self, manifest: Manifest, previous: Manifest | None,
              changed: Iterable[str]) -> list[bytes] | None:
        """The lines of ``manifest``, which differs from ``previous`` only in ``changed``.

        None when this writer has not checkpointed ``previous`` (``previous=None``: unknown): one
        bulk encoding is then cheaper, and a process that commits once never needs the lines.
        """
        if previous is None or self._manifest is not previous:
            self._manifest, self._keys, self._lines = manifest, [], None
            return None
        if self._lines is None:  # the second checkpoint of this writer: cut the lines once
            self._keys = sorted(previous.memories)
            self._lines = _all_entry_lines(previous, self._keys)
        for memory_id in changed:
            self._update(memory_id, manifest.memories.get(memory_id))
        self._manifest = manifest
        return self._lines

    def _update(self, memory_id: str, entry: ManifestEntry | None) -> None:
        at = bisect.bisect_left(self._keys, memory_id)
        present = at < len(self._keys) and self._keys[at] == memory_id
        if entry is None:
            if present:
                del self._keys[at], self._lines[at]
        elif present:
            self._lines[at] = entry_line(memory_id, entry)
        else:
            self._keys.insert(at, memory_id)
            self._lines.insert(at, entry_line(memory_id, entry))


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


def render_index_lines(items: list[tuple[str, str, str]], *, presorted: bool = False) -> bytes:
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
    ordered = items[:INDEX_MAX_LINES] if presorted else heapq.nsmallest(INDEX_MAX_LINES, items)
    for shown, (kind, memory_id, description) in enumerate(ordered):
        line = f"- [{kind}] {memory_id}: {description}"
        more = len(items) - shown
        if len(lines) + 2 > INDEX_MAX_LINES or size + len(line.encode()) + 60 > INDEX_MAX_BYTES:
            lines.append(f"- … and {more} more (see `memory-review memories`)")
            break
        lines.append(line)
        size += len(line.encode()) + 1
    return ("\n".join(lines) + "\n").encode("utf-8")


IndexItem = tuple[str, str, str]


class SortedIndexItems:
    """The ``(type, id, description)`` items of ``MEMORY.md``, kept sorted from checkpoint to checkpoint.

    A writer that checkpointed ``previous`` itself updates the list for the memories a commit
    changed (a bisect each) instead of collecting and ordering 10,000 entries again.
    """

    def __init__(self) -> None:
        self._manifest: Manifest | None = None
        self._items: list[IndexItem] = []

    def items(self, manifest: Manifest, previous: Manifest | None, changed: Iterable[str]) -> list[IndexItem]:
        """The sorted items of ``manifest``, which differs from ``previous`` only in ``changed``.

        ``previous=None``: unknown, collect them all.
        """
        if previous is not None and self._manifest is previous:
            for memory_id in changed:
                self._move(_index_item(memory_id, previous.memories.get(memory_id)),
                           _index_item(memory_id, manifest.memories.get(memory_id)))
        else:
            self._items = sorted(item for item in (_index_item(k, e) for k, e in manifest.memories.items()) if item)
        self._manifest = manifest
        return self._items

    def carry(self, manifest: Manifest, previous: Manifest) -> None:
        """``manifest`` has the same items as ``previous`` (no memory changed): keep the list for it."""
        if self._manifest is previous:
            self._manifest = manifest

    def _move(self, old: IndexItem | None, new: IndexItem | None) -> None:
        if old is not None:
            del self._items[bisect.bisect_left(self._items, old)]
        if new is not None:
            bisect.insort(self._items, new)


def _index_item(memory_id: str, entry: ManifestEntry | None) -> IndexItem | None:
    if entry is None or not entry.type or not entry.description:
        return None
    return (entry.type, memory_id, entry.description)
