"""``memory-review hook claude-code|codex|gemini``: the agent hook (reads the hook's JSON on stdin).

Written for Claude Code; Codex and Gemini CLI speak the same JSON, and :mod:`agents` maps their
event names to these (Gemini's ``BeforeAgent`` is ``UserPromptSubmit``, ``AfterAgent`` is ``Stop``).

* ``SessionStart`` / ``UserPromptSubmit``: answer with the context block as
  ``{"hookSpecificOutput": {"hookEventName": ..., "additionalContext": <block>}}``
  (Claude Code's JSON output for added context; the prompt is the query). The
  block is recorded as ``context.built`` for the session first: nothing is
  injected that could not be replayed later.
* ``Stop`` / ``SubagentStop`` / ``PreCompact``: extract from ``transcript_path``,
  keeping only findings whose evidence lies in turns not read before for that
  session (offsets in ``hooks/sessions/``), and propose them as candidates. A
  background worker then reads the project's other sessions (Claude Code's and
  Gemini's beside the transcript, Codex's rollouts started in the project) and
  proposes what this session and another both said (ADR 0046, 0050). A rule already
  pending and said again in another session raises that candidate (ADR 0050).
* Anything else (``Notification`` ...): nothing.

It must never block or break the agent: a watchdog ends the process at a
deadline (5 s for context, 20 s for extraction), the store lock is waited for
briefly, and on *any* failure the hook exits 0 with nothing on stdout and the
error appended to ``<store>/hooks/errors.jsonl`` (``memory-review hook errors``).
A crash at the deadline is safe: the commit path is crash-atomic (docs/design.md §5).

The project is ``$CLAUDE_PROJECT_DIR`` when Claude Code sets it (the folder the session
started in), else the payload's ``cwd``. The hooks never create a store: in a project without a project store
(``memory-review init`` not run there) they do nothing, so a user-wide install
does not litter every repository Claude Code opens.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import orjson
from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic import ValidationError as PydanticValidationError

from memory_review import safety
from memory_review.errors import IntegrityError, MemoryReviewError, ValidationError
from memory_review.integrations.agents import (
    CLAUDE_CODE,
    CONTEXT_EVENTS,
    EXTRACT_EVENTS,
    HOOK_EVENTS,
    HookAgent,
    without_hook_context,
)
from memory_review.integrations.hook_state import (
    HookError,
    HookState,
    SessionOffsets,
    TranscriptOffset,
    hooks_dir,
    log_error,
    read_errors,
)
from memory_review.json_text import loads
from memory_review.lean.hook import MAX_QUERY_CHARS, write_answer
from memory_review.lean.watchdog import Watchdog, deadline_seconds
from memory_review.models import utc_now
from memory_review.paths import project_root, project_store_dir, user_store_dir
from memory_review.workspace import Workspace

if TYPE_CHECKING:
    from memory_review.extract import Finding, Transcript
    from memory_review.extract.cli_config import HookExtractor
    from memory_review.extraction import ExtractSummary

__all__ = ["CONTEXT_EVENTS", "EXTRACT_EVENTS", "HOOK_EVENTS", "HookPayload", "handle", "run_hook"]

CONTEXT_DEADLINE = 5.0
EXTRACT_DEADLINE = 20.0
LOCK_TIMEOUT = 1.0
# Recent Claude Code versions replace an oversized hook output by a short preview (reported at
# 50 KB; 10,000 characters arrive whole). A 10,000-byte budget keeps the block whole, delimiters included.
CONTEXT_BUDGET = 10_000
MAX_PAYLOAD_BYTES = 16 * 1024 * 1024  # a prompt with a pasted log past 1 MB still gets its context (session 38)
NESTED_ENV = "MEMORY_REVIEW_NESTED"  # set by extract.agent_cli for the CLI it runs


class HookPayload(BaseModel):
    """The fields of a Claude Code hook payload that the hook uses.

    Deliberately *not* ``extra="forbid"``: this is another program's output, and each
    Claude Code release adds fields (``permission_mode``, ``model``, ``agent_id`` ...).
    Forbidding them would silently switch memory off on the next upgrade.
    """

    model_config = ConfigDict(extra="ignore", frozen=True)

    hook_event_name: str = Field(min_length=1)
    session_id: str = Field(min_length=1)
    transcript_path: str | None = None
    cwd: str | None = None
    prompt: str | None = None

    @field_validator("session_id")
    @classmethod
    def _no_secret(cls, value: str) -> str:
        # It names the hook's state files and goes into the log (session 38's review); the agents' ids are UUIDs.
        if shape := safety.secret_shape(value):
            raise ValueError(f"{shape}; session ids are kept in file names and the log")
        return value


@dataclass
class HookOutcome:
    """What one hook run did: the JSON it answers with (or None) and the candidates it proposed."""

    event: str
    output: dict[str, Any] | None = None
    proposed: list[str] = field(default_factory=list)
    skipped: str | None = None


# --- the pure-ish core: a payload in, an outcome out (raises on failure) ----------------------


def parse_payload(raw: bytes) -> HookPayload:
    """Decode the hook's stdin; ValidationError when it is not a hook payload."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise ValidationError(f"hook payload larger than {MAX_PAYLOAD_BYTES} bytes", path="stdin")
    try:
        return HookPayload.model_validate(loads(raw))
    except orjson.JSONDecodeError as exc:
        raise ValidationError(f"hook payload is not JSON: {exc}", path="stdin") from exc
    except PydanticValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        raise ValidationError(f"not a Claude Code hook payload: {where}: {first['msg']}", path="stdin") from exc


