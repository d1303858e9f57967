"""The merge rules of team sync, pure: a version graph per memory, read from event logs (ADR 0007).

Every change of a memory is a *version*: the authoring event's line hash names it,
its parents are the versions it replaced, and its *key* is the sha256 of what it says
(type, description, body; ``absent`` for a deleted or never-created memory). Each
replica's log implies the graph it knows and the version each memory is at:

- ``candidate.applied`` / ``memory.reverted`` / ``memory.deleted`` author a version whose
  parent is the current one (plus the other side's version when the applied candidate
  was a sync conflict: taking theirs, or an edit of both, resolves the conflict);
- ``sync.merged`` declares the versions it learned, the ones it adopted, the conflict
  candidates it opened and the ones it closed itself;
- a person discarding a conflict candidate ("keep mine") authors a version with the
  same content and both sides as parents, so the other side adopts it.

Merging one memory takes the heads (versions that no other descends from) of ours and
every replica's: one head is a fast-forward; several whose changes since their common
base agree become a deterministic merge version (same id and content on every clone);
otherwise it is a conflict for a person to resolve. No rule depends on clocks or on
the order replicas are read in, so every clone reaches the same result.

A replica's graph is untrusted input, and reading it must cost time linear in its size
(ADR 0170, decision 4): one memory's merge walks the versions its heads descend from once,
however many heads and shared versions there are (:meth:`Graph.holders`); a graph whose
versions descend from each other in a cycle, which only forging makes, leaves that memory
waiting; and the "keep mine" discards of one log may walk :data:`MAX_DISCARD_WALK` versions
in all, past which the log is refused (an honest discard walks one memory's few versions).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import orjson
from pydantic import ValidationError as PydanticValidationError

from memory_review.errors import IntegrityError, ValidationError
from memory_review.events import RESTORED, Event
from memory_review.models import Strict

ROOT = "root"
"""The version of a memory before it was ever created."""
ABSENT = "absent"
"""The key of a version in which the memory does not exist."""
AUTHORING = frozenset({"candidate.applied", "memory.reverted", "memory.deleted"})
RECORD_TYPES = frozenset({"candidate.created", "candidate.edited", RESTORED})
MAX_DISCARD_WALK = 2_000_000
"""Versions the discards of one log may walk in all, checking whether ours has seen theirs (about a second).

