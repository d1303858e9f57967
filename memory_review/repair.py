"""``verify --repair``: fold what is provably committed, show the plan, back up, then rebuild (docs/adr/0024).

The sources, in the order they are believed:

1. ``events.jsonl``: its lines from the first up to the first that does not decode or chain;
2. the git history (``refs/memory-review/<scope>``): the log its tip commit holds, chain-checked —
   where the local log is missing, damaged or shorter, the history's lines stand in for it, and
   local lines after them are kept if they chain on;
3. ``manifest.json`` and the files, as corroboration: the checkpoint (``log_seq``, ``log_head``) must
   name a line of that log exactly; memories and pending candidate files must be explained by it.

Repair refuses, with one line that says where the data is, whenever the sources disagree in a way
it cannot settle: the local log and the history differ at some line; the checkpoint names a line
the log holds differently (the last line altered: never blessed); lines are lost from every source
and they changed memory, or may have resolved a candidate; a damaged line no source holds. When
the lines lost changed no memory (proposals, context builds), the pending candidates they made are
logged again from their files, so no approved memory and no pending candidate is ever dropped
because the log is missing.

By default repair only shows its plan. With ``apply`` it first copies every store file to
``<store>/backups/repair-<time>/``, then writes the log it folded, rebuilds the derived files from
it, and records a ``store.recovered`` event saying what it did and where the backup is.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path

from memory_review.candidate import Candidate, candidate_to_json
from memory_review.errors import IntegrityError, MemoryReviewError
from memory_review.events import GENESIS, Event, EventDraft, LogIntegrityError, decode_event, line_hash
from memory_review.events.durable import fsync_dir, write_new_file
from memory_review.events.safe_fs import check_dir, list_dir, read_file_or, rename, unlink
from memory_review.file_reads import storage_errors
from memory_review.history import History
from memory_review.history_log import log_lines as history_log_lines
from memory_review.history_log import split_lines
from memory_review.ids import new_origin_id
from memory_review.manifest import Manifest
from memory_review.record_io import memory_sha256
from memory_review.rules import Plan
from memory_review.storage import EMPTY, fold_all
from memory_review.store import CANDIDATE_DIR, MEMORY_DIR, TEMP_PREFIX, Store, log_errors, versions_named
from memory_review.store_backup import back_up
from memory_review.trust import Anchor
from memory_review.verify import StoreReport, verify_store

MAX_NOTE = 2000


@dataclass
class Lines:
    """A log's whole lines and how many of them, from the first, decode and chain."""

    lines: list[bytes]
    valid: int
    problem: str | None = None

    @classmethod
    def check(cls, lines: list[bytes], *, where: str, prev: str = GENESIS, first_seq: int = 1) -> Lines:
        for index, line in enumerate(lines):
            try:
                event = decode_event(line, path=where, line_no=index + first_seq)
            except LogIntegrityError as exc:  # the line's own words: it names the place itself
                return cls(lines, index, str(exc))
            except (MemoryReviewError, ValueError) as exc:
                return cls(lines, index, f"{where}:{index + first_seq}: {exc}")
            if event.seq != index + first_seq or event.prev != prev:
                return cls(lines, index, f"{where}:{index + first_seq}: does not chain on the line before")
            prev = line_hash(line)
        return cls(lines, len(lines))


@dataclass
class RepairPlan:
    """What repair would do to one store, or why it refuses."""

    log: list[bytes] = field(default_factory=list)
    """The log repair folds: every line provably committed."""
    restore: bool = False
    """Whether ``events.jsonl`` is written again (with ``log``)."""
    relog: list[Candidate] = field(default_factory=list)
    """Pending candidates whose ``candidate.created`` was lost: logged again from their files."""
    actions: list[str] = field(default_factory=list)
    refused: str | None = None


class Refused(Exception):  # noqa: N818 - internal: becomes RepairPlan.refused
    """Repair cannot settle what the sources say."""