def handle(
    payload: HookPayload, *, project: Path | None = None, deadline: float | None = None, agent: HookAgent = CLAUDE_CODE
) -> HookOutcome:
    """Answer one hook event. Raises MemoryReviewError (or OSError) on failure; the caller logs it."""
    outcome = HookOutcome(event=payload.hook_event_name)
    event = agent.ours(payload.hook_event_name)
    if event is None:
        outcome.skipped = "not an event memory-review acts on"
        return outcome
    if os.environ.get(NESTED_ENV):
        # The session of our own model extractor (`claude -p` run by memory-review, ADR 0026): no
        # context for it, and no extraction of it, or extraction would start itself again.
        outcome.skipped = "inside memory-review's own extractor session"
        return outcome
    ws = open_workspace(payload, project, agent)
    if not ws.has_store("project"):
        outcome.skipped = f"no project store at {ws.store_dir('project')} (run `memory-review init` there)"
        return outcome
    if event in CONTEXT_EVENTS:
        outcome.output = with_trust_notice(answer_context(ws, payload, event), ws, payload)
    elif (extractor := _hook_extractor(ws, payload, agent)) != "heuristic":
        from memory_review.integrations.hook_worker import start_background_extraction

        start_background_extraction(ws, payload, extractor, agent)  # the model answers later, never delaying
        outcome.skipped = f"model extraction ({extractor}) started in the background"
    else:
        read = extract_new_turns(ws, payload, deadline=deadline)
        outcome.proposed = read.summary.proposed if read else []
        outcome.output = _review_notice(outcome.proposed, read.summary.raised if read else [])
        if read is not None and read.user_turns:
            start_across_sessions(ws, payload, agent)
    for warning in ws.warnings:  # trouble after a commit point (e.g. git history): the change stands
        record_error(ws.store_dir("project"), RuntimeWarning(warning), payload=payload, agent=agent)
    return outcome


def _hook_extractor(ws: Workspace, payload: HookPayload, agent: HookAgent) -> HookExtractor:
    """The person's choice of extractor for these hooks; a config that cannot be read is logged, and the
    offline heuristic runs instead (extraction still happens)."""
    from memory_review.integrations.hook_worker import configured_extractor

    try:
        return configured_extractor(ws, agent)
    except MemoryReviewError as exc:
        record_error(ws.store_dir("project"), exc, payload=payload, agent=agent)
        return "heuristic"


