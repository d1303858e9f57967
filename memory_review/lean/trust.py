"""The trust gate of the per-prompt path: the same decisions as ``TrustRecords.gate`` (ADR 0021, 0025).

A memory version is served only if the store's ledger trusts its sha256 and no person here replaced it
at or before the log head being read (``revoked``); a store whose log no longer extends its anchored
head serves nothing. What the full gate would report — foreign versions due a notice, a rewritten log,
a ledger that is missing (a store from before trust records, or a clone) or damaged — is
:class:`Fallback`: the full path shows the notice, adopts an old user store or names the damage.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import orjson

from memory_review.lean.files import Fallback, read_regular, real_dir, store_key
from memory_review.lean.index import SHA256, IndexState

TRUST_DIR = "trust"
MAX_LEDGER_BYTES = 64 * 1024 * 1024
MAX_ANCHOR_BYTES = 4096
MAX_NOTICES_BYTES = 256 * 1024
_SHA256_RE = re.compile(r"^[0-9a-f]{64}$")


def served(
    user_dir: Path,
    store_root: Path,
    state: IndexState,
    head: tuple[int, str],
    session: str | None,
    *,
    notices: bool = True,
) -> list[str]:
    """The ids of ``state`` a person on this machine approved, as of log ``head``.

    With ``notices``, foreign versions this session was not yet told about are :class:`Fallback` (the hook's
    full path tells the person, once).
    """
    folder = user_dir / TRUST_DIR
    if not real_dir(folder):
        raise Fallback("no trust folder (or not a real one)")
    real, key = store_key(store_root)
    _check_anchor(folder / f"{key}.head", real, head)
    ledger = _ledger(folder / f"{key}.json", real, state.scope)
    trusted, refused, revoked = ledger["trusted"], ledger["refused"], ledger.get("revoked", {})
    kept, foreign = [], []
    for memory_id in sorted(state.entries):
        sha = state.entries[memory_id][SHA256]
        gone = revoked.get(sha)
        if sha in trusted and not (gone is not None and head[0] >= gone[1]):
            kept.append(memory_id)
        elif sha not in refused:
            foreign.append((memory_id, sha))
    if notices and foreign and not _noticed(folder, f"{state.scope}:{key}", foreign, session):
        raise Fallback("foreign memories this session was not told about")
    return kept


def _ledger(path: Path, real: str, scope: str) -> dict:
    data = read_regular(path, MAX_LEDGER_BYTES)
    if data is None:
        raise Fallback("no trust ledger for this store")
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise Fallback("a damaged trust ledger") from exc
    if (
        not isinstance(raw, dict)
        or raw.get("v") != 1
        or raw.get("store") != real
        or raw.get("scope") != scope
        or not isinstance(raw.get("trusted"), dict)
        or not isinstance(raw.get("refused"), dict)
        or not isinstance(raw.get("revoked", {}), dict)
        or not all(isinstance(v, list) and len(v) == 2 and type(v[1]) is int for v in raw.get("revoked", {}).values())
    ):
        raise Fallback("a trust ledger the full path must judge")
    return raw


def _check_anchor(path: Path, real: str, head: tuple[int, str]) -> None:
    data = read_regular(path, MAX_ANCHOR_BYTES)
    if data is None:
        return  # this machine never committed to the store
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise Fallback("a damaged anchor") from exc
    if (
        not isinstance(raw, dict)
        or raw.get("v") != 1
        or raw.get("store") != real
        or type(raw.get("seq")) is not int
        or not _SHA256_RE.match(str(raw.get("hash")))
    ):
        raise Fallback("a damaged anchor")
    if head[0] < raw["seq"] or (head[0] == raw["seq"] and head[1] != raw["hash"]):
        raise Fallback("the log does not extend its anchored head")  # the full path says "rewritten"


def _noticed(folder: Path, key: str, foreign: list[tuple[str, str]], session: str | None) -> bool:
    """Whether this session was already told about exactly these foreign versions (``trust_notice``)."""
    data = read_regular(folder / "notices.json", MAX_NOTICES_BYTES)
    try:
        state = orjson.loads(data) if data is not None else {}
    except orjson.JSONDecodeError:
        return False
    fingerprint = hashlib.sha256("\n".join(sorted(f"{m} {sha}" for m, sha in foreign)).encode()).hexdigest()
    return isinstance(state, dict) and state.get(key) == {"fingerprint": fingerprint, "session": session}
