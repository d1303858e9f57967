"""``verify``: check a store's manifest, files, log and chain against each other.

Verification first takes the lock and runs the same recovery as any write, so
what it reports is damage, not an interrupted operation. Besides the chain, it
checks what the events mean (ADR 0025): every ``candidate.applied`` writes the record
a person reviewed (:mod:`memory_review.reviewed`), every pending candidate file is its
logged record, every session file its fold; and the log still extends the head this
machine anchored in the user store (:class:`memory_review.trust.Anchor`), else it was
rewritten. Repair (``--repair``) is :mod:`memory_review.repair`.

A verify may be incremental (docs/adr/0056, :mod:`memory_review.verified`): when an earlier clean verify
on this machine recorded how far it proved the log, and the log still begins with exactly those bytes,
only the lines after them are walked, from the state it recorded; every file is checked as in a full one.
"""

from __future__ import annotations

import gc
import hashlib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import orjson

from memory_review.candidate import Candidate, candidate_from_json
from memory_review.errors import MemoryReviewError
from memory_review.events import (
    GENESIS,
    Event,
    LogIntegrityError,
    Resume,
    ResumeRefused,
    WalkState,
    decode_event,
)
from memory_review.events.safe_fs import list_dir
from memory_review.file_reads import storage_errors
from memory_review.manifest import Manifest
from memory_review.models import DurableScope, Memory
from memory_review.reviewed import RECORD_TYPES, ReviewedRecords, Unreviewed
from memory_review.sessions import SESSION_EVENT, session_problems, session_states
from memory_review.storage import EMPTY, Folded, Folding, fold_all
from memory_review.store import (
    TEMP_PREFIX,
    Store,
    Transaction,
    bad_candidate_warning,
    compacted,
    files_of,
    log_errors,
    versions_named,
)
from memory_review.trust import Anchor
from memory_review.verified import Resuming, VerifiedRecord, proved_prefix

FULL = "full"
INCREMENTAL = "incremental"


