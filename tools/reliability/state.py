"""What a store says, reduced to what a trial compares: its memories and its pending candidates.

Two runs of the same operation differ in timestamps (and a proposal gets a new
random id), so a :class:`StoreState` keeps a digest of each record without its
times, and names candidates the trial did not know beforehand ``new``. A crash
trial then asks one question: is the recovered state exactly the state before
the operation, or exactly the state after it?

:func:`tree_snapshot` is the other, stricter view: every file, folder and symlink
under a folder, byte for byte (the bad-input corpus demands "unchanged").
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from memory_review.candidate import Candidate, candidate_to_json
from memory_review.events import replay
from memory_review.record_io import memory_to_json
from memory_review.store import Store
from memory_review.workspace import Workspace

TIME_KEYS = frozenset({"created_at", "updated_at", "diff"})
"""Left out of a digest: the clock's fields, and the diff (derived from the records, times included)."""
NEW = "new"


def _strip_times(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_times(v) for k, v in value.items() if k not in TIME_KEYS}
    if isinstance(value, list):
        return [_strip_times(v) for v in value]
    return value


def content_digest(record: dict[str, Any], *, anonymous: str | None = None) -> str:
    """sha256 of a JSON record with every ``created_at``/``updated_at``/``diff`` left out.

    With ``anonymous``, that id (a candidate's, which a trial cannot predict) is
    replaced by ``new`` wherever it occurs, so two runs of one proposal compare equal.
    """
    data = orjson.dumps(_strip_times(record), option=orjson.OPT_SORT_KEYS)
    if anonymous:
        data = data.replace(anonymous.encode(), NEW.encode())
    return hashlib.sha256(data).hexdigest()[:16]


@dataclass(frozen=True)
class StoreState:
    """Memories (``scope:id`` -> digest) as the logs replay them, pending candidates (id or ``new`` -> digest),
    and session memory (``session id`` -> digest of its memories)."""

    memories: tuple[tuple[str, str], ...]
    pending: tuple[tuple[str, str], ...]
    sessions: tuple[tuple[str, str], ...] = ()

    def candidate_ids(self) -> set[str]:
        """The candidate ids this state names (``new`` excluded)."""
        return {cid for cid, _ in self.pending if cid != NEW}

    def describe(self) -> str:
        """A short human form for failure messages."""
        mems = ", ".join(f"{k}:{v[:6]}" for k, v in self.memories)
        cands = ", ".join(f"{k[-6:]}:{v[:6]}" for k, v in self.pending)
        sessions = ", ".join(f"{k}:{v[:6]}" for k, v in self.sessions)
        return f"memories[{mems}] pending[{cands}] sessions[{sessions}]"


def replayed_memories(store: Store) -> dict[str, dict[str, Any]]:
    """The memory set the store's log replays to (session writes excluded)."""
    events = (e for e in store.log().read() if e.type != "session.written")
    return replay(events).memories


def store_state(
    target: Store | Workspace, known: Iterable[str] = (), *, ignore: frozenset[str] = frozenset()
) -> StoreState:
    """The state of a store, or of both stores of a workspace; candidate ids outside ``known`` are ``new``.

    Pending candidates that touch a memory in ``ignore`` are left out (a trial's own later proposal).
    """
    stores = [target] if isinstance(target, Store) else [target.project, target.user]
    known_ids = set(known)
    memories = sorted(
        (f"{s.scope}:{mid}", content_digest(rec)) for s in stores for mid, rec in replayed_memories(s).items()
    )
    pending = sorted(
        _pending_entry(c, known_ids) for s in stores for c in s.pending() if not set(c.memory_ids()) & ignore
    )
    sessions = sorted((sid, _session_digest(s, sid)) for s in stores for sid in _session_ids(s))
    return StoreState(tuple(memories), tuple(pending), tuple(sessions))


def _session_ids(store: Store) -> set[str]:
    return {e.session for e in store.log().read(type="session.written") if e.session}


def _session_digest(store: Store, session_id: str) -> str:
    """What a reader sees of a session (through the store's public read, rolled forward)."""
    records = {mid: memory_to_json(m) for mid, m in store.session_memories(session_id).items()}
    return content_digest(records)


def _pending_entry(candidate: Candidate, known: set[str]) -> tuple[str, str]:
    if candidate.id in known:
        return candidate.id, content_digest(candidate_to_json(candidate))
    return NEW, content_digest(candidate_to_json(candidate), anonymous=candidate.id)


# --- byte-for-byte -------------------------------------------------------------------------

Snapshot = dict[str, tuple[str, str]]
"""Relative path -> (kind, detail): ``file`` + sha256, ``dir`` + "", ``link`` + its target."""


def tree_snapshot(root: Path) -> Snapshot:
    """Every entry under ``root`` (symlinks not followed), with its content hash or link target.

    Left out: the record a clean ``verify`` keeps in the user store (``trust/<key>.verified``, ADR 0056),
    which verify writes by design: derived and machine-local, it says what was proved, never memory.
    """
    snap: Snapshot = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder, name)
            if name.endswith(VERIFIED_SUFFIX) and path.parent.name == "trust":
                continue
            snap[path.relative_to(root).as_posix()] = _entry(path)
    return snap


VERIFIED_SUFFIX = ".verified"


def _entry(path: Path) -> tuple[str, str]:
    if path.is_symlink():
        return ("link", os.readlink(path))
    if path.is_dir():
        return ("dir", "")
    return ("file", hashlib.sha256(path.read_bytes()).hexdigest())


def snapshot_diff(before: Snapshot, after: Snapshot) -> list[str]:
    """What changed between two snapshots, one line per entry (empty: identical)."""
    lines = [f"removed {p}" for p in sorted(before.keys() - after.keys())]
    lines += [f"added {p}" for p in sorted(after.keys() - before.keys())]
    lines += [f"changed {p}" for p in sorted(before.keys() & after.keys()) if before[p] != after[p]]
    return lines
