"""Keeping each store's read index (ADR 0030): written by the commit path, checked by ``verify``.

The format and the reader are :mod:`memory_review.lean.index`; the per-prompt hook reads it without
the core. This module makes it from the full validating path's own view, so what the index says is
what the full path would show: every memory read and checked from its file, hashed as the manifest
hashes it, rendered by the one renderer (``render_frame``) and its terms listed for ranking.

A commit (under the store lock) that finds the index current for the view it is committing on
appends one delta line with the memories it changed: O(change). Past :data:`COMPACT_AFTER` deltas
the base is rewritten from what the index already holds (no memory file is read). An index that is
missing, stale or damaged when a commit comes is rebuilt from the store (O(store), once). The index
is derived: losing it costs speed, never correctness, and nothing reads it as memory.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from pathlib import Path

import orjson

from memory_review.errors import IntegrityError, StorageError
from memory_review.events import LogHead
from memory_review.events.durable import atomic_replace, remove_temp_files
from memory_review.events.safe_fs import append_fd, unlink
from memory_review.injection.render import render_frame
from memory_review.lean import index as layout
from memory_review.lean.files import Fallback, fingerprint, real_dir
from memory_review.lean.index import Entry, IndexState
from memory_review.lean.logtail import head_past
from memory_review.lean.rank import term_list
from memory_review.models import Memory
from memory_review.record_io import memory_sha256
from memory_review.storage import EMPTY, fold_all
from memory_review.store import Store
from memory_review.store_view import StoreView

COMPACT_AFTER = 64
"""Delta lines a reader folds at most before a commit rewrites the base (as the checkpoint's tail)."""
GITIGNORE = b"# memory-review's read index: derived, machine-local, never shared\n*\n"


def entry_digest(entry: Entry) -> str:
    """A read index entry's identity (16 bytes, hex): what an incremental verify recorded it checked."""
    return hashlib.blake2b(orjson.dumps(entry), digest_size=16).hexdigest()


def entry_of(memory: Memory, sha256: str) -> Entry:
    """One memory as the index holds it: what ordering, selection, the gate and the block need."""
    terms, length = term_list(memory.id, memory.description, memory.body)
    return [memory.id, memory.type, memory.updated_at, sha256, render_frame(memory, None), terms, length]


class ReadIndex:
    """The read indexes of every store, under ``<user store>/index/`` (outside every repository)."""

    def __init__(self, user_dir: Path) -> None:
        self.user_dir = user_dir
        self.folder = user_dir / layout.INDEX_DIR

    def path(self, store: Store) -> Path:
        return layout.index_path(self.user_dir, store.root)

    def current(self, store: Store, view: StoreView) -> IndexState | None:
        """The index, if it says exactly what ``view`` shows (same manifest file, nothing but context
        builds in the log since it was made); None when it is missing, stale or damaged."""
        return self._current_at(store, view.head)

    def _current_at(self, store: Store, at: LogHead) -> IndexState | None:
        try:
            state = layout.load(self.user_dir, store.root, store.scope)
        except (Fallback, OSError):
            return None
        return state if state is not None and _describes(store, state, at) else None

    def rebuild(self, store: Store) -> IndexState | None:
        """Make the index from the store as the full path reads it (call under the store lock)."""
        manifest = store.read_manifest()
        if manifest is None:
            return None
        head, events = store.past_checkpoint(manifest)
        folded = fold_all(EMPTY, events)
        view = StoreView(store, manifest, head, dict(folded.memories), locked=True)
        state = IndexState(
            layout.store_key(store.root)[0],
            store.scope,
            manifest.origin,
            (head.seq, head.hash),
            fingerprint(store.manifest_path),
            set(manifest.sessions or {}) | set(folded.sessions),
        )
        for memory_id in view.ids():
            memory = view.memory(memory_id)
            if memory is not None:
                state.entries[memory_id] = entry_of(memory, view.sha256(memory_id) or memory_sha256(memory))
        self._replace(store, state)
        return state

    def after_commit(
        self, store: Store, before: IndexState | None, changed: dict[str, Memory | None], sessions: set[str]
    ) -> None:
        """Bring the index past a commit (under the store lock): a delta line, or a rebuild."""
        if before is None:
            self.rebuild(store)
            return
        with_head = store.log().head()
        moved_from = before.at
        before.at, before.manifest = (with_head.seq, with_head.hash), fingerprint(store.manifest_path)
        before.sessions |= sessions
        put = [entry_of(memory, memory_sha256(memory)) for memory in changed.values() if memory is not None]
        deleted = sorted(memory_id for memory_id, memory in changed.items() if memory is None)
        for memory_id in deleted:
            before.entries.pop(memory_id, None)
        before.entries.update((entry[layout.ID], entry) for entry in put)
        self._move(store, before, moved_from, put, deleted)

    def before_compaction(self, store: Store, head: LogHead) -> IndexState | None:
        """The index, if it describes the store at ``head``: a compaction keeps that set (Store's observer)."""
        return self._current_at(store, head)

    def after_compaction(self, store: Store, before: IndexState) -> None:
        """The same set under the new manifest file: a delta line that only moves the fingerprint.

        Without it every compaction (each 64 events, a dead writer's, ``compact()``) left the index
        stale: prompts took the full path and the next commit rebuilt it, O(store).
        """
        before.manifest = fingerprint(store.manifest_path)
        self._move(store, before, before.at, [], [])

    def _move(
        self, store: Store, state: IndexState, moved_from: tuple[int, str], put: list[Entry], deleted: list[str]
    ) -> None:
        """``state`` (already holding the change) onto disk: one delta line, or the base past the threshold."""
        if state.deltas + 1 > COMPACT_AFTER:
            self._replace(store, state)
        else:
            self._append(store, layout.delta_bytes(moved_from, state, put, deleted))
            state.deltas += 1

    def problems(
        self,
        store: Store,
        known: Mapping[str, Memory] | None = None,
        *,
        checked: Mapping[str, tuple[str, str]] | None = None,
        digests: dict[str, tuple[str, str]] | None = None,
    ) -> list[str]:
        """What ``verify`` says of the index: only an index that claims to be current and is not.

        ``known``: memories by sha256 that verify has just proved are the contents of their files
        (``verify_store``); a version found there is not read and parsed again. ``checked``: memory id ->
        (sha256 of a version, :func:`entry_digest` of its entry) that an earlier clean verify found equal
        (docs/adr/0056): an entry of that version with that digest is the one the memory makes, and is
        not made again. ``digests`` receives the same for every entry of an index found current and equal.
        """
        try:
            state = layout.load(self.user_dir, store.root, store.scope)
        except layout.OtherVersion:
            return []  # an older format: stale, like a missing index; the next commit remakes it
        except Fallback as exc:
            return [f"{self.path(store)}: damaged read index ({exc}); `verify --repair --apply` rebuilds it"]
        if state is None:
            return []  # missing: the next commit (or `verify --repair --apply`) builds it

        def differs(view: StoreView) -> list[str]:
            if not _describes(store, state, view.head):  # the index just loaded, not a second load of it
                return []  # stale: the next commit (or `verify --repair --apply`) rebuilds it
            want, made = {}, {}
            for memory_id in view.ids():
                sha256 = view.sha256(memory_id)
                have, earlier = state.entries.get(memory_id), (checked or {}).get(memory_id, ("", ""))
                # An entry with the digest of the one this version made when checked: it is that entry.
                if have is not None and earlier[0] == sha256 and entry_digest(have) == earlier[1]:
                    want[memory_id], made[memory_id] = have, earlier
                    continue
                memory = (known or {}).get(sha256 or "") or view.memory(memory_id)
                if memory is not None:
                    want[memory_id] = entry = entry_of(memory, sha256 or memory_sha256(memory))
                    made[memory_id] = (sha256 or memory_sha256(memory), entry_digest(entry))
            if want == state.entries:
                if digests is not None:
                    digests.update(made)
                return []
            wrong = sorted(set(want) ^ set(state.entries) | {i for i in want if want[i] != state.entries.get(i)})
            return [
                f"{self.path(store)}: the read index differs from the store for {wrong[:5]} "
                "(derived; `verify --repair --apply` rebuilds it)"
            ]

        return store.read_consistently(differs)

    def collect(self, store: Store) -> None:
        """Remove the temp files a crashed write of ``store``'s index left (call under its lock: no live
        writer of that index). The folder holds every store's index, so only this one's temps go, and the
        ``.gitignore``'s once it is in place (nobody writes it then)."""
        gitignore = (".gitignore",) if os.path.lexists(self.folder / ".gitignore") else ()
        remove_temp_files(self.folder, (self.path(store).name, *gitignore))

    def remove(self, store: Store) -> None:
        """Take the store's index away (readers then take the full path until the next rebuild)."""
        unlink(self.path(store))

    # --- files --------------------------------------------------------------------------------

    def _ensure_folder(self) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(
                f"cannot create {self.folder}: {exc.strerror or exc}", path=self.folder, errno=exc.errno
            ) from exc
        if not real_dir(self.folder):
            raise IntegrityError("is not a real directory; the read index is kept only in one", path=self.folder)
        ignore = self.folder / ".gitignore"
        if not os.path.lexists(ignore):
            atomic_replace(ignore, GITIGNORE, sync_dir=False)

    def _replace(self, store: Store, state: IndexState) -> None:
        self._ensure_folder()
        state.deltas = 0
        # Derived state: no fsync of the folder (a lost rename is an older index, which readers check).
        atomic_replace(self.path(store), layout.base_bytes(state), sync_dir=False)

    def _append(self, store: Store, line: bytes) -> None:
        # No fsync either: a delta lost in a crash leaves an index a reader finds stale, never wrong.
        fd = append_fd(self.path(store))
        try:
            view = memoryview(line)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)


