"""``memory-review mcp``: a stdio MCP server for agents — they may propose and read, never decide.

Tools (docs/design.md §9)::

    propose_memory     a create/update proposal -> a pending candidate; says a person will review it
    get_context        the context block (recorded as context.built when a session is known)
    list_memories      approved memories, as injection sees them
    search_memories    approved memories matching a query (injection's keyword matching)
    candidate_status   pending | applied | discarded, with flags (and moved_to: a person moved it to the other store)

There is deliberately no tool that applies, discards, edits, reverts or deletes:
those are a person's acts (``rules.require_person``), done in the review UI or CLI.
Each tool carries MCP annotations: the four readers ``readOnlyHint``; ``propose_memory``
adds a pending candidate only (``destructiveHint: false``) and proposing the same thing
again returns the same candidate (``idempotentHint: true``). None reaches outside
(``openWorldHint: false``).

The project (ADR 0022) is never the folder the client happened to start us in: it is
``--project``, else the first of the client's MCP roots (``roots/list``), else
``$CLAUDE_PROJECT_DIR``. Without any, the server works on the user store only and a
project-scope call is a tool error that says so.

:class:`MemoryTools` is the plain-Python core (testable without the SDK);
:func:`build_server` wraps it in the official ``mcp`` SDK, an optional extra
(the ``[mcp]`` extra: ``pip install -e '.[mcp]'`` in a checkout), imported only when the server starts.
Its ``MCPServer`` (SDK 2.x) and ``FastMCP`` (SDK 1.x) share the decorator API we use.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import tempfile
import threading
import warnings
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal
from urllib.parse import unquote, urlparse

from pydantic import Field
from pydantic import ValidationError as PydanticValidationError

from memory_review.errors import MemoryReviewError, NotFoundError, ValidationError, one_line_os_error
from memory_review.ids import new_candidate_id
from memory_review.injection import keyword_select, priority_order
from memory_review.injection.result import MAX_COUNT
from memory_review.integrations.claude_hooks import claude_project_dir
from memory_review.main import INTERRUPTED
from memory_review.models import Memory, utc_now
from memory_review.paths import project_store_dir
from memory_review.proposal import AnyProposal, Evidence, Proposer, UpsertProposal
from memory_review.record_io import memory_to_json
from memory_review.rules import proposed_record
from memory_review.workspace import CandidateState, Workspace

if TYPE_CHECKING:
    from memory_review.candidate import Candidate

SERVER_NAME = "memory-review"
TOOL_NAMES = ("propose_memory", "get_context", "list_memories", "search_memories", "candidate_status")
REVIEW_NOTE = (
    "A person will review this proposal (in memory-review); it is not memory until they apply it. "
    "Check it later with candidate_status."
)
INSTRUCTIONS = (
    "memory-review keeps a reviewed memory of the user's preferences, project conventions, facts and "
    "forbidden actions. Call get_context at the start of a task. When the user states something worth "
    "remembering, call propose_memory with a rationale and the user's words as evidence: a person "
    "reviews every proposal; you cannot approve, edit or discard one."
)
EXISTING_NOTE = (
    "An identical proposal is already waiting for review; this is its id (nothing new was "
    "proposed). Check it with candidate_status."
)
NO_PROJECT = (
    "this server has no project: start it with --project DIR, from a client that shares its MCP "
    "roots, or with $CLAUDE_PROJECT_DIR set; until then only user-scope memory is available"
)
MAX_SEARCH_RESULTS = 20
ROOTS_TIMEOUT = 5.0


class MemoryTools:
    """The tools as plain methods over one workspace; every result is JSON-ready.

    ``has_project=False``: the workspace's project is a stand-in (no folder of the client's);
    project-scope calls fail with :data:`NO_PROJECT` and contexts are not recorded.
    """

    def __init__(self, ws: Workspace, *, session: str | None = None, has_project: bool = True) -> None:
        self.ws = ws
        self.session = session if has_project else None  # context.built lives in the project's log
        self.has_project = has_project

    def _need_project(self, scope: str | None) -> None:
        if scope == "project" and not self.has_project:
            raise ValidationError(NO_PROJECT, field="scope")

    def propose_memory(
        self,
        *,
        memory_id: str,
        type: str,
        description: str,
        rationale: str,
        body: str = "",
        scope: str = "project",
        op: str = "create",
        evidence: list[str] | None = None,
        session_id: str | None = None,
    ) -> dict[str, Any]:
        """Propose one memory; the pending candidate's id, flags and the review note."""
        self._need_project(scope)
        session = session_id or self.session
        try:  # an agent's input: validated as data, like `propose --file`
            proposal = UpsertProposal.model_validate(
                {
                    "op": op,
                    "scope": scope,
                    "session_id": session,
                    "memory": {"id": memory_id, "type": type, "description": description, "body": body},
                    "rationale": rationale,
                    "proposer": Proposer(kind="agent", name="mcp"),
                    "evidence": [Evidence(quote=q, session_id=session) for q in evidence or ()],
                }
            )
        except PydanticValidationError as exc:
            raise ValidationError(_describe(exc), path="propose_memory") from exc
        # An agent retrying, or two sessions noticing the same thing: the twin is looked for under the
        # store's lock (inside propose), so servers proposing it at the same moment make one candidate.
        twins: list[CandidateState] = []
        state = self.ws.propose([proposal], twin=lambda wanted: _noted(self._pending_twin(wanted), twins))[0]
        existing = any(t.candidate.id == state.candidate.id for t in twins)  # not one only the first pass saw
        return {
            "id": state.candidate.id,
            "status": state.status,
            "flags": list(state.flags),
            "existing": existing,
            "message": EXISTING_NOTE if existing else REVIEW_NOTE,
        }

    def _pending_twin(self, proposal: AnyProposal) -> CandidateState | None:
        """A pending candidate of the same store that would make memory say exactly this."""
        if not isinstance(proposal, UpsertProposal):  # the tool proposes nothing else
            return None
        # The record as the store would write it (redacted the same way), so equal means equal.
        record = proposed_record(None, proposal.memory, proposal, proposal.scope, new_candidate_id(), utc_now())
        wanted = [(record.id, record.type, record.description, record.body)]
        for state in self.ws.list_candidates(scope=proposal.scope):
            if _contents(state.candidate) == wanted:
                return state
        return None

    def get_context(self, *, query: str | None = None, session_id: str | None = None, budget: int | None = None) -> str:
        """The context block (empty string when there is nothing approved to inject)."""
        session = (session_id or self.session) if self.has_project else None
        indexed = self.ws.indexed_context(session=session, query=query or None, budget=budget)  # ADR 0030
        if indexed is not None:
            return indexed
        return self.ws.context(session=session, query=query or None, budget=budget).text

    def list_memories(self, *, scope: str | None = None) -> list[dict[str, Any]]:
        """Approved memories (user, project, and this session's), optionally of one scope."""
        self._need_project(scope)
        memories = self.ws.memories(session=self.session)
        return [_public(m) for m in priority_order(memories) if scope is None or m.scope == scope]

    def search_memories(self, *, query: str, limit: int = 5) -> list[dict[str, Any]]:
        """Approved memories whose id, description or body share words with ``query``."""
        limit = max(1, min(limit, MAX_SEARCH_RESULTS))
        indexed = self.ws.indexed_search(query=query, limit=limit, session=self.session)  # ADR 0030
        if indexed is not None:
            return [_public(m) for m in indexed]
        memories = self.ws.memories(session=self.session)
        chosen = keyword_select(memories, query, limit)
        return [_public(m) for m in priority_order(memories) if m.id in chosen]

    def candidate_status(self, *, candidate_id: str) -> dict[str, Any]:
        """Where a proposal stands: pending, applied or discarded."""
        try:
            state = self.ws.show(candidate_id)
        except NotFoundError as exc:
            if self.has_project:
                raise
            raise NotFoundError(exc.kind, exc.key, hint=NO_PROJECT) from exc  # it may be a project candidate
        changes = state.candidate.changes
        moved = {"moved_to": state.moved_to} if state.moved_to else {}  # a person filed it in the other store
        return {
            "id": state.candidate.id,
            "status": state.status,
            "op": state.candidate.op,
            "scope": state.candidate.scope,
            "flags": list(state.flags),
            "memories": [c.memory for c in changes],
            **moved,
        }