@dataclass
class StoreReport:
    """What verify found in one store."""

    scope: DurableScope
    root: str
    events: int = 0
    memories: int = 0
    pending: int = 0
    problems: list[str] = field(default_factory=list)
    repaired: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Worth knowing but not damage (e.g. git history that lags the log; the log is the truth)."""
    plan: list[str] = field(default_factory=list)
    """What ``verify --repair`` would do (a dry run; ``--apply`` does it: memory_review/repair.py)."""
    walk: str = FULL
    """``full``: every line of the log was checked; ``incremental``: only those past ``walk_note``'s event,
    which an earlier clean verify on this machine proved (docs/adr/0056)."""
    walk_note: str = ""
    """Why the walk was full, or where the incremental one began."""

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_store(
    store: Store,
    *,
    anchor: Anchor | None = None,
    known: dict[str, Memory] | None = None,
    resuming: Resuming | None = None,
) -> StoreReport:
    """Recover, then check chain, manifest ⇄ files ⇄ log ⇄ candidates, and that the log extends ``anchor``.

    ``known`` (when given) receives, by sha256, each current memory whose file verify proved to be
    that memory, so the read index's check (:meth:`ReadIndex.problems`) need not parse the files again.
    ``resuming``: walk only the lines past its record when the log still begins with the bytes it
    proved, and give back what this walk proved (see :class:`Resuming`); without it, a full walk.
    """
    report = StoreReport(scope=store.scope, root=str(store.root))
    resuming = Resuming() if resuming is None else resuming
    report.walk_note = resuming.why
    if not store.exists():
        return report
    _recover_first(store)
    try:
        with ExitStack() as stack:
            stack.enter_context(collector_paused())
            try:
                tx = stack.enter_context(store.transact())
            except MemoryReviewError as exc:  # e.g. a bad manifest: the log is still checked, alone
                if _check_log(store, report, anchor, None) is not None:
                    report.problems.append(str(exc))
                return report
            walk = _walk_log(store, report, anchor, tx.manifest.log_seq, resuming)
            if isinstance(walk, Walk):
                _check_against_log(store, tx, report, walk, {} if known is None else known)
                if report.ok and walk.walked is not None:
                    resuming.proved = walk.proved(store.scope)
    except MemoryReviewError as exc:  # e.g. a symlinked store folder or log (ADR 0020): named, not followed
        report.problems.append(str(exc))
    return report


def _walk_log(
    store: Store, report: StoreReport, anchor: Anchor | None, checkpoint: int, resuming: Resuming
) -> Walk | None:
    """The log walked from the record of ``resuming`` when its proof holds, else whole."""
    record = resuming.record
    if record is not None and record.length == 0:  # the log was empty: nothing to skip, nothing to say
        record, report.walk_note = None, ""
    proved = proved_prefix(store.log_path, record) if record is not None else None
    if record is not None and proved is None:
        report.walk_note = f"the log's first {record.lines} lines are not the ones verified before"
    if record is not None and proved is not None:
        try:
            walk, resume = _resumed(checkpoint, record, *proved, store)
            found = _check_log(store, report, anchor, walk, resume)
            report.walk, report.walk_note = INCREMENTAL, f"the lines after event {record.seq}"
            return found if isinstance(found, Walk) else None
        except ResumeRefused as exc:  # the file changed under the walk: start again, whole
            report.walk_note = str(exc)
    found = _check_log(store, report, anchor, Walk(checkpoint))
    return found if isinstance(found, Walk) else None


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cycle collector off while verify holds a whole store's events, memories and candidates.

    ``Workspace.verify`` holds it across the read index check and the record too (docs/adr/0061): the
    memories the walk proved and the index's entries are alive then, and a pass there cost ~5 %.
    Tens of thousands of tracked objects (models, tuples, dicts) and none in a reference cycle: each
    full pass of the collector walks them all and frees nothing, since reference counting frees them
    when dropped (the review UI's bulk reads do the same: ADR 0014). Restored as it was found.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _recover_first(store: Store) -> None:
    """Run recovery before looking, so what verify reports is damage, not a dead writer's leftovers."""
    try:
        with store.transact(sweep=True):  # also debris of versions that left no unfinished marker
            pass
    except MemoryReviewError:
        # Damage recovery cannot get past (a bad manifest, a broken chain): the checks below
        # name it precisely, and the transaction in verify_store reports it again.
        return


