"""Reviewing foreign memories: what they are, where they came from, and the decisions about them (ADR 0021).

A *foreign* memory is one in a store whose current version no person on this
machine approved: the store came with a ``git clone`` or a copy, or the version
arrived by ``sync``. Each is listed with its warnings — the safety scan run on it
again here, plus the flags its own candidate carried where the store's log (the
replica's records) still holds them — and where it came from.

The decisions are pure: each returns the plan of one event a person makes
(``memory.trusted``, ``memory.refused``, ``trust.remote``); the workspace commits it,
and its commit records the decision in the trust ledger before the commit point.

A decision is per version (ADR 0021): ``trust list`` names each one ``ID@VERSION`` (the first
:data:`VERSION_CHARS` of its sha256), and ``trust apply ID@VERSION`` trusts that version or nothing —
checked under the store's lock, so a ``git pull`` or a ``sync`` between the look and the decision
cannot swap the text (session 39's review F8). A bare ``ID`` trusts the current version, and the
command prints the note it trusted.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from memory_review.candidate import FLAG_OVERRIDDEN, FLAG_OVERRIDES
from memory_review.errors import ConflictError, ValidationError
from memory_review.events import Event, EventDraft, EventType
from memory_review.models import DurableScope, Memory, MemoryType, Strict
from memory_review.reviewed import ReviewedRecords
from memory_review.rules import Plan
from memory_review.safety import (
    FLAG_BLANK_PADDING,
    FLAG_HIDDEN_UNICODE,
    FLAG_INJECTION,
    FLAG_LOOK_ALIKE,
    FLAG_SECRET,
    scan,
)
from memory_review.store import Store, log_errors
from memory_review.store_view import StoreView
from memory_review.trust import GRANTING_TYPES, Ledger

FROM_STORE = "store"
"""Came with the store itself (a clone, a copy, a pull of a committed store, or a store from before trust records)."""
FROM_SYNC = "sync"
"""Arrived from teammates through ``memory-review sync``."""
HELD_FLAGS = frozenset({FLAG_INJECTION, FLAG_SECRET, FLAG_HIDDEN_UNICODE, FLAG_BLANK_PADDING, FLAG_LOOK_ALIKE})
VERSION_CHARS = 32
"""How much of a version's sha256 ``trust list`` shows and ``trust apply ID@VERSION`` takes (the whole hash too).

128 bits: the repository's author writes both versions, so a shorter name is a birthday search away (12 hex
digits: two versions sharing them took 54 s, session 39's re-review)."""


@dataclass(frozen=True)
class ForeignMemory:
    """A memory injection leaves out until a person here trusts it."""

    scope: DurableScope
    memory: Memory
    sha256: str
    flags: tuple[str, ...]
    source: str
    origin: str | None
    """The replica id of the store that wrote the event which made this version, when the log says."""
    status: str = "foreign"
    """``foreign``, or ``unreviewed``: its log's apply did not write the record a person reviewed (ADR 0025)."""
    problem: str | None = None
    """For ``unreviewed``: what the apply did instead (never trusted by ``trust --all`` or a trusted remote)."""

    @property
    def id(self) -> str:
        return self.memory.id

    @property
    def pinned(self) -> str:
        """``ID@VERSION``: the name ``trust apply`` takes for exactly this version."""
        return pinned(self.memory.id, self.sha256)

    def document(self) -> ForeignDocument:
        """What ``trust --json`` prints for it (``cli_render.to_json``)."""
        m = self.memory
        return ForeignDocument.model_construct(  # built from checked records: no revalidation
            id=m.id,
            scope=self.scope,
            sha256=self.sha256,
            type=m.type,
            description=m.description,
            body=m.body,
            flags=self.flags,
            source=self.source,
            origin=self.origin,
            status=self.status,
            problem=self.problem,
            applied_by=m.applied_by,
            updated_at=m.updated_at,
        )


