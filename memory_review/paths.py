"""Where each durable store lives (docs/design.md §2).

Only the user's own settings — the ``MEMORY_REVIEW_HOME`` environment variable,
the ``--project`` flag, the current directory — decide a store's location.
Nothing inside a project (no file in the repository) may redirect a store:
a cloned repository must never be able to aim our writes at ``~/.ssh``.
"""

from __future__ import annotations

import os
from pathlib import Path

from memory_review import gitrepo
from memory_review.errors import ValidationError

PROJECT_STORE_DIR = ".memory-review"


def user_store_dir(environ: dict[str, str] | None = None) -> Path:
    """The user store: ``$MEMORY_REVIEW_HOME``, else the platform's config dir for memory-review."""
    env = os.environ if environ is None else environ
    home = env.get("MEMORY_REVIEW_HOME")
    if home:
        return _absolute(Path(home), "MEMORY_REVIEW_HOME")
    from platformdirs import user_config_dir  # ~4 ms of start-up, needed only without MEMORY_REVIEW_HOME

    return Path(user_config_dir("memory-review", appauthor=False))


def project_root(project: Path | None = None, cwd: Path | None = None) -> Path:
    """The project root: ``--project DIR``, else the git top-level of the cwd, else the cwd."""
    if project is not None:
        root = _absolute(project, "--project")
        if not root.is_dir():
            raise ValidationError(f"project directory does not exist: {root}", field="--project")
        return root
    here = (cwd or Path.cwd()).resolve()
    return gitrepo.toplevel(here) or here


def project_store_dir(root: Path) -> Path:
    """The project store folder inside a project root."""
    return root / PROJECT_STORE_DIR


def _absolute(path: Path, what: str) -> Path:
    if "\x00" in str(path):
        raise ValidationError("path contains a NUL byte", field=what)
    return path.expanduser().resolve()
