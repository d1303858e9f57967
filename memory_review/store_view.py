"""A lock-free view of a store's current set: the manifest, plus what the log has past it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memory_review.errors import IntegrityError
from memory_review.events import LogHead
from memory_review.manifest import Manifest, ManifestEntry
from memory_review.models import Memory
from memory_review.record_io import memory_sha256

if TYPE_CHECKING:
    from memory_review.store import Store


class StoreView:
    """The store's current set as the manifest (plus any roll-forward) says; files load lazily."""

    def __init__(
        self,
        store: Store,
        manifest: Manifest,
        head: LogHead,
        overlay: dict[str, Memory | None] | None = None,
        *,
        locked: bool = False,
    ) -> None:
        self.store = store
        self.scope = store.scope
        self.manifest = manifest
        self.head = head
        self._overlay = overlay or {}
        self._cache: dict[str, Memory] = {}
        self._locked = locked
        self._only: list[str] | None = None  # set by only(): the ids this view shows

    def ids(self) -> list[str]:
        if self._only is not None:
            return list(self._only)
        ids = set(self.manifest.memories) | {k for k, v in self._overlay.items() if v}
        return sorted(i for i in ids if not (i in self._overlay and self._overlay[i] is None))

    def only(self, ids: list[str]) -> StoreView:
        """The same view listing only ``ids`` (sorted, each one of :meth:`ids`): the trust gate (ADR 0021)."""
        narrowed = StoreView(self.store, self.manifest, self.head, self._overlay, locked=self._locked)
        narrowed._cache = self._cache
        narrowed._only = list(ids)
        return narrowed

    def memory(self, memory_id: str) -> Memory | None:
        if memory_id in self._overlay:
            return self._overlay[memory_id]
        entry = self.manifest.memories.get(memory_id)
        if entry is None:
            return None
        if memory_id not in self._cache:
            try:
                self._cache[memory_id] = self.store.read_memory(memory_id, entry)
            except FileMovedUnderUs as exc:
                if not self._locked:
                    raise  # a lock-free reader raced a writer's garbage collection: view() retries
                raise missing_file_error(exc) from exc  # under the lock nothing moves: the file is gone
        return self._cache[memory_id]

    def sha256(self, memory_id: str) -> str | None:
        if memory_id in self._overlay:
            current = self._overlay[memory_id]
            return memory_sha256(current) if current else None
        entry = self.manifest.memories.get(memory_id)
        return entry.sha256 if entry else None

    def memories(self) -> list[Memory]:
        return [m for m in (self.memory(i) for i in self.ids()) if m is not None]

    def body(self, memory_id: str) -> str:
        """A memory's body; from its file's bytes without a parse where the manifest lists it."""
        entry = self.listed_entry(memory_id)
        if entry is None or memory_id in self._cache:
            memory = self.memory(memory_id)
            return memory.body if memory is not None else ""
        return self.store.memory_body(memory_id, entry)

    def listed_entry(self, memory_id: str) -> ManifestEntry | None:
        """The manifest entry of a memory when it lists the current version (type, description, updated_at)."""
        if memory_id in self._overlay:
            return None  # rolled forward past the manifest: only the overlay knows this version
        entry = self.manifest.memories.get(memory_id)
        return entry if entry is not None and entry.listed else None


class FileMovedUnderUs(Exception):
    """A memory file vanished between reading the manifest and reading the file."""


def missing_file_error(exc: FileMovedUnderUs) -> IntegrityError:
    # Five reads in a row found the manifest naming a file that is not there: not a race, damage.
    return IntegrityError(
        "listed in manifest.json but missing",
        path=exc.args[0],
        hint="run `memory-review verify --repair --apply` to restore it from the event log",
    )
