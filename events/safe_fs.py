"""The one way to open a store path: never through a link, never blocking, never a shared inode.

A project store arrives by ``git clone``, so every name in it is the attacker's choice: a
committed symlink (``events.jsonl -> ~/.ssh/authorized_keys``), and, planted after a clone, a
FIFO (an ``open`` that never returns) or a hard link to a file outside (an append that writes
through). So every file under a store is opened here, and only here:

- ``O_NOFOLLOW``: a symlink as the last component is ``ELOOP``, refused;
- ``O_NONBLOCK`` for the open, then ``fstat``: anything but a regular file is refused, and the
  flag is cleared again so reads and writes behave as usual;
- for what we write in place (the log, the hook error log, the lock file) and for the log,
  ``st_nlink > 1`` is refused: a second name may be outside the store;
- folders are checked with ``lstat`` (:func:`check_dir`) before a name inside them is used, and
  created by :func:`make_dir`, which checks what it finds; a symlinked folder is refused.

Files replaced by rename (manifest, ``MEMORY.md``, candidates, session files) never write
through a link: ``rename`` replaces the name, not its target, and the temp file is created with
``O_EXCL``. The limit (see docs/reliability.md): the folder checks are ``lstat`` checks, not a
``dir_fd`` walk, so a process of the same user racing us between check and open is not
stopped; a repository, which cannot run code, can only leave names on disk.

Errors are :class:`UnsafeFile` (an ``OSError`` naming the path and why); the callers turn it
into their own error types.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from pathlib import Path

_NO_FOLLOW = os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
READ_CHUNK = 1 << 16


class UnsafeFile(OSError):
    """A store path that is a symlink, not a regular file or folder, hard-linked, or too large."""

    def __init__(self, path: Path | str, reason: str, code: int = errno.EINVAL) -> None:
        super().__init__(code, reason, str(path))
        self.path = str(path)
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


class FileTooLarge(UnsafeFile):
    """A store file past the size its reader accepts (refused before it is read)."""


def open_file(path: Path | str, flags: int = os.O_RDONLY, mode: int = 0o644, *, single_link: bool = False) -> int:
    """An fd of the regular file ``path``, opened without following a link; UnsafeFile otherwise.

    ``single_link`` refuses a file with a second name (a hard link), for what is written in place.
    ``FileNotFoundError`` and other OS errors pass through as they are.
    """
    try:
        fd = os.open(path, flags | _NO_FOLLOW, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeFile(path, "is a symbolic link; store files are never followed", errno.ELOOP) from exc
        if exc.errno == errno.ENXIO:  # O_WRONLY|O_NONBLOCK on a FIFO nobody reads
            raise UnsafeFile(path, "is not a regular file (a FIFO or device)") from exc
        raise
    try:
        _check_opened(fd, path, single_link=single_link)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _check_opened(fd: int, path: Path | str, *, single_link: bool) -> None:
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise UnsafeFile(path, "is not a regular file (a FIFO, device or folder)")
    if single_link and info.st_nlink > 1:
        raise UnsafeFile(path, f"has {info.st_nlink} hard links; a store file must have one name", errno.EMLINK)
    flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)


def read_fd(fd: int, limit: int | None = None, path: Path | str = "") -> bytes:
    """Every byte from ``fd`` with plain reads; FileTooLarge past ``limit`` (checked before reading)."""
    if limit is not None and os.fstat(fd).st_size > limit:
        raise FileTooLarge(path, f"is larger than {limit:,} bytes", errno.EFBIG)
    chunks = [os.read(fd, READ_CHUNK)]
    total = len(chunks[0])
    while len(chunks[-1]) == READ_CHUNK:
        chunks.append(os.read(fd, READ_CHUNK))
        total += len(chunks[-1])
        if limit is not None and total > limit:  # it grew while we read
            raise FileTooLarge(path, f"is larger than {limit:,} bytes", errno.EFBIG)
    return b"".join(chunks)


def read_file(path: Path | str, limit: int | None = None, *, single_link: bool = False) -> bytes:
    """The bytes of the regular file ``path`` (see :func:`open_file`); FileNotFoundError if absent."""
    fd = open_file(path, single_link=single_link)
    try:
        return read_fd(fd, limit, path)
    finally:
        os.close(fd)


def read_file_or(
    path: Path | str, limit: int | None = None, default: bytes | None = None, *, single_link: bool = False
) -> bytes | None:
    """:func:`read_file`, or ``default`` when the file is missing."""
    try:
        return read_file(path, limit, single_link=single_link)
    except FileNotFoundError:
        return default


def is_present(path: Path | str) -> bool:
    """Whether the regular file ``path`` is there (False if missing); UnsafeFile for a link, FIFO ...

    For a path handed to another program (``git hash-object``), which would follow a link.
    """
    try:
        os.close(open_file(path))
    except FileNotFoundError:
        return False
    return True


def check_dir(path: Path | str) -> bool:
    """True if ``path`` is a real folder, False if it is absent; UnsafeFile for a link or a file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(info.st_mode):
        raise UnsafeFile(path, "is a symbolic link; a store folder must be a real directory", errno.ELOOP)
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeFile(path, "is not a folder", errno.ENOTDIR)
    return True


def make_dir(path: Path | str) -> None:
    """Create the folder ``path`` if missing (its parent must exist) and check what is there."""
    try:
        os.mkdir(path, 0o755)
    except FileExistsError:
        pass
    check_dir(path)


def list_dir(path: Path | str) -> list[str]:
    """The names in the real folder ``path`` (none when it is absent); UnsafeFile for a link."""
    if not check_dir(path):
        return []
    try:
        return os.listdir(path)
    except FileNotFoundError:
        return []


def append_fd(path: Path | str) -> int:
    """An fd appending to ``path`` (created if missing), refused if it is a link or has two names."""
    return open_file(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, single_link=True)


def unlink(path: Path | str) -> None:
    """Remove the name ``path`` (a link is removed, never its target); missing is fine."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def rename(source: Path | str, target: Path | str) -> None:
    """Rename inside one checked folder (a link is moved as a link, never followed)."""
    os.replace(source, target)
