"""The one door to filelock: the store lock.

An in-process lock first (filelock's own locks are re-entrant per object and
threads of one process must not interleave either), then an OS file lock on
``.lock``. The lock file is never deleted: deleting it would let two processes
hold "the" lock on two different inodes. A lock held by a process that died is
released by the kernel, so the next caller gets it at once.

On POSIX the OS lock is ``flock`` on the lock file, opened here through ``events.safe_fs``
(created if missing, refused if it is a link, a FIFO or has a second name): what filelock's
Unix lock takes, without importing filelock (it loads asyncio: a tenth of an ``apply``'s
start-up, docs/adr/0037), and what the prompt hook's lean path takes too. Elsewhere filelock's
lock is used, imported on first use; it opens ``.lock`` itself (and may truncate it), following
a symlink, so the file is checked the same way first. Any OS error of the lock (an unwritable or
read-only lock file) is a StorageError naming it.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: filelock decides
    fcntl = None  # type: ignore[assignment]

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
        with _os_lock(lock_file, timeout):
            yield
    finally:
        local.release()


def _check_lock_file(lock_file: Path) -> None:
    """Create the lock file if missing; UnsafeFile unless it is a plain file with one name."""
    os.close(open_file(lock_file, os.O_RDWR | os.O_CREAT, single_link=True))


POLL_SECONDS = 0.02
"""How often a waiting process tries the lock again (a dead holder's lock is free at once)."""


@contextmanager
def _os_lock(lock_file: Path, timeout: float) -> Iterator[None]:
    if fcntl is None:
        with _filelock(lock_file, timeout):
            yield
        return
    with storage_errors(lock_file):
        fd = open_file(lock_file, os.O_RDWR | os.O_CREAT, single_link=True)
    try:
        with storage_errors(lock_file):
            _flock(fd, lock_file, timeout)
        yield
    finally:
        os.close(fd)  # releases the flock


def _flock(fd: int, lock_file: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise LockTimeoutError(lock_file, timeout) from None
            time.sleep(POLL_SECONDS)


@contextmanager
def _filelock(lock_file: Path, timeout: float) -> Iterator[None]:
    import filelock  # noqa: PLC0415 - only where there is no flock

    with storage_errors(lock_file):
        _check_lock_file(lock_file)  # before filelock opens it, following links
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