A forged log declaring a long chain and many discards of conflicts on it would otherwise cost their product."""


# --- the ``sync`` object of a ``sync.merged`` event (a stored boundary: strict) ------------------


class SyncNode(Strict):
    """A version learned from a replica (or a merge version made here)."""

    memory: str
    id: str
    parents: tuple[str, ...]
    key: str


class SyncAdopt(Strict):
    """The version a memory is at after the merge, and where it came from.

    ``origin``, ``candidate`` and ``flags`` say who sent a teammate's version, which
    candidate authored it in their log and the safety flags it carries (the candidate's
    own, joined with a fresh scan of what arrived): what a reviewer here needs to judge
    it. Absent on events written before docs/adr/0018, and on adoptions of our own version.
    """

    memory: str
    id: str
    origin: str | None = None
    candidate: str | None = None
    flags: tuple[str, ...] = ()


class SyncConflict(Strict):
    """A conflict candidate opened by this merge: our version against theirs."""

    memory: str
    candidate: str
    ours: str
    theirs: str


class SyncRecord(Strict):
    """What one ``sync.merged`` event merged."""

    remotes: dict[str, str] = {}
    """Replica origin -> the history commit read from it."""
    nodes: tuple[SyncNode, ...] = ()
    adopt: tuple[SyncAdopt, ...] = ()
    conflicts: tuple[SyncConflict, ...] = ()
    closed: tuple[str, ...] = ()
    """Conflict candidates this sync discards itself (settled elsewhere or superseded): no "keep mine"."""


def sync_record(raw: dict[str, Any] | None, *, where: str) -> SyncRecord:
    """Validate the ``sync`` object of a stored event."""
    try:
        return SyncRecord.model_validate(raw or {})
    except PydanticValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "(root)"
        raise ValidationError(f"sync.{loc}: {first['msg']}", path=where) from exc


def content_key(record: dict[str, Any] | None) -> str:
    """What a version says, hashed: equal keys are the same memory to a reader."""
    if record is None:
        return ABSENT
    content = [record.get("type"), record.get("description"), record.get("body", "")]
    return hashlib.sha256(orjson.dumps(content)).hexdigest()


def merge_id(memory: str, parents: Sequence[str]) -> str:
    """The id of the merge of ``parents``: the same on every clone that makes it."""
    text = "\0".join(["memory-review merge", memory, *sorted(parents)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- what one log knows ------------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    """A version: the versions it replaced, and what it says."""

    parents: tuple[str, ...]
    key: str


@dataclass(frozen=True)
class Conflict:
    """A pending conflict candidate: our version against theirs, on one memory."""

    memory: str
    ours: str
    theirs: str


@dataclass(frozen=True)
class Provenance:
    """Which candidate authored a version in a log, and the flags its record carried."""

    candidate: str | None
    flags: tuple[str, ...]


@dataclass
class Knowledge:
    """The version graph one log implies, and where each memory stands in it."""

    nodes: dict[str, dict[str, Node]] = field(default_factory=dict)
    current: dict[str, str] = field(default_factory=dict)
    records: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    conflicts: dict[str, Conflict] = field(default_factory=dict)
    provenance: dict[str, Provenance] = field(default_factory=dict)
    """Version id -> how it was authored (applies, and adoptions that recorded it)."""

    def head(self, memory: str) -> str:
        return self.current.get(memory, ROOT)

    def add(self, memory: str, vid: str, node: Node) -> None:
        self.nodes.setdefault(memory, {}).setdefault(vid, node)

    def move(self, memory: str, vid: str, record: dict[str, Any] | None) -> None:
        self.current[memory] = vid
        self.records[memory] = record


def know(lines: Iterable[tuple[Event, str]]) -> Knowledge:
    """Fold a log (each event with its line hash) into the graph it implies."""
    known = Knowledge()
    closing: set[str] = set()
    walk = _Walk()
    flags: dict[str, tuple[str, ...]] = {}  # candidate -> the flags of its latest record
    for event, line in lines:
        if event.type == "sync.merged":
            _fold_sync(known, event, closing)
        elif event.type in AUTHORING:
            _fold_authored(known, event, line, flags)
        elif event.type == "candidate.discarded" and event.candidate in known.conflicts:
            _fold_discard(known, event.candidate, line, closing, walk)
        elif event.type in RECORD_TYPES and event.candidate and event.record:
            flags[event.candidate] = _flags_of(event.record)
    return known


def _flags_of(record: dict[str, Any]) -> tuple[str, ...]:
    raw = record.get("flags")
    return tuple(sorted({f for f in raw if isinstance(f, str)})) if isinstance(raw, list) else ()


def _fold_authored(known: Knowledge, event: Event, line: str, flags: dict[str, tuple[str, ...]]) -> None:
    candidate = event.candidate if event.type == "candidate.applied" else None
    resolved = known.conflicts.pop(candidate, None) if candidate else None
    for change in event.changes or ():
        parents = [known.head(change.memory)]
        if resolved and resolved.memory == change.memory and resolved.theirs not in parents:
            parents.append(resolved.theirs)
        known.add(change.memory, line, Node(tuple(parents), content_key(change.after)))
        known.move(change.memory, line, change.after)
    known.provenance[line] = Provenance(candidate, flags.get(candidate, ()) if candidate else ())


def _fold_sync(known: Knowledge, event: Event, closing: set[str]) -> None:
    record = sync_record(event.sync, where=f"event {event.seq}")
    for node in record.nodes:
        known.add(node.memory, node.id, Node(node.parents, node.key))
    changes = {change.memory: change for change in event.changes or ()}
    for adopt in record.adopt:
        change = changes.get(adopt.memory)
        known.move(adopt.memory, adopt.id, change.after if change else known.records.get(adopt.memory))
        if adopt.origin is not None:
            known.provenance.setdefault(adopt.id, Provenance(adopt.candidate, adopt.flags))
    for conflict in record.conflicts:
        known.conflicts[conflict.candidate] = Conflict(conflict.memory, conflict.ours, conflict.theirs)
    closing.update(record.closed)


@dataclass
class _Walk:
    """What the discards of one log have walked so far (see :data:`MAX_DISCARD_WALK`)."""

    versions: int = 0

    def has_seen(self, nodes: dict[str, Node], vid: str, ancestor: str) -> bool:
        """Whether ``vid`` is ``ancestor`` or descends from it, in one memory's ``nodes``."""
        seen, stack = {vid}, [vid]
        while stack:
            item = stack.pop()
            if item == ancestor:
                return True
            self.versions += 1
            if self.versions > MAX_DISCARD_WALK:
                raise IntegrityError(
                    f"its discards walk more than {MAX_DISCARD_WALK:,} versions of its graph: "
                    "a forged log (an honest one walks a memory's few versions per discard); not read"
                )
            node = nodes.get(item)
            for parent in node.parents if node else ():
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        return False


