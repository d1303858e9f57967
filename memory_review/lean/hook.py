"""The Claude Code prompt hook's fast path: the context block from the read index (issue #16, ADR 0030).

``SessionStart`` and ``UserPromptSubmit`` are answered here when everything is as the index says:
both stores have an index made at their current manifest, their logs hold nothing past it but
``context.built`` lines, both trust ledgers exist and decide every version, no notice is due, and
the session has no memories of its own. Then the hook applies the same gates as the full path
(:mod:`memory_review.lean.trust`), builds the same block (:mod:`memory_review.lean.context`),
records it as one log line and prints it, importing the standard library and orjson only.

Everything else is :class:`Fallback`: ``integrations.claude_hooks``, the full validating path, runs
from the payload's bytes and answers as it always has (its error log, notices, extraction). A
failure of this path that is not a Fallback is logged to the hook error log, and the full path
answers too: a bug here must never cost the prompt its context.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import orjson

from memory_review.lean import context, index, logtail, trust
from memory_review.lean.files import Fallback, fingerprint, real_dir
from memory_review.lean.gitwalk import walk_up
from memory_review.lean.watchdog import Watchdog, deadline_seconds, write_by

CONTEXT_EVENTS = frozenset({"SessionStart", "UserPromptSubmit"})
CONTEXT_DEADLINE = 5.0
CONTEXT_BUDGET = 10_000
LOCK_TIMEOUT = 1.0
MAX_PAYLOAD_BYTES = 16 * 1024 * 1024  # a prompt with a pasted log past 1 MB still gets its context (session 38)
PROJECT_DIR_ENV = "CLAUDE_PROJECT_DIR"
NESTED_ENV = "MEMORY_REVIEW_NESTED"
SESSION_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
# The agents' own session ids are UUIDs. Any other id long enough to be a key goes to the full path, whose secret
# scan refuses one shaped like a key (session 38's review): this path cannot afford the scan's patterns.
UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
MAX_UNSCANNED_SESSION_CHARS = 12  # the shortest key shape the scanner knows (Slack's) has 15
# What of a prompt is its query: keyword selection needs its words, not megabytes of a pasted log, whose sorting
# held the interpreter past the watchdog's deadline (session 38's re-review). Both hook paths cut the same.
MAX_QUERY_CHARS = 65_536
STORE_DIR = ".memory-review"


class IndexStale(Fallback):
    """A store's read index is missing, stale or damaged: the full path answers, then it is made again."""

    def __init__(self, why: str, root: Path, user: Path) -> None:
        super().__init__(why)
        self.root, self.user = root, user


def run_hook(stdin: IO[bytes], stdout: IO[str], *, project: str | None = None) -> int:
    """The command: answer from the index, or hand the payload to the full hook. Always exits 0."""
    # Before reading: a writer that keeps the pipe open
    begun = time.monotonic()
    watchdog = Watchdog(deadline_seconds(CONTEXT_DEADLINE), on_expiry=_timed_out)
    raw = stdin.read(MAX_PAYLOAD_BYTES + 1)
    try:
        output = answer(raw, project)
    except IndexStale as stale:
        done = _full_path(raw, stdout, project, watchdog, begun)
        _reindex(stale)
        return done
    except Fallback:
        return _full_path(raw, stdout, project, watchdog, begun)
    except Exception as exc:  # noqa: BLE001 — a bug here: log it, and let the full path answer
        return _full_path(raw, stdout, project, watchdog, begun, failure=exc)
    watchdog.finish(lambda: write_answer(stdout, output, watchdog.expires_at))
    return 0


def answer(raw: bytes, project: str | None, *, now: str | None = None) -> dict[str, Any] | None:
    """The hook's JSON answer for a context event; Fallback for anything the full path must decide.

    ``now`` is the clock (``YYYY-MM-DDTHH:MM:SSZ``); tests pass one to compare with the full path.
    """
    event, session, prompt, cwd = _payload(raw)
    if prompt and "<hook_context>" in prompt:
        raise Fallback("a prompt carrying hooks' context back (Gemini's): the full path takes it out first")
    query = (prompt[:MAX_QUERY_CHARS] if event == "UserPromptSubmit" and prompt else None) or None
    found = block_for(
        _project_root(project, cwd), session=session, query=query, budget=CONTEXT_BUDGET, now=now, notices=True
    )
    if found is None or not found.text:
        return None
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": found.text}}