def open_workspace(payload: HookPayload, project: Path | None, agent: HookAgent = CLAUDE_CODE) -> Workspace:
    """The workspace of ``--project``, else the agent's project variable (``$CLAUDE_PROJECT_DIR``,
    ``$GEMINI_PROJECT_DIR``), else the payload's ``cwd``; the store lock is waited for briefly."""
    project = project or agent_project_dir(agent)
    cwd = Path(payload.cwd) if payload.cwd else None
    if project is None and cwd is not None and not cwd.is_dir():
        raise ValidationError(f"the hook's cwd is not a directory: {cwd}", field="cwd")
    return Workspace.open(project, cwd=cwd, lock_timeout=LOCK_TIMEOUT)


def claude_project_dir() -> Path | None:
    """The project root Claude Code gives the commands it starts (``$CLAUDE_PROJECT_DIR``), if it is a folder."""
    return agent_project_dir(CLAUDE_CODE)


def agent_project_dir(agent: HookAgent) -> Path | None:
    """The project root the agent gives the commands it starts, if it sets one and it is a folder.

    Steadier than the payload's ``cwd``, which follows the agent's ``cd`` (into ``/tmp`` or another
    repository). Unset, empty or not a folder: None, and the ``cwd`` decides as before.
    """
    value = os.environ.get(agent.project_dir_env, "") if agent.project_dir_env else ""
    if not value or not os.path.isabs(value):
        return None
    path = Path(value)
    return path if path.is_dir() else None


def answer_context(ws: Workspace, payload: HookPayload, event: str | None = None) -> dict[str, Any] | None:
    """The hook output adding the (recorded) context block, or None when there is nothing to add.

    ``event`` is our name for the payload's event; the answer names the agent's own (``BeforeAgent``)."""
    query = payload.prompt if (event or payload.hook_event_name) == "UserPromptSubmit" else None
    query = without_hook_context(query) if query else query  # Gemini's prompt carries our block back
    query = query[:MAX_QUERY_CHARS] if query else query  # as the per-prompt path cuts it
    result = ws.context(session=payload.session_id, query=query or None, budget=CONTEXT_BUDGET)
    if not result.text:
        return None
    return {"hookSpecificOutput": {"hookEventName": payload.hook_event_name, "additionalContext": result.text}}


def with_trust_notice(output: dict[str, Any] | None, ws: Workspace, payload: HookPayload) -> dict[str, Any] | None:
    """``output`` plus, once per session and set, the notice of memories not approved here (ADR 0021)."""
    from memory_review.trust_notice import trust_notice

    notice = trust_notice(ws, payload.session_id)
    if notice is None:
        return output
    # To the person (systemMessage), never the model: the agent must not be the one to trust anything.
    return {**(output or {}), "systemMessage": notice}


def _review_notice(proposed: list[str], raised: Sequence[str] = ()) -> dict[str, Any] | None:
    if not proposed and not raised:
        return None
    said = [f"{len(proposed)} new candidate(s)"] if proposed else []
    said += [f"{len(raised)} raised to high (said again in another session)"] if raised else []
    # systemMessage is shown to the person, not the model: the agent is never told to approve anything.
    return {
        "systemMessage": f"memory-review: {', '.join(said)} waiting for review (run `memory-review`)",
        "suppressOutput": True,
    }


def hook_errors(ws: Workspace) -> list[HookError]:
    """Every logged hook failure (project store's log and user store's), oldest first."""
    entries = read_errors(hooks_dir(ws.store_dir("project"))) + read_errors(hooks_dir(ws.store_dir("user")))
    return sorted(entries, key=lambda entry: entry.ts)


# --- incremental extraction ---------------------------------------------------------------------


@dataclass(frozen=True)
class NewTurnsRead:
    """What one incremental extraction did, and how many of the new turns the person wrote (only those
    can repeat what another session said: ADR 0046)."""

    summary: ExtractSummary
    user_turns: int


