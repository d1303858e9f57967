"""Extraction wired to the stores: transcript -> findings -> deduplicated candidates (never memory).

``extract/`` is pure (readers, the heuristic, the optional model, the dedup
plan). This module gathers what the plan needs from the stores — approved
memories, pending and discarded proposals — and proposes what survives through
the one commit path, with the flags the plan found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from memory_review.errors import StorageError, ValidationError
from memory_review.extract import (
    FLAG_PREVIOUSLY_DISCARDED,
    PROPOSER,
    Finding,
    extract,
    extract_with_model,
    plan,
    read_transcript,
)
from memory_review.extract.cli_config import AGENT_CLIS, read_config, resolve
from memory_review.extract.model_extractor import ModelExtraction, Progress, extract_with_agent_cli
from memory_review.extract.prompt_history import OTHER_PROJECT
from memory_review.extract.transcript import Transcript, merge_transcripts
from memory_review.limits import MAX_PROPOSALS_PER_CALL
from memory_review.models import Memory, utc_now
from memory_review.proposal import ProposedMemory, Proposer

if TYPE_CHECKING:
    from memory_review.candidate import Candidate
    from memory_review.extract import SkippedFinding
    from memory_review.extract.repetition import PendingRef
    from memory_review.workspace import Workspace

Extractor = Literal["heuristic", "model", "claude", "codex", "gemini"]
EXTRACTORS: tuple[str, ...] = ("heuristic", "model", "claude", "codex", "gemini")


@dataclass
class ExtractSummary:
    """What one extraction run did: found, proposed, skipped as duplicates, flagged.

    Its fields, in order, are the ``extract --json`` document (``cli_render.to_json``).
    """

    source: str
    format: str
    session: str
    user_turns: int
    found: int
    proposed: list[str] = field(default_factory=list)
    skipped_duplicates: int = 0
    flagged: int = 0
    failure: str | None = None
    raised: list[str] = field(default_factory=list)
    other_projects: int = 0
    """Prompts of other projects in a prompt history, skipped unread (ADR 0072)."""
    not_proposed: int = 0
    """New findings past what one run proposes (``MAX_PROPOSALS_PER_CALL``, as ``propose``): run it again for them."""
    unsupported: list[str] = field(default_factory=list)
    """The names of a model's items no sentence of the person's backs, dropped (ADR 0026): not a failure, but what a
    model made of words that were not the person's is worth a look (session 37's review found them said nowhere)."""


def extract_transcript(
    ws: Workspace,
    path: Path | Sequence[Path],
    *,
    format: str | None = None,
    session: str | None = None,
    extractor: Extractor = "heuristic",
    progress: Progress | None = None,
) -> ExtractSummary:
    """Read one transcript, or several session files as one run, and propose the new findings as candidates.

    Several files are read together so that a rule said in two sessions counts as repeated (ADR 0041). A model
    reads long histories in several calls, telling ``progress`` before each; when one fails, what the calls
    before it found is still proposed, and the failure says so (ADR 0155).
    """
    paths = [path] if isinstance(path, Path | str) else list(path)
    if not paths:
        raise ValidationError("no transcript to read")
    if session is not None and len(paths) > 1:
        raise ValidationError("--session names one session: give it with one transcript, not several")
    # a prompt history holds every project's prompts: only this project's are read (ADR 0072)
    transcript = merge_transcripts(
        [read_transcript(p, format=format, session_id=session, project=ws.root) for p in paths]
    )
    run = run_extractor(ws, transcript, extractor, progress=progress)
    failure = run.failure
    if failure:
        try:
            record_failure(ws, transcript, failure)
        except StorageError as exc:  # e.g. no project store yet: the failure is still said, and why it is not kept
            failure = f"{failure}; {exc.message}"
    source = ", ".join(str(p) for p in paths)
    summary = propose_findings(
        ws, run.findings, transcript=transcript, failure=failure, source=source, proposer=run.proposer
    )
    summary.unsupported = run.unsupported
    return summary


def record_failure(ws: Workspace, transcript: Transcript, failure: str, *, agent: str = "extract") -> None:
    """Keep the model's failure where `memory-review hook errors` shows it; extraction itself goes on."""
    from memory_review.integrations.hook_state import HookError, hooks_dir, log_error

    entry = HookError(
        ts=utc_now(),
        agent=agent,
        event="model-extractor",
        session=transcript.session_id,
        error="ModelFailure",
        message=failure,
    )
    store = ws.store_dir("project")
    if not store.is_dir():  # the hooks' folder lives in the store, which only a commit creates
        raise StorageError(
            "not kept for `memory-review hook errors`: this project has no store yet (`memory-review init`)"
        )
    try:
        log_error(hooks_dir(store), entry)
    except OSError as exc:
        raise StorageError(f"cannot record the model extractor's failure: {exc.strerror}") from exc


