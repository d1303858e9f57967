"""The workspace most store tests start from."""

from __future__ import annotations

from pathlib import Path

from memory_review.workspace import Workspace


def fresh_workspace(tmp_path: Path, project: str = "p") -> Workspace:
    """An initialised workspace: project root ``tmp_path/<project>``, user store ``tmp_path/home``."""
    (tmp_path / project).mkdir()
    workspace = Workspace(tmp_path / project, tmp_path / "home")
    workspace.init()
    return workspace