class Planner:
    """Reads the sources of one store and decides what repair does (nothing is written here)."""

    def __init__(self, store: Store, history: History | None, anchor: Anchor | None = None) -> None:
        self.store, self.history, self.anchor = store, history, anchor
        self.plan = RepairPlan()
        self._decoded: dict[tuple[int, str], list[Event]] = {}

    def make(self) -> RepairPlan:
        try:
            self._plan()
        except Refused as exc:
            self.plan.refused = str(exc)
        return self.plan

    def _plan(self) -> None:
        local, raw, missing = self._local()
        history, where = self._history()
        log, source = self._fold(local, history, where)
        manifest = self._manifest()
        self._check_checkpoint(log, manifest, source)
        self.plan.log = log
        self.plan.restore = b"".join(log) != raw
        if self.plan.restore:
            was = (
                "missing"
                if missing
                else f"{len(local.lines)} line(s)" + (f", damaged: {local.problem}" if local.problem else "")
            )
            self.plan.actions.append(f"write events.jsonl again from {source}: {len(log)} event(s) (was {was})")
        self._describe_rebuild(log, manifest)

    # --- the sources ----------------------------------------------------------------------

    def _local(self) -> tuple[Lines, bytes, bool]:
        path = self.store.log_path
        with storage_errors(path):
            data = read_file_or(path, single_link=True)
        lines = split_lines(data or b"")
        return Lines.check(lines, where=str(path)), b"".join(lines), data is None

    def _history(self) -> tuple[Lines | None, str]:
        repo = self.history.repo() if self.history else None
        tip = repo.ref_tip(self.history.ref) if repo and self.history else None
        if repo is None or tip is None or self.history is None:
            return None, ""
        where = f"the git history ({self.history.ref} at {tip.commit[:12]})"
        checked = Lines.check(history_log_lines(repo, tip.commit), where=where)
        return Lines(checked.lines[: checked.valid], checked.valid), where

    def _manifest(self) -> Manifest | None:
        try:
            return self.store.read_manifest()
        except MemoryReviewError:
            self.plan.actions.append("manifest.json is damaged: it is written again from the log")
            return None

    # --- folding them ---------------------------------------------------------------------

    def _fold(self, local: Lines, history: Lines | None, where: str) -> tuple[list[bytes], str]:
        """The longest log every source agrees on, and where its lines came from."""
        good = local.lines[: local.valid]
        theirs = history.lines if history else []
        common = min(len(good), len(theirs))
        if common and line_hash(good[common - 1]) != line_hash(theirs[common - 1]):
            differ = next(i for i in range(common) if good[i] != theirs[i]) + 1
            if self._forgotten_after(good, differ - 1):
                self.plan.actions.append(
                    f"events.jsonl differs from {where} from seq {differ}: a forget rewrote "
                    "the log after the history; the log stands (forget again rewrites the "
                    "history)"
                )
                return good, "events.jsonl"
            raise Refused(
                f"events.jsonl and {where} disagree from seq {differ}; nothing was changed "
                "(compare them, keep the right one as events.jsonl, then repair again)"
            )
        if len(theirs) <= len(good):
            if local.valid < len(local.lines):
                raise Refused(
                    f"{local.problem}; no git history holds that line, so the "
                    f"{len(local.lines) - local.valid} line(s) from there cannot be proven; nothing was "
                    "changed (restore events.jsonl from a backup)"
                )
            return good, "events.jsonl"
        rest = local.lines[len(theirs) :]
        after = Lines.check(rest, where="events.jsonl", prev=line_hash(theirs[-1]), first_seq=len(theirs) + 1)
        if after.valid < len(rest):
            raise Refused(
                f"{after.problem}; no source holds it; nothing was changed (restore events.jsonl from a backup)"
            )
        return theirs + rest, where + (" and events.jsonl" if rest else "")

    def _check_checkpoint(self, log: list[bytes], manifest: Manifest | None, source: str) -> None:
        if manifest is None:
            if not log and self._memory_files():
                raise Refused(
                    "events.jsonl and manifest.json are both missing and no git history holds the log; "
                    f"the memory files in {self.store.root / MEMORY_DIR} were left as they are"
                )
            return
        seq, head = manifest.log_seq, manifest.log_head
        if seq <= len(log) and (GENESIS if seq == 0 else line_hash(log[seq - 1])) != head:
            if self._forgotten_after(log, seq):
                self.plan.actions.append(
                    f"manifest.json's checkpoint (seq {seq}) predates a forget that "
                    "rewrote the log: it is written again from the log"
                )
                return
            raise Refused(
                f"event {seq} in {source} is not the line manifest.json's checkpoint names "
                f"(head {head[:12]}): it was altered, and repair never blesses it; nothing was changed"
            )
        anchor = self.anchor
        if (
            anchor is not None
            and 0 < anchor.seq <= len(log)
            and line_hash(log[anchor.seq - 1]) != anchor.hash
            and not self._forgotten_after(log, anchor.seq - 1)
        ):  # a forget rewrites every line hash
            raise Refused(
                f"event {anchor.seq} in {source} is not the line this machine committed (anchored in "
                f"{anchor.path}): it was altered, and repair never blesses it; nothing was changed"
            )
        # How far the log went: the checkpoint, or the head this machine anchored after its last commit (the
        # tail past the checkpoint is only in the log, docs/adr/0029); memory files nothing names say so too.
        last = max(seq, self.anchor.seq if self.anchor is not None else 0)
        # A forget past the checkpoint rewrote the versions it redacted: their old files are what it takes out.
        orphans = [] if self._forgotten_after(log, min(seq, len(log))) else self._orphans(log, manifest)
        if last > len(log) or orphans:
            self._lost(log, manifest, source, last, orphans)

    def _orphans(self, log: list[bytes], manifest: Manifest) -> list[str]:
        """Memory ids of files in ``memory/`` that neither the manifest nor any line of ``log`` names."""
        named = {entry.file.rpartition("/")[2] for entry in manifest.memories.values()}
        named |= versions_named(self._events(log))
        return sorted({name.rsplit("-", 1)[0] for name in self._memory_files() if name not in named})

    def _lost(self, log: list[bytes], manifest: Manifest, source: str, last: int, orphans: list[str]) -> None:
        """Events past every source's end: fine only if they changed no memory; their proposals are re-logged."""
        first = len(log) + 1
        lost = (
            f"events {first}..{last} are in no log and no git history"
            if last > len(log)
            else f"events past {len(log)} are in no log and no git history"
        )
        folded = self._memories(log)
        listed = {mid: entry.sha256 for mid, entry in manifest.memories.items()}
        changed = (
            sorted({m for m, _ in set(folded.items()) ^ set(listed.items())}) if manifest.log_seq > len(log) else []
        )
        if changed or orphans:
            raise Refused(
                f"{lost}, and they changed memory ({', '.join(sorted({*changed, *orphans})[:5])}); "
                f"manifest.json and {self.store.root / MEMORY_DIR} still hold them; nothing was changed "
                "(restore events.jsonl from a backup)"
            )
        pending, resolved = self._candidates(log)
        files = self._candidate_files()
        gone = sorted(set(pending) - set(files))
        if gone:
            raise Refused(
                f"{lost}; candidate {gone[0]} is pending in {source} but its file is gone: it may have "
                "been applied or discarded there; nothing was changed"
            )
        for cid in sorted(set(files) - set(pending) - resolved):
            candidate = self._candidate(cid)
            if candidate is not None:
                self.plan.relog.append(candidate)
                self.plan.actions.append(
                    f"log pending candidate {cid} again from its file (its proposal was among the lost events)"
                )
        self.plan.actions.append(f"{lost}; they changed no memory (proposals, context builds, session notes)")

    # --- what the rebuild changes ---------------------------------------------------------

    def _describe_rebuild(self, log: list[bytes], manifest: Manifest | None) -> None:
        folded = self._memories(log)
        listed = {mid: entry.sha256 for mid, entry in (manifest.memories if manifest else {}).items()}
        for mid in sorted(set(folded) | set(listed)):
            if folded.get(mid) != listed.get(mid):
                what = "add" if mid not in listed else "remove" if mid not in folded else "change"
                self.plan.actions.append(f"{what} memory {mid} in manifest.json (as the log has it)")
        pending, _resolved = self._candidates(log)
        keep = set(pending) | {c.id for c in self.plan.relog}
        for cid in sorted(set(self._candidate_files()) - keep):
            self.plan.actions.append(f"remove {CANDIDATE_DIR}/{cid}.json: not pending in the log (kept in the backup)")
        for cid in sorted(set(pending) - set(self._candidate_files())):
            self.plan.actions.append(f"write {CANDIDATE_DIR}/{cid}.json from the log")
        self.plan.actions.append("rebuild manifest.json, MEMORY.md, memory files and session files from the log")

    def _forgotten_after(self, log: list[bytes], index: int) -> bool:
        """Whether a ``store.forgotten`` event lies at or after ``log[index]``: a forget rewrote the lines before
        it (every hash changed), so an older copy of them — history or checkpoint — cannot match."""
        return any(event.type == "store.forgotten" for event in self._events(log)[index:])

    def _memories(self, log: list[bytes]) -> dict[str, str]:
        return {mid: memory_sha256(memory) for mid, memory in fold_all(EMPTY, self._events(log)).memory_set().items()}

    def _candidates(self, log: list[bytes]) -> tuple[list[str], set[str]]:
        folded = fold_all(EMPTY, self._events(log))
        return [c.id for c in folded.pending()], set(folded.resolved())

    def _events(self, log: list[bytes]) -> list[Event]:
        key = (len(log), line_hash(log[-1]) if log else GENESIS)
        if key not in self._decoded:
            with log_errors(self.store.log_path):
                self._decoded[key] = [
                    decode_event(line, path=self.store.log_path, line_no=number) for number, line in enumerate(log, 1)
                ]
        return self._decoded[key]

    def _candidate_files(self) -> list[str]:
        folder = self.store.candidate_dir
        with storage_errors(folder):
            names = list_dir(folder) if check_dir(folder) else []
        return [n[:-5] for n in names if n.endswith(".json") and not n.startswith(TEMP_PREFIX)]

    def _candidate(self, cid: str) -> Candidate | None:
        try:
            return self.store.candidate_file(cid)
        except MemoryReviewError:
            self.plan.actions.append(
                f"{CANDIDATE_DIR}/{cid}.json is not a valid candidate: removed (kept in the backup)"
            )
            return None

    def _memory_files(self) -> list[str]:
        folder = self.store.root / MEMORY_DIR
        with storage_errors(folder):
            return [n for n in list_dir(folder) if n.endswith(".md")] if check_dir(folder) else []


