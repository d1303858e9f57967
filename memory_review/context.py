"""Injection wired to the stores: build a session's context, record it, and rebuild it later exactly.

``injection/`` is the pure builder; this module gathers its inputs (the three
tiers, their hashes from the manifests, the clock), records a ``context.built``
event when a session asks, and replays such an event from the logs alone — even
after the memories it showed were edited, reverted or deleted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

from memory_review.errors import IntegrityError
from memory_review.events import Event, EventDraft
from memory_review.injection import (
    ContextRequest,
    ContextResult,
    DroppedMemory,
    Selector,
    build_context,
    merge_tiers,
    priority_order,
    select,
)
from memory_review.injection.render import fixed_cost, frame_cost, render_frame
from memory_review.injection.result import DropReason
from memory_review.manifest import ManifestEntry
from memory_review.models import Memory, MemoryType, Scope, utc_now
from memory_review.proposal import check_session_ref
from memory_review.record_io import memory_sha256
from memory_review.storage import EMPTY, Folded, fold_all
from memory_review.store import log_errors
from memory_review.store_view import StoreView

if TYPE_CHECKING:
    from memory_review.workspace import Workspace

DEFAULT_BUDGET = 25_000


@dataclass(frozen=True, kw_only=True)
class ReplayedContext:
    """One context a session was given, rebuilt from the log. Its fields, in order, are each item of
    ``replay --session --json`` (``cli_render.to_json``)."""

    seq: int
    ts: str
    query_sha256: str | None
    """The sha256 of the prompt the block was built for (None: built without one)."""
    query: str | None = None
    """The prompt itself, only from a log written before prompts were recorded as hashes."""
    text: str
    sha256: str
    matches: bool
    forgotten: int | None = None
    """The seq of the ``store.forgotten`` event that redacted what this context showed (docs/adr/0019):
    then the text is the redacted one and ``matches`` is False by design, not damage."""


def context_for(
    ws: Workspace,
    *,
    session: str | None,
    query: str | None,
    budget: int | None,
    selector: Selector | None = None,
    now: str | None = None,
) -> ContextResult:
    """Build the block for ``session`` (user → project → that session only); record it if a session asked."""
    if session:
        check_session_ref(session, field="session")  # it is written into the log and replayed by name
    session_memories = ws.session_memories(session) if session else []
    request = ContextRequest(
        query=query, budget_bytes=DEFAULT_BUDGET if budget is None else budget, now=now or utc_now()
    )

    # The trust gate (docs/adr/0021): only memories a person on this machine approved reach the block.
    ws.adopt_old_user_store()
    gate = ws.trust_records.gate

    def with_user(user: StoreView) -> tuple[ContextResult, int]:
        result = ws.store("project").read_consistently(
            lambda project: _build(gate(user), gate(project), session_memories, request, selector)
        )
        return result, user.head.seq

    result, user_seq = ws.store("user").read_consistently(with_user)
    if session:
        _record(ws, session, request, result, user_seq=user_seq)
    return result


def _build(
    user: StoreView,
    project: StoreView,
    session_memories: list[Memory],
    request: ContextRequest,
    selector: Selector | None,
) -> ContextResult:
    views = {"user": user, "project": project}

    def sha256_of(memory: Memory) -> str:
        view = views.get(memory.scope)
        return (view.sha256(memory.id) or "") if view else memory_sha256(memory)

    if request.query is not None and request.query.strip():
        if selector is None:
            return _build_by_keywords(user, project, session_memories, request, views, sha256_of)
        # A pluggable selector may look at any field: every memory is read whole.
        merged = merge_tiers(user.memories(), project.memories(), session_memories)
        return build_context(merged, request, selector=selector, sha256_of=sha256_of)
    # Merging and ordering read only id, scope, type and updated_at (``injection.Listed``): outlines do.
    order = priority_order(merge_tiers(_listed(user, _outline_of), _listed(project, _outline_of), session_memories))
    return _build_within_budget(order, request, views, sha256_of)


def _build_by_keywords(
    user: StoreView,
    project: StoreView,
    session_memories: list[Memory],
    request: ContextRequest,
    views: dict[str, StoreView],
    sha256_of: Callable[[Any], str],
) -> ContextResult:
    """Keyword selection reads only id, description and body: bodies come from the files' checked
    bytes, and only the chosen memories (at most ``limit`` plus the forbidden ones) are parsed."""
    texts = merge_tiers(_listed(user, _text_outline_of), _listed(project, _text_outline_of), session_memories)
    chosen = select(texts, request.query or "", limit=request.limit)
    # Built from the chosen alone, select() picks them all again; the rest are the ones not selected.
    result = build_context([_loaded(m, views) for m in chosen], request, sha256_of=sha256_of)
    picked = {m.id for m in chosen}
    rest = _dropped(priority_order([m for m in texts if m.id not in picked]), "not selected", sha256_of)
    return result.model_copy(update={"dropped": result.dropped + rest})


class Outline(NamedTuple):
    """A memory as the manifest lists it: enough to order it (``injection.Listed``); never rendered."""

    id: str
    scope: Scope
    type: MemoryType
    updated_at: str
    sha256: str  # the manifest's hash of its file


class TextOutline(NamedTuple):
    """An outline with the texts keyword selection reads (``injection.Selectable``): the manifest's
    description, the body from the file's checked bytes. Never rendered."""

    id: str
    scope: Scope
    type: MemoryType
    updated_at: str
    sha256: str
    description: str
    body: str