class Walk:
    """What one pass over the log gathers beside its chain: the fold, reviewed applies, session events.

    The log is decoded once (``EventLog.verify`` hands each committed event here): the one fold
    (issue 15 §1) runs once over the whole log, each apply is checked against its reviewed record
    on the way, and the session events up to the checkpoint are kept for the session files.
    """

    def __init__(self, checkpoint: int) -> None:
        self.checkpoint = checkpoint
        self.hashes: dict[str, str] = {}  # the sha256 of each memory's last version, from its check
        self.folding = Folding(hashes=self.hashes)
        self.records = ReviewedRecords()
        self.unreviewed: list[Unreviewed] = []
        self.session_events: list[Event] = []
        self.failed: MemoryReviewError | None = None  # the first event the fold refused (folding stops)
        # For the record of a clean verify (docs/adr/0056): where each thing the state holds was read.
        self.record_lines: dict[str, int] = {}  # candidate -> offset of the line with its last record
        self.session_lines: list[int] = []
        self.carried: set[str] = set()  # memories a resumed walk took from the record, untouched since
        self.walked: WalkState | None = None  # the log's walk, when it read every line it was handed

    @classmethod
    def resumed(
        cls, checkpoint: int, record: VerifiedRecord, prefix: bytes, hasher: Any, store: Store
    ) -> tuple[Walk, Resume]:
        """The walk as the recorded clean verify left it, its records read back from the proved ``prefix``."""
        walk = cls(checkpoint)
        walk.hashes.update(record.hashes)
        pending = {cid: _candidate_at(prefix, offset) for cid, offset in record.pending.items()}
        walk.folding = Folding(Folded(candidates=pending), hashes=walk.hashes)
        reviewed = {cid: _record_at(prefix, offset) for cid, offset in record.reviewed.items()}
        resolved = {cid: bytes.fromhex(digest) for cid, digest in record.resolved.items()}
        walk.records = ReviewedRecords.resumed(reviewed, resolved, set(record.forged))
        walk.record_lines = {**record.pending, **record.reviewed}
        walk.session_lines = list(record.sessions)
        for offset in record.sessions:
            event = _event_at(prefix, offset, store)
            if event.seq <= checkpoint:
                walk.session_events.append(event)
        walk.carried = set(record.hashes)
        state = WalkState(
            record.length,
            record.lines,
            record.seq,
            record.hash,
            record.events,
            dict(record.terminal),
            set(record.created),
            set(record.changed),
            dict(record.records),
        )
        return walk, Resume(state, prefix, hasher)

    def __call__(self, event: Event, offset: int = 0) -> None:
        if self.failed is not None:
            return
        found = self.records.check(event)
        if found is not None:
            self.unreviewed.append(found)
        if event.type in RECORD_TYPES and event.candidate is not None and event.record is not None:
            self.record_lines[event.candidate] = offset
        try:
            self.folding.take(event)
        except MemoryReviewError as exc:
            self.failed = exc
            return
        # Session files move with the manifest that records them: the log's session events up to it.
        if event.type == SESSION_EVENT:
            self.session_lines.append(offset)
            if event.seq <= self.checkpoint:
                self.session_events.append(event)

    def proved(self, scope: str) -> dict[str, Any] | None:
        """What this clean walk proved, as the fields of a :class:`VerifiedRecord` (None: nothing to keep)."""
        walked = self.walked
        if walked is None or walked.digest is None:
            return None
        touched = self.folding.memories
        if any((m.id, m.scope) != (mid, scope) for mid, m in touched.items() if m is not None):
            return None  # such a file is parsed by every verify (_check_files): nothing to carry
        pending = [c.id for c in self.folding.state().pending()]
        reviewed, resolved, forged = self.records.saved()
        return {
            "length": walked.offset,
            "digest": walked.digest,
            "lines": walked.lines,
            "seq": walked.seq,
            "hash": walked.hash,
            "events": walked.events,
            "terminal": walked.terminal,
            "created": sorted(walked.created),
            "changed": sorted(walked.changed),
            "records": walked.memories,
            "hashes": dict(self.hashes),
            "pending": {cid: self.record_lines[cid] for cid in pending},
            "reviewed": {cid: self.record_lines[cid] for cid in reviewed},
            "resolved": {cid: digest.hex() for cid, digest in resolved.items()},
            "forged": sorted(forged),
            "sessions": list(self.session_lines),
        }


def _resumed(checkpoint: int, record: VerifiedRecord, prefix: bytes, hasher: Any, store: Store) -> tuple[Walk, Resume]:
    """:meth:`Walk.resumed`, with anything the proved lines do not give back as ResumeRefused."""
    try:
        return Walk.resumed(checkpoint, record, prefix, hasher, store)
    except (MemoryReviewError, LogIntegrityError, orjson.JSONDecodeError, ValueError) as exc:
        raise ResumeRefused(f"the recorded state does not read back ({exc})") from exc


def _line_at(prefix: bytes, offset: int) -> dict[str, Any]:
    """The proved line starting at ``offset``, as JSON (its bytes were checked by the recorded verify)."""
    end = prefix.find(b"\n", offset) + 1
    if offset > len(prefix) or end <= offset or (offset and prefix[offset - 1 : offset] != b"\n"):
        raise ResumeRefused(f"offset {offset} is not a line of the verified log")
    value = orjson.loads(prefix[offset:end])
    if not isinstance(value, dict):
        raise ResumeRefused(f"offset {offset} is not an event of the verified log")
    return value


