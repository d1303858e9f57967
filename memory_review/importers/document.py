"""A document to import: a line range of one file, with what its format says about it."""

from __future__ import annotations

from dataclasses import dataclass, field

from memory_review.importers.files import SourceFile
from memory_review.importers.markdown import frontmatter_blocks

FORMATS: tuple[str, ...] = ("claude-md", "claude-memory", "cursor", "cline")


@dataclass(frozen=True)
class Document:
    """Lines ``[start, end)`` of ``file`` that hold memories, and the hints to classify them.

    ``meta`` is the frontmatter that governs the range (a Cursor rule's ``description``
    and ``globs``, an auto-memory file's ``name``, ``description`` and ``type``); ``via``
    says how the file was reached when the person did not name it (an ``@`` import, an
    index link); ``whole`` keeps the range as one memory unless it is too big.
    """

    file: SourceFile
    format: str
    kind: str
    start: int
    end: int
    meta: dict[str, str] = field(default_factory=dict)
    via: str | None = None
    title: str | None = None
    whole: bool = False
    user_level: bool = False


def body_range(file: SourceFile) -> tuple[int, int, dict[str, str]]:
    """The lines after a leading frontmatter block (if any), and that block's keys."""
    lines = file.lines
    blocks = frontmatter_blocks(lines)
    if blocks:
        return blocks[0].end, len(lines), blocks[0].meta
    return 0, len(lines), {}
