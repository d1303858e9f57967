"""Trust on first use: the record of what a person on this machine approved (docs/adr/0021).

A store can arrive from elsewhere — a ``git clone`` of a repository that commits
its ``.memory-review/``, a copied folder, a ``sync`` from teammates — with memories
its log says were "applied". Its log is the repository's word, not ours. So the
one thing injection believes is a *trust ledger* kept in the user's own store
folder, outside any repository, one small JSON file per store, keyed by the
store's real path::

    <user store>/trust/<sha256(real path)[:32]>.json
    {"v": 1, "store": "/real/path/.memory-review", "scope": "project",
     "trusted": {"<sha256 of a memory file>": "<memory id>", ...},
     "refused": {"<sha256>": "<memory id>", ...}, "remotes": ["origin"]}

A memory is injected only if the sha256 of its current file is in ``trusted``.
The hash covers the whole rendered record (id, scope, type, text, who applied it
and when), so trusting one version never trusts another. Every other memory of
the store is *foreign*: not injected, shown for review (``memory-review trust``).

The ledger grows only through :meth:`TrustRecords.record`, which the workspace's
commit calls before each commit point with what a person's decision grants
(:func:`decisions_of`): an apply or revert grants the versions it writes; a
``memory.trusted`` event the versions it names; ``memory.refused`` refuses them;
``trust.remote`` turns a remote's approvals on or off.

Beside each ledger, ``<key>.head`` anchors the store's log head as this machine last committed it
(``{"v": 1, "store": ..., "seq": N, "hash": "<sha256 of line N>"}``, ADR 0025). The log is the
repository's to rewrite; the anchor is not. A log that no longer extends the anchored head was
rewritten (or rolled back) by someone else: ``verify`` says so, and the gate serves nothing of that
store until a person looks (``verify --repair`` anchors the log as it now is).

Beside it too, ``<key>.notes`` records the session notes this machine's agents wrote to the store, by
session (the last :data:`MAX_NOTED_SESSIONS`), each note's sha256 as its commit wrote it::

    {"v": 1, "store": "/real/path/.memory-review", "sessions": [["<session id>", {"<memory id>": "<sha256>"}], ...]}

A session note is written with no review (ADR 0021: the session's own scratch notes), but a cloned or
copied store can carry ``session.written`` events for any session id: those are the repository's text.
So a note is served only if this machine recorded its current version (:meth:`TrustRecords.session_notes`).
It is read only when a session has notes; the per-prompt path never reads it (a session with notes
takes the full path), so it stays out of the ledger that path parses on every prompt.

This module is on the per-prompt path (ADR 0013): reading a ledger or an anchor is one
``events.safe_fs`` read (no link followed, no FIFO wait) and one ``orjson.loads``; nothing else. What a
ledger and an anchor decide — which versions are served, which are foreign, whether a log extends its
anchor, whether a ledger is one of this store — is :mod:`memory_review.lean.trust`, which the prompt hook
runs without the core: one gate, two callers.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from memory_review.errors import IntegrityError, StorageError
from memory_review.events import LogHead
from memory_review.events.durable import atomic_replace, remove_temp_files
from memory_review.events.safe_fs import UnsafeFile, read_file
from memory_review.lean import trust as gate_rules
from memory_review.lean.files import store_key  # noqa: F401 (one key, shared with the per-prompt path)
from memory_review.limits import MAX_SESSION_MEMORIES
from memory_review.models import DurableScope, Memory

if TYPE_CHECKING:
    from memory_review.rules import Plan
    from memory_review.store import Store
    from memory_review.store_view import StoreView

TRUST_DIR = "trust"
HEAD_SUFFIX = ".head"
"""The anchor of a store's log head, beside its ledger (not ``.json``: it is no ledger)."""
MAX_ANCHOR_BYTES = gate_rules.MAX_ANCHOR_BYTES
LEDGER_VERSION = gate_rules.LEDGER_VERSION
MAX_LEDGER_BYTES = gate_rules.MAX_LEDGER_BYTES  # 10,000 memories with a long history of versions fit in ~2 MB
SHA256_RE = gate_rules.SHA256_RE
NOTES_SUFFIX = ".notes"
"""The session notes this machine wrote to a store, beside its ledger (not ``.json``: it is no ledger)."""
MAX_NOTED_SESSIONS = 64
"""Sessions whose notes are remembered per store: an older session's notes are no longer served."""
MAX_NOTES_BYTES = 2 * 1024 * 1024
"""64 sessions of 100 notes, each a memory id (at most 64 characters) and a sha256, are under 1 MB."""
GRANTING_TYPES = frozenset({"candidate.applied", "memory.reverted"})
"""A person's decisions whose new memory versions are trusted as they are committed."""


