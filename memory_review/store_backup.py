"""Copies of a store's files taken before a step that replaces them (repair, a format upgrade).

``<store>/backups/<kind>-<time>-<random>/`` holds ``events.jsonl``, ``manifest.json``, ``MEMORY.md``
and the files of ``memory/``, ``candidates/`` and ``sessions/``: regular files only, never through
a link, every file and folder fsynced. Backups are never pruned automatically (docs/adr/0024).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from pathlib import Path

from memory_review.events.durable import fsync_dir, write_new_file
from memory_review.events.safe_fs import check_dir, list_dir, make_dir, read_file
from memory_review.file_reads import storage_errors

BACKUP_DIR = "backups"
_FILES = ("events.jsonl", "manifest.json", "MEMORY.md")
_FOLDERS = ("memory", "candidates", "sessions")


def back_up(root: Path, kind: str) -> Path:
    """Copy every file of the store at ``root`` that ``kind`` of step may change; the backup folder."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    target = root / BACKUP_DIR / f"{kind}-{stamp}-{secrets.token_hex(3)}"
    with storage_errors(target):
        make_dir(root / BACKUP_DIR)
        make_dir(target)
        for name in _FILES:
            _copy(root / name, target / name)
        for folder in _FOLDERS:
            source = root / folder
            if not check_dir(source):
                continue
            make_dir(target / folder)
            for name in list_dir(source):
                _copy(source / name, target / folder / name)
            fsync_dir(target / folder)
        fsync_dir(target)
    return target


def _copy(source: Path, target: Path) -> None:
    try:
        data = read_file(source)  # never through a link, never a FIFO
    except FileNotFoundError:
        return
    except OSError:
        return  # a link or a special file is not the store's: it is named by verify, not copied
    write_new_file(target, data)
