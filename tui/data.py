"""Reading the stores for the UI: a cheap change detector and an incremental candidate reader.

Everything here only reads; it runs in worker threads. Two costs shape it:

- Live refresh polls about once a second. :func:`fingerprint` is a handful of
  ``stat`` calls (log, manifest, candidate and session folders of both stores);
  every commit appends to a log, so a change anywhere changes the fingerprint.
- A queue of 10,000 pending candidates takes about a second to read and
  validate. :class:`PendingReader` reads the candidate files in chunks (so the
  first rows show at once) and remembers each file by ``(inode, size, mtime)``,
  so a refresh re-reads only the files that changed. A pass runs inside
  :meth:`PendingReader.reading`, a bulk read (:mod:`tui.bulk`).

The reader gives what ``Workspace.list_candidates`` gives (a test keeps the two
equal). It reads candidate files itself only while a store is at rest — its
manifest is at the log's head — and then takes the live ``stale-base`` flag
from the manifest's hashes, the library's own rule. A store whose log has moved
past its manifest (a writer died after its commit point) is left to the
library, which rolls it forward.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from events import LogError
from memory_review.candidate import FLAG_STALE_BASE, Candidate
from memory_review.errors import MemoryReviewError, NotFoundError
from memory_review.workspace import DURABLE, CandidateState, Workspace
from tui.bulk import bulk_read
from tui.foreign import foreign_states

Stat = tuple[int, int, int] | None
CHUNK = 500
FIRST_CHUNK = 100  # a screenful and then some: the first rows show before the next files are read


def _stat(path: Path) -> Stat:
    try:
        st = os.stat(path)
    except OSError:  # missing (store not created yet) or unreadable: "absent" is a state too
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def watched_paths(ws: Workspace) -> list[Path]:
    """What a change to either store touches: its log, manifest, candidate and session folders."""
    paths = []
    for scope in DURABLE:
        store = ws.store(scope)
        paths += [store.log_path, store.manifest_path, store.candidate_dir, store.sessions.root]
    return paths


def fingerprint(ws: Workspace) -> tuple[Stat, ...]:
    """A value that changes whenever either store changes (a few stat calls)."""
    return tuple(_stat(path) for path in watched_paths(ws))


@dataclass
class Problem:
    """A file the reader could not use, with what the library said about it."""

    path: str
    error: MemoryReviewError


def live_flags(candidate: Candidate, hashes: dict[str, str]) -> tuple[str, ...]:
    """The candidate's flags, plus ``stale-base`` if a memory it changes has moved on."""
    stale = any(hashes.get(mid) != sha for mid, sha in candidate.base.items())
    return tuple(sorted(set(candidate.flags) | ({FLAG_STALE_BASE} if stale else set())))


@dataclass
class PendingReader:
    """Reads pending candidates of both stores, re-reading only changed files between calls."""

    ws: Workspace
    _cache: dict[Path, tuple[Stat, Candidate]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    decoded: int = 0
    """Files decoded (not taken from the cache) by the last pass."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    """Held by whoever iterates :meth:`chunks` (loads run in worker threads); see :meth:`reading`."""

    @contextmanager
    def reading(self) -> Iterator[PendingReader]:
        """Hold the reader for a pass of :meth:`chunks`, as a bulk read (:mod:`tui.bulk`)."""
        with self.lock, bulk_read() as read:
            yield self
            read.kept = self.decoded  # new this pass; cached ones were counted when they were read

    def chunks(self, size: int = CHUNK) -> Iterator[list[CandidateState]]:
        """Pending candidates with live flags: project store, then user; oldest first; in chunks
        of ``size`` (the first one at most :data:`FIRST_CHUNK`)."""
        self.problems = []
        self.decoded = 0
        seen: set[Path] = set()
        batch: list[CandidateState] = []
        limit = min(size, FIRST_CHUNK)
        for scope in DURABLE:
            hashes = self._hashes_at_rest(scope)
            if hashes is None:
                batch.extend(
                    self.ws.list_candidates(scope=scope)
                )  # mid-recovery: the library rolls forward
                continue
            for path in self._listing(scope):
                seen.add(path)
                candidate = self._read(scope, path)
                if candidate is not None:
                    batch.append(
                        CandidateState(candidate, "pending", live_flags(candidate, hashes))
                    )
                if len(batch) >= limit:
                    yield batch
                    batch, limit = [], size
        self._cache = {p: v for p, v in self._cache.items() if p in seen}
        batch.extend(foreign_states(self.ws))  # memories no one here approved, to trust or refuse (ADR 0021)
        yield batch

    def _hashes_at_rest(self, scope: str) -> dict[str, str] | None:
        """The manifest's hashes if the store is at rest (manifest at the log head), else None."""
        store = self.ws.store(scope)
        manifest = store.read_manifest()
        try:
            head = store.log().head()
        except LogError:
            return None  # the library reads it again and reports the damage in its own words
        if manifest is None:
            return {} if head.seq == 0 else None
        try:
            if not store.at_rest(manifest):  # context builds past the manifest change nothing (ADR 0023)
                return None
        except MemoryReviewError:
            return None  # the library reads it again and reports the damage in its own words
        return {mid: entry.sha256 for mid, entry in manifest.memories.items()}

    def _listing(self, scope: str) -> list[Path]:
        folder = self.ws.store(scope).candidate_dir
        try:
            names = sorted(
                n for n in os.listdir(folder) if n.endswith(".json") and not n.startswith(".")
            )
        except FileNotFoundError:
            return []
        return [folder / name for name in names]

    def _read(self, scope: str, path: Path) -> Candidate | None:
        stat = _stat(path)
        cached = self._cache.get(path)
        if cached is not None and cached[0] == stat:
            return cached[1]
        try:
            candidate = self.ws.store(scope).candidate_file(path.name[: -len(".json")])
        except NotFoundError:
            candidate = None  # resolved since the listing
        except MemoryReviewError as exc:
            self.problems.append(Problem(str(path), exc))
            return None
        if candidate is not None:
            self.decoded += 1
            self._cache[path] = (stat, candidate)
        return candidate