@dataclass
class Ledger:
    """What a person on this machine decided about one store's memories."""

    path: Path
    store: str
    scope: DurableScope
    trusted: dict[str, str] = field(default_factory=dict)
    """sha256 of an approved memory file -> its memory id."""
    refused: dict[str, str] = field(default_factory=dict)
    """sha256 of a memory version a person declined to trust -> its memory id (not asked again)."""
    remotes: list[str] = field(default_factory=list)
    """Remotes whose teammates' approvals count here (``trust --remote``; off by default)."""
    revoked: dict[str, list[Any]] = field(default_factory=dict)
    """sha256 of a trusted version -> [memory id, seq]: a person's commit at ``seq`` replaced or deleted it,
    so a view at or past ``seq`` that shows it again shows what the log alone brought back (ADR 0025)."""
    exists: bool = False
    """Whether the file was there: a store with no ledger predates trust records, or is a clone."""

    def keeps(self, sha256: str | None, seq: int | None = None) -> bool:
        """Whether the memory version with this hash may be injected from a view at log event ``seq``."""
        return gate_rules.keeps(self.trusted, self.revoked, sha256, seq)

    def superseded(self, sha256: str, seq: int | None) -> bool:
        """Whether a person here replaced this version at or before ``seq`` (None: at any time)."""
        return gate_rules.superseded(self.revoked, sha256, seq)

    def undecided(self, sha256: str | None, seq: int | None = None) -> bool:
        """Whether nobody here has decided about this version yet (foreign and still to review)."""
        return gate_rules.undecided(self.trusted, self.refused, self.revoked, sha256, seq)

    def to_bytes(self) -> bytes:
        data = {
            "v": LEDGER_VERSION,
            "store": self.store,
            "scope": self.scope,
            "trusted": self.trusted,
            "refused": self.refused,
            "remotes": sorted(set(self.remotes)),
        }
        if self.revoked:
            data["revoked"] = self.revoked
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS) + b"\n"


@dataclass
class SessionNotes:
    """The session notes this machine's agents wrote to one store: the only notes of it that are served."""

    path: Path
    store: str
    sessions: dict[str, dict[str, str]] = field(default_factory=dict)
    """session id -> memory id -> sha256 of the note as this machine wrote it; the oldest session first,
    and in each the oldest note first (the order is what :meth:`note` trims by)."""

    def keeps(self, session_id: str, note: Memory) -> bool:
        """Whether this machine wrote this version of the session's note (only a recorded id is hashed)."""
        from memory_review.sessions import note_sha256

        recorded = self.sessions.get(session_id, {}).get(note.id)
        return recorded is not None and recorded == note_sha256(note)

    def note(self, written: Mapping[str, Mapping[str, str | None]]) -> None:
        """Add what a commit writes (session -> memory id -> sha256, None: removed), newest last, within bounds."""
        for session_id, notes in written.items():
            kept = self.sessions.pop(session_id, {})
            for memory_id, sha in notes.items():
                kept.pop(memory_id, None)
                if sha is not None:
                    kept[memory_id] = sha
            self.sessions[session_id] = dict(list(kept.items())[-MAX_SESSION_MEMORIES:])
        for stale in list(self.sessions)[:-MAX_NOTED_SESSIONS]:
            del self.sessions[stale]

    def to_bytes(self) -> bytes:
        # Not OPT_SORT_KEYS: the order of the sessions and of each one's notes is their age.
        sessions = [[session_id, notes] for session_id, notes in self.sessions.items()]
        return orjson.dumps({"v": LEDGER_VERSION, "store": self.store, "sessions": sessions}) + b"\n"


