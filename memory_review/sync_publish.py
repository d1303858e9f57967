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
from typing import Any, NamedTuple

import orjson

from memory_review.events import RESTORED, TERMINAL_TYPES, line_hash
from memory_review.gitrepo import GitRepo, RefTip, TreeEntry
from memory_review.history import git_date
from memory_review.history_log import LEGACY_LOG, LOG_DIR, log_lines, log_size, stream_log
from memory_review.models import DurableScope
from memory_review.safety import find_secrets
from memory_review.sync_replicas import GAP_PREFIX, MAX_REPLICA_LOG_BYTES, gap_line

PUBLISHED_TRAILER = "Memory-Review-Published"
REVIEWED_TYPES = frozenset({"candidate.applied", "memory.reverted", "memory.deleted", "sync.merged"})
_RECORD_TYPES = frozenset({"candidate.created", "candidate.edited", RESTORED})  # restored: ADR 0032


@dataclass(frozen=True)
class Publication:
    """What to push: a commit (None: nothing new, or withheld), and what to tell the person."""

    commit: str | None
    warnings: tuple[str, ...] = ()


class Entry(NamedTuple):
    """One line of the local log, as much of it as choosing needs (parsed once, by orjson)."""

    seq: int
    type: str
    candidate: str | None
    more: bool
    raw: dict[str, Any]
    line: bytes


def publication(
    repo: GitRepo, tip: RefTip, previous: RefTip | None, *, scope: DurableScope, origin: str, share_pending: bool
) -> Publication:
    """The publication of history commit ``tip``, on top of ``previous`` (what the remote holds now)."""
    entries = [_entry(line) for line in _lines(repo, tip.commit)]
    log, warnings, withheld = published_log(entries, share_pending=share_pending, already=_already_out(repo, previous))
    if withheld:
        return Publication(None, (*warnings, withheld))
    tree = _tree(repo, tip.commit, repo.hash_bytes(log))
    if previous is not None and repo.tree_of(previous.commit) == tree:
        return Publication(None, tuple(warnings))
    parents = [previous.commit] if previous is not None and _is_publication(previous) else []
    message = _message(scope, origin, entries, share_pending=share_pending)
    when = git_date(entries[-1].raw.get("ts") if entries else None)
    return Publication(repo.commit_tree(tree, parents, message, when=when), tuple(warnings))


def _lines(repo: GitRepo, commit: str) -> list[bytes]:
    return log_lines(repo, commit)  # chunked under log/, or one events.jsonl (older histories)


def _entry(line: bytes) -> Entry:
    # Our own history's log, written and chain-checked by the commit path: a parse is enough.
    raw = orjson.loads(line)
    return Entry(raw["seq"], raw["type"], raw.get("candidate"), raw.get("more", False), raw, line)


def _already_out(repo: GitRepo, previous: RefTip | None) -> frozenset[str]:
    """Hashes of the lines the remote already holds in full (no need to scan them again: they are out)."""
    if previous is None:
        return frozenset()
    size = log_size(repo, previous.commit)
    if size is None or size > MAX_REPLICA_LOG_BYTES:
        return frozenset()
    with stream_log(repo, previous.commit) as stream:
        return frozenset(line_hash(line) for line in stream if not line.startswith(GAP_PREFIX))


def published_log(
    entries: list[Entry], *, share_pending: bool, already: frozenset[str] = frozenset()
) -> tuple[bytes, list[str], str | None]:
    """The published ``events.jsonl``, warnings, and why nothing may be pushed (None: it may).

    Lines in ``already`` (on the remote in full) are not scanned for secrets again.
    """
    chosen = _chosen(entries, share_pending=share_pending)
    out: list[bytes] = []
    warnings: list[str] = []
    left_out: list[Entry] = []
    for entry in entries:
        kind = chosen.get(entry.seq)
        secrets = _secret_kinds(entry.raw) if _to_scan(entry, kind, already) else []
        if secrets and kind == "reviewed":
            return (
                b"",
                warnings,
                (
                    f"event {entry.seq} ({entry.type}) holds what looks like a secret "
                    f"({', '.join(secrets)}): nothing was pushed; forget it, then sync again"
                ),
            )
        if secrets:
            warnings.append(
                f"pending candidate {entry.candidate} (event {entry.seq}) holds what looks like a "
                f"secret ({', '.join(secrets)}): not shared"
            )
            kind = None
        if kind is None:
            left_out.append(entry)
            continue
        out += _gap(left_out)
        left_out = []
        out.append(entry.line)
    return b"".join(out + _gap(left_out)), warnings, None


