"""Finding a work tree's root from its files alone, the way git walks up (docs/adr/0013).

Standard library only: the per-prompt hook runs this (``memory_review.lean``), and only where it
cannot decide does ``gitrepo.toplevel`` ask gitpython.

No file here is opened blocking: git and gitpython ``open`` HEAD, config and commondir by name, and a
FIFO or a device under one of those names (a copied project can hold one) blocks them, and this walk,
for ever. :func:`check_repository` and the walk refuse such a repository in one line before anything opens it.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from memory_review.lean.files import Fallback, read_regular


def walk_up(path: Path) -> _Found | None:
    """The root decided from the files (``_Found(None)``: no repository), or None where gitpython must decide
    (and where a git file would block: the full path names it, through :func:`_walk_up`)."""
    try:
        return _look_up(path)
    except _Blocks:
        return None


_GIT_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY")
_HEAD_RE = re.compile(rb"ref:\s*refs/|[0-9A-Fa-f]{64}|[0-9A-Fa-f]{40}")
# What git (and gitpython) open by name in a git dir: on start-up (HEAD, config, commondir), and for the refs and
# objects our commands read (packed-refs, alternates); our own refs are checked folder by folder.
_GIT_FILES = (
    *("HEAD", "config", "config.worktree", "commondir", "packed-refs", "shallow"),
    *(os.path.join("objects", "info", "alternates"), os.path.join("info", "grafts")),
    os.path.join("info", "attributes"),
)
# Folders whose every entry git may open: our refs and their reflogs, the replace refs (every object read looks
# there), and the packs (each object lookup opens their .idx files).
# Loose objects are not listed (256 folders, on every command): a FIFO there blocks a read of that object.
_LISTED = (
    *(os.path.join("refs", "memory-review"), os.path.join("logs", "refs", "memory-review")),
    *(os.path.join("refs", "replace"), os.path.join("objects", "pack")),
)
_POINTER_LIMIT = 4096  # a gitfile or commondir names one path
_CONFIG_LIMIT = 1 << 20
_SECTION_RE = re.compile(rb"\s*\[([^\]]*)\](.*)")
_INCLUDE_PATH_RE = re.compile(rb"\s*path\s*=\s*(.*)", re.IGNORECASE)
_INCLUDE_DEPTH = 10  # git's own limit on nested includes


@dataclass(frozen=True)
class _Found:
    """What the walk decided: the work tree root, or None for "no repository up to /"."""

    root: Path | None


class _Blocks(Exception):  # noqa: N818 — a verdict of the walk, turned into StorageError or a fallback
    """A file git opens by name that is neither a regular file nor a folder: opening it would block."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


def check_repository(path: Path) -> None:
    """Refuse (StorageError, one line) the repository at ``path`` exactly where git, gitpython or this walk would
    block for ever: one of the files they open by name (HEAD, config and what it includes, commondir, packed-refs,
    alternates, our refs, the packs) is a FIFO, a device or a socket — in its ``.git`` folder, the git dir its
    ``.git`` file names, or ``path`` itself when it is a git dir (a bare repository), and in the common dir a
    ``commondir`` names."""
    try:
        _look_in(str(path))
    except _Blocks as blocks:
        raise _refusal(blocks) from None


def _walk_up(path: Path) -> _Found | None:
    """:func:`walk_up` for ``gitrepo.toplevel``: a git file that would block is refused (StorageError)."""
    try:
        return _look_up(path)
    except _Blocks as blocks:
        raise _refusal(blocks) from None


def _refusal(blocks: _Blocks) -> OSError:
    from memory_review.errors import StorageError  # only here: the per-prompt path never imports it

    return StorageError(
        f"{blocks.path} is not a regular file (a FIFO or a device): git would wait on it for ever; "
        "remove it or repair the repository",
        path=blocks.path,
    )


def _look_up(path: Path) -> _Found | None:
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
        if not os.path.lexists(os.path.join(folder, "HEAD")):
            return "none"
        if all(os.path.isdir(os.path.join(folder, name)) for name in ("objects", "refs")):
            _check_git_dir(folder)  # what gitpython would open next
        return "unsure"
    except OSError:
        return "unsure"
    if stat.S_ISREG(mode):
        _check_gitfile(folder, dotgit)
        return "unsure"  # a gitfile: a linked worktree or a submodule
    if not stat.S_ISDIR(mode):
        return "unsure"
    _check_git_dir(dotgit)
    return "root" if _plain_git_dir(dotgit) else "unsure"


def _check_git_dir(git_dir: str) -> None:
    for folder in _git_dirs(git_dir):
        for name in _GIT_FILES:
            _not_blocking(os.path.join(folder, name))
        _includes_not_blocking(os.path.join(folder, "config"), _INCLUDE_DEPTH)
        for listed in _LISTED:
            _entries_not_blocking(os.path.join(folder, listed))