class ForeignDocument(Strict):
    """A foreign memory as one document: the memory's texts beside why it waits, and who approved it where."""

    id: str
    scope: DurableScope
    sha256: str
    type: MemoryType
    description: str
    body: str
    flags: tuple[str, ...]
    source: str
    origin: str | None
    status: str
    problem: str | None
    applied_by: str | None
    updated_at: str


def undecided(view: StoreView, ledger: Ledger) -> dict[str, str]:
    """The memories of ``view`` nobody here has trusted or refused: id -> sha256 of the current version."""
    pairs = ((memory_id, view.sha256(memory_id)) for memory_id in view.ids())
    return {memory_id: sha for memory_id, sha in pairs if sha and ledger.undecided(sha, view.head.seq)}


def untrusted(view: StoreView, ledger: Ledger) -> dict[str, str]:
    """The memories not trusted here (undecided or refused): id -> sha256, each named by its ``ID@VERSION`` (short
    and whole) too, so a decision can name the version the person saw; an older version's name is not here."""
    pairs = ((memory_id, view.sha256(memory_id)) for memory_id in view.ids())
    found = {memory_id: sha for memory_id, sha in pairs if sha and not ledger.keeps(sha, view.head.seq)}
    return found | {f"{m}@{version}": sha for m, sha in found.items() for version in (version_of(sha), sha)}


def version_of(sha256: str) -> str:
    """The short version id ``trust list`` shows for a memory version."""
    return sha256[:VERSION_CHARS]


def pinned(memory_id: str, sha256: str) -> str:
    """``ID@VERSION`` for one memory version (a memory id never holds an ``@``: ids are slugs)."""
    return f"{memory_id}@{version_of(sha256)}"


def _memory_of(name: str) -> str:
    """The memory id an ``ID`` or ``ID@VERSION`` name stands for."""
    return name.partition("@")[0]


def foreign_memories(
    store: Store, view: StoreView, ledger: Ledger, served_elsewhere: Callable[[], Container[str]] = frozenset
) -> list[ForeignMemory]:
    """The undecided memories of a store, read and checked, with their flags and where they came from.

    ``served_elsewhere`` gives the ids the other durable store serves now (asked only when something waits).
    Trusting a project memory under one of them takes that user memory out of every block (the merge by id), so
    it is flagged as a candidate would be (``overrides:``, session 39's re-review); a user memory under one is
    never served (``overridden-by:``)."""
    pending = undecided(view, ledger)
    if not pending:
        return []  # the common case reads no log at all, nor the other store
    elsewhere = served_elsewhere()
    origins = _last_changes(store, pending)
    found = []
    for memory_id, sha in sorted(pending.items()):
        memory = view.memory(memory_id)
        if memory is None:
            continue
        event, flags, problem = origins.get(memory_id, (None, (), None))
        source = FROM_SYNC if event is not None and event.type == "sync.merged" else FROM_STORE
        tier = _tier_flag(store.scope, memory_id) if memory_id in elsewhere else set()
        all_flags = tuple(sorted(scan(memory.description) | scan(memory.body) | set(flags) | tier))
        origin = (_sender(event, memory_id) if source == FROM_SYNC else event.origin) if event is not None else None
        status = "unreviewed" if problem else "foreign"
        found.append(ForeignMemory(store.scope, memory, sha, all_flags, source, origin, status, problem))
    return found


def _tier_flag(scope: DurableScope, memory_id: str) -> set[str]:
    return {(FLAG_OVERRIDES if scope == "project" else FLAG_OVERRIDDEN) + memory_id}


def held_for_review(foreign: ForeignMemory) -> bool:
    """Whether a memory must wait for a person even where a remote's approvals count, and is left out of
    ``trust --all``: flagged, hiding a memory of the other store, or written by an apply of something nobody
    reviewed."""
    held = bool(HELD_FLAGS & set(foreign.flags)) or any(f.startswith(FLAG_OVERRIDES) for f in foreign.flags)
    return held or foreign.problem is not None


LastChange = tuple[Event, tuple[str, ...], str | None]
"""The last event that changed a memory, the flags its records carried, and why it was no reviewed apply."""


