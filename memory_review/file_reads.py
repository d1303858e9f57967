"""Store file access in memory-review's terms: :mod:`events.safe_fs` with our error types.

Every file under a store is opened through ``events.safe_fs`` (never through a link, never
blocking on a FIFO; see ADR 0020); this module turns what it refuses into
:class:`UnsafeFileError` and any other ``OSError`` into :class:`StorageError`, naming the path.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memory_review.errors import MemoryReviewError, StorageError, UnsafeFileError
from memory_review.events.safe_fs import UnsafeFile, read_file


def storage_error(exc: OSError, path: Path | str) -> MemoryReviewError:
    """Our error for an ``OSError`` on ``path``: UnsafeFileError for a refused path, else StorageError."""
    if isinstance(exc, MemoryReviewError):  # a StorageError is an OSError too: already ours, keep its one line
        return exc
    if isinstance(exc, UnsafeFile):
        return UnsafeFileError(exc.path, exc.reason)
    return StorageError(f"{path}: {exc.strerror or exc}", path=path, errno=exc.errno)


@contextmanager
def storage_errors(path: Path | str) -> Iterator[None]:
    """Translate any ``OSError`` raised inside into ours (naming the file it names, else ``path``)."""
    try:
        yield
    except MemoryReviewError:
        raise
    except OSError as exc:
        raise storage_error(exc, getattr(exc, "filename", None) or path) from exc


def read_store_file(path: Path, limit: int | None = None) -> bytes | None:
    """The bytes of a store file, None when it is missing; UnsafeFileError/StorageError otherwise."""
    try:
        return read_file(path, limit)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise storage_error(exc, path) from exc


def read_regular_file(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes, else None (any refusal)."""
    try:
        return read_file(path, limit)
    except OSError:
        return None
