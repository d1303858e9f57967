"""Model extraction from the hooks, in the background: the hook returns at once, a detached worker asks the model.

When the person chose a model extractor for the hooks (``"hooks": {"claude-code": {"extractor":
"claude"}}`` in the user store's ``config.json``; ``install claude-code --extractor claude`` writes it),
``Stop``/``SubagentStop``/``PreCompact`` do not extract themselves. They write the session's job
(``hooks/jobs/<session>.json``: the transcript, the extractor, a generation number) and start
``memory-review --project ROOT --session ID hook worker`` in its own session with no open pipes, so
Claude Code never waits for the model (ADR 0026).

The worker holds ``hooks/jobs/<session>.lock`` without waiting: a second worker for the same session
exits at once, so at most one extraction per session runs. The one holding it extracts; after letting
go, it reads the job again, and if a newer request came in meanwhile it goes round once more — so a
request made while it worked is never lost. The turns sent are only those not read before (the
offsets of ``claude_hooks``); offsets move on only after the proposals, and only when the model
answered, so a failed call is asked again on the next ``Stop``. The store lock and the project's
extraction lock are held only to read offsets and to propose, never while the model thinks. Failures
go to the hook error log; a watchdog ends a worker that outlives the CLI's own deadline.

With the offline heuristic the hook extracts the session's own new turns itself, then leaves a
``heuristic`` job: the worker reads the project's other sessions of the same agent — Claude Code's and
Gemini's beside the transcript, Codex's rollouts started in the project (:mod:`memory_review.extract.siblings`,
bounded) — and proposes only what is said in this session *and* another one: a named one-off repeated
across sessions, priority high, one quote per session (ADR 0046, 0050); a rule already pending is raised.
A sibling that cannot be read is recorded in the hook error log and left out.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from memory_review.errors import LockTimeoutError, ValidationError
from memory_review.integrations.agents import CLAUDE_CODE, HookAgent, agent_named
from memory_review.integrations.claude_hooks import (
    HookPayload,
    Watchdog,
    new_findings,
    offset_after,
    record_error,
    resume_index,
    session_offsets,
    stat_transcript,
)
from memory_review.integrations.hook_state import ExtractionJob, HookState, SessionOffsets
from memory_review.workspace import Workspace

if TYPE_CHECKING:
    from memory_review.extract import Finding, Transcript
    from memory_review.extract.cli_config import HookExtractor
    from memory_review.extract.siblings import SkippedSibling
    from memory_review.integrations.hook_state import TranscriptOffset

WORKER_LOCK_TIMEOUT = 30.0  # the worker is in no hurry: it may wait for the store behind a person's review
WORKER_MARGIN = 120.0  # beyond the CLI's own deadline: reading, proposing, a second round


def configured_extractor(ws: Workspace, agent: HookAgent = CLAUDE_CODE) -> HookExtractor:
    """The extractor the person chose for this agent's hooks; ``heuristic`` when none (or unreadable)."""
    from memory_review.extract.cli_config import hook_extractor, read_config

    return hook_extractor(read_config(ws.store_dir("user")), agent.name)


def start_background_extraction(
    ws: Workspace, payload: HookPayload, extractor: HookExtractor, agent: HookAgent = CLAUDE_CODE
) -> None:
    """Record the job and start a detached worker for the session; returns at once."""
    if not payload.transcript_path:
        raise ValidationError(f"{payload.hook_event_name} payload has no transcript_path", field="transcript_path")
    transcript = Path(payload.transcript_path).expanduser().absolute()
    state = HookState(ws.store_dir("project"), lock_timeout=1.0)
    state.save_job(
        ExtractionJob(
            session=payload.session_id,
            transcript=str(transcript),
            extractor=extractor,
            event=payload.hook_event_name,
            generation=time.time_ns(),
            agent=agent.name,
        )
    )
    spawn_worker(ws.root, payload.session_id)


def spawn_worker(project_root: Path, session: str) -> None:
    """Start the worker detached: its own session, no pipes to Claude Code, nothing to wait for.

    ``-P``: ``python -m`` would put the working folder, the project (a cloned repository), first on ``sys.path``,
    and its ``secrets.py`` or ``memory_review/`` would run in place of ours (session 37's review; ADR 0060's
    resident server starts the same way)."""
    argv = [
        sys.executable,
        "-P",
        "-m",
        "memory_review.cli",
        "--project",
        str(project_root),
        "--session",
        session,
        "hook",
        "worker",
    ]
    child = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=project_root,
        start_new_session=True,
        close_fds=True,
    )
    child.returncode = 0  # never waited for on purpose: the hook exits, and the worker outlives it


