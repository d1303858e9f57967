"""The session tier: ``sessions/<session-id>.json`` under the project store.

Session memory is written directly by the agent's API (it is not durable and
needs no review), but every write is still a ``session.written`` event in the
project log, so a session's context can be rebuilt exactly later. The files are
derived from those events, like the manifest: a crash between the event and the
file is repaired by rolling forward.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import ValidationError as PydanticValidationError

from events import Event
from events.durable import atomic_replace

from memory_review.errors import IntegrityError, StorageError
from memory_review.ids import check_session_id, safe_child
from memory_review.models import Memory, Strict
from memory_review.record_io import memory_from_json, memory_to_json

MAX_SESSION_FILE_BYTES = 4 * 1024 * 1024


class SessionFile(Strict):
    """The memories one session wrote for itself."""

    version: Literal[1] = 1
    session_id: str
    memories: dict[str, dict[str, Any]] = {}


class SessionFiles:
    """The ``sessions/`` folder of a project store."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, session_id: str) -> Path:
        return safe_child(self.root, f"{check_session_id(session_id)}.json")

    def ids(self) -> list[str]:
        """Sessions that have session memory on disk."""
        try:
            names = os.listdir(self.root)
        except FileNotFoundError:
            return []
        return sorted(n[: -len(".json")] for n in names if n.endswith(".json"))

    def read(self, session_id: str) -> dict[str, Memory]:
        """The session's memories by id; a damaged file is an IntegrityError naming it."""
        path = self.path(session_id)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise StorageError(f"{path}: {exc.strerror}", path=path, errno=exc.errno) from exc
        doc = _decode(data, path)
        return {mid: memory_from_json(rec, where=f"{path}:{mid}") for mid, rec in doc.memories.items()}

    def roll_forward(self, events: Iterable[Event]) -> None:
        """Bring each touched session file up to date with its ``session.written`` events."""
        by_session: dict[str, list[Event]] = defaultdict(list)
        for event in events:
            if event.type == "session.written" and event.session:
                by_session[event.session].append(event)
        for session_id, written in by_session.items():
            self._apply(session_id, written)

    def _apply(self, session_id: str, written: list[Event]) -> None:
        memories = {mid: memory_to_json(m) for mid, m in self.read(session_id).items()}
        for event in written:
            for change in event.changes or ():
                if change.after is None:
                    memories.pop(change.memory, None)
                else:
                    memories[change.memory] = change.after
        doc = SessionFile(session_id=session_id, memories=dict(sorted(memories.items())))
        self.root.mkdir(parents=True, exist_ok=True)
        data = orjson.dumps(doc.model_dump(mode="json"), option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)
        try:
            atomic_replace(self.path(session_id), data + b"\n")
        except OSError as exc:
            raise StorageError(f"{self.path(session_id)}: {exc.strerror}", errno=exc.errno) from exc


def _decode(data: bytes, path: Path) -> SessionFile:
    if len(data) > MAX_SESSION_FILE_BYTES:
        raise IntegrityError("session file is implausibly large", path=path)
    try:
        return SessionFile.model_validate(orjson.loads(data))
    except (orjson.JSONDecodeError, PydanticValidationError) as exc:
        raise IntegrityError(f"damaged session file: {exc}", path=path,
                             hint="run `memory-review verify --repair` to rebuild it from the log") from exc
