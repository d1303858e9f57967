"""The read index: what injection needs of one store, kept on this machine only (ADR 0030).

A store's index is ``<user store>/index/<key>.jsonl`` (``key`` as the trust ledger's: the store
folder's real path, hashed), never inside the store: a project store lives in its repository, and
a file there could be forged by a commit. It is derived state, never an authority::

    {"v":3,"index":"memory-review read index","frame":3,"store":…,"scope":…,"origin":…,"at":[seq,hash],
     "manifest":[ino,size,mtime_ns,ctime_ns],"sessions":[…],"count":N}        the base's header
    [[id,type,updated_at,sha256,frame,terms,length], …]                       its N entries, one line
    {"delta":{"from":[…],"at":[…],"manifest":[…],"origin":…,"sessions":[…]},"set":[[…]],"del":[…]}

``frame`` is the note as ``render_frame(memory, None)`` renders it (no age) in the layout the header's
``frame`` names, which must be the renderer's (``block.FRAME_VERSION``): an index of notes rendered another
way is stale, like one of another format, and the next commit (or a prompt, for a small store) remakes it;
version 2 had no ``frame`` and held layout 2. ``terms`` and
``length`` the memory's listed terms and weighted length that ranking reads (``rank.term_list``, ADR 0038;
version 1 held the folded text and its word list instead), ``sha256`` the memory file's hash (what the
trust ledger names). The base says the store's set at log head ``at`` with the manifest file whose
fingerprint is ``manifest``; each delta line, appended by a commit under the store lock, moves it
from ``from`` to its own ``at``. A reader believes it only while the manifest has that fingerprint
and the log past ``at`` holds nothing but ``context.built`` lines (:mod:`memory_review.lean.logtail`).
Anything else — missing, stale, a delta that does not continue, a torn line — is :class:`Fallback`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import orjson

from memory_review.lean.block import FRAME_VERSION
from memory_review.lean.files import Fallback, read_regular, store_key

INDEX_DIR = "index"
VERSION = 3
KIND = "memory-review read index"
MAX_INDEX_BYTES = 1 << 30
Entry = list  # [id, type, updated_at, sha256, frame, terms, length]
ID, TYPE, UPDATED_AT, SHA256, FRAME, TERMS, LENGTH = range(7)


@dataclass
class IndexState:
    """A store's set as its index says it, at log head ``at`` and manifest ``manifest``."""

    store: str
    scope: str
    origin: str
    at: tuple[int, str]
    manifest: list[int] | None
    sessions: set[str]
    entries: dict[str, Entry] = field(default_factory=dict)
    deltas: int = 0
    """How many delta lines follow the base (compaction rewrites the base past a threshold)."""


def index_path(user_dir: Path, store_root: Path) -> Path:
    return user_dir / INDEX_DIR / f"{store_key(store_root)[1]}.jsonl"


def load(user_dir: Path, store_root: Path, scope: str) -> IndexState | None:
    """The index of the store at ``store_root`` (None: none yet); Fallback when it cannot be believed."""
    data = read_regular(index_path(user_dir, store_root), MAX_INDEX_BYTES)
    return None if data is None else parse(data, store_key(store_root)[0], scope)


def parse(data: bytes, real: str, scope: str) -> IndexState:
    if not data.endswith(b"\n"):
        raise Fallback("the read index ends in a torn line")
    parts = data.split(b"\n", 2)  # header, entries, deltas (the entries line is most of the file)
    if len(parts) < 3:
        raise Fallback("the read index has no entries line")
    try:
        header, entries = orjson.loads(parts[0]), orjson.loads(parts[1])
        state = _base(header, entries, real, scope)
        for line in parts[2].split(b"\n")[:-1]:
            _apply(state, orjson.loads(line))
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise Fallback(f"the read index cannot be read: {exc}") from exc
    return state


