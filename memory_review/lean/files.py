"""Reading the few small files the per-prompt path needs, the way ``events.safe_fs`` reads them.

No link is followed, a FIFO is never waited on, and anything but a regular file of a sane size is
refused. Here a refusal is not an error: it raises :class:`Fallback`, and the full validating path,
which names every problem, answers instead (ADR 0030: the fast path may only take a shortcut).
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

_NO_FOLLOW = os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
_AS_GIT = os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)  # git's own files: read as git reads them, never waited on


class Fallback(Exception):  # noqa: N818 — a signal, not an error: "let the full path answer this"
    """Something the per-prompt path does not decide on its own; the full path takes over."""


def store_key(store_root: Path) -> tuple[str, str]:
    """The real path of a store folder and the key its files under ``<user store>/trust/`` are named by."""
    real = os.path.realpath(store_root)
    return real, hashlib.sha256(os.fsencode(real)).hexdigest()[:32]


def open_regular(path: Path, flags: int = os.O_RDONLY, *, git_file: bool = False) -> int | None:
    """An fd on the regular file ``path`` (one name only); None if it is absent; Fallback for anything else.

    ``git_file``: a file of a repository's git dir, which git reads through a link and whatever its number of
    names; still never a FIFO or a device (session 39's review F3)."""
    try:
        fd = os.open(path, flags | (_AS_GIT if git_file else _NO_FOLLOW))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise Fallback(f"cannot open {path}: {exc}") from exc
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or (info.st_nlink != 1 and not git_file):
        os.close(fd)
        raise Fallback(f"{path} is not a plain file")
    return fd


def read_regular(path: Path, limit: int, *, git_file: bool = False) -> bytes | None:
    """The bytes of the regular file ``path`` (None if absent); Fallback past ``limit`` bytes (``git_file``: as
    :func:`open_regular`)."""
    fd = open_regular(path, git_file=git_file)
    if fd is None:
        return None
    try:
        data = os.read(fd, limit + 1)
        while len(data) <= limit:
            more = os.read(fd, limit + 1 - len(data))
            if not more:
                break
            data += more
    finally:
        os.close(fd)
    if len(data) > limit:
        raise Fallback(f"{path} is larger than {limit} bytes")
    return data


def real_dir(path: Path) -> bool:
    """Whether ``path`` is a real folder (not a link); False when it is absent."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


def fingerprint(path: Path) -> list[int] | None:
    """What changes whenever a file is replaced or written: inode, size, mtime and ctime (None: absent).

    A manifest is only ever replaced (a new inode); a checkout or copy over it changes its ctime too,
    which no program can set back.
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise Fallback(f"{path} is not a plain file")
    return [info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns]