Outlined = TypeVar("Outlined", Outline, TextOutline)


def _listed(
    view: StoreView, outline_of: Callable[[StoreView, str, ManifestEntry], Outlined]
) -> list[Memory | Outlined]:
    """Every memory of ``view``: an outline where the manifest lists it, else the memory itself."""
    listed: list[Memory | Outlined] = []
    listed_entry = view.listed_entry  # bound once: this loop runs over the whole store
    for memory_id in view.ids():
        entry = listed_entry(memory_id)
        memory = outline_of(view, memory_id, entry) if entry else view.memory(memory_id)
        if memory is not None:
            listed.append(memory)
    return listed


# A tuple, not a Memory.model_construct: 10,000 of those cost ~0.1 s; tuple.__new__ skips the NamedTuple's
# Python-level __new__. A listed entry's type and updated_at are set (that is what "listed" means), hence
# the casts from the entry's optional fields.


def _outline_of(view: StoreView, memory_id: str, entry: ManifestEntry) -> Outline:
    fields = (memory_id, view.scope, cast(str, entry.type), cast(str, entry.updated_at), entry.sha256)
    return tuple.__new__(Outline, fields)


def _text_outline_of(view: StoreView, memory_id: str, entry: ManifestEntry) -> TextOutline:
    fields = (memory_id, view.scope, cast(str, entry.type), cast(str, entry.updated_at), entry.sha256)
    return tuple.__new__(TextOutline, (*fields, cast(str, entry.description), view.body(memory_id)))


def _build_within_budget(
    order: Sequence[Memory | Outline],
    request: ContextRequest,
    views: dict[str, StoreView],
    sha256_of: Callable[[Any], str],
) -> ContextResult:
    """The block from the files of the memories that can fit only, the rest reported as over budget.

    ``build_context`` takes the longest priority prefix that fits, so a memory after
    the first one that does not fit can never be in the block: its file is not read.
    """
    prefix = _prefix_to_first_misfit(order, request, views)
    result = build_context(prefix, request, sha256_of=sha256_of)
    if len(result.included) == len(prefix) < len(order):
        # The estimate below disagreed with build_context's own budget; the sure way is to read all.
        return build_context([_loaded(m, views) for m in order], request, sha256_of=sha256_of)
    rest = _dropped(order[len(prefix) :], "budget", sha256_of)
    return result.model_copy(update={"dropped": result.dropped + rest})


def _dropped(
    memories: Sequence[Memory | Outline | TextOutline], reason: DropReason, sha256_of: Callable[[Any], str]
) -> tuple[DroppedMemory, ...]:
    """The memories a build left out (on a big store, nearly all of them: an outline carries its hash)."""
    outlined = (Outline, TextOutline)  # a tuple's isinstance is cheaper than a model's: this runs 10,000 times
    return tuple(
        DroppedMemory(m.id, m.scope, m.type, m.sha256 if isinstance(m, outlined) else sha256_of(m), reason)
        for m in memories
    )


def _prefix_to_first_misfit(
    order: Sequence[Memory | Outline], request: ContextRequest, views: dict[str, StoreView]
) -> list[Memory]:
    used_bytes, used_lines = fixed_cost()
    prefix = []
    for outline in order:
        memory = _loaded(outline, views)
        prefix.append(memory)
        add_bytes, add_lines = frame_cost(render_frame(memory, request.now, version=request.frame))
        used_bytes, used_lines = used_bytes + add_bytes, used_lines + add_lines
        if used_bytes > request.budget_bytes or used_lines > request.budget_lines:
            break
    return prefix


def _loaded(outline: Memory | Outline | TextOutline, views: dict[str, StoreView]) -> Memory:
    """The memory itself, read (and checked) from its file; it must agree with what ordered it."""
    view = views.get(outline.scope)
    if view is not None:
        memory = view.memory(outline.id)
    else:  # the session tier: its memories are already whole, never outlined
        memory = outline if isinstance(outline, Memory) else None
    if memory is None or not _agrees(memory, outline):
        raise IntegrityError(
            f"manifest.json lists {outline.scope} memory {outline.id!r} unlike its file",
            hint="run `memory-review verify --repair`",
        )
    return memory


