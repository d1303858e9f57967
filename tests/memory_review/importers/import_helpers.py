"""Helpers for the import tests: writing files and reading them as the importer does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memory_review.workspace import Workspace

Place = Callable[[Path, str], Path]
"""Copies a real file into the test project under a name (the ``place`` fixture)."""


def write(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` (creating folders) and return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def source_text(path: Path) -> str:
    """A file as the importer sees it: UTF-8 with LF line ends."""
    return path.read_text(encoding="utf-8").replace("\r\n", "\n")


def pending(ws: Workspace) -> dict[str, object]:
    """Pending candidates of both stores by the id of the memory they touch."""
    return {s.candidate.changes[0].memory: s for s in ws.list_candidates()}
