"""Keep the project store out of the project's branches: ``.memory-review/`` in ``<root>/.gitignore``.

The store travels through its own refs (``refs/memory-review/*``, ADR 0007); committed on a
branch it would reach every clone as files nobody on that machine approved. ``init`` and
``install`` call :func:`ignore_store`: idempotent, and only in a git work tree (outside one
there is nothing to keep out, and a new ``.gitignore`` would only be litter).

``.gitignore`` is a repository file, so it is read without following a link (a link to
``~/.ssh/id_ed25519`` must not be copied into the repository) and not at all when it is
not a regular file (a FIFO would hang ``init``); the new bytes replace it atomically.
"""

from __future__ import annotations

from pathlib import Path

from memory_review import gitrepo
from memory_review.events.durable import atomic_replace
from memory_review.events.safe_fs import UnsafeFile, read_file_or
from memory_review.paths import PROJECT_STORE_DIR

IGNORE_LINE = f"{PROJECT_STORE_DIR}/"
# Lines that already keep the store folder out (at the root or at any depth).
_ALREADY = {f"{prefix}{PROJECT_STORE_DIR}{suffix}" for prefix in ("", "/", "**/") for suffix in ("", "/", "/*", "/**")}
MAX_GITIGNORE_BYTES = 1024 * 1024


def ignore_store(root: Path) -> str:
    """Add ``.memory-review/`` to ``root/.gitignore``; what happened, in a few words for the output.

    ``added`` / ``created`` / ``already ignored`` / ``not a git repository`` / ``skipped: <why>``.
    Never raises for a ``.gitignore`` it cannot use: the store itself is fine either way.
    """
    if gitrepo.toplevel(root) is None:
        return "not a git repository"
    path = root / ".gitignore"
    try:
        old = _read(path)
    except _Skip as skip:
        return f"skipped: {skip}"
    if old is not None and any(line.strip() in _ALREADY for line in old.decode("utf-8", "replace").splitlines()):
        return "already ignored"
    try:
        atomic_replace(path, _with_line(old))
    except OSError as exc:
        return f"skipped: cannot write .gitignore ({exc.strerror})"
    return "created" if old is None else "added"


def _with_line(old: bytes | None) -> bytes:
    if not old:
        return f"{IGNORE_LINE}\n".encode()
    newline = b"\r\n" if b"\r\n" in old else b"\n"
    lead = b"" if old.endswith(b"\n") else newline
    return old + lead + IGNORE_LINE.encode() + newline


class _Skip(Exception):
    """Why ``.gitignore`` is left alone."""


def _read(path: Path) -> bytes | None:
    try:
        return read_file_or(path, MAX_GITIGNORE_BYTES, single_link=True)
    except UnsafeFile as exc:
        raise _Skip(f".gitignore {exc.reason.partition(';')[0]}") from exc
    except OSError as exc:
        raise _Skip(f".gitignore is unreadable ({exc.strerror})") from exc
