"""`import --codex-chain DIR`: the AGENTS.md files Codex reads for a session in DIR, root first, one per folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from import_helpers import write

from memory_review.errors import ValidationError
from memory_review.workspace import Workspace


def _chain(ws: Workspace) -> Path:
    write(ws.root / "AGENTS.md", "## Testing\n\nRun the whole suite with `make test` before a commit.\n")
    write(ws.root / "services" / "AGENTS.md", "## Services\n\nEvery service logs JSON lines.\n")
    write(ws.root / "services" / "AGENTS.override.md", "## Services\n\nServices log through structlog.\n")
    write(ws.root / "services" / "api" / "AGENTS.md", "")  # empty: Codex skips it
    write(ws.root / "services" / "api" / "handlers" / "AGENTS.md", "## Handlers\n\nHandlers never block.\n")
    write(ws.root / "docs" / "AGENTS.md", "## Docs\n\nNot on the way to handlers.\n")
    return ws.root / "services" / "api" / "handlers"


def test_the_chain_is_root_down_one_file_per_folder_override_first(ws: Workspace) -> None:
    summary = ws.import_memories(_chain(ws), codex_chain=True)
    assert summary.files == ["AGENTS.md", "services/AGENTS.override.md", "services/api/handlers/AGENTS.md"]
    bodies = " ".join(s.candidate.changes[0].after.body for s in ws.list_candidates())
    assert "make test" in bodies and "structlog" in bodies and "never block" in bodies
    assert "JSON lines" not in bodies and "Not on the way" not in bodies


def test_the_chain_from_the_project_root_is_the_root_file_alone(ws: Workspace) -> None:
    _chain(ws)
    assert ws.import_memories(ws.root, codex_chain=True).files == ["AGENTS.md"]


def test_a_file_or_a_folder_with_no_chain_is_refused(ws: Workspace) -> None:
    handlers = _chain(ws)
    with pytest.raises(ValidationError, match="folder a Codex session works in"):
        ws.import_memories(handlers / "AGENTS.md", codex_chain=True)
    (ws.root / "AGENTS.md").unlink()
    empty = ws.root / "elsewhere"
    empty.mkdir()
    with pytest.raises(ValidationError, match="no AGENTS.override.md or AGENTS.md"):
        ws.import_memories(empty, codex_chain=True)


def test_a_link_out_of_the_project_on_the_way_is_a_note_not_a_read(ws: Workspace, tmp_path: Path) -> None:
    handlers = _chain(ws)
    secret = write(tmp_path / "outside" / "notes.md", "## Keys\n\nThe deploy key is on the NAS.\n")
    (ws.root / "services" / "AGENTS.override.md").unlink()
    (ws.root / "services" / "AGENTS.override.md").symlink_to(secret)
    summary = ws.import_memories(handlers, codex_chain=True)
    assert "services/AGENTS.override.md" not in summary.files
    assert any("outside" in note for note in summary.notes)
    assert "NAS" not in " ".join(s.candidate.changes[0].after.body for s in ws.list_candidates())


def test_the_cli_flag(ws: Workspace) -> None:
    handlers = _chain(ws)
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(ws.user.root)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "memory_review.cli",
            "--project",
            str(ws.root),
            "import",
            str(handlers),
            "--codex-chain",
            "--json",
        ],
        capture_output=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert b"services/AGENTS.override.md" in done.stdout