def _to_scan(entry: Entry, kind: str | None, already: frozenset[str]) -> bool:
    """Whether a kept line is scanned on the way out: not when it is on the remote already, nor a
    ``sync.merged`` (teammates' records, from their publications, and our own versions, scanned in
    the lines that made them: a merge of 6,000 memories is one 20 MB line, ~60 s of patterns)."""
    return kind is not None and entry.type != "sync.merged" and line_hash(entry.line) not in already


def _chosen(entries: list[Entry], *, share_pending: bool) -> dict[int, str]:
    """seq -> ``reviewed`` or ``pending`` for each event that travels."""
    applied = {e.candidate for e in entries if e.type == "candidate.applied"}
    resolved = {e.candidate for e in entries if e.type in TERMINAL_TYPES}
    conflicts = {
        c.get("candidate")
        for e in entries
        if e.type == "sync.merged"
        for c in (e.raw.get("sync") or {}).get("conflicts") or ()
        if isinstance(c, dict)
    }
    chosen = {}
    for e in entries:
        if (
            e.type in REVIEWED_TYPES
            or (e.type in _RECORD_TYPES and e.candidate in applied)
            or (e.type == "candidate.discarded" and e.candidate in conflicts)
        ):
            chosen[e.seq] = "reviewed"
        elif share_pending and e.type in _RECORD_TYPES and e.candidate not in resolved:
            chosen[e.seq] = "pending"
    return chosen


def _gap(left_out: list[Entry]) -> list[bytes]:
    if not left_out:
        return []
    last = left_out[-1]
    return [gap_line(left_out[0].seq, last.seq, line_hash(last.line), more=bool(last.more))]


def _secret_kinds(raw: dict[str, Any]) -> list[str]:
    """The kinds of secret in a line's string values, decoded (JSON escapes undone).

    The values are joined by NUL, which no pattern reads across: a field ``key`` followed
    by a hash is not a "key <token>".
    """
    text = "\0".join(_strings(raw))
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
    """The history commit's tree with its log (chunks, or one file) replaced by the published ``events.jsonl``.

    A publication keeps the one-file form: teammates running any version read it (docs/adr/0024).
    """
    entries = [e for e in repo.tree_entries(commit) if e.name not in (LOG_DIR, LEGACY_LOG)]
    return repo.make_tree([*entries, TreeEntry("100644", "blob", log_blob, LEGACY_LOG)])


def _is_publication(tip: RefTip) -> bool:
    return f"\n{PUBLISHED_TRAILER}: " in f"\n{tip.message}"


def _message(scope: DurableScope, origin: str, entries: list[Entry], *, share_pending: bool) -> str:
    seq = entries[-1].seq if entries else 0
    head = line_hash(entries[-1].line) if entries else "0" * 64
    shares = "reviewed+pending" if share_pending else "reviewed"
    what = (
        "reviewed events and pending proposals"
        if share_pending
        else "reviewed events only: applies with the candidates they approved, reverts, deletes, sync merges"
    )
    return (
        f"memory-review ({scope}): what this clone shares, up to seq {seq}\n\n"
        f"Shares {what}; everything else is a gap line (docs/adr/0018).\n\n"
        f"Memory-Review-Store: {scope}\nMemory-Review-Origin: {origin}\nMemory-Review-Seq: {seq}\n"
        f"Memory-Review-Log-Head: {head}\n{PUBLISHED_TRAILER}: {shares}\n"
    )