def propose_findings(
    ws: Workspace,
    findings: list[Finding],
    *,
    transcript: Transcript,
    failure: str | None = None,
    source: str = "",
    proposer: Proposer = PROPOSER,
    again_if_discarded: bool = True,
) -> ExtractSummary:
    """Dedup findings against both stores and propose what is new (one batch, all or nothing).

    A finding already pending, said in a session its candidate has no quote from, raises that candidate
    (priority high, the new session's quote added: ADR 0050). A finding a person discarded before is
    proposed again, flagged, when a person runs the extraction; the hooks pass ``again_if_discarded=False``
    (counted as a duplicate), because they re-read turns on their own: a resumed session's file holds its
    forerunner's turns, and each resume would bring the discarded candidate back (ADR 0159).
    """
    known = known_records(ws)
    planned = plan(
        findings, approved=known.approved, pending=known.pending, discarded=known.discarded, proposer=proposer
    )
    proposals = planned.proposals
    if not again_if_discarded:
        proposals = [p for p in proposals if not _discarded_before(p.flags, p.finding, known.discarded_quotes)]
    summary = ExtractSummary(
        source=source,
        format=transcript.format,
        session=transcript.session_id,
        user_turns=len(transcript.user_turns()),
        found=planned.found,
        skipped_duplicates=len(planned.skipped_duplicates) + len(planned.proposals) - len(proposals),
        flagged=sum(1 for p in proposals if p.flags),
        failure=failure,
        other_projects=transcript.skip_counts.get(OTHER_PROJECT, 0),
    )
    # A committed transcript of twenty thousand distinct rules must not fill the queue in one run (session 37's
    # review): the rest are found again, and proposed, by the next run
    summary.not_proposed = max(0, len(proposals) - MAX_PROPOSALS_PER_CALL)
    proposals = proposals[:MAX_PROPOSALS_PER_CALL]
    if proposals:
        states = ws.propose([p.proposal for p in proposals], flags=[p.flags for p in proposals])
        summary.proposed = [state.candidate.id for state in states]
    summary.raised = raise_repeated(ws, planned.skipped_duplicates, known.candidates, proposer)
    return summary


def _discarded_before(flags: frozenset[str], finding: Finding, discarded_quotes: frozenset[str]) -> bool:
    """Whether a person discarded this finding before: its text (the plan's flag), or a quote of its evidence, which
    a model rewords around (the review of session 33: a resumed session's forerunner turns, re-read by the model
    worker, brought a discarded rule back in other words with the same quote)."""
    return FLAG_PREVIOUSLY_DISCARDED in flags or any(_said(e.quote) in discarded_quotes for e in finding.evidence)


def _said(quote: str) -> str:
    return " ".join(quote.split()).casefold()


def raise_repeated(
    ws: Workspace, skipped: Sequence[SkippedFinding], pending: Sequence[Candidate], proposer: Proposer
) -> list[str]:
    """Raise the pending candidates the skipped findings say again in another session; the ids raised."""
    from memory_review.extract.repetition import PENDING_REASONS, raises

    if not any(item.reason in PENDING_REASONS for item in skipped):
        return []  # the common case on every Stop: nothing pending was found again, nothing to look at
    planned = raises(skipped, [_pending_ref(candidate) for candidate in pending])
    if not planned:
        return []
    return ws.raise_candidates([(p.candidate, p.evidence) for p in planned], actor=actor_of(proposer))


def actor_of(proposer: Proposer) -> str:
    """The actor a proposer's events carry (as ``rules.propose`` writes it)."""
    return f"{proposer.kind}:{proposer.name}"


