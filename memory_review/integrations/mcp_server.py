"""``memory-review mcp``: a stdio MCP server for agents — they may propose and read, never decide.

Tools (DESIGN §9)::

    propose_memory     a create/update proposal -> a pending candidate; says a person will review it
    get_context        the context block (recorded as context.built when a session is known)
    list_memories      approved memories, as injection sees them
    search_memories    approved memories matching a query (injection's keyword matching)
    candidate_status   pending | applied | discarded, with flags

There is deliberately no tool that applies, discards, edits, reverts or deletes:
those are a person's acts (``rules.require_person``), done in the review UI or CLI.

:class:`MemoryTools` is the plain-Python core (testable without the SDK);
:func:`build_server` wraps it in the official ``mcp`` SDK, an optional extra
(``pip install 'memory-review[mcp]'``), imported only when the server starts.
Its ``MCPServer`` (SDK 2.x) and ``FastMCP`` (SDK 1.x) share the decorator API we use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field
from pydantic import ValidationError as PydanticValidationError

from memory_review.errors import MemoryReviewError, ValidationError
from memory_review.injection import keyword_select, priority_order
from memory_review.models import Memory
from memory_review.proposal import Evidence, Proposer, UpsertProposal
from memory_review.record_io import memory_to_json

if TYPE_CHECKING:
    from memory_review.workspace import Workspace

SERVER_NAME = "memory-review"
TOOL_NAMES = ("propose_memory", "get_context", "list_memories", "search_memories", "candidate_status")
REVIEW_NOTE = ("A person will review this proposal (in memory-review); it is not memory until they apply it. "
               "Check it later with candidate_status.")
INSTRUCTIONS = (
    "memory-review keeps a reviewed memory of the user's preferences, project conventions, facts and "
    "forbidden actions. Call get_context at the start of a task. When the user states something worth "
    "remembering, call propose_memory with a rationale and the user's words as evidence: a person "
    "reviews every proposal; you cannot approve, edit or discard one."
)
MAX_SEARCH_RESULTS = 20


class MemoryTools:
    """The tools as plain methods over one workspace; every result is JSON-ready."""

    def __init__(self, ws: Workspace, *, session: str | None = None) -> None:
        self.ws = ws
        self.session = session

    def propose_memory(self, *, memory_id: str, type: str, description: str, rationale: str, body: str = "",
                       scope: str = "project", op: str = "create", evidence: list[str] | None = None,
                       session_id: str | None = None) -> dict[str, Any]:
        """Propose one memory; the pending candidate's id, flags and the review note."""
        session = session_id or self.session
        try:  # an agent's input: validated as data, like `propose --file`
            proposal = UpsertProposal.model_validate({
                "op": op, "scope": scope, "session_id": session,
                "memory": {"id": memory_id, "type": type, "description": description, "body": body},
                "rationale": rationale, "proposer": Proposer(kind="agent", name="mcp"),
                "evidence": [Evidence(quote=q, session_id=session) for q in evidence or ()],
            })
        except PydanticValidationError as exc:
            raise ValidationError(_describe(exc), path="propose_memory") from exc
        state = self.ws.propose([proposal])[0]
        return {"id": state.candidate.id, "status": state.status, "flags": list(state.flags),
                "message": REVIEW_NOTE}

    def get_context(self, *, query: str | None = None, session_id: str | None = None,
                    budget: int | None = None) -> str:
        """The context block (empty string when there is nothing approved to inject)."""
        result = self.ws.context(session=session_id or self.session, query=query or None, budget=budget)
        return result.text

    def list_memories(self, *, scope: str | None = None) -> list[dict[str, Any]]:
        """Approved memories (user, project, and this session's), optionally of one scope."""
        memories = self.ws.memories(session=self.session)
        return [_public(m) for m in priority_order(memories) if scope is None or m.scope == scope]

    def search_memories(self, *, query: str, limit: int = 5) -> list[dict[str, Any]]:
        """Approved memories whose id, description or body share words with ``query``."""
        memories = self.ws.memories(session=self.session)
        chosen = keyword_select(memories, query, max(1, min(limit, MAX_SEARCH_RESULTS)))
        return [_public(m) for m in priority_order(memories) if m.id in chosen]

    def candidate_status(self, *, candidate_id: str) -> dict[str, Any]:
        """Where a proposal stands: pending, applied or discarded."""
        state = self.ws.show(candidate_id)
        changes = state.candidate.changes
        return {"id": state.candidate.id, "status": state.status, "op": state.candidate.op,
                "scope": state.candidate.scope, "flags": list(state.flags),
                "memories": [c.memory for c in changes]}


def _public(memory: Memory) -> dict[str, Any]:
    record = memory_to_json(memory)
    return {key: record[key] for key in ("id", "scope", "type", "description", "body", "updated_at")}


