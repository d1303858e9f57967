"""The durable file primitives: the one place in the project that writes, fsyncs and renames.

The lessons of ALICE (OSDI'14) and of git's lockfile: a write is not durable until
the file is fsynced, and a new name (create, rename, unlink) is not durable until
its directory is fsynced too. Each step calls a fault point before and after it
(see :mod:`events.faults`), so tests can crash or fail every step of every caller.

These functions raise plain ``OSError`` (``FileExistsError`` ...); callers translate
them into their own error types in one place.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from . import faults

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

TEMP_PREFIX = ".tmp"
"""Every temp file this module creates starts with this, so a crash's leftovers can be collected."""

_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# O_EXCL never follows a link either; O_NOFOLLOW says so for every file this module creates.
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _O_CLOEXEC


def write_all(fd: int, data: bytes, *, name: str) -> None:
    """Write every byte of ``data`` to ``fd`` (os.write may write less), between fault points."""
    faults.write_point(f"{name}.before_write", fd, data)
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    faults.point(f"{name}.after_write")


def fsync_fd(fd: int, *, name: str) -> None:
    """fsync ``fd`` between fault points. A failed fsync is raised, never retried."""
    faults.point(f"{name}.before_fsync")
    os.fsync(fd)
    faults.point(f"{name}.after_fsync")


def fsync_dir(path: Path) -> None:
    """Make the names in directory ``path`` durable (created, renamed or removed entries)."""
    sync_directory(path, name="durable.fsync_dir")


def sync_directory(path: Path, *, name: str) -> None:
    """fsync a directory, with fault points named after the operation that needs it."""
    fd = os.open(path, os.O_RDONLY | _O_DIRECTORY | os.O_NOFOLLOW | _O_CLOEXEC)
    try:
        fsync_fd(fd, name=name)
    finally:
        os.close(fd)


def write_new_file(path: Path, data: bytes) -> None:
    """Create ``path`` (O_EXCL: ``FileExistsError`` if present), write ``data``, fsync, close.

    On an error the half-written file is removed again. A crash can still leave
    it, under its final name; callers that retry compare the bytes. The name is
    durable only once the caller has fsynced the directory (once for many files).
    """
    faults.point("durable.write_new.before_open")
    fd = os.open(path, _CREATE, 0o644)
    try:
        _write_and_sync(fd, data, name="durable.write_new")
    except BaseException:
        _discard(path)
        raise


def write_new_files(files: list[tuple[Path, bytes]]) -> list[Path]:
    """:func:`write_new_file` for many files at once; returns the paths that already existed.

    Each file is created (O_EXCL), written and fsynced, like :func:`write_new_file` does one;
    but the fsyncs are issued together from a thread pool, so the file system commits them
    in a few journal transactions instead of one after another (ext4 groups concurrent
    fsyncs: 1,000 files take a fraction of the time). Fault points are still passed in a
    fixed order, in the calling thread. On an error every file created here is removed again
    and the first error is raised.
    """
    created: list[tuple[Path, int]] = []
    existed: list[Path] = []
    try:
        for path, data in files:
            faults.point("durable.write_new.before_open")
            try:
                fd = os.open(path, _CREATE, 0o644)
            except FileExistsError:
                existed.append(path)
                continue
            created.append((path, fd))
            write_all(fd, data, name="durable.write_new")
        _fsync_all([fd for _path, fd in created], name="durable.write_new")
    except BaseException:
        for path, _fd in created:
            _discard(path)
        raise
    finally:
        for _path, fd in created:
            os.close(fd)
    return existed


_FSYNC_THREADS = 16
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _fsync_all(fds: list[int], *, name: str) -> None:
    """fsync every fd, concurrently when there are several; fault points in order, in this thread."""
    if len(fds) <= 1:
        for fd in fds:
            fsync_fd(fd, name=name)
        return
    for _fd in fds:
        faults.point(f"{name}.before_fsync")
    errors = [error for error in _executor().map(_fsync_quietly, fds) if error is not None]
    if errors:
        raise errors[0]
    for _fd in fds:
        faults.point(f"{name}.after_fsync")


def _fsync_quietly(fd: int) -> OSError | None:
    try:
        os.fsync(fd)
    except OSError as error:
        return error
    return None


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            # Imported here: concurrent.futures (and logging with it) costs every command ~4 ms to start,
            # and only a commit that fsyncs several files at once needs the pool.
            from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

            _pool = ThreadPoolExecutor(_FSYNC_THREADS, thread_name_prefix="fsync")
        return _pool


def _forget_pool_in_child() -> None:
    # A forked child has none of the parent's threads: a pool inherited from it would queue forever.
    global _pool, _pool_lock
    _pool, _pool_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_pool_in_child)


def atomic_replace(path: Path, data: bytes, *, sync_dir: bool = True) -> None:
    """Replace ``path`` with ``data`` atomically and durably: readers see the old or new bytes.

    Temp file in the same directory (unique name, O_EXCL), write, fsync, rename
    over ``path``, fsync the directory. The temp file is removed on any failure
    before the rename; after it, the new content is in place (if not yet durable).
    With ``sync_dir=False`` the rename is not yet durable: the caller replaces
    more files in the same directory and then calls :func:`fsync_dir` once.
    """
    temp = path.with_name(f"{TEMP_PREFIX}-{secrets.token_hex(8)}-{path.name}")
    faults.point("durable.atomic_replace.before_open")
    fd = os.open(temp, _CREATE, 0o644)
    renamed = False
    try:
        _write_and_sync(fd, data, name="durable.atomic_replace")
        faults.point("durable.atomic_replace.before_rename")
        os.replace(temp, path)
        renamed = True
        faults.point("durable.atomic_replace.after_rename")
        if sync_dir:
            sync_directory(path.parent, name="durable.atomic_replace.dir")
    except BaseException:
        if not renamed:
            _discard(temp)
        raise


def remove_file(path: Path) -> None:
    """Remove ``path`` (already missing is fine) and make the removal durable."""
    faults.point("durable.remove.before_unlink")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    faults.point("durable.remove.after_unlink")
    sync_directory(path.parent, name="durable.remove.dir")


def is_temp_file(name: str) -> bool:
    """Whether a directory entry is a temp file left by :func:`atomic_replace`."""
    return name.startswith(TEMP_PREFIX)


def remove_temp_files(folder: Path, of: tuple[str, ...]) -> None:
    """Remove what a crashed :func:`atomic_replace` of the files named ``of`` left in ``folder``.

    Call it only where no live writer of those names can exist (under their owner's lock); a name is
    removed, never a link's target.
    """
    suffixes = tuple(f"-{name}" for name in of)
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return
    for name in names:
        if is_temp_file(name) and name.endswith(suffixes):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(Path(folder) / name)


def _write_and_sync(fd: int, data: bytes, *, name: str) -> None:
    """Write all, fsync, close — closing even on failure, raising the first error."""
    try:
        write_all(fd, data, name=name)
        fsync_fd(fd, name=name)
    finally:
        os.close(fd)


def _discard(path: Path) -> None:
    # Cleanup on an error path: the original error is what the caller must see, and a
    # leftover temp file is harmless (its name marks it for collection), so a failure
    # to unlink is deliberately not raised over it.
    with contextlib.suppress(OSError):
        os.unlink(path)