# --- doing it -----------------------------------------------------------------------------------


def repair_store(
    store: Store, history: History | None, *, actor: str, apply: bool, anchor: Anchor | None = None
) -> StoreReport:
    """Verify; if damaged, show the plan (``apply`` False) or carry it out: back up, restore, rebuild, record."""
    before = verify_store(store)
    if before.ok:
        return before
    with store.locked():
        plan = Planner(store, history, anchor).make()
        if not apply:
            before.plan = plan.actions if not plan.refused else []
            if plan.refused:
                before.problems.append(f"repair refuses: {plan.refused}")
            return before
        if plan.refused:
            raise IntegrityError(f"repair refuses: {plan.refused}", path=store.root)
        backup = back_up(store.root, "repair")
        if plan.restore:
            _write_log(store, plan.log)
        if plan.relog:
            _relog(store, plan.relog)
        rebuild(store)
    note = "; ".join([*plan.actions, f"backup in {backup}", "was: " + "; ".join(before.problems)])
    with store.transact() as tx:
        tx.commit(Plan(drafts=[EventDraft(type="store.recovered", actor=actor, reason=note[:MAX_NOTE])]))
    after = verify_store(store)
    after.repaired = [*plan.actions, f"backed up the store's files first, to {backup}"]
    return after


def _write_log(store: Store, lines: list[bytes]) -> None:
    """Replace ``events.jsonl`` with ``lines``: a new file, fsynced, renamed over, the folder fsynced."""
    temp = store.root / f"{TEMP_PREFIX}-repair-{secrets.token_hex(4)}"
    with storage_errors(store.log_path):
        write_new_file(temp, b"".join(lines))
        rename(temp, store.log_path)  # the name is replaced, never a link's target
        fsync_dir(store.root)


