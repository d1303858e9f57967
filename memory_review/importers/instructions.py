"""``CLAUDE.md`` / ``AGENTS.md`` instruction files, with their ``@path`` imports followed safely.

Not in an ``AGENTS.md`` read as such: Codex has no imports, so ``@CHANGELOG.md`` there is a mention (ADR 0160).

Claude Code lets an instruction file pull in others with ``@path/to/file`` (not inside
code spans or fenced blocks, relative to the importing file, up to five hops). An
import here follows the same rules, and stays inside the import root: an absolute or
``~`` path, a ``..`` that climbs out, or a symlink pointing outside is refused and
reported; a file importing one of its own importers is a cycle, reported and cut; a
file reached twice is read once. Each file becomes its own document, so every memory
names the file its text came from.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

from memory_review.importers.document import Document, body_range
from memory_review.importers.files import FileReader, Refused, SourceFile
from memory_review.importers.markdown import code_lines

MAX_IMPORT_DEPTH = 5
_BACKTICKS = re.compile(r"`+")
_IMPORT = re.compile(r"(?:^|(?<=\s))@([^\s`'\"<>()\[\]{}|,;*]+)")
_TRAILING = ".:!?"
USER_FILE_NAMES = ("CLAUDE.md",)


def read_instructions(reader: FileReader, first: SourceFile, *, user_level: bool = False) -> list[Document]:
    """``first`` and every file it imports (depth first, in the order they are named)."""
    documents: list[Document] = []
    _walk(reader, first, documents, stack=(first.path,), via=None, user_level=user_level)
    return documents


def _walk(
    reader: FileReader,
    file: SourceFile,
    out: list[Document],
    *,
    stack: tuple[Path, ...],
    via: str | None,
    user_level: bool,
) -> None:
    start, end, meta = body_range(file)
    out.append(
        Document(
            file=file,
            format="claude-md",
            kind=_kind(file),
            start=start,
            end=end,
            meta=meta,
            via=via,
            user_level=user_level,
        )
    )
    references = list(imports(file.lines))
    if via is None and _kind(file).startswith("AGENTS"):
        # Codex reads AGENTS.md as it is: "@CHANGELOG.md" there is a mention, not an import (ADR 0160). Claude Code
        # follows it in an AGENTS.md a CLAUDE.md imports (``via`` set), as it does everywhere.
        if references:
            shown = ", ".join(f"@{reference}" for reference in references[:5])
            reader.notes.append(f"{file.rel}: {shown} not followed (Codex does not import files from AGENTS.md)")
        references = []
    for reference in references:
        target = _target(reader, file, reference, stack)
        if target is None:
            continue
        child = reader.try_read(target)
        if child is not None:
            _walk(
                reader,
                child,
                out,
                stack=(*stack, child.path),
                via=f"imported by {file.rel} (@{reference})",
                user_level=user_level,
            )


def _target(reader: FileReader, file: SourceFile, reference: str, stack: tuple[Path, ...]) -> str | None:
    rel = posixpath.join(posixpath.dirname(file.rel), reference)
    try:
        real = reader.resolve(rel)
    except Refused as exc:
        reader.notes.append(f"{file.rel}: import @{_shown(reference)} refused: {str(exc)[:300]}")
        return None
    if real in stack:
        chain = " -> ".join(reader.relative(p) for p in (*stack, real))
        reader.notes.append(f"{file.rel}: import @{reference} is a cycle ({chain}); not followed")
        return None
    if len(stack) > MAX_IMPORT_DEPTH:
        reader.notes.append(f"{file.rel}: import @{reference} not followed: more than {MAX_IMPORT_DEPTH} hops")
        return None
    try:
        exists = real.exists()
    except OSError as exc:  # a name past the system's length (ENAMETOOLONG): this import, not the whole run
        reader.notes.append(f"{file.rel}: import @{_shown(reference)} cannot be read: {exc.strerror or exc}")
        return None
    if not exists:
        reader.notes.append(f"{file.rel}: import @{_shown(reference)} not found")
        return None
    return rel


def _shown(reference: str) -> str:
    # A repository's instruction file can name a path of any length; a note shows its start.
    return reference if len(reference) <= 120 else f"{reference[:120]}…"


def _without_code_spans(line: str) -> str:
    """The line with each code span blanked: CommonMark's, a run of backticks closed by the next run of the same
    length, with text between (Claude Code does not follow an ``@`` import inside one).

    Found run by run, not with one pattern: a back-referencing pattern made a line of 1,600 backticks in a cloned
    repository's CLAUDE.md take 38 s (and grew with the cube), and instruction files are the repository's, untrusted.
    """
    runs = [match.span() for match in _BACKTICKS.finditer(line)]
    by_width: dict[int, list[int]] = {}
    for number, (start, end) in enumerate(runs):
        by_width.setdefault(end - start, []).append(number)
    blanked = list(line)
    number = 0
    while number < len(runs):
        start, end = runs[number]
        same = by_width[end - start]
        closing = bisect.bisect_right(same, number)  # runs are maximal: text always lies between two of them
        if closing < len(same):
            close_end = runs[same[closing]][1]
            blanked[start:close_end] = " " * (close_end - start)
            number = same[closing] + 1
        else:
            number += 1
    return "".join(blanked)


def imports(lines: list[str]) -> Iterator[str]:
    """The ``@path`` references of a file, in order, outside code.

    ``@name`` without ``.`` or ``/`` is a mention, not a file.
    """
    code = code_lines(lines)
    for index, line in enumerate(lines):
        if index in code or "@" not in line:
            continue
        prose = _without_code_spans(line)
        for match in _IMPORT.finditer(prose):
            reference = match.group(1).rstrip(_TRAILING)
            if ("." in reference or "/" in reference) and "://" not in reference:
                yield reference


def _kind(file: SourceFile) -> str:
    parts = file.path.parts
    if any(pair == (".claude", "rules") for pair in zip(parts, parts[1:-1], strict=False)):
        return "Claude Code rules"
    name = posixpath.basename(file.rel).upper()
    for kind in ("AGENTS", "GEMINI"):
        if kind in name:
            return f"{kind}.md instructions"
    return "CLAUDE.md instructions"
