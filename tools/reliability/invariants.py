"""The six invariants of RELIABILITY.md, checked on a store (or both stores of a workspace).

:func:`check_invariants` returns every violation it finds as a line of text
(empty: all hold). It is meant to run *after recovery and the next operation*:
leftovers of a crash (temp files, unreferenced memory files) are allowed until
then, and counted as violations after. What it checks, per store:

1. ``manifest.json`` parses; each listed file exists and matches its sha256;
3. replaying ``events.jsonl`` from empty gives exactly the manifest's set, and the
   manifest's ``log_seq``/``log_head`` are the log's head, or only ``context.built`` events follow them;
4. ``EventLog.verify()`` finds no problem and no torn tail (gapless seq, chain,
   at most one terminal event per candidate — counted here a second time);
5. no temp file anywhere in the store, no unreferenced memory file, no stray
   entry, the candidate files are exactly the pending candidates, ``.lock`` exists;
   nothing was written outside the store folders (with an :class:`Outside` baseline);
6. ``verify`` passes.

Invariant 2 (before or after, never a mix) needs to know the operation; the
trials check it with :mod:`tools.reliability.state`.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memory_review.errors import MemoryReviewError
from memory_review.events import LogError
from memory_review.events.durable import is_temp_file
from memory_review.record_io import memory_from_json, memory_sha256
from memory_review.storage import EMPTY, fold_all
from memory_review.store import Store, versions_named
from memory_review.verify import verify_store
from memory_review.workspace import Workspace
from tools.reliability.state import Snapshot, replayed_memories, snapshot_diff, tree_snapshot

STORE_ENTRIES = frozenset(
    {
        "manifest.json",
        "MEMORY.md",
        "events.jsonl",
        ".lock",
        "memory",
        "candidates",
        "sessions",
        "history.git",
        "trust",
        "index",
        "backups",
    }
)
"""What a store folder may hold (``history.git``: the user store's git history, ADR 0007; ``trust``: the user
store's trust ledgers of every store, ADR 0021; ``index``: the user store's read indexes, ADR 0030;
``backups``: what a repair or a format upgrade replaced, ADR 0024/0029)."""
TERMINAL = frozenset({"candidate.applied", "candidate.discarded"})


def stores_of(target: Store | Workspace) -> list[Store]:
    """The stores to check: the store itself, or both stores of a workspace."""
    return [target] if isinstance(target, Store) else [target.project, target.user]


@dataclass(frozen=True)
class Outside:
    """Everything under a trial folder but outside its stores, as it was at the start."""

    root: Path
    stores: tuple[Path, ...]
    snapshot: Snapshot

    @classmethod
    def take(cls, root: Path, stores: list[Store]) -> Outside:
        """Record the baseline now."""
        roots = tuple(s.root for s in stores)
        return cls(root, roots, _outside_snapshot(root, roots))

    def changes(self) -> list[str]:
        """Entries written, changed or removed outside the stores since the baseline."""
        now = _outside_snapshot(self.root, self.stores)
        return [f"outside the store: {line}" for line in snapshot_diff(self.snapshot, now)]


GIT_HISTORY = (".git/objects", ".git/refs/memory-review", ".git/logs/refs/memory-review")
"""What the project store's git history may write in the project's repository (ADR 0007); HEAD, the
index, branches and everything else in ``.git`` count as outside the store."""


def _outside_snapshot(root: Path, stores: tuple[Path, ...]) -> Snapshot:
    inside = [s.relative_to(root).as_posix() for s in stores if s.is_relative_to(root)]
    inside += [f"{Path(s).parent.as_posix()}/{h}" for s in inside for h in GIT_HISTORY]
    snap = tree_snapshot(root)
    return {p: v for p, v in snap.items() if not any(p == s or p.startswith(s + "/") for s in inside)}


def check_invariants(target: Store | Workspace, *, outside: Outside | None = None) -> list[str]:
    """Every invariant violation found in ``target`` (and outside it, given a baseline); [] when all hold."""
    problems: list[str] = []
    for store in stores_of(target):
        problems += [f"{store.scope} store: {p}" for p in check_store(store)]
    if outside is not None:
        problems += outside.changes()
    return problems


def manifest_matches_files(store: Store) -> list[str]:
    """1. The manifest parses; each file it and the tail past it name exists and hashes to its sha256."""
    if store.read_manifest() is None:
        return ["manifest.json is missing after recovery"]
    manifest = store.current_manifest()  # the compacted state plus the tail (docs/adr/0029)
    problems = []
    for memory_id, entry in manifest.memories.items():
        path = store.root / entry.file
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except FileNotFoundError:
            problems.append(f"{entry.file} (memory {memory_id}) is missing")
            continue
        if digest != entry.sha256:
            problems.append(f"{entry.file} does not match its sha256 in manifest.json")
    return problems


def replay_equals_manifest(store: Store) -> list[str]:
    """3. Replaying the log from empty gives exactly the manifest's set plus its tail, at the log's head."""
    if store.read_manifest() is None:
        return []
    try:
        manifest = store.current_manifest()  # the log past the manifest must continue from it (docs/adr/0029)
    except MemoryReviewError as exc:
        return [f"the log does not continue from the manifest: {exc}"]
    problems = []
    replayed = {mid: memory_sha256(memory_from_json(rec)) for mid, rec in replayed_memories(store).items()}
    listed = {mid: entry.sha256 for mid, entry in manifest.memories.items()}
    for memory_id in sorted(replayed.keys() | listed.keys()):
        if replayed.get(memory_id) != listed.get(memory_id):
            problems.append(
                f"memory {memory_id!r}: replay says {replayed.get(memory_id, 'absent')!s:.12}, "
                f"manifest says {listed.get(memory_id, 'absent')!s:.12}"
            )
    return problems


def log_chain_holds(store: Store) -> list[str]:
    """4. Gapless seq, the prev chain, one terminal event per candidate, no torn tail."""
    log = store.log()
    report = log.verify()
    problems = [f"events.jsonl: {p}" for p in report.problems]
    if report.torn_tail is not None:
        problems.append(f"events.jsonl has a torn tail of {report.torn_tail.length} bytes after recovery")
    if report.problems:
        return problems  # a damaged chain cannot be read as events; verify's lines say it all
    return problems + _twice_resolved(log.read())


def _twice_resolved(events) -> list[str]:
    """Candidates resolved again without a ``candidate.restored`` in between (docs/adr/0032)."""
    resolved: set[str] = set()
    twice: Counter[str] = Counter()
    for event in events:
        if event.type == "candidate.restored":
            resolved.discard(event.candidate)
        elif event.type in TERMINAL:
            if event.candidate in resolved:
                twice[event.candidate] += 1
            resolved.add(event.candidate)
    return [f"candidate {cid} has {n + 1} terminal events" for cid, n in twice.items()]


def no_leftovers(store: Store) -> list[str]:
    """5. No temp files, unreferenced memory files or stray entries; candidate files == pending."""
    problems = [f"temp file left: {p}" for p in _temp_files(store.root)]
    problems += [f"stray entry in the store: {n}" for n in sorted(set(os.listdir(store.root)) - STORE_ENTRIES)]
    if not store.lock_path.exists():
        problems.append(".lock was deleted")
    keep = _named_files(store)
    problems += [f"unreferenced memory file: memory/{n}" for n in sorted(_names(store.memory_dir) - keep)]
    pending = fold_all(EMPTY, store.log().read()).pending()
    have = {n.removesuffix(".json") for n in _names(store.candidate_dir)}
    want = {c.id for c in pending}
    problems += [f"candidate file without a pending candidate: {c}" for c in sorted(have - want)]
    problems += [f"pending candidate without its file: {c}" for c in sorted(want - have)]
    return problems


def _named_files(store: Store) -> set[str]:
    """Memory file names the manifest or a tail event names (docs/adr/0029: the rest go at compaction)."""
    manifest = store.read_manifest()
    if manifest is None:
        return set()
    return {Path(e.file).name for e in manifest.memories.values()} | versions_named(store.past_checkpoint(manifest)[1])


def verify_passes(store: Store) -> list[str]:
    """6. ``verify`` (which recovers first) reports nothing."""
    return [f"verify: {p}" for p in verify_store(store).problems]


def _temp_files(root: Path) -> list[str]:
    found = []
    for folder, _dirs, files in os.walk(root):
        found += [Path(folder, n).relative_to(root).as_posix() for n in files if is_temp_file(n)]
    return sorted(found)


def _names(folder: Path) -> set[str]:
    try:
        return set(os.listdir(folder))
    except FileNotFoundError:
        return set()


CHECKS: tuple[Callable[[Store], list[str]], ...] = (
    manifest_matches_files,
    replay_equals_manifest,
    log_chain_holds,
    no_leftovers,
    verify_passes,
)
"""The per-store checks, in the order of RELIABILITY.md."""


def check_store(store: Store) -> list[str]:
    """The invariants of one store; a check that cannot even run is itself a violation."""
    if not store.exists():
        return []
    problems: list[str] = []
    for check in CHECKS:
        try:
            problems += check(store)
        except (MemoryReviewError, LogError, OSError) as exc:
            problems.append(f"{check.__name__}: {type(exc).__name__}: {exc}")
    return problems