def _fold_discard(known: Knowledge, candidate: str, line: str, closing: set[str], walk: _Walk) -> None:
    conflict = known.conflicts.pop(candidate)
    if candidate in closing:
        closing.discard(candidate)
        return
    memory, current = conflict.memory, known.head(conflict.memory)
    nodes = known.nodes.get(memory, {})  # this log's own graph, read in place (a copy per discard was quadratic)
    if walk.has_seen(nodes, current, conflict.theirs):
        return
    # "Keep mine": a version with our content that has seen theirs, so the other side adopts it.
    mine = nodes.get(current)
    ours = (mine.key if mine else None) or content_key(known.records.get(memory))
    known.add(memory, line, Node((current, conflict.theirs), ours))
    known.move(memory, line, known.records.get(memory))


# --- the graph of every replica, and the merge of one memory ---------------------------------


class Graph:
    """The union of the version graphs of several logs."""

    def __init__(self, knowledge: Iterable[Knowledge]) -> None:
        self.nodes: dict[str, dict[str, Node]] = {}
        for known in knowledge:
            for memory, nodes in known.nodes.items():
                mine = self.nodes.setdefault(memory, {})
                for vid, node in nodes.items():
                    mine.setdefault(vid, node)

    def node(self, memory: str, vid: str) -> Node | None:
        if vid == ROOT:
            return Node((), ABSENT)
        return self.nodes.get(memory, {}).get(vid)

    def key(self, memory: str, vid: str) -> str | None:
        node = self.node(memory, vid)
        return node.key if node else None

    def lineage(self, memory: str, vid: str) -> set[str]:
        """``vid`` and every version it descends from (as far as the graph knows)."""
        seen, stack = {vid}, [vid]
        while stack:
            node = self.node(memory, stack.pop())
            for parent in node.parents if node else ():
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        return seen

    def descends(self, memory: str, vid: str, ancestor: str) -> bool:
        """Whether ``vid`` is ``ancestor`` or has it in its lineage."""
        return ancestor in self.lineage(memory, vid)

    def holders(self, memory: str, heads: Sequence[str]) -> dict[str, int] | None:
        """Every version in the lineage of one of ``heads`` -> which heads hold it (bit ``i``: ``heads[i]``).

        One pass over the versions the heads descend from, children before parents, so the cost is
        linear in those versions and their parent links however many heads there are (a replica's
        graph is untrusted input: ADR 0170). None when those versions hold a cycle, which only a forged
        graph can (a version names earlier log lines as its parents, a merge version hashes its parents).
        """
        order = self._children_first(memory, heads)
        if order is None:
            return None
        held: dict[str, int] = {}
        for bit, head in enumerate(heads):
            held[head] = held.get(head, 0) | 1 << bit
        for vid in order:
            mask = held.get(vid, 0)
            for parent in self._parents(memory, vid):
                held[parent] = held.get(parent, 0) | mask
        return held

    def _parents(self, memory: str, vid: str) -> tuple[str, ...]:
        node = self.node(memory, vid)
        return tuple(dict.fromkeys(node.parents)) if node else ()

    def _children_first(self, memory: str, heads: Sequence[str]) -> list[str] | None:
        """The versions the heads descend from, each after every one of them naming it as a parent
        (Kahn's order); None if a cycle leaves some unordered."""
        children: dict[str, int] = {}
        seen, stack = set(heads), list(dict.fromkeys(heads))
        while stack:
            for parent in self._parents(memory, stack.pop()):
                children[parent] = children.get(parent, 0) + 1
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        ready = [vid for vid in seen if not children.get(vid)]
        order = []
        while ready:
            vid = ready.pop()
            order.append(vid)
            for parent in self._parents(memory, vid):
                children[parent] -= 1
                if not children[parent]:
                    ready.append(parent)
        return order if len(order) == len(seen) else None

    def tips(self, memory: str, heads: Sequence[str]) -> list[str] | None:
        """The ``heads`` no other head descends from, in their order (None: their graph has a cycle)."""
        heads = list(dict.fromkeys(heads))
        held = self.holders(memory, heads)
        if held is None:
            return None
        return [head for bit, head in enumerate(heads) if held[head] == 1 << bit]

    def base_key(self, memory: str, heads: Sequence[str]) -> str | None:
        """The key of the heads' nearest common versions, if they all say the same (else None).

        The common versions are those every head holds; the nearest are the ones no other common
        version names as a parent (the common set holds every ancestor of its members, so that is
        the same as "no other common version descends from it"), found in one pass.
        """
        heads = list(dict.fromkeys(heads))
        held = self.holders(memory, heads)
        if held is None or not heads:
            return None
        every = (1 << len(heads)) - 1
        common = {vid for vid, mask in held.items() if mask == every}
        below = {parent for vid in common for parent in self._parents(memory, vid) if parent != vid}
        keys = {self.key(memory, vid) for vid in common - below}
        return keys.pop() if len(keys) == 1 else None


