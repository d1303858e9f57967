"""The trust gate (ADR 0021, 0025), once: what ``TrustRecords.gate`` and the per-prompt path both decide.

Standard library and orjson only, so the prompt hook applies it without the core, and the core
(:mod:`memory_review.trust`) calls the very same functions:

- :func:`ledger_problem` and :func:`anchor_problem`: whether a decoded ledger or anchor is one of this
  store (the core turns a problem into ``IntegrityError``, this path into :class:`Fallback`);
- :func:`keeps`, :func:`superseded`, :func:`undecided` and :func:`partition`: which versions a person
  on this machine approved as of a log position, and which are foreign (still to review);
- :func:`contradiction`: whether a log head can extend the anchored head.

:func:`served` is the per-prompt path's gate over a read index: what the full gate would do but serve is
:class:`Fallback` — foreign versions due a notice, a rewritten log (the full path says "rewritten" and
serves nothing), a ledger that is missing (a store from before trust records, or a clone) or damaged.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import orjson

from memory_review.lean.files import Fallback, read_regular, real_dir, store_key
from memory_review.lean.index import SHA256, IndexState

TRUST_DIR = "trust"
LEDGER_VERSION = 1
MAX_LEDGER_BYTES = 64 * 1024 * 1024
MAX_ANCHOR_BYTES = 4096
MAX_NOTICES_BYTES = 256 * 1024
SHA256_RE = re.compile(r"^[0-9a-f]{64}$")


# --- the decisions (both paths) ---------------------------------------------------------------------


def superseded(revoked: Mapping[str, list[Any]], sha256: str, seq: int | None) -> bool:
    """Whether a person here replaced this version at or before log event ``seq`` (None: at any time)."""
    gone = revoked.get(sha256)
    return gone is not None and (seq is None or seq >= gone[1])


def keeps(trusted: Mapping[str, str], revoked: Mapping[str, list[Any]], sha256: str | None, seq: int | None) -> bool:
    """Whether the version with this hash may be injected from a view at log event ``seq``."""
    return sha256 is not None and sha256 in trusted and not superseded(revoked, sha256, seq)


def undecided(
    trusted: Mapping[str, str],
    refused: Mapping[str, str],
    revoked: Mapping[str, list[Any]],
    sha256: str | None,
    seq: int | None,
) -> bool:
    """Whether nobody here has decided about this version yet (foreign, and still to review)."""
    return sha256 is not None and not keeps(trusted, revoked, sha256, seq) and sha256 not in refused


def partition(
    versions: Iterable[tuple[str, str | None]],
    trusted: Mapping[str, str],
    refused: Mapping[str, str],
    revoked: Mapping[str, list[Any]],
    seq: int,
) -> tuple[list[str], list[tuple[str, str]]]:
    """Of ``(memory id, sha256)`` pairs, the ids served at log event ``seq`` and the foreign pairs."""
    kept, foreign = [], []
    for memory_id, sha in versions:
        if keeps(trusted, revoked, sha, seq):
            kept.append(memory_id)
        elif sha is not None and sha not in refused:
            foreign.append((memory_id, sha))
    return kept, foreign


def contradiction(anchor: tuple[int, str], head: tuple[int, str]) -> str | None:
    """``"rolled back"`` or ``"rewritten"`` when a log whose head is ``head`` cannot extend the anchored
    head (None: it may; only a full read of the log knows)."""
    if head[0] < anchor[0]:
        return "rolled back"
    if head[0] == anchor[0] and head[1] != anchor[1]:
        return "rewritten"
    return None


def ledger_problem(raw: object, real: str, scope: str) -> str | None:
    """Why a decoded ledger is not a version 1 trust record of the ``scope`` store at ``real`` (None: it is)."""
    if not isinstance(raw, dict) or raw.get("v") != LEDGER_VERSION:
        return "not a version 1 trust record"
    if raw.get("store") != real or raw.get("scope") != scope:
        return f"it records {raw.get('scope')!r} store {raw.get('store')!r}, not {real!r}"
    for name in ("trusted", "refused"):
        value = raw.get(name)
        if not isinstance(value, dict):
            return "trusted/refused is not an object"
        for sha, memory_id in value.items():
            if not isinstance(memory_id, str) or not SHA256_RE.match(sha):
                return f"bad entry {sha[:80]!r}"
    remotes = raw.get("remotes")
    if not isinstance(remotes, list) or not all(isinstance(r, str) for r in remotes):
        return "remotes is not a list of names"
    revoked = raw.get("revoked", {})
    if not isinstance(revoked, dict) or not all(
        SHA256_RE.match(sha) and isinstance(v, list) and len(v) == 2 and isinstance(v[0], str) and type(v[1]) is int
        for sha, v in revoked.items()
    ):
        return "revoked is not an object of [memory id, seq]"
    return None


def anchor_problem(raw: object, real: str) -> bool:
    """Whether a decoded anchor is not a version 1 anchor of the store at ``real``."""
    return (
        not isinstance(raw, dict)
        or raw.get("v") != LEDGER_VERSION
        or raw.get("store") != real
        or type(raw.get("seq")) is not int
        or not SHA256_RE.match(str(raw.get("hash")))
    )


# --- the per-prompt path's gate over a read index ----------------------------------------------------


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
    versions = ((memory_id, state.entries[memory_id][SHA256]) for memory_id in sorted(state.entries))
    kept, foreign = partition(versions, ledger["trusted"], ledger["refused"], ledger.get("revoked", {}), head[0])
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
    problem = ledger_problem(raw, real, scope)
    if problem is not None:
        raise Fallback(f"a trust ledger the full path must judge: {problem}")
    return raw


def _check_anchor(path: Path, real: str, head: tuple[int, str]) -> None:
    data = read_regular(path, MAX_ANCHOR_BYTES)
    if data is None:
        return  # this machine never committed to the store
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise Fallback("a damaged anchor") from exc
    if anchor_problem(raw, real):
        raise Fallback("a damaged anchor")
    if contradiction((raw["seq"], raw["hash"]), head) is not None:
        raise Fallback("the log does not extend its anchored head")  # the full path says "rewritten"


def _noticed(folder: Path, key: str, foreign: list[tuple[str, str]], session: str | None) -> bool:
    """Whether this session was already told about exactly these foreign versions (``trust_notice``)."""
    data = read_regular(folder / "notices.json", MAX_NOTICES_BYTES)
    try:
        state = orjson.loads(data) if data is not None else {}
    except orjson.JSONDecodeError:
        return False
    return isinstance(state, dict) and told(state.get(key), foreign_fingerprint(foreign), session)


def foreign_fingerprint(foreign: list[tuple[str, str]]) -> str:
    """What a notice was said about: the foreign versions (id, sha256), in any order."""
    return hashlib.sha256("\n".join(sorted(f"{m} {sha}" for m, sha in foreign)).encode()).hexdigest()


# Sessions kept per store and set of foreign memories: two windows open on one project (or Claude Code beside
# Codex) took turns overwriting one session, and each prompt of each showed the notice again (session 38's review).
MAX_NOTICED_SESSIONS = 8  # with MAX_STORES of 500, notices.json stays under its 256 KB read limit


def told(entry: object, fingerprint: str, session: str | None) -> bool:
    """Whether ``notices.json``'s ``entry`` for a store says ``session`` was told about ``fingerprint``'s memories.

    An entry is ``{"fingerprint": …, "sessions": [… the newest last]}``; one written before holds one ``session``."""
    if not isinstance(entry, dict) or entry.get("fingerprint") != fingerprint:
        return False
    sessions = entry.get("sessions", [entry.get("session")])
    return isinstance(sessions, list) and session in sessions


def noticed(entry: object, fingerprint: str, session: str | None) -> dict:
    """``entry`` once ``session`` is told about ``fingerprint``'s memories (a new set starts the list again)."""
    sessions = []
    if isinstance(entry, dict) and entry.get("fingerprint") == fingerprint:
        kept = entry.get("sessions", [entry.get("session")])
        sessions = [s for s in kept if s != session] if isinstance(kept, list) else []
    return {"fingerprint": fingerprint, "sessions": [*sessions, session][-MAX_NOTICED_SESSIONS:]}
