"""Store reads never follow a planted symlink out of the store, nor hang on a FIFO."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memory_review.errors import IntegrityError, UnsafePathError
from memory_review.proposal import parse_proposals
from memory_review.workspace import Workspace


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    project = tmp_path / "project"
    project.mkdir()
    workspace = Workspace(project, tmp_path / "home")
    workspace.init()
    doc = {"op": "create", "scope": "project",
           "memory": {"id": "alpha", "type": "fact", "description": "About alpha", "body": "Body."},
           "rationale": "the user said so", "evidence": [{"quote": "body", "session_id": "s1", "turn_id": "t1"}]}
    [state] = workspace.propose(parse_proposals(json.dumps([doc]).encode()))
    workspace.apply([state.candidate.id], actor="alice")
    return workspace


def _memory_file(ws: Workspace) -> Path:
    return ws.project.root / ws.project.read_manifest().memories["alpha"].file


def test_a_memory_file_replaced_by_a_fifo_is_an_integrity_error_not_a_hang(ws: Workspace) -> None:
    path = _memory_file(ws)
    path.unlink()
    os.mkfifo(path)
    with pytest.raises(IntegrityError, match="sha256"):
        ws.memories()
    with pytest.raises(IntegrityError, match="sha256"):
        ws.context(query="alpha")


def test_a_memory_file_linked_outside_is_refused_for_the_body_too(ws: Workspace, tmp_path: Path) -> None:
    path = _memory_file(ws)
    outside = tmp_path / "outside.md"
    outside.write_bytes(path.read_bytes())  # even the very same bytes: a link out is never read
    path.unlink()
    path.symlink_to(outside)
    with pytest.raises(UnsafePathError, match="outside the store"):
        ws.context(query="alpha")


def test_a_memory_file_linked_inside_the_store_is_read(ws: Workspace) -> None:
    path = _memory_file(ws)
    inside = ws.project.root / "copy.md"
    inside.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(inside)
    assert [m.id for m in ws.memories()] == ["alpha"]