class OtherVersion(Fallback):
    """An index this version does not read (an older one): stale, not damaged — the next commit remakes it."""


def _base(header: dict, entries: list, real: str, scope: str) -> IndexState:
    if header.get("index") == KIND and type(header.get("v")) is int and header["v"] != VERSION:
        raise OtherVersion(f"the read index is a version {header['v']} index; this version reads {VERSION}")
    if header.get("index") == KIND and header.get("frame") != FRAME_VERSION:
        raise OtherVersion(
            f"the read index holds notes of layout {header.get('frame')}; this renderer's is {FRAME_VERSION}"
        )
    if (
        header.get("v") != VERSION
        or header.get("index") != KIND
        or header.get("store") != real
        or header.get("scope") != scope
        or header.get("count") != len(entries)
    ):
        raise Fallback(f"the read index is not a version {VERSION} index of this store")
    state = IndexState(
        real,
        scope,
        _text(header["origin"]),
        _at(header["at"]),
        _fingerprint(header["manifest"]),
        _names(header["sessions"]),
    )
    _put(state, entries)
    return state


def _apply(state: IndexState, line: dict) -> None:
    moved = line["delta"]
    if _at(moved["from"]) != state.at:
        raise Fallback("a delta of the read index does not continue it")
    state.at, state.manifest = _at(moved["at"]), _fingerprint(moved["manifest"])
    state.origin, state.sessions = _text(moved["origin"]), _names(moved["sessions"])
    for memory_id in line["del"]:
        state.entries.pop(memory_id, None)
    _put(state, line["set"])
    state.deltas += 1


def _put(state: IndexState, entries: list) -> None:
    # Shapes only (the writer is ours; a field of another type fails the build loudly, and is logged).
    if not all(type(entry) is list and len(entry) == 7 for entry in entries):
        raise Fallback("an entry of the read index is not seven fields")
    state.entries.update(zip(map(_first, entries), entries, strict=False))


def _first(entry: Entry) -> str:
    return entry[ID]


def _at(value: list) -> tuple[int, str]:
    seq, line_hash = value
    if type(seq) is not int or type(line_hash) is not str:
        raise Fallback("a log position in the read index is not [seq, hash]")
    return seq, line_hash


def _fingerprint(value: list | None) -> list[int] | None:
    if value is not None and (len(value) != 4 or not all(type(v) is int for v in value)):
        raise Fallback("a manifest fingerprint in the read index is not four integers")
    return value


def _text(value: str) -> str:
    if type(value) is not str:
        raise Fallback("the read index holds a non-string where text belongs")
    return value


def _names(value: list) -> set[str]:
    return {_text(v) for v in value}


# --- writing (the core's commit path and repair call these; the bytes are defined here, once) -----


def base_bytes(state: IndexState) -> bytes:
    """The whole index file for ``state`` (a rebuild, or a compaction of base + deltas)."""
    header = {
        "v": VERSION,
        "index": KIND,
        "frame": FRAME_VERSION,
        "store": state.store,
        "scope": state.scope,
        "origin": state.origin,
        "at": list(state.at),
        "manifest": state.manifest,
        "sessions": sorted(state.sessions),
        "count": len(state.entries),
    }
    entries = [state.entries[key] for key in sorted(state.entries)]
    return orjson.dumps(header, option=orjson.OPT_SORT_KEYS) + b"\n" + orjson.dumps(entries) + b"\n"


def delta_bytes(before: tuple[int, str], state: IndexState, put: list[Entry], deleted: list[str]) -> bytes:
    """The line that moves an index at ``before`` to ``state`` (whose entries already hold the change)."""
    moved = {
        "from": list(before),
        "at": list(state.at),
        "manifest": state.manifest,
        "origin": state.origin,
        "sessions": sorted(state.sessions),
    }
    return orjson.dumps({"delta": moved, "set": put, "del": deleted}, option=orjson.OPT_SORT_KEYS) + b"\n"