def _relog(store: Store, candidates: list[Candidate]) -> None:
    drafts = [
        EventDraft(
            type="candidate.created",
            actor=f"{c.proposer.kind}:{c.proposer.name}",
            session=c.session_id,
            candidate=c.id,
            record=candidate_to_json(c),
        )
        for c in candidates
    ]
    manifest = None
    try:
        manifest = store.read_manifest()
    except MemoryReviewError:
        pass
    with log_errors(store.log_path):
        store.log(manifest.origin if manifest else "0" * 16).append(drafts)


def rebuild(store: Store) -> None:
    """Rebuild every derived file (memory files, manifest, MEMORY.md, candidates, sessions) from the log.

    One compaction from the empty state over the whole log, by the one fold (docs/adr/0029).
    """
    with log_errors(store.log_path):  # each pass streams the log: memory stays flat however long it is
        log = store.log()
        log.cut_torn_tail()
        head = log.head()
        pending = fold_all(EMPTY, log.read()).pending()
    _remove_all(store.candidate_dir, keep={f"{c.id}.json" for c in pending})
    _remove_all(store.sessions.root, keep=set())
    try:
        origin = (store.read_manifest() or Manifest(origin=new_origin_id())).origin
    except MemoryReviewError:
        origin = new_origin_id()
    with log_errors(store.log_path):
        store._compact(Manifest(origin=origin), head, store.log().read(), rewrite_damaged=True)


def _remove_all(folder: Path, *, keep: set[str]) -> None:
    with storage_errors(folder):
        for name in list_dir(folder):
            if name.endswith(".json") and name not in keep:
                unlink(folder / name)  # a link is removed as a name, never followed (the backup holds it)
