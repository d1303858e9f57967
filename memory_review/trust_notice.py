"""The hooks' one-line notice that a store holds memories no person here approved (docs/adr/0021).

Said once per session and per set of foreign memories (a fingerprint of their
hashes), to the person (Claude Code's ``systemMessage``), never to the model: the
agent is not the one to decide what it remembers. What was said last is kept in
``<user store>/trust/notices.json`` — bookkeeping, not trust: losing it only
repeats a notice.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

import orjson

from memory_review.events.durable import atomic_replace
from memory_review.file_reads import read_regular_file
from memory_review.lean.trust import foreign_fingerprint, noticed, told
from memory_review.trust import store_key

if TYPE_CHECKING:
    from memory_review.workspace import Workspace

NOTICES = "notices.json"
MAX_NOTICES_BYTES = 256 * 1024
MAX_STORES = 500


def trust_notice(ws: Workspace, session: str) -> str | None:
    """The notice to show now, if any; call after ``ws.context`` (its gate saw the foreign memories)."""
    due, state = [], _read_state(ws)
    for scope, foreign in sorted(ws.trust_records.foreign.items()):
        if not foreign:
            continue
        key = f"{scope}:{store_key(ws.store_dir(scope))[1]}"
        fingerprint = foreign_fingerprint(foreign)
        if not told(state.get(key), fingerprint, session):
            due.append((scope, len(foreign)))
            state[key] = noticed(state.pop(key, None), fingerprint, session)  # newest last: past MAX_STORES, dropped
    rewritten = _rewritten_due(ws, session, state)
    if not due and not rewritten:
        return None
    _write_state(ws, dict(list(state.items())[-MAX_STORES:]))
    return " ".join(rewritten + ([_message(ws, due)] if due else []))


def _rewritten_due(ws: Workspace, session: str, state: dict[str, dict]) -> list[str]:
    """The notices for stores the gate served nothing of, their log rewritten (ADR 0025), once a session."""
    due = []
    for scope, why in sorted(ws.trust_records.rewritten.items()):
        key = f"rewritten:{scope}:{store_key(ws.store_dir(scope))[1]}"
        fingerprint = hashlib.sha256(why.encode()).hexdigest()
        if not told(state.get(key), fingerprint, session):
            due.append(f"memory-review: nothing of the {scope} store was injected: {why}. See `memory-review verify`.")
            state[key] = noticed(state.pop(key, None), fingerprint, session)
    return due


def _message(ws: Workspace, due: Sequence[tuple[str, int]]) -> str:
    parts = [f"{count} {'memory' if count == 1 else 'memories'} in the {scope} store" for scope, count in due]
    verb = "was" if len(due) == 1 and due[0][1] == 1 else "were"
    text = (
        f"memory-review: {' and '.join(parts)} {verb} not approved on this machine (a cloned, copied or "
        f"synced store), so not injected. Review them with `memory-review` (or `memory-review trust`)."
    )
    project_ledger = ws.trust_records.ledger(ws.store("project"))
    if any(scope == "project" for scope, _count in due) and not project_ledger.exists:
        text += (
            " If you made this store yourself before trust records existed: "
            "`memory-review trust --all`; if you moved this project: `memory-review trust --moved-from "
            "OLD-FOLDER`."
        )
    return text


def _read_state(ws: Workspace) -> dict[str, dict]:
    data = read_regular_file(ws.trust_records.folder / NOTICES, MAX_NOTICES_BYTES)
    if data is None:
        return {}
    try:
        state = orjson.loads(data)
    except orjson.JSONDecodeError:
        return {}  # bookkeeping only: a damaged file repeats the notice once
    return state if isinstance(state, dict) else {}


def _write_state(ws: Workspace, state: dict[str, dict]) -> None:
    # A notice that cannot be remembered is shown again next time; that must not cost the context.
    with contextlib.suppress(OSError):
        ws.trust_records.ensure_folder()
        atomic_replace(ws.trust_records.folder / NOTICES, orjson.dumps(state, option=orjson.OPT_SORT_KEYS))
