"""The one door to git (gitpython). Everything git-related goes through here."""

from __future__ import annotations

from pathlib import Path

import git


def toplevel(path: Path) -> Path | None:
    """The work tree root of the git repository containing ``path``, or None outside any repository."""
    try:
        repo = git.Repo(path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None
    try:
        root = repo.working_tree_dir
    finally:
        repo.close()
    return Path(root) if root else None