def block_for(
    root: Path,
    *,
    session: str | None,
    query: str | None,
    budget: int,
    now: str | None = None,
    notices: bool = False,
    user: Path | None = None,
    dropped: bool = False,
) -> context.Block | None:
    """The block for ``session`` from the read indexes, recorded when a session asks (None: no project store).

    ``notices``: the hook shows the person a notice about foreign memories once per session, so it steps
    aside while one is due; other callers (the MCP server, ``context``) serve what is trusted either way.
    ``dropped``: also say what was left out and why (``context`` reports it; the hook does not).
    """
    served = _served(root, session=session, notices=notices, user=user)
    if served is None:
        return None
    store, origin, user_seq, tiers = served
    now = now or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    block = context.build(tiers, query=query, now=now, budget_bytes=budget, dropped=dropped)
    if session is not None:
        _record(store, origin, session, query, now, block, user_seq=user_seq, budget=budget)
    return block


def search(
    root: Path, *, session: str | None, query: str, limit: int, user: Path | None = None
) -> list[tuple[str, str, str]] | None:
    """``(scope, id, sha256)`` of the approved memories keyword matching picks for ``query``, in priority
    order, as the MCP server's ``search_memories`` picks them from every memory (None: no project store)."""
    served = _served(root, session=session, notices=False, user=user)
    if served is None:
        return None
    return [(scope, entry[index.ID], entry[index.SHA256]) for scope, entry in context.matching(served[3], query, limit)]


def _served(
    root: Path, *, session: str | None, notices: bool, user: Path | None
) -> tuple[Path, str, int, list[tuple[str, list[index.Entry]]]] | None:
    """The project store, its origin, the user log's head seq, and each tier's entries the gate serves."""
    store = root / STORE_DIR
    if not (os.path.exists(store / "manifest.json") or os.path.exists(store / "events.jsonl")):
        return None  # no project store here: the hooks never create one (ADR 0011)
    if session is not None and not plain_session_id(session):
        raise Fallback("a session id the full path must judge")
    user = user or _user_dir()
    user_state, user_head = _current(user, user, "user", root)
    project_state, project_head = _current(user, store, "project", root)
    if session is not None:
        _no_session_memories(store, project_state, session)
    tiers = [("user", user_state, user_head), ("project", project_state, project_head)]
    served = [
        (scope, [state.entries[i] for i in trust.served(user, where, state, head, session, notices=notices)])
        for (scope, state, head), where in zip(tiers, (user, store), strict=True)
    ]
    return store, project_state.origin, user_head[0], served


def plain_session_id(session: str) -> bool:
    """A session id this path may write unscanned: a safe id, short or shaped like a UUID."""
    if not SESSION_ID_RE.match(session) or session.endswith("\n"):
        return False
    return len(session) <= MAX_UNSCANNED_SESSION_CHARS or UUID_RE.match(session) is not None


def _payload(raw: bytes) -> tuple[str, str, str | None, str | None]:
    """``hook_event_name``, ``session_id``, ``prompt`` and ``cwd`` of a context event's payload."""
    if len(raw) > MAX_PAYLOAD_BYTES or os.environ.get(NESTED_ENV):
        raise Fallback("not for this path")
    try:
        payload = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise Fallback("not JSON") from exc
    if not isinstance(payload, dict) or payload.get("hook_event_name") not in CONTEXT_EVENTS:
        raise Fallback("not a context event")
    session = payload.get("session_id")
    fields = [payload.get(name) for name in ("prompt", "cwd", "transcript_path")]
    if type(session) is not str or not plain_session_id(session):
        raise Fallback("a session id the full path must judge")
    if not all(value is None or type(value) is str for value in fields):
        raise Fallback("a payload field the full path must judge")
    return payload["hook_event_name"], session, fields[0], fields[1]


def _project_root(project: str | None, cwd: str | None) -> Path:
    """``--project``, else ``$CLAUDE_PROJECT_DIR``, else the git top-level of the payload's cwd (as
    ``claude_hooks.open_workspace`` decides it)."""
    return project_root(project or _claude_project_dir(), cwd)


def project_root(chosen: str | None, cwd: str | None) -> Path:
    """``chosen`` (a ``--project`` DIR), else the git top-level of ``cwd`` (or of the current folder), else
    that folder — as ``paths.project_root`` decides it; Fallback where only gitpython can tell."""
    if chosen is not None:
        if "\x00" in chosen:
            raise Fallback("a NUL in the project path")
        root = Path(chosen).expanduser().resolve()
        if not root.is_dir():
            raise Fallback("the project is not a folder")
        return root
    if cwd is not None and not Path(cwd).is_dir():
        raise Fallback("the payload's cwd is not a folder")
    here = (Path(cwd) if cwd else Path.cwd()).resolve()
    found = walk_up(here)
    if found is None:
        raise Fallback("a git layout only gitpython decides")
    return found.root or here


def _claude_project_dir() -> str | None:
    value = os.environ.get(PROJECT_DIR_ENV, "")
    return value if value and os.path.isabs(value) and os.path.isdir(value) else None