def _record_at(prefix: bytes, offset: int) -> dict[str, Any]:
    """The candidate record the proved line at ``offset`` holds (as the event's ``record``)."""
    record = _line_at(prefix, offset).get("record")
    if not isinstance(record, dict):
        raise ResumeRefused(f"the line at offset {offset} holds no candidate record")
    return record


def _candidate_at(prefix: bytes, offset: int) -> Candidate:
    return candidate_from_json(_record_at(prefix, offset), where=f"the line at offset {offset}")


def _event_at(prefix: bytes, offset: int, store: Store) -> Event:
    _line_at(prefix, offset)  # a line start, or ResumeRefused
    return decode_event(prefix[offset : prefix.index(b"\n", offset) + 1], path=store.log_path, line_no=0)


def _check_log(
    store: Store, report: StoreReport, anchor: Anchor | None, walk: Walk | None, resume: Resume | None = None
) -> Walk | bool | None:
    """The chain and the per-line rules, with ``walk`` fed on the way; None when a line is damaged."""
    refused = None
    with log_errors(store.log_path):
        try:
            log_report = store.log().verify(watch=anchor.seq if anchor else None, each=walk, resume=resume)
        except ResumeRefused as exc:
            refused = exc
    if refused is not None:
        raise refused  # past log_errors: the caller walks the log whole
    if walk is not None:
        walk.walked = log_report.walked
    report.events = log_report.events
    if anchor is not None:
        report.problems += _anchor_problems(anchor, log_report)
    for problem in log_report.problems:
        where = f"{store.log_path}:{problem.line}: " if problem.line else f"{store.log_path}: "
        report.problems.append(where + problem.message)
    if log_report.torn_tail:
        report.problems.append(
            f"{store.log_path}: torn last line ({log_report.torn_tail.length} bytes "
            "after the last newline; a writer died mid-append — the next write cuts it)"
        )
    if any(p.line for p in log_report.problems):
        return None
    return True if walk is None else walk


def _anchor_problems(anchor: Anchor, log_report) -> list[str]:
    """The log must hold the anchored event with the anchored line hash (ADR 0025)."""
    problem = anchor.contradicted_by(log_report.head)
    watched = GENESIS if anchor.seq == 0 else log_report.watched  # seq 0: the empty log's head
    if problem is None and watched != anchor.hash:
        problem = (
            f"event {anchor.seq} is not the one this machine committed (anchored in {anchor.path}): "
            "the log was rewritten"
        )
    if problem is None:
        return []
    return [
        f"this log was rewritten: {problem}; nothing of this store is served until a person checks "
        "it (`memory-review verify --repair` anchors the log as it is now)"
    ]


def _check_against_log(
    store: Store, tx: Transaction, report: StoreReport, walk: Walk, known: dict[str, Memory]
) -> None:
    """The manifest plus the fold of its tail (docs/adr/0029) against the whole log; nothing is compacted."""
    if walk.failed is not None:
        raise walk.failed
    whole = walk.folding.state()
    expected, pending = whole.memory_set(), whole.pending()
    sessions = session_states(walk.session_events)
    report.problems += [f"{store.log_path}: {u.message()}" for u in walk.unreviewed]
    current = compacted(tx.manifest, tx.view.head, fold_all(EMPTY, tx.tail))
    report.memories = len(current.memories)
    hashes = dict(walk.hashes)  # each memory the log leaves: its sha256, from the fold's own rendering
    carried = walk.carried - set(whole.memories)  # checked by the recorded verify, untouched since
    _check_files(store, current, expected, hashes, report, known, carried)
    _check_unnamed(store, current, report, also=files_of(tx.manifest) | versions_named(tx.tail))
    _compare_sets(current, hashes, report)
    _check_candidates(store, pending, report)
    report.problems += session_problems(store.sessions, sessions, tx.manifest.sessions or {})


