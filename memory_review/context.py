"""Injection wired to the stores: build a session's context, record it, and rebuild it later exactly.

``injection/`` is the pure builder; this module gathers its inputs (the three
tiers, their hashes from the manifests, the clock), records a ``context.built``
event when a session asks, and replays such an event from the logs alone — even
after the memories it showed were edited, reverted or deleted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from events import Change, EventDraft, replay

from memory_review.errors import IntegrityError
from memory_review.injection import ContextRequest, ContextResult, Selector, build_context, merge_tiers
from memory_review.models import Memory, utc_now
from memory_review.record_io import memory_from_json, memory_sha256
from memory_review.rules import Plan
from memory_review.store import _log_errors

if TYPE_CHECKING:
    from memory_review.workspace import Workspace

DEFAULT_BUDGET = 25_000


@dataclass(frozen=True)
class ReplayedContext:
    """One context a session was given, rebuilt from the log."""

    seq: int
    ts: str
    query: str | None
    text: str
    sha256: str
    matches: bool

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "ts": self.ts, "query": self.query, "text": self.text,
                "sha256": self.sha256, "matches": self.matches}


def context_for(ws: Workspace, *, session: str | None, query: str | None, budget: int | None,
                selector: Selector | None = None, now: str | None = None) -> ContextResult:
    """Build the block for ``session`` (user → project → that session only); record it if a session asked."""
    user_view, project_view = ws.user.view(), ws.project.view()
    session_memories = ws.session_memories(session) if session else []
    merged = merge_tiers(user_view.memories(), project_view.memories(), session_memories)
    hashes = {m.id: sha for view in (user_view, project_view) for m in view.memories()
              if (sha := view.sha256(m.id))}
    request = ContextRequest(query=query, budget_bytes=budget or DEFAULT_BUDGET, now=now or utc_now())
    result = build_context(merged, request, selector=selector,
                           sha256_of=lambda m: hashes.get(m.id) if m.scope != "session" else memory_sha256(m))
    if session:
        _record(ws, session, request, result, user_seq=user_view.head.seq)
    return result


def _record(ws: Workspace, session: str, request: ContextRequest, result: ContextResult, *,
            user_seq: int) -> None:
    context = {
        "query": request.query, "budget_bytes": request.budget_bytes, "budget_lines": request.budget_lines,
        "now": request.now, "sha256": result.sha256, "user_seq": user_seq,
        "included": [item.model_dump(mode="json") for item in result.included],
    }
    with ws.project.transact() as tx:
        ws._commit(tx, Plan(drafts=[EventDraft(type="context.built", actor=f"agent:{session}",
                                               session=session, context=context)]))


def replay_session(ws: Workspace, session: str) -> list[ReplayedContext]:
    """Every context ``session`` was given, rebuilt byte for byte from the user and project logs."""
    with _log_errors(ws.project.log_path):
        events = list(ws.project.log().read())
    with _log_errors(ws.user.log_path):
        user_events = list(ws.user.log().read())
    replayed = []
    for event in events:
        if event.type == "context.built" and event.session == session:
            replayed.append(_rebuild(event, events, user_events))
    return replayed


def _rebuild(event, project_events, user_events) -> ReplayedContext:
    ctx = event.context or {}
    tiers = {
        "user": _state(user_events, ctx.get("user_seq", 0)),
        "project": _state(project_events, event.seq),
        "session": _session_state(project_events, event.session, event.seq),
    }
    shown = [_shown(tiers, item) for item in ctx.get("included", [])]
    request = ContextRequest(query=None, budget_bytes=ctx["budget_bytes"], budget_lines=ctx["budget_lines"],
                             now=ctx["now"])
    result = build_context(shown, request)
    return ReplayedContext(seq=event.seq, ts=event.ts, query=ctx.get("query"), text=result.text,
                           sha256=result.sha256, matches=result.sha256 == ctx.get("sha256"))


def _shown(tiers: dict[str, dict[str, Memory]], item: dict) -> Memory:
    memory = tiers[item["scope"]].get(item["id"])
    if memory is None or memory_sha256(memory) != item["sha256"]:
        raise IntegrityError(f"the log does not hold {item['scope']} memory {item['id']!r} as it was injected")
    return memory


def _state(events, at: int) -> dict[str, Memory]:
    state = replay(events, at=at)  # the fold ignores session writes
    return {mid: memory_from_json(rec, where=f"replay {mid}") for mid, rec in state.memories.items()}


def _session_state(events, session: str | None, at: int) -> dict[str, Memory]:
    memories: dict[str, Memory] = {}
    for event in events:
        if event.seq > at:
            break
        if event.type == "session.written" and event.session == session:
            for change in event.changes or ():
                _set(memories, change)
    return memories


def _set(memories: dict[str, Memory], change: Change) -> None:
    if change.after is None:
        memories.pop(change.memory, None)
    else:
        memories[change.memory] = memory_from_json(change.after, where=f"session {change.memory}")
