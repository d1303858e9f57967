"""Reading teammates' replicas for ``sync``: bounded, streamed, and checked before anything is merged.

A replica ref is written by whoever can push to the remote: it is untrusted input
(issue 14). Each replica's ``events.jsonl`` is refused past :data:`MAX_REPLICA_LOG_BYTES`
before a byte of it is read (the object header says its size), then streamed from
git line by line, folded as it goes, never held whole. Its hash chain is checked,
with the gap lines a published log leaves where unreviewed events were (ADR 0018); an
apply of a candidate its log never proposed, or of memories the candidate never named,
refuses the replica. A replica that fails any check is left out of the merge and named
in the report, never half-used.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from memory_review.errors import IntegrityError, MemoryReviewError
from memory_review.events import GENESIS, Event, decode_event, line_hash
from memory_review.events.errors import LogIntegrityError
from memory_review.gitrepo import GitRepo
from memory_review.history_log import log_size, stream_log
from memory_review.manifest import Manifest, decode_manifest
from memory_review.models import DurableScope, Memory
from memory_review.record_io import memory_from_json
from memory_review.reviewed import ReviewedRecords
from memory_review.sync_merge import Knowledge, know

MAX_REPLICA_LOG_BYTES = 64 * 1024 * 1024
"""The largest replica ``events.jsonl`` sync reads.

~5,900 memories at the largest body, ~25,000 short ones (docs/adr/0018).
"""
MAX_REPLICA_MANIFEST_BYTES = 16 * 1024 * 1024
"""The largest replica ``manifest.json`` sync reads (10,000 memories: ~3 MB)."""
ORIGIN_RE = re.compile(r"^[0-9a-f]{16}$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
GAP_PREFIX = b'{"gap":'
LogLines = list[tuple[Event, str]]
"""A log's committed events, each with the sha256 of its line (its version id when it authors one)."""


@dataclass(frozen=True)
class Replica:
    """One teammate's published history: its commit and what its log knows."""

    origin: str
    commit: str
    known: Knowledge


# --- a log's lines, with the chain checked ------------------------------------------------------


def read_log(lines: Iterable[bytes], *, where: str, gaps: bool = False) -> Iterator[tuple[Event, str]]:
    """The committed events of a log's lines, each with its line hash, as they are read.

    With ``gaps``, a published log's gap lines (``{"gap":{"from":F,"to":T,"head":H}}``: events
    F..T left out, the last one's line hashing to H) continue the chain in place of those events.
    """
    batch: LogLines = []
    prev, expected = GENESIS, 1
    try:
        for line_no, line in enumerate(lines, 1):
            if not line.endswith(b"\n"):
                break  # a torn tail: never committed
            gap = _gap(line, where, line_no) if gaps and line.startswith(GAP_PREFIX) else None
            if gap is not None:
                first, last, head, more = gap
                if first != expected or last < first:
                    raise LogIntegrityError(where, line_no, "a gap that does not continue the hash chain")
                prev, expected = head, last + 1
            else:
                event = decode_event(line, path=where, line_no=line_no)
                if event.seq != expected or event.prev != prev:
                    raise LogIntegrityError(where, line_no, "the hash chain is broken here")
                prev, expected, more = line_hash(line), expected + 1, bool(event.more)
                batch.append((event, prev))
            if not more:
                yield from batch
                batch = []
    except LogIntegrityError as exc:
        raise IntegrityError(exc.reason, path=where, line=exc.line) from exc


def _gap(line: bytes, where: str, line_no: int) -> tuple[int, int, str, bool]:
    try:
        raw = orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        raise LogIntegrityError(where, line_no, "a gap line that is not JSON") from exc
    gap = raw.get("gap") if type(raw) is dict and len(raw) == 1 else None
    if (
        type(gap) is not dict
        or not set(gap) <= {"from", "to", "head", "more"}
        or type(gap.get("from")) is not int
        or type(gap.get("to")) is not int
        or not isinstance(gap.get("head"), str)
        or not _HEX64.fullmatch(gap["head"])
        or gap.get("more", True) is not True
    ):
        raise LogIntegrityError(where, line_no, "not a valid gap line")
    return gap["from"], gap["to"], gap["head"], "more" in gap


