"""Import wired to the stores: memory files -> findings -> deduplicated candidates (never memory).

The import root — the folder no file may leave — is the project root when the path
is inside the project, else the named folder (or the named file's folder). Findings
are planned exactly like extraction's (``extraction.known_records`` + ``extract.plan``),
so a second import of the same files proposes nothing new, and a changed section of an
already approved memory comes back as an *update* with a diff. Each planned candidate
is checked to fit a memory file as it will be written (with the sources an update
keeps); one that cannot is left out and reported, never silently cut.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory_review.errors import UnsafePathError, ValidationError
from memory_review.extract import Finding, PlannedProposal, plan
from memory_review.extraction import known_records
from memory_review.importers.classify import PROPOSER, findings
from memory_review.importers.files import open_named
from memory_review.importers.formats import collect
from memory_review.models import DurableScope, Memory, utc_now
from memory_review.record_io import render_memory
from memory_review.rules import proposed_record

if TYPE_CHECKING:
    from memory_review.workspace import Workspace

# At apply time a memory is stamped with the person's name (``applied_by``) and the
# candidate id: the size check leaves room for both.
_PLACEHOLDER_CANDIDATE = "cand_" + "0" * 26
_ACTOR_ROOM = "x" * 64


@dataclass
class ImportSummary:
    """What one import did: files read, found, proposed, skipped as duplicates, flagged, why not. Its
    fields, in order, are the ``import --json`` document (``cli_render.to_json``).

    ``merged`` counts pieces that said the same as another piece of this import (their
    evidence joined that one's); ``too_large`` names memories that could not fit a file.
    """

    source: str
    formats: list[str]
    files: list[str]
    found: int
    proposed: list[str] = field(default_factory=list)
    skipped_duplicates: int = 0
    merged: int = 0
    flagged: int = 0
    duplicates: list[dict[str, str]] = field(default_factory=list)
    too_large: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def import_memories(
    ws: Workspace,
    path: Path | str,
    *,
    format: str | None = None,
    scope: DurableScope | None = None,
    codex_chain: bool = False,
) -> ImportSummary:
    """Read memory files at ``path``; propose what is new as candidates (one batch, all or none).

    ``codex_chain``: ``path`` is the folder a Codex session works in; import the AGENTS.md files
    Codex reads there, from the project root down."""
    forced = _scope(scope)
    path = Path(path)
    reader, rel = open_named(path, import_root(ws, path))
    collected = collect(reader, rel, format, codex_chain=codex_chain)
    found = findings(collected.documents, scope=forced)
    known = known_records(ws)
    keyed, descriptions = _keyed_by_body(found)
    planned = plan(
        keyed,
        approved=known.approved,
        pending=known.pending,
        discarded=known.discarded,
        proposer=PROPOSER,
    )
    fitting, too_large = _fitting(ws, [_described(p, descriptions) for p in planned.proposals])
    summary = ImportSummary(
        source=str(path),
        formats=collected.formats,
        files=collected.files,
        found=planned.found,
        skipped_duplicates=len(planned.skipped_duplicates),
        merged=planned.found - len(planned.proposals) - len(planned.skipped_duplicates),
        flagged=sum(1 for p in fitting if p.flags),
        duplicates=[
            {"memory": s.finding.memory.id, "reason": s.reason, "matched": s.matched_id}
            for s in planned.skipped_duplicates
        ],
        too_large=too_large,
        notes=list(collected.notes),
    )
    if fitting:
        states = ws.propose([p.proposal for p in fitting], flags=[p.flags for p in fitting])
        summary.proposed = [state.candidate.id for state in states]
    return summary


def _keyed_by_body(found: list[Finding]) -> tuple[list[Finding], dict[str, str]]:
    """Findings whose description is a digest of their body, and the digest -> real description map.

    The planner treats equal descriptions as the same statement. An imported description
    is only a label ("Testing: first line"): a section whose later lines changed keeps it,
    and two sections can share one. Planning on the body alone makes a changed section an
    *update* and keeps different sections apart; the real description is put back after.
    """
    keyed: list[Finding] = []
    descriptions: dict[str, str] = {}
    for finding in found:
        key = "import:" + hashlib.sha256(finding.memory.body.encode()).hexdigest()[:32]
        descriptions.setdefault(key, finding.memory.description)
        memory = finding.memory.model_copy(update={"description": key})
        keyed.append(finding.model_copy(update={"memory": memory}))
    return keyed, descriptions


def _described(planned: PlannedProposal, descriptions: dict[str, str]) -> PlannedProposal:
    memory = planned.proposal.memory
    real = memory.model_copy(update={"description": descriptions[memory.description]})
    return planned.model_copy(update={"proposal": planned.proposal.model_copy(update={"memory": real})})


def import_root(ws: Workspace, path: Path) -> Path:
    """The folder an import may read in: the project root if ``path`` is in it, else its folder."""
    absolute = path.absolute()
    for store in (ws.store("project"), ws.store("user")):
        if absolute.resolve().is_relative_to(store.root.resolve()):
            raise UnsafePathError("this is a memory-review store; its memories are already reviewed", path=path)
    project = ws.root.resolve()
    if absolute.is_relative_to(ws.root) or absolute.resolve().is_relative_to(project):
        return project
    return absolute if absolute.is_dir() else absolute.parent


def _scope(scope: str | None) -> DurableScope | None:
    if scope is None or scope in ("user", "project"):
        return scope  # type: ignore[return-value]
    raise ValidationError(f"scope must be 'user' or 'project', not {scope!r}", field="scope")


def _fitting(ws: Workspace, planned: list[PlannedProposal]) -> tuple[list[PlannedProposal], list[str]]:
    views: dict[str, Any] = {}
    fitting: list[PlannedProposal] = []
    too_large: list[str] = []
    for item in planned:
        scope = item.proposal.scope
        view = views.setdefault(scope, ws.store(scope).view())
        if _fits(view.memory(item.proposal.memory.id), item, scope):
            fitting.append(item)
        else:
            too_large.append(item.proposal.memory.id)
    return fitting, too_large


def _fits(before: Memory | None, item: PlannedProposal, scope: DurableScope) -> bool:
    try:
        record = proposed_record(before, item.proposal.memory, item.proposal, scope, _PLACEHOLDER_CANDIDATE, utc_now())
        render_memory(record.model_copy(update={"applied_by": _ACTOR_ROOM}))
    except ValidationError:
        return False
    return True