def _noted(found: CandidateState | None, seen: list[CandidateState]) -> CandidateState | None:
    if found is not None:
        seen.append(found)
    return found


def _contents(candidate: Candidate) -> list[tuple[str, str, str, str]]:
    return [
        (c.after.id, c.after.type, c.after.description, c.after.body) if c.after else ("", "", "", "")
        for c in candidate.changes
    ]


def _public(memory: Memory) -> dict[str, Any]:
    record = memory_to_json(memory)
    return {key: record[key] for key in ("id", "scope", "type", "description", "body", "updated_at")}


def _describe(exc: PydanticValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "(root)"
    return f"{where}: {first['msg']}"


# --- which project ------------------------------------------------------------------------------


class ProjectFinder:
    """The tools for the project of each call: ``--project``, the client's roots, ``$CLAUDE_PROJECT_DIR``.

    Never the folder the client launched the server in. Without any of them the tools work on
    the user store with a stand-in project folder of our own (an empty temporary directory),
    so no call can create a store in a folder nobody named.
    """

    def __init__(self, ws: Workspace, *, session: str | None, fixed: bool) -> None:
        self.ws = ws
        self.session = session
        self.fixed = fixed
        self._tools: dict[Path, MemoryTools] = {}
        self._stand_in: tempfile.TemporaryDirectory[str] | None = None

    async def tools(self, ctx: Any) -> MemoryTools:
        """The tools for this call's project."""
        if self.fixed:
            return self._for(self.ws.root)
        root = await client_root(ctx) or claude_project_dir()
        return self._for(root) if root is not None else self._user_only()

    def _for(self, root: Path) -> MemoryTools:
        if root not in self._tools:
            ws = self.ws if root == self.ws.root else Workspace.open(root)
            self._tools[root] = MemoryTools(ws, session=self.session)
        return self._tools[root]

    def _user_only(self) -> MemoryTools:
        if self._stand_in is None:
            self._stand_in = tempfile.TemporaryDirectory(prefix="memory-review-mcp-")
        root = Path(self._stand_in.name)
        if root not in self._tools:
            self._tools[root] = MemoryTools(
                Workspace(root, self.ws.store_dir("user")), session=self.session, has_project=False
            )
        return self._tools[root]


async def client_root(ctx: Any) -> Path | None:
    """The client's project folder from ``roots/list``: the first root holding a store, else the first.

    None when the client offers no roots (or does not answer in time). Roots are deprecated in
    the 2026-07-28 spec (SEP-2577) but still what clients send; the SDK's warning is silenced.
    """
    if not _offers_roots(ctx):
        return None
    import anyio

    try:
        with anyio.fail_after(ROOTS_TIMEOUT), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            listed = await ctx.session.list_roots()
    except Exception:  # noqa: BLE001 — a client that fails to list its roots leaves us without a project
        return None
    folders = [p for p in (_folder(str(root.uri)) for root in listed.roots) if p is not None]
    with_store = [p for p in folders if project_store_dir(p).is_dir()]
    found = with_store or folders
    return found[0] if found else None


def _offers_roots(ctx: Any) -> bool:
    caps = getattr(ctx, "client_capabilities", None)
    if caps is None:  # SDK 1.x
        params = getattr(ctx.session, "client_params", None)
        caps = getattr(params, "capabilities", None)
    return getattr(caps, "roots", None) is not None


def _folder(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return None
    path = Path(unquote(parsed.path))
    return path.resolve() if path.is_absolute() and "\x00" not in str(path) and path.is_dir() else None


# --- the SDK wrapper -----------------------------------------------------------------------------


def build_server(
    ws: Workspace, *, session: str | None = None, fixed_project: bool = True, calls: ToolCalls | None = None
) -> Any:
    """An MCP server exposing :class:`MemoryTools` (the ``mcp`` package must be installed).

    ``fixed_project``: ``ws.root`` is the project (``--project``); otherwise each call finds it.
    ``calls``: where the tool methods run (one at a time, off the event loop).
    """
    sdk = _sdk()
    finder = ProjectFinder(ws, session=session, fixed=fixed_project)
    # stdout carries the protocol; the SDK's per-call INFO lines on stderr would only be noise.
    server = sdk.server(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING")
    guard = _guard(sdk.tool_error, finder, calls or ToolCalls())
    for register in (_propose, _context, _list, _search, _status):
        register(server, guard, sdk)
    return server


def serve(ws: Workspace, *, session: str | None = None, fixed_project: bool = True) -> None:
    """Run the server on stdin/stdout until the client closes it.

    Never a traceback (the common rules): a client that went away ends it quietly; a closed stdin or
    stdout, or an output the disk refuses, is a one-line error; ctrl+c ends it at once, as any command.
    """
    _need_stdio()
    calls = ToolCalls()
    server = build_server(ws, session=session, fixed_project=fixed_project, calls=calls)
    with calls.interruptible():
        try:
            server.run("stdio")
        except (OSError, BaseExceptionGroup) as exc:
            failed = _stream_error(exc)
            if failed is None:
                raise
            if not isinstance(failed, BrokenPipeError | ConnectionResetError):  # the client leaving is no error
                raise MemoryReviewError(f"the MCP client's stream failed: {one_line_os_error(failed)}") from exc


def _need_stdio() -> None:
    # Python sets sys.stdin/sys.stdout to None when it starts with fd 0/1 closed; the SDK would fail on them.
    for name in ("stdin", "stdout"):
        if getattr(sys, name) is None:
            raise MemoryReviewError(f"{name} is closed: the MCP server talks to its client over stdin and stdout")


def _stream_error(exc: BaseException) -> OSError | None:
    """The OSError that ended the server (the SDK raises it inside a task group's exception group), or None
    when anything else did."""
    if isinstance(exc, OSError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        found = [_stream_error(inner) for inner in exc.exceptions]
        return found[0] if found and all(found) else None
    return None


class ToolCalls:
    """Where tool methods run: in a worker thread, one at a time, so the event loop stays free.

    A call that waits for the store lock (another process commits) then holds up nothing but the
    calls queued behind it: ping and the protocol are still answered. One at a time keeps writes in
    the order they came and a workspace in one thread at a time.
    """

    def __init__(self) -> None:
        self._running = threading.Lock()  # held while a tool method runs, for ctrl+c to wait on
        self._limiter: Any = None  # an anyio CapacityLimiter(1), made on the loop that uses it

    async def run(self, method: Callable[[], Any]) -> Any:
        import anyio

        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(1)
        # Its own limiter, not anyio's default: queued calls must not take the threads the SDK reads stdin on.
        return await anyio.to_thread.run_sync(self._one, method, limiter=self._limiter)

    def _one(self, method: Callable[[], Any]) -> Any:
        with self._running:
            return method()

    @contextmanager
    def interruptible(self) -> Iterator[None]:
        """Ctrl+c (SIGINT) ends the process at once, but never inside a tool call.

        The SDK reads stdin in a worker thread that nothing can stop short of EOF, and the event loop
        waits for it, so a KeyboardInterrupt would leave the server running until the client closes
        stdin. A SIGINT ignored by whoever started us stays ignored.
        """
        ours = threading.current_thread() is threading.main_thread()  # only there can a handler be set
        if not ours or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            yield
            return
        signal.signal(signal.SIGINT, self._interrupted)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)

    def _interrupted(self, signum: int, frame: Any) -> None:
        # The call in flight finishes first, so what it writes is all done or not begun (a commit would
        # survive a kill too, but this keeps the promise of the one line). Never released: no call starts
        # after it. Nothing else is ours to finish: every answer was flushed as it was sent.
        self._running.acquire()
        print(INTERRUPTED, file=sys.stderr, flush=True)
        os._exit(130)


class _SDK:
    """The pieces of the ``mcp`` SDK we use, from whichever major version is installed."""

    def __init__(self, server: type, tool_error: type[Exception], context: type, annotations: type) -> None:
        self.server = server
        self.tool_error = tool_error
        self.context = context
        self.annotations = annotations

    def tool(
        self, server: Any, fn: Callable[..., Any], *, description: str, read_only: bool, idempotent: bool = True
    ) -> None:
        """Register ``fn``; its ``ctx`` parameter gets the SDK's request context."""
        fn.__annotations__["ctx"] = self.context  # the SDK finds the context parameter by its type
        hints = (
            {"readOnlyHint": True}
            if read_only
            else {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": idempotent}
        )
        annotations = self.annotations(openWorldHint=False, **hints)
        server.tool(description=description, annotations=annotations)(fn)


def _sdk() -> _SDK:
    from mcp.types import ToolAnnotations

    try:
        from mcp.server.mcpserver import Context, MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:
        try:
            # SDK 1.x names (mypy checks against whichever major is installed).
            from mcp.server.fastmcp import Context  # type: ignore[attr-defined,no-redef]
            from mcp.server.fastmcp import FastMCP as MCPServer  # type: ignore[attr-defined,no-redef]
            from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[import-not-found,no-redef]
        except ImportError as exc:
            raise MemoryReviewError(
                "the MCP server needs the optional 'mcp' package",
                hint="install memory-review with its [mcp] extra (README: Install it as a tool)",
            ) from exc
    return _SDK(MCPServer, ToolError, Context, ToolAnnotations)


Guard = Callable[..., Awaitable[Any]]


def _guard(tool_error: type[Exception], finder: ProjectFinder, calls: ToolCalls) -> Guard:
    """Call a tool method on this call's project; a MemoryReviewError becomes the SDK's tool error."""

    async def call(ctx: Any, name: str, **kwargs: Any) -> Any:
        try:
            tools = await finder.tools(ctx)
            return await calls.run(functools.partial(getattr(tools, name), **kwargs))
        except MemoryReviewError as exc:
            raise tool_error(f"{exc}" + (f" (hint: {exc.hint})" if exc.hint else "")) from exc
        except OSError as exc:  # the disk refused (read-only, full): a one-line tool error, never a trace
            raise tool_error(one_line_os_error(exc)) from exc

    return call


MemoryType = Literal["preference", "convention", "fact", "forbidden"]


def _propose(server: Any, guard: Guard, sdk: _SDK) -> None:
    async def propose_memory(
        memory_id: Annotated[str, Field(description="slug: lowercase letters, digits, '-', '_' (max 64)")],
        type: Annotated[MemoryType, Field(description="forbidden = something never to be done")],
        description: Annotated[str, Field(description="one line saying what to remember")],
        rationale: Annotated[str, Field(description="why this is worth remembering")],
        ctx: Any,
        body: Annotated[str, Field(description="the note itself (may be several lines)")] = "",
        scope: Annotated[Literal["project", "user"], Field(description="project, or user (every project)")] = "project",
        op: Annotated[Literal["create", "update"], Field(description="update changes an existing memory")] = "create",
        evidence: Annotated[list[str] | None, Field(description="the user's own words, quoted")] = None,
        session_id: Annotated[str | None, Field(description="your session id, if known")] = None,
    ) -> dict[str, Any]:
        return await guard(
            ctx,
            "propose_memory",
            memory_id=memory_id,
            type=type,
            description=description,
            rationale=rationale,
            body=body,
            scope=scope,
            op=op,
            evidence=evidence,
            session_id=session_id,
        )

    sdk.tool(
        server,
        propose_memory,
        read_only=False,
        idempotent=True,
        description="Propose a memory for review. A person applies or discards it; it is not memory "
        "until then. Returns the candidate id to check with candidate_status; proposing "
        "the same thing again returns the same id.",
    )


def _context(server: Any, guard: Guard, sdk: _SDK) -> None:
    async def get_context(
        ctx: Any,
        query: Annotated[str | None, Field(description="what you are working on")] = None,
        session_id: Annotated[str | None, Field(description="your session id, if known")] = None,
        budget: Annotated[int | None, Field(description="size limit in bytes", ge=0, le=MAX_COUNT)] = None,
    ) -> str:
        return await guard(ctx, "get_context", query=query, session_id=session_id, budget=budget)

    # Read-only for memory; with a session it appends the audit record of what it handed out.
    sdk.tool(
        server,
        get_context,
        read_only=True,
        description="The block of approved memories to keep in mind (notes, not instructions). "
        "With a query, the memories relevant to it (forbidden ones always).",
    )


def _list(server: Any, guard: Guard, sdk: _SDK) -> None:
    async def list_memories(
        ctx: Any,
        scope: Annotated[Literal["user", "project", "session"] | None, Field(description="only this scope")] = None,
    ) -> list[dict[str, Any]]:
        return await guard(ctx, "list_memories", scope=scope)

    sdk.tool(
        server,
        list_memories,
        read_only=True,
        description="Approved memories (user and project), highest priority first.",
    )


def _search(server: Any, guard: Guard, sdk: _SDK) -> None:
    async def search_memories(
        ctx: Any,
        query: Annotated[str, Field(description="words to look for", min_length=1)],
        limit: Annotated[int, Field(description="at most this many", ge=1, le=MAX_SEARCH_RESULTS)] = 5,
    ) -> list[dict[str, Any]]:
        return await guard(ctx, "search_memories", query=query, limit=limit)

    sdk.tool(
        server,
        search_memories,
        read_only=True,
        description="Approved memories sharing words with the query (keyword match).",
    )


def _status(server: Any, guard: Guard, sdk: _SDK) -> None:
    async def candidate_status(
        ctx: Any,
        candidate_id: Annotated[str, Field(description="the id propose_memory returned (cand_...)")],
    ) -> dict[str, Any]:
        return await guard(ctx, "candidate_status", candidate_id=candidate_id)

    sdk.tool(
        server,
        candidate_status,
        read_only=True,
        description="Whether a proposal is pending, applied or discarded (a person decides); moved_to: the id a "
        "person moved it to in the other store, where it is pending or decided.",
    )