def extract_new_turns(ws: Workspace, payload: HookPayload, *, deadline: float | None = None) -> NewTurnsRead | None:
    """Propose what the turns not yet read for this session support; None when the file is unchanged."""
    # Imported here: the context hooks run on every prompt and need none of the extraction code.
    from memory_review.extract import extract, read_transcript
    from memory_review.extraction import propose_findings

    if not payload.transcript_path:
        raise ValidationError(f"{payload.hook_event_name} payload has no transcript_path", field="transcript_path")
    path = Path(payload.transcript_path).expanduser().absolute()
    state = HookState(ws.store_dir("project"), lock_timeout=LOCK_TIMEOUT)
    with state.extraction_lock(timeout=_lock_wait(deadline)):
        offsets = session_offsets(state, payload, ws)
        seen = offsets.of(path)
        stat = stat_transcript(path)
        if seen is not None and (seen.size, seen.mtime_ns) == (stat.st_size, stat.st_mtime_ns):
            return None
        transcript = read_transcript(path, session_id=payload.session_id)
        start = resume_index(transcript, seen)
        findings = new_findings(extract(transcript), transcript, start)
        summary = propose_findings(ws, findings, transcript=transcript, source=str(path), again_if_discarded=False)
        # Saved after the proposals: a crash in between re-reads these turns, and dedup makes that a no-op.
        state.save(offsets.with_offset(path, offset_after(transcript, stat)))
    return NewTurnsRead(summary, sum(1 for turn in transcript.turns[start:] if turn.is_user_speaking))


def start_across_sessions(ws: Workspace, payload: HookPayload, agent: HookAgent) -> None:
    """Leave the pass across this project's other sessions to the background worker (ADR 0046, 0050).

    Only when the person wrote a new turn and another session of this project may exist, so a lone
    session never starts a process: Claude Code and Gemini keep a project's sessions in one folder (any
    other session file there is one); Codex files every project's rollouts in one dated tree, so the hook
    reads the first lines the worker would (bounded, :func:`~memory_review.extract.siblings.codex_sibling_may_exist`)
    and starts no worker when every rollout there is another project's.
    """
    from memory_review.extract.siblings import codex_sibling_may_exist, sibling_files
    from memory_review.integrations.hook_worker import start_background_extraction

    if not payload.transcript_path:
        return
    transcript = Path(payload.transcript_path).expanduser().absolute()
    if agent.name == "codex":
        may_exist = codex_sibling_may_exist(transcript, ws.root)
    else:
        may_exist = bool(sibling_files(transcript, limit=1, agent=agent.name))
    if may_exist:
        start_background_extraction(ws, payload, "heuristic", agent)


def resume_index(transcript: Transcript, seen: TranscriptOffset | None) -> int:
    """Index of the first turn not read before; 0 when the file is not the one read before."""
    if seen is None or seen.turns == 0:
        return 0
    turns = transcript.turns
    if len(turns) >= seen.turns and turns[seen.turns - 1].turn_id == seen.last_turn:
        return seen.turns
    return 0  # rewritten or replaced: read it all again (dedup keeps old findings from repeating)


def new_findings(findings: list[Finding], transcript: Transcript, start: int) -> list[Finding]:
    """The findings with evidence in a new turn (a correction repeated across old and new turns counts)."""
    fresh = {turn.turn_id for turn in transcript.turns[start:]}
    return [f for f in findings if any(e.turn_id in fresh for e in f.evidence)]


def session_offsets(state: HookState, payload: HookPayload, ws: Workspace) -> SessionOffsets:
    try:
        return state.offsets(payload.session_id)
    except IntegrityError as exc:
        # Derived state: say so in the error log, then start this session over rather than stay stuck.
        record_error(ws.store_dir("project"), exc, payload=payload)
        return SessionOffsets(session=payload.session_id)


def offset_after(transcript: Transcript, stat: os.stat_result) -> TranscriptOffset:
    last = transcript.turns[-1].turn_id if transcript.turns else None
    return TranscriptOffset(turns=len(transcript.turns), last_turn=last, size=stat.st_size, mtime_ns=stat.st_mtime_ns)


def stat_transcript(path: Path) -> os.stat_result:
    try:
        return path.stat()
    except OSError as exc:
        raise ValidationError(f"cannot read the transcript: {exc.strerror}", path=path) from exc


def _lock_wait(deadline: float | None) -> float:
    """Wait for another extraction at most until shortly before the deadline."""
    if deadline is None:
        return EXTRACT_DEADLINE / 2
    return max(0.1, min(EXTRACT_DEADLINE / 2, deadline - time.monotonic() - 2.0))


