"""The one door to filelock: the store lock.

An in-process lock first (filelock's own locks are re-entrant per object and
threads of one process must not interleave either), then an OS file lock on
``.lock``. The lock file is never deleted: deleting it would let two processes
hold "the" lock on two different inodes. A lock held by a process that died is
released by the kernel, so the next caller gets it at once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import filelock

from memory_review.errors import LockTimeoutError

DEFAULT_TIMEOUT = 10.0

_process_locks: dict[Path, threading.Lock] = {}
_process_locks_guard = threading.Lock()


def _process_lock(path: Path) -> threading.Lock:
    with _process_locks_guard:
        return _process_locks.setdefault(path, threading.Lock())


@contextmanager
def store_lock(lock_file: Path, timeout: float = DEFAULT_TIMEOUT) -> Iterator[None]:
    """Hold the store's lock for the duration of the block, or raise LockTimeoutError."""
    local = _process_lock(lock_file)
    if not local.acquire(timeout=timeout):
        raise LockTimeoutError(lock_file, timeout)
    try:
        with _os_lock(lock_file, timeout):
            yield
    finally:
        local.release()


@contextmanager
def _os_lock(lock_file: Path, timeout: float) -> Iterator[None]:
    lock = filelock.FileLock(
        str(lock_file), timeout=timeout, thread_local=False, preserve_lock_file=True
    )
    try:
        lock.acquire()
    except filelock.Timeout as exc:
        raise LockTimeoutError(lock_file, timeout) from exc
    try:
        yield
    finally:
        lock.release()
