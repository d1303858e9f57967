"""Reading store files without a file object, and never through a planted symlink or FIFO."""

from __future__ import annotations

import os
import stat
from pathlib import Path

READ_NO_FOLLOW = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
"""Flags for opening a store file: a symlink is ELOOP, a FIFO does not block."""
READ_CHUNK = 1 << 16


def read_all(fd: int) -> bytes:
    """Every byte from ``fd`` with plain reads (no file object: the hook's query reads 10,000 files)."""
    chunks = [os.read(fd, READ_CHUNK)]
    while len(chunks[-1]) == READ_CHUNK:
        chunks.append(os.read(fd, READ_CHUNK))
    return b"".join(chunks)


def read_regular_file(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes, else None.

    Never follows a symlink nor blocks on a FIFO: a project store can arrive by ``git clone``.
    """
    try:
        fd = os.open(path, READ_NO_FOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as stream:
        info = os.fstat(stream.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        return stream.read(limit + 1)