def _agrees(memory: Memory, outline: Memory | Outline | TextOutline) -> bool:
    """Whether what ordered (and selected) a memory is what its file says."""
    if (memory.type, memory.updated_at) != (outline.type, outline.updated_at):
        return False
    if isinstance(outline, TextOutline):
        return (memory.description, memory.body) == (outline.description, outline.body)
    return True


def _record(ws: Workspace, session: str, request: ContextRequest, result: ContextResult, *, user_seq: int) -> None:
    """Record what the session was given: the selection (ids + sha256) and the prompt's hash, never the prompt.

    A prompt is text nobody reviewed (it may hold a pasted token, or be 900 KB); replay needs
    only the selection, so the log keeps the prompt's sha256 and length (docs/adr/0018).
    """
    context: dict[str, Any] = {
        "budget_bytes": request.budget_bytes,
        "budget_lines": request.budget_lines,
        "now": request.now,
        "frame": request.frame,
        "sha256": result.sha256,
        "user_seq": user_seq,
        "included": [item.model_dump(mode="json") for item in result.included],
    }
    if request.query is not None:
        context["query_sha256"] = query_sha256(request.query)
        context["query_chars"] = len(request.query)
    # A log append alone: the manifest and MEMORY.md are never rewritten by a read (docs/adr/0023).
    ws.store("project").record(
        [EventDraft(type="context.built", actor=f"agent:{session}", session=session, context=context)]
    )


def query_sha256(query: str) -> str:
    """How a ``context.built`` event names its prompt: the sha256 of its UTF-8 bytes."""
    return hashlib.sha256(query.encode("utf-8", "surrogatepass")).hexdigest()


def replay_session(ws: Workspace, session: str) -> list[ReplayedContext]:
    """Every context ``session`` was given, rebuilt byte for byte from the user and project logs."""
    project_store, user_store = ws.store("project"), ws.store("user")
    with log_errors(project_store.log_path):
        events = list(project_store.log().read())
    with log_errors(user_store.log_path):
        user_events = list(user_store.log().read())
    project, user = _Replayer(events), _Replayer(user_events)
    return [
        _rebuild(event, project, user) for event in events if event.type == "context.built" and event.session == session
    ]


class _Replayer:
    """The one fold (``memory_review.storage``) over a log, kept at the last seq asked for.

    Contexts are rebuilt in log order, so each is folded from the one before, not from empty.
    """

    def __init__(self, events: list[Event]) -> None:
        self._events = events
        self._done = 0  # events[:done] are folded into state
        self._state = EMPTY

    def at(self, seq: int) -> Folded:
        if self._done and self._events[self._done - 1].seq > seq:
            self._done, self._state = 0, EMPTY  # asked for an earlier point: fold again from the start
        end = self._done
        while end < len(self._events) and self._events[end].seq <= seq:
            end += 1
        self._state = fold_all(self._state, self._events[self._done : end])
        self._done = end
        return self._state


def _rebuild(event: Event, project: _Replayer, user: _Replayer) -> ReplayedContext:
    ctx = event.context or {}
    at_event = project.at(event.seq)
    tiers = {
        "user": user.at(ctx.get("user_seq", 0)).memory_set(),
        "project": at_event.memory_set(),
        "session": at_event.session(event.session) if event.session else {},
    }
    shown = [_shown(tiers, item) for item in ctx.get("included", [])]
    request = ContextRequest(
        query=None,
        budget_bytes=ctx["budget_bytes"],
        budget_lines=ctx["budget_lines"],
        now=ctx["now"],
        frame=ctx.get("frame", 1),
    )  # 1: recorded before ADR 0015
    result = build_context(shown, request)
    return ReplayedContext(
        seq=event.seq,
        ts=event.ts,
        query_sha256=_recorded_query_sha256(ctx),
        text=result.text,
        sha256=result.sha256,
        matches=result.sha256 == ctx.get("sha256"),
        query=_legacy_query(ctx),
        forgotten=ctx.get("forgotten"),
    )


def _legacy_query(ctx: dict[str, Any]) -> str | None:
    """The raw prompt a log written before docs/adr/0018 recorded (read, never written again)."""
    query = ctx.get("query")
    return query if isinstance(query, str) else None


def _recorded_query_sha256(ctx: dict[str, Any]) -> str | None:
    recorded = ctx.get("query_sha256")
    if isinstance(recorded, str):
        return recorded
    legacy = _legacy_query(ctx)
    return query_sha256(legacy) if legacy is not None else None


def _shown(tiers: dict[str, dict[str, Memory]], item: dict) -> Memory:
    memory = tiers[item["scope"]].get(item["id"])
    if memory is None or memory_sha256(memory) != item["sha256"]:
        raise IntegrityError(f"the log does not hold {item['scope']} memory {item['id']!r} as it was injected")
    return memory
