"""Reading the pending queue again and again, cheaply: candidate files remembered by ``(inode, size, mtime)``.

A review UI re-reads the queue whenever a store changes. A queue of 10,000
pending candidates takes about a second to read and validate, so
:class:`PendingFiles` reads candidate files in chunks (the first rows show at
once) and keeps each parsed file until its stat changes: a refresh re-reads only
the files that changed. It gives what ``Workspace.list_candidates`` gives (a test
keeps the two equal), with the live ``stale-base`` flag from the store's view,
the library's one rule (:func:`memory_review.candidate.live_flags`). A store
whose view cannot be read is left to ``list_candidates``, which reports the
damage in its own words.

The object comes from :meth:`Workspace.pending_files`; the stores stay behind it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from memory_review.candidate import Candidate, CandidateState, live_flags
from memory_review.errors import MemoryReviewError, NotFoundError
from memory_review.models import OTHER_SCOPE, DurableScope

if TYPE_CHECKING:
    from memory_review.store import Store

Stat = tuple[int, int, int] | None
CHUNK = 500
FIRST_CHUNK = 100  # a screenful and then some: the first rows show before the next files are read


def stat_of(path: Path) -> Stat:
    """``(inode, size, mtime_ns)`` of ``path``, or ``None`` when it is missing or unreadable."""
    try:
        st = os.stat(path)
    except OSError:  # missing (store not created yet) or unreadable: "absent" is a state too
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


@dataclass
class Problem:
    """A file the reader could not use, with what the library said about it."""

    path: str
    error: MemoryReviewError


@dataclass
class PendingFiles:
    """Pending candidates of the given stores, re-reading only changed files between passes."""

    stores: Sequence[Store]
    listed: Callable[[DurableScope], list[CandidateState]]
    """The library's own listing of one scope, for a store this reader cannot read itself."""
    _cache: dict[Path, tuple[Stat, Candidate]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    decoded: int = 0
    """Files decoded (not taken from the cache) by the last pass."""

    def chunks(
        self, size: int = CHUNK, *, then: Callable[[], Sequence[CandidateState]] = list
    ) -> Iterator[list[CandidateState]]:
        """Pending candidates with live flags, store by store, oldest first, in chunks of ``size``
        (the first one at most :data:`FIRST_CHUNK`); the last chunk, which may be empty, ends with
        what ``then`` gives."""
        self.problems = []
        self.decoded = 0
        seen: set[Path] = set()
        batch: list[CandidateState] = []
        limit = min(size, FIRST_CHUNK)
        hashes = {store.scope: self._hashes(store) for store in self.stores if store.exists()}
        for store in self.stores:
            if not store.exists():
                continue  # created later, perhaps: asked again on the next pass
            sha256_of = hashes[store.scope]
            other_scope = OTHER_SCOPE[store.scope]
            other = hashes.get(other_scope)  # for the tier flags (``candidate.tier_flags``); absent: none
            if sha256_of is None or (other is None and other_scope in hashes):
                batch.extend(self.listed(store.scope))
                continue
            for path in _listing(store.candidate_dir):
                seen.add(path)
                candidate = self._read(store, path)
                if candidate is not None:
                    batch.append(CandidateState(candidate, "pending", live_flags(candidate, sha256_of, other)))
                if len(batch) >= limit:
                    yield batch
                    batch, limit = [], size
        self._cache = {p: v for p, v in self._cache.items() if p in seen}
        yield [*batch, *then()]

    @staticmethod
    def _hashes(store: Store) -> Callable[[str], str | None] | None:
        try:
            return store.view(load=False).sha256  # hashes only: no memory file is read
        except MemoryReviewError:
            return None

    def _read(self, store: Store, path: Path) -> Candidate | None:
        stat = stat_of(path)
        cached = self._cache.get(path)
        if cached is not None and cached[0] == stat:
            return cached[1]
        try:
            candidate = store.candidate_file(path.name[: -len(".json")])
        except NotFoundError:
            return None  # resolved since the listing
        except MemoryReviewError as exc:
            self.problems.append(Problem(str(path), exc))
            return None
        self.decoded += 1
        self._cache[path] = (stat, candidate)
        return candidate


def _listing(folder: Path) -> list[Path]:
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".json") and not n.startswith("."))
    except FileNotFoundError:
        return []
    return [folder / name for name in names]