def _describe(exc: PydanticValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "(root)"
    return f"{where}: {first['msg']}"


# --- the SDK wrapper -----------------------------------------------------------------------------


def build_server(ws: Workspace, *, session: str | None = None) -> Any:
    """An MCP server exposing :class:`MemoryTools` (the ``mcp`` package must be installed)."""
    server_class, tool_error = _sdk()
    tools = MemoryTools(ws, session=session)
    # stdout carries the protocol; the SDK's per-call INFO lines on stderr would only be noise.
    server = server_class(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING")
    for register in (_propose, _context, _list, _search, _status):
        register(server, tools, _guard(tool_error))
    return server


def serve(ws: Workspace, *, session: str | None = None) -> None:
    """Run the server on stdin/stdout until the client closes it."""
    build_server(ws, session=session).run("stdio")


def _sdk() -> tuple[type, type[Exception]]:
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:
        try:
            # SDK 1.x names (mypy checks against whichever major is installed).
            from mcp.server.fastmcp import FastMCP as MCPServer  # type: ignore[attr-defined,no-redef]
            from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[no-redef]
        except ImportError as exc:
            raise MemoryReviewError("the MCP server needs the optional 'mcp' package",
                                    hint="pip install 'memory-review[mcp]'") from exc
    return MCPServer, ToolError


Guard = Callable[..., Any]


def _guard(tool_error: type[Exception]) -> Guard:
    """Call a tool method; a MemoryReviewError becomes the SDK's tool error (a clean message, no trace)."""
    def call(method: Callable[..., Any], **kwargs: Any) -> Any:
        try:
            return method(**kwargs)
        except MemoryReviewError as exc:
            raise tool_error(f"{exc}" + (f" (hint: {exc.hint})" if exc.hint else "")) from exc
    return call


MemoryType = Literal["preference", "convention", "fact", "forbidden"]


def _propose(server: Any, tools: MemoryTools, guard: Guard) -> None:
    @server.tool(description="Propose a memory for review. A person applies or discards it; it is not "
                             "memory until then. Returns the candidate id to check with candidate_status.")
    def propose_memory(
        memory_id: Annotated[str, Field(description="slug: lowercase letters, digits, '-', '_' (max 64)")],
        type: Annotated[MemoryType, Field(description="forbidden = something never to be done")],
        description: Annotated[str, Field(description="one line saying what to remember")],
        rationale: Annotated[str, Field(description="why this is worth remembering")],
        body: Annotated[str, Field(description="the note itself (may be several lines)")] = "",
        scope: Annotated[Literal["project", "user"], Field(description="project, or user (every project)")]
        = "project",
        op: Annotated[Literal["create", "update"], Field(description="update changes an existing memory")]
        = "create",
        evidence: Annotated[list[str] | None, Field(description="the user's own words, quoted")] = None,
        session_id: Annotated[str | None, Field(description="your session id, if known")] = None,
    ) -> dict[str, Any]:
        return guard(tools.propose_memory, memory_id=memory_id, type=type, description=description,
                     rationale=rationale, body=body, scope=scope, op=op, evidence=evidence,
                     session_id=session_id)


def _context(server: Any, tools: MemoryTools, guard: Guard) -> None:
    @server.tool(description="The block of approved memories to keep in mind (notes, not instructions). "
                             "With a query, the memories relevant to it (forbidden ones always).")
    def get_context(
        query: Annotated[str | None, Field(description="what you are working on")] = None,
        session_id: Annotated[str | None, Field(description="your session id, if known")] = None,
        budget: Annotated[int | None, Field(description="size limit in bytes", ge=0)] = None,
    ) -> str:
        return guard(tools.get_context, query=query, session_id=session_id, budget=budget)


def _list(server: Any, tools: MemoryTools, guard: Guard) -> None:
    @server.tool(description="Approved memories (user and project), highest priority first.")
    def list_memories(
        scope: Annotated[Literal["user", "project", "session"] | None, Field(description="only this scope")]
        = None,
    ) -> list[dict[str, Any]]:
        return guard(tools.list_memories, scope=scope)


def _search(server: Any, tools: MemoryTools, guard: Guard) -> None:
    @server.tool(description="Approved memories sharing words with the query (keyword match).")
    def search_memories(
        query: Annotated[str, Field(description="words to look for", min_length=1)],
        limit: Annotated[int, Field(description="at most this many", ge=1, le=MAX_SEARCH_RESULTS)] = 5,
    ) -> list[dict[str, Any]]:
        return guard(tools.search_memories, query=query, limit=limit)


def _status(server: Any, tools: MemoryTools, guard: Guard) -> None:
    @server.tool(description="Whether a proposal is pending, applied or discarded (a person decides).")
    def candidate_status(
        candidate_id: Annotated[str, Field(description="the id propose_memory returned (cand_...)")],
    ) -> dict[str, Any]:
        return guard(tools.candidate_status, candidate_id=candidate_id)
