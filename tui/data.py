"""Reading the stores for the UI: a cheap change detector and an incremental candidate reader.

Everything here only reads; it runs in worker threads. Two costs shape it:

- Live refresh polls about once a second. :func:`fingerprint` is a handful of
  ``stat`` calls (log, manifest, candidate and session folders of both stores);
  every commit appends to a log, so a change anywhere changes the fingerprint.
- A queue of 10,000 pending candidates takes seconds to read and validate.
  :class:`PendingReader` reads the candidate files in chunks (so the first rows
  show at once) and remembers each file by ``(inode, size, mtime)``, so a
  refresh re-reads only the files that changed.

The live ``stale-base`` flag is the library's rule (``Workspace.list_candidates``):
a candidate is stale when a memory it changes no longer has the sha256 it was
proposed against. A test keeps this reader equal to ``list_candidates``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from memory_review.candidate import FLAG_STALE_BASE, Candidate
from memory_review.errors import MemoryReviewError, NotFoundError
from memory_review.workspace import DURABLE, CandidateState, Workspace

Stat = tuple[int, int, int] | None
CHUNK = 500


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


@dataclass
class PendingReader:
    """Reads pending candidates of both stores, re-reading only changed files between calls."""

    ws: Workspace
    _cache: dict[Path, tuple[Stat, Candidate]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    """Held by whoever iterates :meth:`chunks` (loads run in worker threads)."""

    def chunks(self, size: int = CHUNK) -> Iterator[list[Candidate]]:
        """Pending candidates, project store first, oldest first, ``size`` at a time."""
        self.problems = []
        seen: set[Path] = set()
        batch: list[Candidate] = []
        for scope in DURABLE:
            for path in self._listing(scope):
                seen.add(path)
                candidate = self._read(scope, path)
                if candidate is not None:
                    batch.append(candidate)
                if len(batch) >= size:
                    yield batch
                    batch = []
        self._cache = {p: v for p, v in self._cache.items() if p in seen}
        yield batch

    def _listing(self, scope: str) -> list[Path]:
        folder = self.ws.store(scope).candidate_dir
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
        except FileNotFoundError:
            return []
        return [folder / name for name in names]

    def _read(self, scope: str, path: Path) -> Candidate | None:
        stat = _stat(path)
        cached = self._cache.get(path)
        if cached is not None and cached[0] == stat:
            return cached[1]
        try:
            candidate = self.ws.store(scope).candidate(path.name[: -len(".json")])
        except NotFoundError:
            return None  # resolved between listing and reading
        except MemoryReviewError as exc:
            self.problems.append(Problem(str(path), exc))
            return None
        self._cache[path] = (stat, candidate)
        return candidate


def live_states(ws: Workspace, candidates: list[Candidate]) -> list[CandidateState]:
    """Candidates with their live flags (``stale-base`` added when a base no longer matches)."""
    views = {scope: ws.store(scope).view() for scope in {c.scope for c in candidates}}
    return [CandidateState(c, "pending", _flags(views[c.scope], c)) for c in candidates]


def _flags(view, candidate: Candidate) -> tuple[str, ...]:
    stale = any(view.sha256(mid) != sha for mid, sha in candidate.base.items())
    return tuple(sorted(set(candidate.flags) | ({FLAG_STALE_BASE} if stale else set())))


def stored_states(candidates: list[Candidate]) -> list[CandidateState]:
    """Candidates with the flags they were stored with (before the live check has run)."""
    return [CandidateState(c, "pending", tuple(sorted(c.flags))) for c in candidates]