def _user_dir() -> Path:
    home = os.environ.get("MEMORY_REVIEW_HOME")
    if home:
        if "\x00" in home:
            raise Fallback("a NUL in MEMORY_REVIEW_HOME")
        return Path(home).expanduser().resolve()
    from platformdirs import user_config_dir

    return Path(user_config_dir("memory-review", appauthor=False))


def _current(user: Path, store: Path, scope: str, root: Path) -> tuple[index.IndexState, tuple[int, str]]:
    """The store's index, if it still says what the store holds, and the log's head."""
    if not real_dir(store):
        raise Fallback(f"the {scope} store is not a real folder")
    try:
        state = index.load(user, store, scope)
        if state is None:
            raise Fallback(f"no read index for the {scope} store yet")
        if fingerprint(store / "manifest.json") != state.manifest:
            raise Fallback(f"the {scope} store's manifest changed since it was indexed")
        return state, logtail.head_past(store / "events.jsonl", state.at)
    except Fallback as exc:
        raise IndexStale(str(exc), root, user) from exc


def _reindex(stale: IndexStale) -> None:
    """After the full path answered: make the stale indexes again, where that is quick (ADR 0030)."""
    from memory_review.read_index import reindex_small_stores

    reindex_small_stores(stale.root, stale.user, lock_timeout=LOCK_TIMEOUT)


def _no_session_memories(store: Path, state: index.IndexState, session: str) -> None:
    sessions = store / "sessions"
    if (
        session in state.sessions
        or (os.path.lexists(sessions) and not real_dir(sessions))
        or os.path.lexists(sessions / f"{session}.json")
    ):
        raise Fallback("the session has memories of its own")


def _record(
    store: Path,
    origin: str,
    session: str,
    query: str | None,
    now: str,
    block: context.Block,
    *,
    user_seq: int,
    budget: int,
) -> None:
    """``context.built``, exactly as ``context._record`` writes it (the prompt's hash, never the prompt)."""
    recorded: dict[str, Any] = {
        "budget_bytes": budget,
        "budget_lines": context.DEFAULT_BUDGET_LINES,
        "now": now,
        "frame": index.FRAME_VERSION,  # the layout of the index's notes: it is read only when it is the renderer's
        "sha256": block.sha256,
        "user_seq": user_seq,
        "included": block.included,
    }
    if query is not None:
        recorded["query_sha256"] = hashlib.sha256(query.encode("utf-8", "surrogatepass")).hexdigest()
        recorded["query_chars"] = len(query)
    fields = {"type": "context.built", "actor": f"agent:{session}", "session": session, "context": recorded}
    logtail.append_context(store, fields, origin=origin, timeout=LOCK_TIMEOUT)


def _full_path(
    raw: bytes,
    stdout: IO[str],
    project: str | None,
    watchdog: Watchdog,
    begun: float,
    *,
    failure: BaseException | None = None,
) -> int:
    import io

    watchdog.finish(lambda: None)  # the full hook keeps its own deadline, counted from when this one began
    from memory_review.integrations import claude_hooks

    if failure is not None:
        claude_hooks.record_error(claude_hooks.error_folder_for(None, project), failure)
    return claude_hooks.run_hook(io.BytesIO(raw), stdout, project=project, begun=begun)


def write_answer(stdout: IO[str], output: dict[str, Any] | None, expires_at: float) -> None:
    """Print the hook's JSON answer, if any, by the deadline; a reader that went away, or does not read by then,
    is no one to answer (both hook paths)."""
    if output is None:
        return
    answer = orjson.dumps(output) + b"\n"
    try:
        fd = stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file: an in-process caller's buffer
        fd = None
    try:
        if fd is None:
            stdout.write(answer.decode("utf-8"))
            stdout.flush()
            return
        stdout.flush()
        write_by(fd, answer, expires_at)
    except OSError:
        pass  # the agent stopped reading (its own timeout): there is no one left to answer


def _timed_out() -> None:
    from memory_review.integrations import claude_hooks

    claude_hooks.record_error(
        claude_hooks.error_folder_for(None, None),
        TimeoutError("the hook ran past its deadline and was stopped; nothing was added"),
    )


def hook_streams() -> tuple[IO[bytes], IO[str]]:
    """The hook's stdin and stdout; an empty one and a sink where the agent closed them (the hook exits 0 whatever it
    is given: a closed stream ended it in a traceback, session 37's last review)."""
    stdin = sys.stdin.buffer if sys.stdin is not None else open(os.devnull, "rb")  # noqa: SIM115 (the process's)
    stdout = sys.stdout if sys.stdout is not None else open(os.devnull, "w")  # noqa: SIM115 (the process's)
    return stdin, stdout


def main() -> int:
    return run_hook(*hook_streams())
