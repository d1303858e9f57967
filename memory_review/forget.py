"""``memory-review forget``: take a text that must not be kept out of a store, and record that it was (ADR 0019).

For each store, under its lock::

    refuse a damaged log (a rewrite must never make tampering look valid)
    -> find every match: the log (any field of any event), the derived files, hooks/, git history
    -> re-chain the log with every match redacted, plus one ``store.forgotten`` event (no hash of
       the text: only counts and places), and swap it in atomically        <- the commit point
    -> rebuild every derived file from the new log (memory files under new names, candidates,
       sessions, MEMORY.md, manifest) and collect the old ones; redact hooks/; remove a repair's
       backup (backups/) that holds the text
    -> rewrite ``refs/memory-review/*``, drop the old objects, record the new head in history
    -> look again: whatever still holds the text is reported, never hidden

A crash before the swap leaves the store as it was; after it, the log is clean and
``memory-review verify --repair --apply`` (or running forget again) rebuilds what was not yet.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from memory_review.errors import IntegrityError, StorageError
from memory_review.events import EventDraft, LogHead
from memory_review.events.durable import atomic_replace
from memory_review.events.rewrite import Rewritten, extend, rechain, replace_log
from memory_review.events.safe_fs import read_file, read_file_or, unlink
from memory_review.file_reads import read_regular_file, storage_errors
from memory_review.forget_git import GitForget, forget_in_history, matches_in_refs
from memory_review.forget_text import JsonRedactor, LogRedactor, Needle
from memory_review.models import DurableScope
from memory_review.store import Store, log_errors

if TYPE_CHECKING:
    from memory_review.history import History

MAX_FILE_BYTES = 64 * 1024 * 1024
LOG = "events.jsonl"
GIT = "git history"
_NOT_SCANNED = {".lock", LOG, "history.git", "index"}
"""``index/``: the read indexes (ADR 0030), derived and machine-local; ``Workspace.forget`` rebuilds them all."""
_DERIVED = ("memory", "candidates", "sessions", "MEMORY.md", "manifest.json")
BACKUPS = "backups"
"""Copies ``verify --repair --apply`` made before it changed anything (docs/adr/0024)."""


@dataclass
class StoreForget:
    """What forget found and did in one store."""

    scope: DurableScope
    root: str
    found: dict[str, int] = field(default_factory=dict)
    """Place -> matches there before (``events.jsonl``, ``memory/``, ``hooks/``, ``git history`` ...)."""
    events: list[int] = field(default_factory=list)
    """Seqs of the events whose text changed (every later line changes by its ``prev`` only)."""
    contexts: list[int] = field(default_factory=list)
    """Seqs of ``context.built`` events that showed the text: replay reports them as changed."""
    event: int | None = None
    """The seq of the ``store.forgotten`` event (None: nothing was written)."""
    git: GitForget | None = None
    remaining: dict[str, int] = field(default_factory=dict)
    """Place -> matches still there after (empty when everything was reached)."""
    push_hint: list[str] = field(default_factory=list)
    """Per remote: how to take down what this clone published there, so sync publishes afresh."""

    @property
    def total(self) -> int:
        return sum(self.found.values())


@dataclass(kw_only=True)
class ForgetResult:
    """``forget`` over the stores asked for; a dry run (no ``--yes``) writes nothing. ``forget --json`` is
    ``ok`` and then these fields, in order (``cli_render.to_json``)."""

    dry_run: bool
    stores: list[StoreForget]

    @property
    def ok(self) -> bool:
        return not any(store.remaining for store in self.stores)


def forget_store(
    store: Store, history: History, needle: Needle, *, actor: str, reason: str, dry_run: bool
) -> StoreForget:
    """Find, and unless ``dry_run`` take out, every match of ``needle`` in one store (under its lock)."""
    report = StoreForget(scope=store.scope, root=str(store.root))
    if not store.exists():
        return report
    with store.locked():
        head, data = _checked_log(store)
        redactor = LogRedactor(needle, forget_seq=head.seq + 1, where=str(store.log_path))
        with log_errors(store.log_path):
            rewritten = rechain(data, redactor, where=store.log_path)
        report.found = _found(store, history, needle, redactor)
        report.events, report.contexts = rewritten.changed, redactor.contexts
        if report.total == 0 or dry_run:
            return report
        _take_out(store, history, needle, report, rewritten, head, actor=actor, reason=reason)
    return report


def _checked_log(store: Store) -> tuple[LogHead, bytes]:
    log = store.log()
    with log_errors(store.log_path):
        log.cut_torn_tail()  # we hold the lock: what the next append would do
        verdict = log.verify()
    if not verdict.ok:
        raise IntegrityError(
            f"the log has {len(verdict.problems)} problem(s) (first: {verdict.problems[0]}); "
            "forget never rewrites a damaged log",
            path=store.log_path,
            hint="run `memory-review verify` and restore the log first",
        )
    with storage_errors(store.log_path):  # read like every read of the log (ADR 0020)
        data = read_file_or(store.log_path, default=b"", single_link=True) or b""
    return verdict.head, data


def _found(store: Store, history: History, needle: Needle, redactor: LogRedactor) -> dict[str, int]:
    found: Counter[str] = Counter(redactor.found)
    for path, place in _store_files(store.root):
        data = read_regular_file(path, MAX_FILE_BYTES)
        if data is not None and needle.count_bytes(data):
            found[place] += needle.count_bytes(data)
    repo = history.repo()
    if repo is not None:
        found[GIT] += matches_in_refs(repo, needle)
    return {place: count for place, count in sorted(found.items()) if count}


def _store_files(root: Path) -> list[tuple[Path, str]]:
    """Every regular file in the store folder but the log, the lock and the git repository, with its place."""
    files = []
    for folder, dirs, names in os.walk(root):  # os.walk never follows a symlinked folder
        relative = Path(folder).relative_to(root)
        if relative == Path("."):
            dirs[:] = [d for d in dirs if d not in _NOT_SCANNED]
            names = [n for n in names if n not in _NOT_SCANNED]
        for name in names:
            path = Path(folder) / name
            if path.is_file() and not path.is_symlink():
                files.append((path, _place(path.relative_to(root))))
    return files


def _place(relative: Path) -> str:
    top = relative.parts[0]
    if len(relative.parts) == 1:
        return top if top in _DERIVED else f"other: {relative}"
    return f"{top}/" if top in (*_DERIVED, "hooks", BACKUPS) else f"other: {relative}"


def _take_out(
    store: Store,
    history: History,
    needle: Needle,
    report: StoreForget,
    rewritten: Rewritten,
    head: LogHead,
    *,
    actor: str,
    reason: str,
) -> None:
    from memory_review.repair import rebuild  # noqa: PLC0415 - repair's rebuild of every derived file

    manifest = store.read_manifest()
    origin = manifest.origin if manifest else "0" * 16
    draft = EventDraft(
        type="store.forgotten",
        actor=actor,
        reason=reason,
        forgotten={
            "kind": needle.kind,
            "found": report.found,
            "events": len(report.events),
            "first_seq": report.events[0] if report.events else None,
            "contexts": report.contexts,
        },
    )
    final = extend(rewritten, [draft], origin=origin)
    with log_errors(store.log_path):
        replace_log(store.log_path, final.data, expect=head)
    report.event = final.head.seq
    rebuild(store)
    _redact_hooks(store.root / "hooks", needle)
    _drop_backups(store.root / BACKUPS, needle)
    repo = history.repo()
    if repo is not None:
        report.git = forget_in_history(repo, history.ref, needle, forget_seq=report.event)
        history.record()  # the forget itself, on top of the rewritten history
        # What this clone published still holds the text, and no longer continues the log: delete it, and
        # the next sync publishes the rewritten history afresh (forget itself never touches the network).
        report.push_hint = [
            f"git -C {repo.git_dir} push {remote} --delete refs/memory-review/replicas/"
            f"{store.scope}/{origin}, then `memory-review sync {remote}`"
            for remote in repo.remote_names()
        ]
    report.remaining = _remaining(store, history, needle)


def _redact_hooks(folder: Path, needle: Needle) -> None:
    """Hook bookkeeping (error log, transcript offsets): JSON lines, each redacted where it matches."""
    for path, _place_name in _store_files(folder):
        data = read_regular_file(path, MAX_FILE_BYTES)
        if data is None or not needle.count_bytes(data):
            continue
        redactor = JsonRedactor(needle)
        lines = [_redact_line(line, redactor, needle) for line in data.splitlines(keepends=True)]
        try:
            atomic_replace(path, b"".join(lines))
        except OSError as exc:
            raise StorageError(f"{path}: {exc.strerror or exc}", path=path, errno=exc.errno) from exc


def _drop_backups(folder: Path, needle: Needle) -> None:
    """A repair's backup that holds the text is removed whole: it is a copy of files as they were before."""
    if not folder.is_dir() or folder.is_symlink():
        return
    for backup in sorted(folder.iterdir()):
        if not backup.is_dir() or backup.is_symlink():
            continue
        files = [Path(top) / name for top, _dirs, names in os.walk(backup) for name in names]  # its log too
        if any(needle.count_bytes(read_regular_file(path, MAX_FILE_BYTES) or b"") for path in files):
            for path in files:
                unlink(path)
            for sub in sorted((p for p in backup.rglob("*") if p.is_dir()), reverse=True):
                sub.rmdir()
            backup.rmdir()


def _redact_line(line: bytes, redactor: JsonRedactor, needle: Needle) -> bytes:
    if not needle.count_bytes(line):
        return line
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return needle.sub(line.decode("utf-8", "replace"))[0].encode("utf-8")
    return orjson.dumps(redactor.value(value, place="hooks/"), option=orjson.OPT_SORT_KEYS) + b"\n"


def _remaining(store: Store, history: History, needle: Needle) -> dict[str, int]:
    """Every place that still holds a match after the rewrite (the log included: counted by a redaction)."""
    counter = LogRedactor(needle)
    with log_errors(store.log_path):
        rechain(read_file(store.log_path, single_link=True), counter, where=store.log_path)
    return _found(store, history, needle, counter)