# --- the boundary: never fail, never block -------------------------------------------------------


def run_hook(
    stdin: IO[bytes],
    stdout: IO[str],
    *,
    project: str | None = None,
    agent: HookAgent = CLAUDE_CODE,
    begun: float | None = None,
) -> int:
    """The command: read stdin, answer, and exit 0 whatever happens (errors go to the hook error log).

    ``begun``: when the hook began (``time.monotonic``), for the per-prompt path that hands a payload on: its
    deadlines count from then, not from the hand-over (session 38's re-review)."""
    begun = time.monotonic() if begun is None else begun
    # The shorter deadline until the payload names its event: a writer that keeps stdin open must not hold a
    # context hook past what the agent waits for it (install gives Codex's and Gemini's 10 s; session 38's review).
    watchdog = Watchdog(_left(CONTEXT_DEADLINE, begun), on_expiry=lambda: _timed_out(None, project, agent))
    payload: HookPayload | None = None
    try:
        payload = parse_payload(stdin.read(MAX_PAYLOAD_BYTES + 1))
        context = agent.ours(payload.hook_event_name) in CONTEXT_EVENTS
        limit = _left(CONTEXT_DEADLINE if context else EXTRACT_DEADLINE, begun)
        watchdog.restart(limit, on_expiry=lambda: _timed_out(payload, project, agent))
        outcome = handle(payload, project=Path(project) if project else None, deadline=watchdog.expires_at, agent=agent)
    except Exception as exc:  # noqa: BLE001 — the hook's boundary: log anything, add nothing, exit 0
        failure = exc  # `exc` is unbound after the block; the lambda must not depend on when it runs
        watchdog.finish(lambda: _log_failure(failure, payload, project, agent))
        return 0
    watchdog.finish(lambda: write_answer(stdout, outcome.output, watchdog.expires_at))
    return 0


def _left(default: float, begun: float) -> float:
    """What is left of the deadline counted from ``begun`` (a moment at least, so the timer still fires)."""
    return max(0.001, deadline_seconds(default) - (time.monotonic() - begun))


def _log_failure(exc: BaseException, payload: HookPayload | None, project: str | None, agent: HookAgent) -> None:
    record_error(error_folder_for(payload, project, agent), exc, payload=payload, agent=agent)


def _timed_out(payload: HookPayload | None, project: str | None, agent: HookAgent) -> None:
    exc = TimeoutError("the hook ran past its deadline and was stopped; nothing was added")
    record_error(error_folder_for(payload, project, agent), exc, payload=payload, agent=agent)


def record_error(
    store_root: Path | None, exc: BaseException, *, payload: HookPayload | None = None, agent: HookAgent = CLAUDE_CODE
) -> None:
    """Append a hook failure to the store's hook error log, under the agent's name (stderr when no store can)."""
    entry = HookError(
        ts=utc_now(),
        agent=agent.name,
        event=payload.hook_event_name if payload else None,
        session=payload.session_id if payload else None,
        error=type(exc).__name__,
        message=_message(exc),
    )
    try:
        if store_root is None:
            raise FileNotFoundError("no store for the hook error log")
        log_error(hooks_dir(store_root), entry)
    except OSError:
        # Last resort: Claude Code keeps a hook's stderr in its debug log; the exit code stays 0.
        print(f"memory-review hook: {entry.error}: {entry.message}", file=sys.stderr)


def _message(exc: BaseException) -> str:
    hint = getattr(exc, "hint", "")
    return f"{exc}" + (f" (hint: {hint})" if hint else "")


def error_folder_for(payload: HookPayload | None, project: str | None, agent: HookAgent = CLAUDE_CODE) -> Path | None:
    """The store whose hook log takes an error: the project store if it exists, else the user store."""
    try:
        cwd = Path(payload.cwd) if payload and payload.cwd and Path(payload.cwd).is_dir() else None
        root = project_root(Path(project) if project else agent_project_dir(agent), cwd)
        store = project_store_dir(root)
        if store.is_dir():
            return store
        return user_store_dir()
    except (MemoryReviewError, OSError):
        return None  # record_error falls back to stderr
