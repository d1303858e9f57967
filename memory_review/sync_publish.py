"""What ``sync`` pushes: the reviewed part of a store's history, checked again on the way out (ADR 0018).

The local history (``refs/memory-review/<scope>``) keeps the whole log: proposals,
discarded candidates, context builds and session notes are this machine's record.
What leaves the machine is a *publication* of it, its own chain of commits pushed to
``refs/memory-review/replicas/<scope>/<origin>``: the same ``manifest.json``,
``MEMORY.md`` and ``memory/`` (approved memory only), and an ``events.jsonl`` holding
only what a person reviewed, byte for byte —

- applies, reverts, deletes and sync merges (what teammates merge),
- the ``candidate.created`` / ``candidate.edited`` records of the candidates applied,
- the discards of sync conflict candidates ("keep mine" is a version in the merge rules),
- with ``share_pending``, the records of candidates still pending, and nothing else.

Every other run of events becomes one gap line naming its seq range and the hash of
its last line, so the chain stays verifiable and every kept line keeps its hash (the
merge rules name versions by line hashes). A publication never has the local history
as a parent, so a push carries none of its objects.

On the way out every kept line is scanned for secrets (defence in depth: they were
redacted when written). A pending record that holds one becomes a gap; a reviewed line
that holds one withholds the whole push until it is forgotten, since leaving it out
would make teammates refuse the log (an apply of a candidate never proposed).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from events import TERMINAL_TYPES, Event, decode_event, line_hash

from memory_review.gitrepo import GitRepo, RefTip, TreeEntry
from memory_review.history import git_date
from memory_review.safety import find_secrets
from memory_review.sync_replicas import gap_line

PUBLISHED_TRAILER = "Memory-Review-Published"
REVIEWED_TYPES = frozenset({"candidate.applied", "memory.reverted", "memory.deleted", "sync.merged"})
_RECORD_TYPES = frozenset({"candidate.created", "candidate.edited"})


@dataclass(frozen=True)
class Publication:
    """What to push: a commit (None: nothing new, or withheld), and what to tell the person."""

    commit: str | None
    warnings: tuple[str, ...] = ()


def publication(repo: GitRepo, tip: RefTip, previous: RefTip | None, *, scope: str, origin: str,
                share_pending: bool) -> Publication:
    """The publication of history commit ``tip``, on top of ``previous`` (what the remote holds now)."""
    where = f"{tip.commit[:12]}:events.jsonl"
    lines: list[bytes] = []
    if repo.blob_size(tip.commit, "events.jsonl") is not None:  # a store with no events has no log yet
        with repo.stream_blob(tip.commit, "events.jsonl") as stream:
            lines = list(stream)
    events = [decode_event(line, path=where, line_no=n) for n, line in enumerate(lines, 1)]
    log, warnings, withheld = published_log(events, lines, share_pending=share_pending)
    if withheld:
        return Publication(None, (*warnings, withheld))
    tree = _tree(repo, tip.commit, repo.hash_bytes(log))
    if previous is not None and repo.tree_of(previous.commit) == tree:
        return Publication(None, tuple(warnings))
    parents = [previous.commit] if previous is not None and _is_publication(previous) else []
    message = _message(scope, origin, events, lines, share_pending=share_pending)
    when = git_date(events[-1].ts if events else None)
    return Publication(repo.commit_tree(tree, parents, message, when=when), tuple(warnings))


def published_log(events: list[Event], lines: list[bytes], *,
                  share_pending: bool) -> tuple[bytes, list[str], str | None]:
    """The published ``events.jsonl``, warnings, and why nothing may be pushed (None: it may)."""
    chosen = _chosen(events, share_pending=share_pending)
    out: list[bytes] = []
    warnings: list[str] = []
    left_out: list[tuple[Event, bytes]] = []
    for event, line in zip(events, lines):
        kind = chosen.get(event.seq)
        secrets = _secret_kinds(line) if kind else []
        if secrets and kind == "reviewed":
            return b"", warnings, (f"event {event.seq} ({event.type}) holds what looks like a secret "
                                   f"({', '.join(secrets)}): nothing was pushed; forget it, then sync again")
        if secrets:
            warnings.append(f"pending candidate {event.candidate} (event {event.seq}) holds what looks like a "
                            f"secret ({', '.join(secrets)}): not shared")
            kind = None
        if kind is None:
            left_out.append((event, line))
            continue
        out += _gap(left_out)
        left_out = []
        out.append(line)
    return b"".join(out + _gap(left_out)), warnings, None


def _chosen(events: list[Event], *, share_pending: bool) -> dict[int, str]:
    """seq -> ``reviewed`` or ``pending`` for each event that travels."""
    applied = {e.candidate for e in events if e.type == "candidate.applied"}
    resolved = {e.candidate for e in events if e.type in TERMINAL_TYPES}
    conflicts = {c.get("candidate") for e in events if e.type == "sync.merged" and e.sync
                 for c in e.sync.get("conflicts") or () if isinstance(c, dict)}
    chosen = {}
    for event in events:
        if event.type in REVIEWED_TYPES or (event.type in _RECORD_TYPES and event.candidate in applied) or (
                event.type == "candidate.discarded" and event.candidate in conflicts):
            chosen[event.seq] = "reviewed"
        elif share_pending and event.type in _RECORD_TYPES and event.candidate not in resolved:
            chosen[event.seq] = "pending"
    return chosen


def _gap(left_out: list[tuple[Event, bytes]]) -> list[bytes]:
    if not left_out:
        return []
    last, line = left_out[-1]
    return [gap_line(left_out[0][0].seq, last.seq, line_hash(line), more=bool(last.more))]


def _secret_kinds(line: bytes) -> list[str]:
    """The kinds of secret in a line's string values, decoded (JSON escapes undone).

    The values are joined by NUL, which no pattern reads across: a field ``key`` followed
    by a hash is not a "key <token>".
    """
    text = "\0".join(_strings(orjson.loads(line)))
    return sorted({match.kind for match in find_secrets(text)})


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _tree(repo: GitRepo, commit: str, log_blob: str) -> str:
    entries = [TreeEntry(e.mode, e.kind, log_blob, e.name) if e.name == "events.jsonl" else e
               for e in repo.tree_entries(commit)]
    return repo.make_tree(entries)


def _is_publication(tip: RefTip) -> bool:
    return f"\n{PUBLISHED_TRAILER}: " in f"\n{tip.message}"


def _message(scope: str, origin: str, events: list[Event], lines: list[bytes], *, share_pending: bool) -> str:
    seq = events[-1].seq if events else 0
    head = line_hash(lines[-1]) if lines else "0" * 64
    shares = "reviewed+pending" if share_pending else "reviewed"
    what = ("reviewed events and pending proposals" if share_pending else
            "reviewed events only: applies with the candidates they approved, reverts, deletes, sync merges")
    return (f"memory-review ({scope}): what this clone shares, up to seq {seq}\n\n"
            f"Shares {what}; everything else is a gap line (docs/adr/0018).\n\n"
            f"Memory-Review-Store: {scope}\nMemory-Review-Origin: {origin}\nMemory-Review-Seq: {seq}\n"
            f"Memory-Review-Log-Head: {head}\n{PUBLISHED_TRAILER}: {shares}\n")