# --- the worker ------------------------------------------------------------------------------------------


def run_worker(*, project: str | None, session: str | None) -> int:
    """``hook worker``: extract the session's latest job with its model; always exits 0."""
    from memory_review.extract.cli_config import MAX_TIMEOUT

    watchdog = Watchdog(MAX_TIMEOUT + WORKER_MARGIN, on_expiry=lambda: None)
    deadline = time.monotonic() + MAX_TIMEOUT  # no model call but a run's first starts that could outlast the watchdog
    root: Path | None = None
    job: ExtractionJob | None = None
    try:
        if not project or not session:
            raise ValidationError("hook worker needs --project and --session")
        ws = Workspace.open(Path(project), lock_timeout=WORKER_LOCK_TIMEOUT)
        root = ws.store_dir("project")
        state = HookState(root, lock_timeout=WORKER_LOCK_TIMEOUT)
        while True:
            job = _one_round(ws, state, session, deadline)
            if job is None:
                break
    except Exception as exc:  # noqa: BLE001 — a hook's boundary: log it, exit 0 (nobody is waiting)
        failure: BaseException = exc
        if isinstance(exc, _JobFailed):  # named by the job that failed: its agent and event, not the last round's
            job, failure = exc.job, exc.__cause__ or exc
        payload = HookPayload(hook_event_name=job.event if job else "worker", session_id=session or "unknown")
        agent = agent_named(job.agent) if job else CLAUDE_CODE
        watchdog.finish(lambda: record_error(root, failure, payload=payload, agent=agent))
        return 0
    watchdog.finish(lambda: None)
    return 0


class _JobFailed(Exception):
    """A round's failure, with the job it was for (the error log names that job's agent and event)."""

    def __init__(self, job: ExtractionJob) -> None:
        super().__init__(job.event)
        self.job = job


def _one_round(ws: Workspace, state: HookState, session: str, deadline: float) -> ExtractionJob | None:
    """Extract once under the worker lock; the job to go round again for, or None when done."""
    try:
        with state.worker_lock(session):
            job = state.job(session)
            if job is None:
                return None
            try:
                if job.extractor == "heuristic":
                    extract_across_sessions(ws, job)
                else:
                    extract_job(ws, state, job, deadline)
            except Exception as exc:
                raise _JobFailed(job) from exc
            state.save_done(job)
    except LockTimeoutError:
        return None  # another worker has this session; it reads the job again when it is done
    newer = state.job(session)  # read after letting go (see the module docstring: no request is lost)
    return newer if newer is not None and newer.generation != job.generation else None


def extract_job(ws: Workspace, state: HookState, job: ExtractionJob, deadline: float | None = None) -> list[str]:
    """Ask the model about the turns not read before, propose what it finds; the candidate ids.

    A long stretch of new turns takes several calls; after the first, none starts that could outlast
    ``deadline`` (the watchdog's), and what the calls that answered found is proposed: the offset moves to
    where they stopped, so the next Stop asks about the rest (ADR 0155)."""
    from memory_review.extraction import propose_findings, record_failure, run_extractor

    path = Path(job.transcript)
    read = _read_new_turns(ws, state, job, path)
    if read is None:
        return []
    transcript, start, offset = read
    run = run_extractor(ws, transcript, job.extractor, start=start, deadline=deadline)
    if run.failure:
        record_failure(ws, transcript, run.failure, agent=job.agent)
    if run.read_to < len(transcript.turns):  # stopped short (a failed call, the deadline)
        if run.read_to <= start:
            return []  # nothing answered: the offsets stay, the next Stop asks about these turns again
        offset = partial_offset(transcript, run.read_to)
    findings = new_findings(run.findings, transcript, start)
    with state.extraction_lock():
        summary = propose_findings(
            ws, findings, transcript=transcript, source=str(path), proposer=run.proposer, again_if_discarded=False
        )
        offsets = _offsets(state, job, ws)
        state.save(offsets.with_offset(path, offset))
    return summary.proposed


