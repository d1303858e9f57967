"""The store's files: a dead writer's leftovers (the unfinished marker decides whether a commit lists
every folder), and reads that never follow a planted symlink out of the store nor hang on a FIFO."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from workspace_kit import fresh_workspace

from memory_review.errors import IntegrityError, StorageError, UnsafeFileError
from memory_review.proposal import parse_proposals
from memory_review.store import UNFINISHED
from memory_review.workspace import Workspace

pytestmark = pytest.mark.usefixtures("verify_way")  # every finding the same, full and incremental (ADR 0056)

ACTOR = "alice"


def _proposal(memory_id: str) -> dict:
    return {
        "op": "create", "scope": "project",
        "memory": {"id": memory_id, "type": "fact", "description": f"About {memory_id}", "body": "Body."},
        "rationale": "the user said so",
        "evidence": [{"quote": "body", "session_id": "s1", "turn_id": "t1"}],
    }  # fmt: skip


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return fresh_workspace(tmp_path, "project")


def _apply_one(ws: Workspace, memory_id: str) -> None:
    [state] = ws.propose(parse_proposals(json.dumps([_proposal(memory_id)]).encode()))
    ws.apply([state.candidate.id], actor=ACTOR)


def _debris(ws: Workspace) -> tuple[Path, Path]:
    """What a writer killed between its memory file and its commit point leaves behind."""
    orphan = ws.project.memory_dir / "orphan-0123456789ab.md"
    orphan.write_bytes(b"---\nid: orphan\n---\n")
    temp = ws.project.root / ".tmp-0123456789abcdef-manifest.json"
    temp.write_bytes(b"{")
    return orphan, temp


def test_a_finished_commit_leaves_no_marker(ws: Workspace) -> None:
    _apply_one(ws, "alpha")
    assert not (ws.project.memory_dir / UNFINISHED).exists()
    assert sorted(os.listdir(ws.project.memory_dir)) == [
        Path(e.file).name for e in ws.project.current_manifest().memories.values()
    ]


def test_the_marker_makes_the_next_commit_collect_a_dead_writers_leftovers(ws: Workspace) -> None:
    orphan, temp = _debris(ws)
    (ws.project.memory_dir / UNFINISHED).touch()  # made before the dead writer's first write
    _apply_one(ws, "alpha")
    assert not orphan.exists() and not temp.exists()
    assert not (ws.project.memory_dir / UNFINISHED).exists()


# The incremental way verifies after each commit, and a verify sweeps the debris this test leaves in place.
@pytest.mark.parametrize("verify_way", ["full"], indirect=True)
def test_without_the_marker_commits_skip_the_listing_and_verify_names_what_it_keeps(ws: Workspace) -> None:
    orphan, temp = _debris(ws)  # e.g. from a version that wrote no marker
    _apply_one(ws, "alpha")
    assert orphan.exists() and temp.exists()
    [project, _user] = ws.verify()
    assert not temp.exists()  # a temp file is never data
    # A memory file nothing names may be a lost log line's (docs/adr/0029): kept, and named.
    assert orphan.exists() and project.problems == [
        f"{orphan}: no manifest entry nor log line names it (kept: "
        "events may have been lost; move it away if it is debris)"
    ]
    orphan.unlink()
    assert all(report.ok for report in ws.verify())


def test_a_failed_write_keeps_the_marker_for_the_next_lock_holder(ws: Workspace, monkeypatch) -> None:
    def refuse(*_args, **_kwargs):
        raise OSError(5, "Input/output error")

    [state] = ws.propose(parse_proposals(json.dumps([_proposal("alpha")]).encode()))
    monkeypatch.setattr("memory_review.store.write_new_files", refuse)
    with pytest.raises(StorageError):
        ws.apply([state.candidate.id], actor=ACTOR)
    assert (ws.project.memory_dir / UNFINISHED).exists()
    monkeypatch.undo()
    ws.apply([state.candidate.id], actor=ACTOR)
    assert not (ws.project.memory_dir / UNFINISHED).exists()


def test_a_planted_marker_symlink_is_never_followed(ws: Workspace, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (ws.project.memory_dir / UNFINISHED).symlink_to(outside)
    _apply_one(ws, "alpha")
    assert not outside.exists()
    assert not os.path.lexists(ws.project.memory_dir / UNFINISHED)


# --- reads never follow a link out of the store, nor hang


def _memory_file(ws: Workspace) -> Path:
    _apply_one(ws, "alpha")
    ws.project.compact()  # readers take a memory in the tail from its log line; the manifest names its file
    return ws.project.root / ws.project.current_manifest().memories["alpha"].file


def test_a_memory_file_replaced_by_a_fifo_is_refused_not_a_hang(ws: Workspace) -> None:
    path = _memory_file(ws)
    path.unlink()
    os.mkfifo(path)
    with pytest.raises(UnsafeFileError, match="not a regular file"):
        ws.memories()
    with pytest.raises(UnsafeFileError, match="not a regular file"):
        ws.context(query="alpha")


def test_a_memory_file_linked_outside_is_refused_for_the_body_too(ws: Workspace, tmp_path: Path) -> None:
    path = _memory_file(ws)
    outside = tmp_path / "outside.md"
    outside.write_bytes(path.read_bytes())  # even the very same bytes: a link out is never read
    path.unlink()
    path.symlink_to(outside)
    with pytest.raises(UnsafeFileError, match="symbolic link"):
        ws.context(query="alpha")


def test_a_memory_file_linked_inside_the_store_is_refused_too(ws: Workspace) -> None:
    # No link is followed, wherever it points (ADR 0020): a store holds only plain files.
    path = _memory_file(ws)
    inside = ws.project.root / "copy.md"
    inside.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(inside)
    with pytest.raises(UnsafeFileError, match=str(path)):
        ws.memories()


def test_a_store_that_committed_its_tail_reads_it_again_once_the_log_is_edited_in_place(ws: Workspace) -> None:
    # The store keeps the tail it committed and its fold (docs/adr/0048); an edit that leaves the head as it
    # was (a line before the last, same length) must still be read, as a fresh process would read it.
    _apply_one(ws, "first")
    _apply_one(ws, "second")
    assert [c.id for c in ws.project.pending()] == []  # the kept tail, no read of the log
    log = ws.project.log_path
    lines = log.read_bytes().splitlines(keepends=True)
    damaged = next(i for i, line in enumerate(lines[:-1]) if b'"candidate.created"' in line)
    lines[damaged] = lines[damaged].replace(b'"candidate.created"', b'"candidatX.created"', 1)
    log.write_bytes(b"".join(lines))
    with pytest.raises(IntegrityError):
        ws.project.pending()