def _describes(store: Store, state: IndexState, at: LogHead) -> bool:
    """Whether ``state`` says what the store shows at ``at``: made from this manifest file, and nothing but
    context builds in the log since."""
    try:
        if fingerprint(store.manifest_path) != state.manifest:
            return False
        return head_past(store.log_path, state.at) == (at.seq, at.hash)
    except (Fallback, OSError):
        return False


INLINE_REBUILD_MANIFEST_BYTES = 1 << 20
"""A prompt that found an index stale rebuilds it at once only below this manifest size (~3,000 memories,
a few hundred ms): Claude Code waits for the hook to exit. Bigger stores wait for their next commit."""


def reindex_small_stores(root: Path, user_dir: Path, *, lock_timeout: float) -> None:
    """Rebuild each stale index of the project at ``root`` whose store is small (the hook, after answering)."""
    from memory_review.errors import MemoryReviewError
    from memory_review.workspace import Workspace

    ws = Workspace(root, user_dir, lock_timeout=lock_timeout)
    for store in (ws.store("user"), ws.store("project")):
        try:
            size = (fingerprint(store.manifest_path) or [0, 0])[1]
            if not store.exists() or size > INLINE_REBUILD_MANIFEST_BYTES:
                continue
            with store.locked():
                if ws.read_index.current(store, store.view(load=False)) is None:
                    ws.read_index.rebuild(store)
        except (MemoryReviewError, OSError, Fallback):
            continue  # derived state: the full path answered, and the next commit tries again