def partial_offset(transcript: Transcript, read_to: int) -> TranscriptOffset:
    """The offset of a transcript read up to ``turns[:read_to]``; size 0, so the next Stop reads the file again."""
    from memory_review.integrations.hook_state import TranscriptOffset

    return TranscriptOffset(turns=read_to, last_turn=transcript.turns[read_to - 1].turn_id, size=0, mtime_ns=0)


def _read_new_turns(
    ws: Workspace, state: HookState, job: ExtractionJob, path: Path
) -> tuple[Transcript, int, TranscriptOffset] | None:
    from memory_review.extract import read_transcript

    with state.extraction_lock():
        seen = _offsets(state, job, ws).of(path)
        stat = stat_transcript(path)
        if seen is not None and (seen.size, seen.mtime_ns) == (stat.st_size, stat.st_mtime_ns):
            return None
        transcript = read_transcript(path, session_id=job.session)
    return transcript, resume_index(transcript, seen), offset_after(transcript, stat)


def _offsets(state: HookState, job: ExtractionJob, ws: Workspace) -> SessionOffsets:
    return session_offsets(state, HookPayload(hook_event_name=job.event, session_id=job.session), ws)


# --- the heuristic across the project's sessions (ADR 0046) ------------------------------------------------


def extract_across_sessions(ws: Workspace, job: ExtractionJob) -> list[str]:
    """Propose what this session and at least one sibling session said; the candidate ids."""
    from memory_review.extract import extract, read_transcript
    from memory_review.extract.siblings import own_sessions, read_siblings, user_only, without_turns_of
    from memory_review.extract.transcript import merge_transcripts
    from memory_review.extraction import propose_findings

    path = Path(job.transcript)
    own = user_only(read_transcript(path, session_id=job.session))
    siblings = read_siblings(path, agent=job.agent, project=ws.root)
    _record_skipped(ws, job, siblings.skipped)
    mine = own_sessions(own)
    others = [without_turns_of(sibling, mine) for sibling in siblings.transcripts]
    if not any(sibling.turns for sibling in others):
        return []
    merged = merge_transcripts([own, *others])
    findings = said_here_and_elsewhere(extract(merged), mine)
    if not findings:
        return []
    state = HookState(ws.store_dir("project"), lock_timeout=WORKER_LOCK_TIMEOUT)
    with state.extraction_lock():  # one proposer at a time: the plan's dedup sees the other's candidates
        summary = propose_findings(ws, findings, transcript=merged, source=str(path), again_if_discarded=False)
    return summary.proposed


def said_here_and_elsewhere(findings: list[Finding], mine: frozenset[str]) -> list[Finding]:
    """The findings (collapsed as the plan collapses them) with a quote from this session and another.

    What only a sibling said is that session's business (its own hook proposed it, or chose not to);
    what only this session said the hook has just proposed from the offsets.
    """
    from memory_review.extract.plan import collapse

    kept = []
    for finding in collapse(findings):
        sessions = {evidence.session_id for evidence in finding.evidence}
        if sessions & mine and sessions - mine:
            kept.append(finding)
    return kept


def _record_skipped(ws: Workspace, job: ExtractionJob, skipped: list[SkippedSibling]) -> None:
    """Log each sibling skipped once, while it stays skipped for the same reason (not on every Stop).

    One record for the project's sessions, merged, not replaced: each session's pass skips a different set (never
    itself), and two open sessions replacing each other's record logged the same siblings again on every Stop (the
    review of session 33). An entry goes when its file does; the update is made under the extraction lock."""
    state = HookState(ws.store_dir("project"), lock_timeout=WORKER_LOCK_TIMEOUT)
    payload = HookPayload(hook_event_name=job.event, session_id=job.session)
    now = {item.path: item.reason for item in skipped}
    try:
        with state.extraction_lock():
            logged = state.skipped_siblings()
            new = {path: reason for path, reason in now.items() if logged.get(path) != reason}
            kept = {path: reason for path, reason in logged.items() if path not in now and os.path.lexists(path)}
            record = {**now, **kept}  # this pass's first: the record keeps at most MAX_SKIPPED
            if record != logged:
                state.save_skipped_siblings(record)
    except LockTimeoutError:
        return  # diagnostics only: the pass across sessions goes on, the next one logs what this one could not
    for path, reason in new.items():
        failure = ValidationError(f"sibling session skipped: {reason}", path=path)
        record_error(ws.store_dir("project"), failure, payload=payload, agent=agent_named(job.agent))
