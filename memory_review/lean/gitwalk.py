"""Finding a work tree's root from its files alone, the way git walks up (docs/adr/0013).

Standard library only: the per-prompt hook runs this (``memory_review.lean``), and only where it
cannot decide does ``gitrepo.toplevel`` ask gitpython.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path


def walk_up(path: Path) -> _Found | None:
    """The root decided from the files (``_Found(None)``: no repository), or None where gitpython must decide."""
    return _walk_up(path)


_GIT_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY")
_HEAD_RE = re.compile(rb"ref:\s*refs/|[0-9A-Fa-f]{64}|[0-9A-Fa-f]{40}")


@dataclass(frozen=True)
class _Found:
    """What the walk decided: the work tree root, or None for "no repository up to /"."""

    root: Path | None


def _walk_up(path: Path) -> _Found | None:
    """``toplevel`` from the files alone, as gitpython would answer it; None where it cannot be sure.

    Decided here: the nearest folder (``path`` or an ancestor) holding a plain ``.git``
    folder is the root; no ``.git`` anywhere up to ``/`` means no repository. Left to
    gitpython: git's environment variables, ``.git`` files (linked worktrees, submodules),
    bare repositories and ``.git`` folders themselves, and any ``.git`` that is not plain.
    """
    if any(name in os.environ for name in _GIT_ENV):
        return None
    try:
        current = str(Path(path).resolve(strict=True))
    except (OSError, RuntimeError):
        return None
    while True:
        verdict = _look_in(current)
        if verdict != "none":
            return _Found(Path(current)) if verdict == "root" else None
        parent = os.path.dirname(current)
        if parent == current:
            return _Found(None)
        current = parent


def _look_in(folder: str) -> str:
    """``root`` (a plain ``.git`` folder here), ``none`` (no git here: look further up) or ``unsure``."""
    dotgit = os.path.join(folder, ".git")
    try:
        mode = os.stat(dotgit).st_mode
    except (FileNotFoundError, NotADirectoryError):
        # gitpython also takes a folder that *is* a git directory (a bare repository, or the
        # inside of .git): anything with a HEAD here is left to it.
        return "unsure" if os.path.lexists(os.path.join(folder, "HEAD")) else "none"
    except OSError:
        return "unsure"
    if not stat.S_ISDIR(mode):
        return "unsure"  # a gitfile: a linked worktree or a submodule
    return "root" if _plain_git_dir(dotgit) else "unsure"


def _plain_git_dir(dotgit: str) -> bool:
    """A ``.git`` folder as ``git init`` makes it: HEAD names a ref or a commit, objects/ and refs/
    exist, no ``commondir`` (a worktree's), and a config that includes nothing and is not bare."""
    head = os.path.join(dotgit, "HEAD")
    try:
        if not stat.S_ISREG(os.lstat(head).st_mode) or os.path.lexists(os.path.join(dotgit, "commondir")):
            return False
        with open(head, "rb") as stream:
            valid_head = _HEAD_RE.match(stream.read(256)) is not None
        with open(os.path.join(dotgit, "config"), "rb") as stream:
            config = stream.read(1 << 20)
    except OSError:
        return False
    folders = all(os.path.isdir(os.path.join(dotgit, name)) for name in ("objects", "refs"))
    return valid_head and folders and _plain_config(config)


def _plain_config(config: bytes) -> bool:
    """Whether the repository config cannot move the work tree: no includes, no worktree, never bare."""
    for raw in config.lower().splitlines():
        line = b"".join(raw.split())
        if line.startswith((b"[include", b"worktree")) or (line.startswith(b"bare") and line != b"bare=false"):
            return False
    return True
