"""The one door to filelock: the store lock.

An in-process lock first (filelock's own locks are re-entrant per object and
threads of one process must not interleave either), then an OS file lock on
``.lock``. The lock file is never deleted: deleting it would let two processes
hold "the" lock on two different inodes. A lock held by a process that died is
released by the kernel, so the next caller gets it at once.

filelock opens ``.lock`` itself (and may truncate it), following a symlink: so the lock
file is first opened here through ``events.safe_fs`` (created if missing, refused if it is
a link, a FIFO or has a second name), and only a checked regular file is handed to filelock.
Any OS error of the lock (an unwritable or read-only lock file) is a StorageError naming it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import filelock

from memory_review.errors import LockTimeoutError
from memory_review.events.safe_fs import open_file
from memory_review.file_reads import storage_errors

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
        with storage_errors(lock_file):
            _check_lock_file(lock_file)
        with _os_lock(lock_file, timeout):
            yield
    finally:
        local.release()


def _check_lock_file(lock_file: Path) -> None:
    """Create the lock file if missing; UnsafeFile unless it is a plain file with one name."""
    os.close(open_file(lock_file, os.O_RDWR | os.O_CREAT, single_link=True))


@contextmanager
def _os_lock(lock_file: Path, timeout: float) -> Iterator[None]:
    lock = filelock.FileLock(str(lock_file), timeout=timeout, thread_local=False, preserve_lock_file=True)
    with storage_errors(lock_file):  # an unwritable lock file, a read-only file system
        try:
            lock.acquire()
        except filelock.Timeout as exc:  # a TimeoutError, so an OSError: ours before storage_errors sees it
            raise LockTimeoutError(lock_file, timeout) from exc
    try:
        yield
    finally:
        with storage_errors(lock_file):
            lock.release()