def _check_files(
    store: Store,
    manifest: Manifest,
    expected: dict[str, Memory],
    hashes: dict[str, str],
    report: StoreReport,
    known: dict[str, Memory],
    carried: set[str],
) -> None:
    """Each current entry's file: readable, its sha256 the entry's, and the memory it names.

    A file whose sha256 is the entry's *and* the sha256 of the log's version of that memory (same
    id, this store's scope) is, byte for byte, ``render_memory`` of a memory the fold validated, and
    ``parse_memory(render_memory(m)) == m`` for every memory that renders (record_io): parsing it
    could only give that memory back, so it is not parsed again. Any other file is parsed as a
    reader would, so what is wrong with it is named; the entry itself is then reported as
    disagreeing with the log (:func:`_compare_sets`). A ``carried`` memory (an incremental verify's,
    not changed since the recorded one) was such a memory when recorded: its hash stands for it.
    """
    for memory_id, entry in manifest.memories.items():
        try:
            data = store._read_child(entry.file)  # never through a link, never waiting on a FIFO
        except OSError as exc:
            report.problems.append(
                f"{store.root / entry.file}: listed in manifest.json but unreadable ({exc.strerror})"
            )
            continue
        if hashlib.sha256(data).hexdigest() != entry.sha256:
            report.problems.append(
                f"{store.root / entry.file}: sha256 does not match manifest.json (edited outside memory-review?)"
            )
            continue
        want = expected.get(memory_id)
        if want is not None and hashes[memory_id] == entry.sha256 and (want.id, want.scope) == (memory_id, store.scope):
            known[entry.sha256] = want
            continue
        if memory_id in carried and hashes.get(memory_id) == entry.sha256:
            continue
        try:
            store.memory_in(memory_id, entry, data)
        except MemoryReviewError as exc:
            report.problems.append(str(exc))


def _check_unnamed(store: Store, manifest: Manifest, report: StoreReport, *, also: set[str]) -> None:
    """Memory files nothing names: kept, since a lost log line may have named them (docs/adr/0029).

    ``also``: names of versions the tail replaced (collected at the next compaction).
    """
    named = files_of(manifest) | also
    with storage_errors(store.memory_dir):
        names = sorted(n for n in list_dir(store.memory_dir) if n.endswith(".md") and n not in named)
    report.problems += [
        f"{store.memory_dir / name}: no manifest entry nor log line names it (kept: events may have "
        "been lost; move it away if it is debris)"
        for name in names
    ]


def _compare_sets(manifest: Manifest, hashes: dict[str, str], report: StoreReport) -> None:
    """The current entries against the log's memories (``hashes``: the sha256 of each, by id)."""
    for memory_id in sorted(set(hashes) | set(manifest.memories)):
        entry = manifest.memories.get(memory_id)
        want = hashes.get(memory_id)
        if entry is None:
            report.problems.append(f"memory {memory_id!r} is in the log but missing from manifest.json")
        elif want is None:
            report.problems.append(f"memory {memory_id!r} is in manifest.json but not in the log")
        elif want != entry.sha256:
            report.problems.append(f"memory {memory_id!r}: manifest.json and the log disagree")


def _check_candidates(store: Store, pending: list, report: StoreReport) -> None:
    logged = {c.id: c for c in pending}
    want = set(logged)
    with storage_errors(store.candidate_dir):
        names = [n for n in list_dir(store.candidate_dir) if n.endswith(".json") and not n.startswith(TEMP_PREFIX)]
    have = {n[:-5] for n in names}
    report.pending = len(want)
    for cid in sorted(want - have):
        report.problems.append(f"candidate {cid} is pending in the log but its file is missing")
    for name in sorted(names):
        # Each file is read as the queue reads it: one the queue skips (a bad name, oversize, malformed,
        # a FIFO, a link) is a problem here, named escaped.
        try:
            held = store.candidate_file(name[:-5])
        except MemoryReviewError as exc:
            report.problems.append(bad_candidate_warning(store.candidate_dir, name, exc))
            continue
        if name[:-5] not in want:
            report.problems.append(f"{store.candidate_dir / name}: not a pending candidate in the log")
        elif held != logged[name[:-5]]:
            report.problems.append(
                f"{store.candidate_dir / name}: is not the record its log holds for "
                "that candidate (edited outside memory-review?)"
            )
