"""The workspace most store tests start from."""

from __future__ import annotations

from pathlib import Path

from memory_review.proposal import ProposedMemory, UpsertProposal
from memory_review.workspace import Workspace


def fresh_workspace(tmp_path: Path, project: str = "p") -> Workspace:
    """An initialised workspace: project root ``tmp_path/<project>``, user store ``tmp_path/home``."""
    (tmp_path / project).mkdir()
    workspace = Workspace(tmp_path / project, tmp_path / "home")
    workspace.init()
    return workspace


def fact_proposal(memory_id: str, body: str, op: str = "create") -> UpsertProposal:
    """A project ``fact`` proposal: the one the verify suites make of every memory they store."""
    memory = ProposedMemory(id=memory_id, type="fact", description=f"about {memory_id}", body=body)
    return UpsertProposal(op=op, scope="project", rationale="said so", memory=memory)