def gap_line(first: int, last: int, head: str, *, more: bool) -> bytes:
    """The line a published log holds in place of events ``first``..``last`` (see :func:`read_log`)."""
    gap: dict[str, Any] = {"from": first, "to": last, "head": head}
    if more:
        gap["more"] = True
    return orjson.dumps({"gap": gap}, option=orjson.OPT_SORT_KEYS) + b"\n"


def proposed_first(pairs: Iterable[tuple[Event, str]], where: str) -> Iterator[tuple[Event, str]]:
    """``pairs``, refused at the first apply that does not write its candidate's reviewed record (ADR 0025):
    a candidate the log never proposed, other memories, or other content."""
    records = ReviewedRecords()
    for event, line in pairs:
        if event.type == "candidate.applied":
            named = records.pending.get(event.candidate or "")
            if named is None:
                raise IntegrityError(
                    f"{where}: event {event.seq} applies candidate {event.candidate!r}, which its log never proposed"
                )
            if not {change.memory for change in event.changes or ()} <= set(named):
                raise IntegrityError(
                    f"{where}: event {event.seq} applies candidate {event.candidate!r} to memories it never proposed"
                )
        unreviewed = records.check(event)
        if unreviewed is not None:
            raise IntegrityError(f"{where}: {unreviewed.message()}")
        yield event, line


# --- replicas from git ----------------------------------------------------------------------------


def load_replicas(
    repo: GitRepo, tips: dict[str, str], prefix: str, scope: DurableScope, name_of: Any
) -> tuple[list[Replica], list[str]]:
    """Each teammate's knowledge; a replica that cannot be read is left out (and said so), never half-used.

    ``name_of(origin)`` names the replica's ref on the remote, for the messages.
    """
    replicas, skipped = [], []
    kinds = repo.object_types(list(tips.values()))
    for ref, commit in sorted(tips.items()):
        origin = ref[len(prefix) :]
        if not ORIGIN_RE.fullmatch(origin):
            skipped.append(f"{origin}: not a replica id")
            continue
        if kinds.get(commit) != "commit":  # a tag or a tree would be recorded, then refused as a parent
            skipped.append(f"{origin}: {name_of(origin)} names a {kinds.get(commit, 'missing object')}, not a commit")
            continue
        try:
            known = _replica_knowledge(repo, commit, f"replica {origin}", name_of(origin))
            _check_records(known, scope, origin)
        except MemoryReviewError as exc:
            skipped.append(f"{origin}: {exc}")
            continue
        replicas.append(Replica(origin, commit, known))
    return replicas, skipped


def _replica_knowledge(repo: GitRepo, commit: str, where: str, ref: str) -> Knowledge:
    size = log_size(repo, commit)  # one events.jsonl as publications hold it, or log/ chunks
    if size is None:
        return know([])
    if size > MAX_REPLICA_LOG_BYTES:
        raise IntegrityError(
            f"{ref}: events.jsonl is {size:,} bytes, over the {MAX_REPLICA_LOG_BYTES:,} a "
            "replica log may hold; not read"
        )
    with stream_log(repo, commit) as stream:
        return know(proposed_first(read_log(stream, where=where, gaps=True), where))


def replica_manifest(repo: GitRepo, commit: str, *, where: str) -> Manifest | None:
    """The ``manifest.json`` of a replica commit (None: it has none), refused past its size limit unread."""
    size = repo.blob_size(commit, "manifest.json")
    if size is None:
        return None
    if size > MAX_REPLICA_MANIFEST_BYTES:
        raise IntegrityError(
            f"{where}: manifest.json is {size:,} bytes, over the "
            f"{MAX_REPLICA_MANIFEST_BYTES:,} a replica manifest may hold; not read"
        )
    data = repo.read_blob(commit, "manifest.json")
    return decode_manifest(data, where=where) if data is not None else None


def _check_records(known: Knowledge, scope: DurableScope, origin: str) -> None:
    for memory_id, record in known.records.items():
        if record is not None:
            replica_memory(record, memory_id, scope, origin)


def replica_memory(record: dict[str, Any], memory_id: str, scope: DurableScope, origin: str) -> Memory:
    """A memory record a replica holds, validated, refused unless it is ``memory_id`` of ``scope``."""
    memory = memory_from_json(record, where=f"replica {origin}, memory {memory_id}")
    if memory.id != memory_id or memory.scope != scope:
        raise IntegrityError(f"replica {origin} holds {memory.scope} memory {memory.id!r} as {memory_id!r}")
    return memory