def _last_changes(store: Store, wanted: dict[str, str]) -> dict[str, LastChange]:
    """For each wanted memory: the last event that changed it, its records' flags, and any unreviewed apply."""
    flags_of_candidate: dict[str, tuple[str, ...]] = {}
    last: dict[str, LastChange] = {}
    records = ReviewedRecords()
    with log_errors(store.log_path):
        for event in store.log().read():
            if event.record is not None and event.candidate:
                flags_of_candidate[event.candidate] = tuple(str(f) for f in event.record.get("flags", ()))
            unreviewed = records.check(event)
            problem = unreviewed.message() if unreviewed is not None else None
            for change in event.changes or ():
                if change.memory in wanted and event.type != "session.written":
                    flags = flags_of_candidate.get(event.candidate or "", ()) + _synced_flags(event, change.memory)
                    last[change.memory] = (event, flags, problem)
    return last


def _synced_flags(event: Event, memory_id: str) -> tuple[str, ...]:
    """The flags a ``sync.merged`` event says a teammate's version arrived with (its ``adopt`` entries:
    the replica's candidate's flags plus the scan the sync ran on it, ADR 0018)."""
    if event.type != "sync.merged" or not event.sync:
        return ()
    return tuple(
        str(f)
        for item in _dicts(event.sync.get("adopt"))
        if item.get("memory") == memory_id
        for f in item.get("flags", ())
        if isinstance(f, str)
    )


def _sender(event: Event, memory_id: str) -> str | None:
    """The replica a synced version came from, as its ``adopt`` entry names it (else the event's own)."""
    senders = [
        item.get("origin")
        for item in _dicts((event.sync or {}).get("adopt"))
        if item.get("memory") == memory_id and isinstance(item.get("origin"), str)
    ]
    return senders[-1] if senders else event.origin


def _dicts(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, list):
        yield from (item for item in value if isinstance(item, dict))


# --- the decisions (pure) ----------------------------------------------------------------------


@dataclass(frozen=True)
class Trusted:
    """``trust apply``: the events that record it (its JSON, as before), and each version it trusted beside the
    memory it is, so the person reads what will be injected (a bare ``ID`` takes whatever version is current)."""

    events: list[Event]
    versions: list[tuple[Memory, str]]
    """(memory, sha256) for each trusted version the store still holds."""

    def document(self) -> list[Event]:
        return self.events


def trusted_versions(events: Iterable[Event], held: Iterable[Memory]) -> Trusted:
    """The versions ``events`` trusted, matched by their hash among the memories the stores ``held`` now."""
    from memory_review.record_io import memory_sha256  # on use: only `trust apply` shows them

    events = list(events)
    entries = [
        entry
        for event in events
        if event.type == "memory.trusted" and event.trust
        for entry in event.trust.get("memories", ())
    ]
    named, wanted = {e.get("memory") for e in entries}, {e.get("sha256") for e in entries}
    found = ((memory, memory_sha256(memory)) for memory in held if memory.id in named)
    return Trusted(events, [(memory, sha) for memory, sha in found if sha in wanted])


def _entries(chosen: dict[str, str]) -> list[dict[str, str]]:
    """One entry per memory, however it was named (``ID``, ``ID@VERSION``: the same current version)."""
    by_memory = {_memory_of(name): sha for name, sha in chosen.items()}
    return [{"memory": memory_id, "sha256": sha} for memory_id, sha in sorted(by_memory.items())]


def trust_plan(chosen: dict[str, str], *, actor: str, reason: str | None = None) -> Plan:
    """Trust these memory versions (id -> sha256): one ``memory.trusted`` event."""
    return Plan(
        drafts=[EventDraft(type="memory.trusted", actor=actor, reason=reason, trust={"memories": _entries(chosen)})]
    )


def refuse_plan(chosen: dict[str, str], *, actor: str, reason: str | None = None) -> Plan:
    """Decline to trust these versions: never injected, never asked about again (``memory.refused``)."""
    return Plan(
        drafts=[EventDraft(type="memory.refused", actor=actor, reason=reason, trust={"memories": _entries(chosen)})]
    )