@dataclass
class ExtractorRun:
    """What one extractor produced from a transcript: findings, who proposes them, why it stopped short.

    A model run that failed part-way keeps what its earlier calls found; ``read_to`` is the index in the
    transcript's turns up to which every turn was read (all of them unless it stopped short)."""

    findings: list[Finding]
    proposer: Proposer
    read_to: int
    failure: str | None = None
    unsupported: list[str] = field(default_factory=list)  # a model's items no sentence of the person's backs


def run_extractor(
    ws: Workspace,
    transcript: Transcript,
    extractor: str,
    *,
    start: int = 0,
    deadline: float | None = None,
    progress: Progress | None = None,
) -> ExtractorRun:
    """Run ``extractor`` on the turns from ``start`` (the model ones never raise: a failure is returned)."""
    if extractor == "heuristic":
        return ExtractorRun(extract(transcript), PROPOSER, read_to=len(transcript.turns))
    if extractor == "model":
        result = extract_with_model(transcript, start=start, deadline=deadline, progress=progress)
    elif extractor in AGENT_CLIS:
        try:
            config = resolve(extractor, config=read_config(ws.store_dir("user")))
        except ValidationError as exc:
            hint = f" ({exc.hint})" if exc.hint else ""
            said = f"{extractor} extractor not available: {exc}{hint}"
            return ExtractorRun([], PROPOSER, failure=said, read_to=start)
        result = extract_with_agent_cli(transcript, config, start=start, deadline=deadline, progress=progress)
    else:
        raise ValidationError(f"unknown extractor {extractor!r}; use one of {', '.join(EXTRACTORS)}")
    failure = _failure_said(extractor, result)
    return ExtractorRun(
        result.findings, result.proposer, failure=failure, read_to=result.read_to, unsupported=result.unsupported
    )


def _failure_said(extractor: str, result: ModelExtraction) -> str | None:
    failure = result.failure
    said = []
    if result.passed_over:
        count = len(result.passed_over)
        said.append(
            f"{extractor} extractor passed over {count} statement{'s' if count > 1 else ''} whose reply was rejected"
            f" when asked about alone, while the rest was answered ({'; '.join(result.passed_over[:3])}"
            f"{'; …' if count > 3 else ''})"
        )
    if failure is not None:
        stopped = f"{extractor} extractor failed ({failure.kind}): {failure.message}"
        if result.answered:
            done = "batch 1" if result.answered == 1 else f"batches 1 to {result.answered}"
            stopped += f"; what {done} found is kept, the statements after it were not read"
        said.append(stopped)
    return "; then ".join(said) or None


@dataclass
class KnownRecords:
    """What a finding is deduplicated against."""

    approved: list[Memory]
    pending: list[ProposedMemory]
    discarded: list[ProposedMemory]
    candidates: list[Candidate] = field(default_factory=list)
    """The pending candidates themselves, for a raise (ADR 0050)."""
    discarded_quotes: frozenset[str] = frozenset()
    """The evidence quotes of the discarded candidates, spaces and case folded (ADR 0159)."""


def known_records(ws: Workspace) -> KnownRecords:
    """Approved memories, pending proposals and discarded proposals of both durable stores."""
    stores = [ws.store("user"), ws.store("project")]
    approved = [m for store in stores for m in store.view().memories()]
    waiting = [cand for store in stores for cand in store.pending()]
    pending = [_proposed(c.after) for cand in waiting for c in cand.changes if c.after is not None]
    from memory_review.discarded import discarded_candidates

    rejected = [cand for store in stores for cand in discarded_candidates(store)]
    discarded = [_proposed(c.after) for cand in rejected for c in cand.changes if c.after]
    quotes = frozenset(_said(e.quote) for cand in rejected for e in cand.evidence)
    return KnownRecords(
        approved=approved, pending=pending, discarded=discarded, candidates=waiting, discarded_quotes=quotes
    )


def _pending_ref(candidate: Candidate) -> PendingRef:
    from memory_review.extract.repetition import pending_ref

    return pending_ref(
        candidate.id,
        memories=[c.memory for c in candidate.changes if c.after is not None],
        evidence=candidate.evidence,
        session_id=candidate.session_id,
        priority=candidate.priority,
        flags=candidate.flags,
    )


def _proposed(memory: Memory) -> ProposedMemory:
    return ProposedMemory(id=memory.id, type=memory.type, description=memory.description, body=memory.body)