@dataclass(frozen=True)
class Head:
    """A version some clone is at, with its record and which clone ("" for this one)."""

    id: str
    record: dict[str, Any] | None
    origin: str
    provenance: Provenance | None = None
    """How the clone's log says this version was authored (None: it does not say)."""


@dataclass(frozen=True)
class Outcome:
    """What to do with one memory: keep ours, adopt a version, open a conflict, or wait for others."""

    kind: Literal["keep", "adopt", "conflict", "waiting"]
    head: Head | None = None
    node: Node | None = None
    """Set when ``head`` is a merge version made here (recorded in the ``sync.merged`` event)."""


def merge_memory(memory: str, graph: Graph, ours: Head, theirs: Sequence[Head]) -> Outcome:
    """Merge one memory: ``ours`` against every replica's head; deterministic in its inputs."""
    heads = {ours.id: ours}
    for head in sorted(theirs, key=lambda h: (h.id, h.origin)):
        heads.setdefault(head.id, head)
    tips = graph.tips(memory, sorted(heads))
    if not tips:  # a forged graph whose versions descend from each other in a cycle: nothing is taken
        return Outcome("waiting")
    if tips == [ours.id]:
        return Outcome("keep")
    if len(tips) == 1:
        return Outcome("adopt", heads[tips[0]])
    keys = {i: graph.key(memory, i) or content_key(heads[i].record) for i in tips}
    base = graph.base_key(memory, tips)
    changed = [i for i in tips if keys[i] != base]
    if len({keys[i] for i in changed}) <= 1:
        winner = heads[min(changed or tips)]
        merged = Head(merge_id(memory, tips), winner.record, winner.origin, winner.provenance)
        return Outcome("adopt", merged, Node(tuple(tips), keys[winner.id]))
    if ours.id in changed:
        other = min(i for i in changed if keys[i] != keys[ours.id])
        return Outcome("conflict", heads[other])
    return Outcome("waiting")


def new_nodes(graph: Graph, local: Knowledge) -> list[SyncNode]:
    """Versions the graph holds that this log does not record yet (sorted, so events are stable)."""
    found = []
    for memory in sorted(graph.nodes):
        mine = local.nodes.get(memory, {})
        for vid in sorted(graph.nodes[memory]):
            if vid not in mine:
                node = graph.nodes[memory][vid]
                found.append(SyncNode(memory=memory, id=vid, parents=node.parents, key=node.key))
    return found
