"""Import of existing memory files as candidates — never as memory.

Pipeline (pure except for reading files and the final propose)::

    open_named(path, root) -> FileReader           confined to the import root, size-capped
    collect(reader, rel, format) -> Collected     documents: claude-md, claude-memory, cursor, cline
    findings(documents, scope=...) -> [Finding]   one per section; typed, scoped, quoted, flagged
    import_memories(ws, path, ...) -> ImportSummary
                                                  dedup (extract.plan), fit check, one propose batch

See ``docs/adr/0009-import-and-consolidation.md``.
"""

from __future__ import annotations

from memory_review.importers.classify import PROPOSER, findings
from memory_review.importers.document import FORMATS, Document
from memory_review.importers.files import (
    MAX_FILE_BYTES,
    MAX_TOTAL_BYTES,
    FileReader,
    SourceFile,
    open_named,
)
from memory_review.importers.formats import Collected, collect
from memory_review.importers.instructions import MAX_IMPORT_DEPTH, imports
from memory_review.importers.run import ImportSummary, import_memories, import_root

__all__ = [
    "FORMATS",
    "MAX_FILE_BYTES",
    "MAX_IMPORT_DEPTH",
    "MAX_TOTAL_BYTES",
    "PROPOSER",
    "Collected",
    "Document",
    "FileReader",
    "ImportSummary",
    "SourceFile",
    "collect",
    "findings",
    "import_memories",
    "import_root",
    "imports",
    "open_named",
]