def remote_plan(remote: str, *, trusted: bool, actor: str) -> Plan:
    """Let (or stop letting) the approvals of teammates syncing through ``remote`` count here."""
    return Plan(drafts=[EventDraft(type="trust.remote", actor=actor, trust={"remote": remote, "trusted": trusted})])


def moved_plan(view: StoreView, here: Ledger, old: Ledger, *, actor: str, reason: str) -> Plan | None:
    """What a person decided where a moved project used to be, for the versions this store still holds.

    Only exact versions carry (a ledger names file hashes): a memory changed since is foreign again.
    """
    current = {memory_id: view.sha256(memory_id) for memory_id in view.ids()}
    trust = {m: sha for m, sha in current.items() if sha and old.keeps(sha) and not here.keeps(sha)}  # not revoked
    refuse = {m: sha for m, sha in current.items() if sha and sha in old.refused and here.undecided(sha)}
    decided: tuple[tuple[EventType, dict[str, str]], ...] = (("memory.trusted", trust), ("memory.refused", refuse))
    drafts = [
        EventDraft(type=kind, actor=actor, reason=reason, trust={"memories": _entries(chosen)})
        for kind, chosen in decided
        if chosen
    ]
    drafts += [
        EventDraft(type="trust.remote", actor=actor, trust={"remote": remote, "trusted": True})
        for remote in old.remotes
        if remote not in here.remotes
    ]
    return Plan(drafts=drafts) if drafts else None


def check_named(known: set[str], memory_ids: Iterable[str], *, scope: DurableScope | None) -> None:
    """A usage error naming every id that is not a memory waiting for this decision; a conflict naming every
    ``ID@VERSION`` whose memory waits in another version than the one named (it changed since it was listed)."""
    missing = [memory_id for memory_id in dict.fromkeys(memory_ids) if memory_id not in known]
    changed = [name for name in missing if "@" in name and _memory_of(name) in known]
    if changed:
        now = "; ".join(f"{name} is now {', '.join(_current_versions(known, _memory_of(name)))}" for name in changed)
        raise ConflictError(
            f"not the version waiting now: {now}; nothing was trusted",
            memory_id=_memory_of(changed[0]),
            hint="read the new text with `memory-review trust list`, then trust the version it shows",
        )
    if missing:
        where = f" in the {scope} store" if scope else ""
        raise ValidationError(
            f"not a memory waiting for trust{where}: {', '.join(missing)} (see `memory-review trust list`)", field="id"
        )


def _current_versions(known: set[str], memory_id: str) -> list[str]:
    short = len(memory_id) + 1 + VERSION_CHARS
    return sorted(name for name in known if name.startswith(f"{memory_id}@") and len(name) == short)


# --- migration and remotes ---------------------------------------------------------------------


def adoptable(store: Store, view: StoreView) -> dict[str, str]:
    """The memories of a user store from before trust records that a person here applied (ADR 0021).

    Only a user store is ever adopted: its folder is set by the user's own settings, so
    no repository can plant it. A memory whose latest version came by ``sync`` is not.
    """
    current = {memory_id: view.sha256(memory_id) for memory_id in view.ids()}
    made_here: dict[str, bool] = {}
    records = ReviewedRecords()  # an apply that wrote something nobody reviewed is never adopted (ADR 0025)
    with log_errors(store.log_path):
        for event in store.log().read():
            reviewed = records.check(event) is None
            for change in event.changes or ():
                if event.type != "session.written":
                    made_here[change.memory] = event.type in GRANTING_TYPES and reviewed
    return {m: sha for m, sha in current.items() if sha and made_here.get(m)}


def synced_since(store: Store, seq: int) -> set[str]:
    """The memories a ``sync.merged`` event after ``seq`` moved."""
    moved: set[str] = set()
    with log_errors(store.log_path):
        for event in store.log().read(start=seq + 1):
            if event.type == "sync.merged":
                moved.update(c.memory for c in event.changes or () if c.after is not None)
    return moved
