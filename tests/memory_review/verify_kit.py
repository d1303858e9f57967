"""What the verify suites forge: correctly chained lines appended to a project log, as a hostile repository
(or agent) can write them, and the names they use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memory_review.events import Change, EventDraft, EventLog
from memory_review.workspace import Workspace

ACTOR = "alice"
SESSION = "0f8fad5b-d9cb-469f-a165-70867728950e"
FORGED = "cand_01M8T0FORGEDFORGEDFORGED00"
"""A candidate id no log ever proposed."""


def append_lines(ws: Workspace, *drafts: EventDraft) -> None:
    """Append ``drafts`` to the project log, chained as the log's own writer chains them."""
    EventLog(ws.project.log_path, origin=ws.project.read_manifest().origin).append(list(drafts))


def applied(
    candidate: str, memory: str, after: Mapping[str, Any], before: Mapping[str, Any] | None = None
) -> EventDraft:
    """A ``candidate.applied`` of one change by :data:`ACTOR`, whatever the candidate's reviewed record says."""
    return EventDraft(
        type="candidate.applied",
        actor=ACTOR,
        candidate=candidate,
        changes=(Change(memory=memory, before=before, after=after),),
    )