def _includes_not_blocking(config: str, depth: int) -> None:
    """The files a config includes (``[include]``/``[includeIf]`` ``path``), whatever the condition, as far down
    as git follows them: git and gitpython open each one."""
    try:
        data = read_regular(Path(config), _CONFIG_LIMIT, git_file=True)
    except (Fallback, OSError):
        return  # a blocking config was refused already; any other git reads or refuses without waiting
    if not data or b"include" not in data.lower() or depth <= 0:
        return
    for included in _included(data):
        path = os.path.normpath(os.path.join(os.path.dirname(config), os.path.expanduser(os.fsdecode(included))))
        _not_blocking(path)
        _includes_not_blocking(path, depth - 1)


def _included(config: bytes) -> Iterator[bytes]:
    """The ``path`` values of a config's include sections (quotes and trailing comments taken off)."""
    including = False
    for line in config.splitlines():
        if section := _SECTION_RE.match(line):
            including = section.group(1).strip().lower().startswith(b"include")  # [include], [includeIf "…"]
            line = section.group(2)
        if including and (key := _INCLUDE_PATH_RE.match(line)):
            value = re.split(rb"\s[;#]", key.group(1), maxsplit=1)[0].strip().strip(b'"')
            if value:
                yield value


def _git_dirs(git_dir: str) -> Iterator[str]:
    """``git_dir``, and the common dir its ``commondir`` names (a linked worktree's), where git reads refs too."""
    yield git_dir
    common = _pointer(os.path.join(git_dir, "commondir"), b"")
    if common:
        yield os.path.normpath(os.path.join(git_dir, common))


def _check_gitfile(folder: str, dotgit: str) -> None:
    """The git dir a ``.git`` file points to (``gitdir: PATH``) is checked like a ``.git`` folder."""
    target = _pointer(dotgit, b"gitdir:")
    if target and os.path.isdir(os.path.join(folder, target)):
        _check_git_dir(os.path.normpath(os.path.join(folder, target)))


def _pointer(path: str, prefix: bytes) -> str | None:
    """The path a one-line pointer file names after ``prefix`` (None: absent, unreadable or not such a file)."""
    try:
        data = read_regular(Path(path), _POINTER_LIMIT, git_file=True)
    except (Fallback, OSError):
        return None  # not a plain file: gitpython decides, and _check_git_dir refused a blocking one
    if data is None or not data.startswith(prefix):
        return None
    return os.fsdecode(data[len(prefix) :].strip()) or None


def _not_blocking(path: str) -> None:
    """Raise _Blocks when ``path`` (a link followed, as git does) is there and neither a file nor a folder."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # absent or unreadable: git answers that itself, without waiting
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise _Blocks(path)


def _entries_not_blocking(folder: str) -> None:
    """Every entry under ``folder``: the types come with the listing (no stat each); a loop, not recursion, however
    deep the folders go."""
    folders = [folder]
    while folders:
        try:
            entries = list(os.scandir(folders.pop()))
        except OSError:
            continue
        for entry in entries:
            if entry.is_symlink():
                _not_blocking(entry.path)
            elif entry.is_dir(follow_symlinks=False):
                folders.append(entry.path)
            elif not entry.is_file(follow_symlinks=False):
                raise _Blocks(entry.path)


def _plain_git_dir(dotgit: str) -> bool:
    """A ``.git`` folder as ``git init`` makes it: HEAD names a ref or a commit, objects/ and refs/
    exist, no ``commondir`` (a worktree's), and a config that includes nothing and is not bare."""
    head_path = os.path.join(dotgit, "HEAD")
    try:
        if not stat.S_ISREG(os.lstat(head_path).st_mode) or os.path.lexists(os.path.join(dotgit, "commondir")):
            return False
        # Never blocking: O_NONBLOCK, then fstat (a FIFO or device that replaced one since is left to gitpython).
        head = read_regular(Path(head_path), 256, git_file=True)
        config = read_regular(Path(dotgit, "config"), _CONFIG_LIMIT, git_file=True)
    except (Fallback, OSError):
        return False
    if head is None or config is None:
        return False
    valid_head = _HEAD_RE.match(head) is not None
    folders = all(os.path.isdir(os.path.join(dotgit, name)) for name in ("objects", "refs"))
    return valid_head and folders and _plain_config(config)


def _plain_config(config: bytes) -> bool:
    """Whether the repository config cannot move the work tree: no includes, no worktree, never bare."""
    for raw in config.lower().splitlines():
        line = b"".join(raw.split())
        if line.startswith((b"[include", b"worktree")) or (line.startswith(b"bare") and line != b"bare=false"):
            return False
    return True