@dataclass(frozen=True)
class Anchor:
    """The log head this machine last committed to a store: the log must always extend it."""

    seq: int
    hash: str
    path: Path

    def contradicted_by(self, head: LogHead) -> str | None:
        """Why a log whose head is ``head`` cannot extend this anchor (None: it may; only a full read knows)."""
        found = gate_rules.contradiction((self.seq, self.hash), (head.seq, head.hash))
        if found == "rolled back":
            return (
                f"the log ends at event {head.seq}, but this machine committed event {self.seq} to it "
                f"(anchored in {self.path}): it was rolled back or rewritten"
            )
        if found == "rewritten":
            return (
                f"event {self.seq} is not the one this machine committed (anchored in {self.path}): "
                "the log was rewritten"
            )
        return None


@dataclass(frozen=True)
class Decisions:
    """What one commit's drafts decide about trust (empty for most commits)."""

    trust: dict[str, str] = field(default_factory=dict)
    refuse: dict[str, str] = field(default_factory=dict)
    remotes: dict[str, bool] = field(default_factory=dict)
    revoke: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Versions a person's commit replaced: sha256 -> (memory id, the commit's first seq); see Ledger.revoked."""

    def __bool__(self) -> bool:
        return bool(self.trust or self.refuse or self.remotes or self.revoke)


class TrustRecords:
    """The trust ledgers of every store, kept under ``<user store>/trust/``."""

    def __init__(self, user_dir: Path) -> None:
        self.folder = user_dir / TRUST_DIR
        self.foreign: dict[DurableScope, list[tuple[str, str]]] = {}
        """The foreign (id, sha256) pairs the last :meth:`gate` left out, by scope (for the hook's notice)."""
        self.rewritten: dict[DurableScope, str] = {}
        """Why the last :meth:`gate` served nothing of a store whose log was rewritten, by scope."""

    def ledger_path(self, store: Store) -> Path:
        return self.folder / f"{store_key(store.root)[1]}.json"

    def ledger(self, store: Store) -> Ledger:
        """The ledger of ``store`` (empty, ``exists=False``, when none was written yet)."""
        real, _key = store_key(store.root)
        path = self.ledger_path(store)
        data = self._read(path)
        if data is None:
            return Ledger(path, real, store.scope)
        return _decode(data, path, real, store.scope)

    def gate(self, view: StoreView) -> StoreView:
        """``view`` showing only the memories a person on this machine approved (the injection gate).

        The ledger is read *after* the view: a commit writes its ledger entries before its commit
        point, so every version a view can see that a person approved is already in the ledger.
        A store whose log no longer extends its anchored head shows nothing (:meth:`rewritten_log`).
        """
        ledger = self.ledger(view.store)
        problem = self.rewritten_log(view)
        if problem is not None:
            self.rewritten[view.scope] = problem
            self.foreign[view.scope] = []
            return view.only([])
        self.rewritten.pop(view.scope, None)
        sha256 = view.sha256
        versions = ((memory_id, sha256(memory_id)) for memory_id in view.ids())
        kept, foreign = gate_rules.partition(versions, ledger.trusted, ledger.refused, ledger.revoked, view.head.seq)
        self.foreign[view.scope] = foreign
        return view.only(kept)

    def rewritten_log(self, view: StoreView) -> str | None:
        """Why ``view``'s log cannot extend the anchored head, from the heads alone (cheap, per prompt).

        The anchor is written after a commit point, so it may be newer than a view read just before a
        commit: a view behind the anchor is checked against the log's head as it is now.
        """
        anchor = self.anchor(view.store)
        if anchor is None:
            return None
        problem = anchor.contradicted_by(view.head)
        if problem is not None and view.head.seq < anchor.seq:
            problem = anchor.contradicted_by(view.store.log().head())
        return problem

    def head_path(self, store: Store) -> Path:
        return self.folder / f"{store_key(store.root)[1]}{HEAD_SUFFIX}"

    def anchor(self, store: Store) -> Anchor | None:
        """The anchored log head of ``store`` (None: this machine never committed to it)."""
        path = self.head_path(store)
        data = self._read(path, "anchor of the log head", MAX_ANCHOR_BYTES)
        if data is None:
            return None
        try:
            raw = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise _damaged(path, f"not JSON ({exc})", what="log head anchor") from exc
        real = store_key(store.root)[0]
        if gate_rules.anchor_problem(raw, real):
            raise _damaged(path, f"not a version 1 anchor of {real!r}", what="log head anchor")
        return Anchor(raw["seq"], raw["hash"], path)

    def anchor_head(self, store: Store, head: LogHead) -> None:
        """Anchor ``head`` as the log head this machine committed (after a commit point, under the lock).

        The folder is not fsynced: an anchor lost in a crash is an older one, which the log still extends.
        """
        real = store_key(store.root)[0]
        data = (
            orjson.dumps(
                {"v": LEDGER_VERSION, "store": real, "seq": head.seq, "hash": head.hash}, option=orjson.OPT_SORT_KEYS
            )
            + b"\n"
        )
        self._replace(self.head_path(store), data, "anchor the log head", sync_dir=False)

    def record(self, store: Store, decisions: Decisions) -> Ledger:
        """Add ``decisions`` to the store's ledger, durably (temp file, fsync, rename, fsync the folder).

        Called under the store's lock, so two writers of one ledger never race.
        """
        ledger = self.ledger(store)
        for sha, memory_id in decisions.trust.items():
            ledger.trusted[sha] = memory_id
            ledger.refused.pop(sha, None)
            ledger.revoked.pop(sha, None)  # a person brought this version back (a revert, a trust)
        for sha, (memory_id, seq) in decisions.revoke.items():
            if sha in ledger.trusted and sha not in decisions.trust:
                ledger.revoked[sha] = [memory_id, seq]
        for sha, memory_id in decisions.refuse.items():
            if sha not in ledger.trusted:
                ledger.refused[sha] = memory_id
        for remote, on in decisions.remotes.items():
            ledger.remotes = [r for r in ledger.remotes if r != remote] + ([remote] if on else [])
        self.write(ledger)
        return ledger

    def notes_path(self, store: Store) -> Path:
        return self.folder / f"{store_key(store.root)[1]}{NOTES_SUFFIX}"

    def session_notes(self, store: Store) -> SessionNotes:
        """The session notes this machine wrote to ``store`` (none recorded: no note of it is served)."""
        real = store_key(store.root)[0]
        path = self.notes_path(store)
        data = self._read(path, "record of session notes", MAX_NOTES_BYTES)
        if data is None:
            return SessionNotes(path, real)
        try:
            raw = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise _damaged(path, f"not JSON ({exc})", what="record of session notes", hint=NOTES_HINT) from exc
        problem = notes_problem(raw, real)
        if problem is not None:
            raise _damaged(path, problem, what="record of session notes", hint=NOTES_HINT)
        return SessionNotes(path, real, {session_id: notes for session_id, notes in raw["sessions"]})

    def note_sessions(self, store: Store, written: Mapping[str, Mapping[str, str | None]]) -> None:
        """Record the session notes a commit of this machine's agent wrote (:func:`session_notes_of`), under the
        store's lock and after the commit point, like the anchor: a crash between leaves a note this machine
        wrote unserved, never serves one it did not write. Never the ledger: a clone stays without one."""
        notes = self.session_notes(store)
        notes.note(written)
        self._replace(notes.path, notes.to_bytes(), "record the session notes")

    def write(self, ledger: Ledger) -> None:
        self._replace(ledger.path, ledger.to_bytes(), "write the trust record")
        ledger.exists = True

    def _replace(self, path: Path, data: bytes, doing: str, *, sync_dir: bool = True) -> None:
        """One record of this folder replaced whole (temp file, fsync, rename); ``doing`` names it in the error."""
        self.ensure_folder()
        try:
            atomic_replace(path, data, sync_dir=sync_dir)
        except OSError as exc:
            raise StorageError(f"cannot {doing}: {exc.strerror or exc}", path=path, errno=exc.errno) from exc

    def start(self, store: Store) -> None:
        """Give a store this machine just created an (empty) ledger: its own store, trusted from the start."""
        ledger = self.ledger(store)
        if not ledger.exists:
            self.write(ledger)
        self.anchor_head(store, store.log().head())  # an old store's anchor at this path no longer holds

    def collect(self, store: Store) -> None:
        """Remove temp files a crashed ledger write of ``store`` left (call under its lock: no live writer).

        The notices' temp files go too: a hook writing one right now loses only a notice.
        """
        names = (self.ledger_path(store).name, self.head_path(store).name, self.notes_path(store).name, "notices.json")
        remove_temp_files(self.folder, names)

    def ledger_at(self, store_root: Path, scope: DurableScope) -> Ledger:
        """The ledger kept for a store folder by its path, whether or not a store is there now."""
        real, key = store_key(store_root)
        path = self.folder / f"{key}.json"
        data = self._read(path)
        return Ledger(path, real, scope) if data is None else _decode(data, path, real, scope)

    def carry(self, old_root: Path, store: Store) -> None:
        """Give ``store`` the decisions recorded for the store that was at ``old_root`` (moved or copied by
        its owner: the ledger is keyed by path, so a move alone loses them)."""
        old_path = self.folder / f"{store_key(old_root)[1]}.json"
        data = self._read(old_path)
        if data is None:
            return
        old = _decode(data, old_path, store_key(old_root)[0], store.scope)
        real, _key = store_key(store.root)
        self.write(
            Ledger(self.ledger_path(store), real, store.scope, old.trusted, old.refused, old.remotes, old.revoked)
        )
        self.anchor_head(store, store.log().head())  # the moved store's log, as its owner brought it

    def ensure_folder(self) -> None:
        """Create ``trust/`` if missing; refuse one that is not a real directory (a planted symlink)."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            info = os.lstat(self.folder)
        except OSError as exc:
            raise StorageError(
                f"cannot create {self.folder}: {exc.strerror or exc}", path=self.folder, errno=exc.errno
            ) from exc
        if not stat.S_ISDIR(info.st_mode):
            raise IntegrityError(
                "is not a real directory; the trust record is kept only in a real directory", path=self.folder
            )

    def _read(self, path: Path, what: str = "trust record", limit: int = MAX_LEDGER_BYTES) -> bytes | None:
        if os.path.islink(self.folder):
            raise IntegrityError("is a symlink; the trust record is kept only in a real directory", path=self.folder)
        try:
            return read_file(path, limit)  # safe_fs: no link, no FIFO wait (ADR 0020)
        except FileNotFoundError:
            return None
        except UnsafeFile as exc:
            raise IntegrityError(
                f"the {what} {exc.reason}; it must be a regular file of a sane size", path=path
            ) from exc
        except OSError as exc:
            raise IntegrityError(
                f"cannot open the {what} ({exc.strerror}); it must be a regular file", path=path
            ) from exc


def _decode(data: bytes, path: Path, real: str, scope: DurableScope) -> Ledger:
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise _damaged(path, f"not JSON ({exc})") from exc
    problem = gate_rules.ledger_problem(raw, real, scope)
    if problem is not None:
        raise _damaged(path, problem)
    return Ledger(
        path, real, scope, raw["trusted"], raw["refused"], raw["remotes"], raw.get("revoked", {}), exists=True
    )


def _damaged(path: Path, why: str, *, what: str = "trust record", hint: str | None = None) -> IntegrityError:
    return IntegrityError(
        f"damaged {what}: {why}",
        path=path,
        hint=hint
        or "nothing of that store is injected; remove the file and review the store again with `memory-review trust`",
    )


NOTES_HINT = "no session note of that store is served; remove the file (the notes it recorded are then not served)"


def notes_problem(raw: object, real: str) -> str | None:
    """Why a decoded record of session notes is not a version 1 record of the store at ``real`` (None: it is)."""
    if not isinstance(raw, dict) or raw.get("v") != LEDGER_VERSION:
        return "not a version 1 record of session notes"
    if raw.get("store") != real:
        return f"it records store {raw.get('store')!r}, not {real!r}"
    sessions = raw.get("sessions")
    if not isinstance(sessions, list):
        return "sessions is not a list"
    for entry in sessions:
        if not (
            isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str) and isinstance(entry[1], dict)
        ):
            return "a session is not [session id, notes]"
        if not all(isinstance(sha, str) and SHA256_RE.match(sha) for sha in entry[1].values()):
            return f"session {entry[0][:80]!r} holds a note that is not a sha256"
    return None


def decisions_of(plan: Plan, sha256_of: Mapping[str, str] | None = None) -> Decisions:
    """What a plan's person-made drafts decide about trust; ``sha256_of`` gives known hashes by memory id."""
    from memory_review.record_io import memory_sha256  # renders a record: only decisions need it

    decisions = Decisions()
    delta = plan.folded().memories if any(d.type in GRANTING_TYPES for d in plan.drafts) else {}
    for draft in plan.drafts:
        if draft.type in GRANTING_TYPES:
            for memory_id in (c.memory for c in draft.changes or () if c.after is not None):
                memory = delta.get(memory_id)
                if memory is not None:
                    known = sha256_of.get(memory_id) if sha256_of else None
                    decisions.trust[known or memory_sha256(memory)] = memory_id
        elif draft.type in ("memory.trusted", "memory.refused") and draft.trust:
            target = decisions.trust if draft.type == "memory.trusted" else decisions.refuse
            target.update(_named(draft.trust.get("memories", ())))
        elif draft.type == "trust.remote" and draft.trust:
            decisions.remotes[str(draft.trust["remote"])] = bool(draft.trust.get("trusted"))
    return decisions


def session_notes_of(plan: Plan) -> dict[str, dict[str, str | None]]:
    """The session notes a plan writes: session -> memory id -> the note's sha256 (None: removed), by the fold."""
    from memory_review.sessions import SESSION_EVENT, note_sha256

    if not any(d.type == SESSION_EVENT for d in plan.drafts):
        return {}
    return {
        session_id: {mid: note_sha256(memory) if memory is not None else None for mid, memory in changes.items()}
        for session_id, changes in plan.folded().sessions.items()
    }


REPLACING_TYPES = GRANTING_TYPES | {"memory.deleted"}


def revocations(plan: Plan, current_sha256: Callable[[str], str | None], seq: int) -> Decisions:
    """The versions a person's plan replaces or deletes (their current hashes), revoked from ``seq`` on."""
    revoke: dict[str, tuple[str, int]] = {}
    for draft in plan.drafts:
        if draft.type in REPLACING_TYPES:
            for change in draft.changes or ():
                sha = current_sha256(change.memory) if change.before is not None else None
                if sha:
                    revoke[sha] = (change.memory, seq)
    return Decisions(revoke=revoke)


def _named(memories: Iterable[dict[str, Any]]) -> dict[str, str]:
    return {str(m["sha256"]): str(m["memory"]) for m in memories}
