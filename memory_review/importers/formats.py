"""Which memory files a path holds, and how each format's files become documents.

Formats (auto-detected from the path, or forced with ``format``):

* ``claude-md`` — ``CLAUDE.md``, ``.claude/CLAUDE.md``, ``CLAUDE.local.md``, ``AGENTS.md``,
  ``AGENTS.override.md`` (Codex), ``GEMINI.md`` (Gemini CLI) — any ``*CLAUDE*.md`` / ``*AGENTS*.md`` /
  ``*GEMINI*.md`` file — with ``@path`` imports (not in an ``AGENTS.md`` read as such: Codex has none);
  and Claude Code's rules, every ``*.md`` below ``.claude/rules`` (subfolders too, as Claude Code reads them);
* ``claude-memory`` — a Claude Code auto-memory folder: ``MEMORY.md`` (an index of
  ``- [Title](file.md) — hook`` links, maybe with notes of its own) and one topic file
  per memory with ``name`` / ``description`` / ``type`` frontmatter;
* ``cursor`` — Cursor rules: ``.cursor/rules/**/*.mdc`` (one or more frontmatter blocks,
  each opening a rule; subfolders too) and the legacy ``.cursorrules``;
* ``cline`` — a Cline memory bank: ``memory-bank/*.md`` (``projectbrief.md``,
  ``productContext.md``, ``activeContext.md``, ``systemPatterns.md``, ``techContext.md``,
  ``progress.md`` and any extra file).

A project folder may hold several of these; each one found is read, in that order. Instruction files in
its subfolders (``packages/api/AGENTS.md``), which an agent reads only when it works there, are not read: the
import's notes name them (ADR 0160).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memory_review.errors import StorageError, ValidationError
from memory_review.importers.document import FORMATS, Document, body_range
from memory_review.importers.files import FileReader, Refused, SourceFile, list_dir, read_regular, walk_names
from memory_review.importers.instructions import read_instructions
from memory_review.importers.markdown import frontmatter_blocks

# Claude Code's, Codex's (AGENTS.override.md wins over AGENTS.md in a folder) and Gemini CLI's.
INSTRUCTION_FILES = (
    "CLAUDE.md",
    ".claude/CLAUDE.md",
    "CLAUDE.local.md",
    "AGENTS.md",
    "AGENTS.override.md",
    "GEMINI.md",
)
CODEX_CHAIN_NAMES = ("AGENTS.override.md", "AGENTS.md")
CLAUDE_RULES = ".claude/rules"
RULES_DEPTH = 4  # folders below .claude/rules or .cursor/rules
NESTED_DEPTH = 4  # folders below an imported project searched for instruction files it leaves out
NESTED_SHOWN = 5
_NOT_SEARCHED = frozenset({"node_modules", "vendor", "venv", "dist", "build", "target", "__pycache__"})
CLINE_FILES = (
    "projectbrief.md",
    "productContext.md",
    "activeContext.md",
    "systemPatterns.md",
    "techContext.md",
    "progress.md",
)
AUTO_MEMORY_TYPES = frozenset({"user", "feedback", "project", "reference"})
_INDEX_LINK = re.compile(r"^\s*[-*+]\s*\[([^\]]+)\]\(([^)\s]+)\)\s*(?:[\u2014\u2013:-]+\s*(.*?))?\s*$")


@dataclass
class Collected:
    """Every document an import found, the formats they came in, and notes on what was left out."""

    formats: list[str] = field(default_factory=list)
    documents: list[Document] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def files(self) -> list[str]:
        """The files read, each once, in reading order."""
        return list(dict.fromkeys(doc.file.rel for doc in self.documents))


def collect(reader: FileReader, rel: str, format: str | None = None, *, codex_chain: bool = False) -> Collected:
    """Read the memory files at ``rel`` (a file or a folder) as documents; with ``codex_chain``, the
    AGENTS.md files Codex reads for the folder ``rel`` (see :func:`codex_chain_files`)."""
    if format is not None and format not in FORMATS:
        raise ValidationError(f"unknown import format {format!r}; use one of {', '.join(FORMATS)}", field="format")
    path = reader.resolve(rel)
    found = Collected()
    if codex_chain:
        plan = [("claude-md", target) for target in _chain_plan(reader, rel, path)]
    else:
        plan = _folder_plan(reader, rel, path, format) if path.is_dir() else [(_file_format(path, rel, format), rel)]
    for fmt, target in plan:
        found.formats.append(fmt)
        found.documents.extend(_read_planned(reader, fmt, target, named=target == rel))
    found.formats = list(dict.fromkeys(found.formats))
    if path.is_dir() and not codex_chain and format in (None, "claude-md"):
        reader.notes.extend(_nested_note(path))
    found.notes = reader.notes
    return found


def _read_planned(reader: FileReader, fmt: str, target: str, *, named: bool) -> list[Document]:
    """One format's files; a folder the plan found that may not be read (a committed link out of the project,
    even a dangling one) is a note and the rest is imported, but the path the person named is their error."""
    try:
        return READERS[fmt](reader, target, named=named)
    except Refused as exc:
        if named:
            raise ValidationError(str(exc), path=target) from None
        reader.notes.append(str(exc))
        return []


def _nested_note(path: Path) -> list[str]:
    """A note naming the instruction files in the folder's subfolders, which a folder import leaves out."""
    names = {posixpath.basename(name) for name in INSTRUCTION_FILES}
    nested = [
        name
        for name in walk_names(path, names.__contains__, depth=NESTED_DEPTH, skip=_not_searched)
        if "/" in name and not name.startswith(".claude/")
    ]
    if not nested:
        return []
    more = len(nested) - NESTED_SHOWN
    shown = ", ".join(nested[:NESTED_SHOWN]) + (f" and {more} more" if more > 0 else "")
    files = "file" if len(nested) == 1 else "files"
    return [
        f"{len(nested)} instruction {files} in subfolders not read ({shown}): an agent reads them only when it works"
        " there; import each by name, or a folder's Codex chain with --codex-chain FOLDER"
    ]


def _not_searched(name: str) -> bool:
    return name.startswith(".") or name in _NOT_SEARCHED


def is_claude_rules(path: Path) -> bool:
    """Whether ``path`` is a ``.claude/rules`` folder (Claude Code's modular rules)."""
    return path.name == "rules" and path.parent.name == ".claude"


# --------------------------------------------------------------------------- detection


def _file_format(path: Path, rel: str, forced: str | None) -> str:
    if forced:
        return forced
    # The name the person gave decides (an AGENTS.md linked to a .mdc file is still AGENTS.md).
    name = posixpath.basename(rel)
    upper = name.upper()
    if name.endswith(".mdc") or name == ".cursorrules":
        return "cursor"
    if upper == "MEMORY.MD":
        return "claude-memory"
    if upper.endswith(".MD") and ("CLAUDE" in upper or "AGENTS" in upper or "GEMINI" in upper):
        return "claude-md"
    if name.lower() in {n.lower() for n in CLINE_FILES}:
        return "cline"
    if _topic_type(path):
        return "claude-memory"
    raise ValidationError(
        "cannot tell which memory-file format this is",
        path=rel,
        hint=f"name it with --format ({', '.join(FORMATS)})",
    )


def _topic_type(path: Path) -> str | None:
    # Through the importer's own read: a FIFO named as a memory file never blocks, a huge file is refused unread.
    try:
        data = read_regular(path, path.name)
    except (Refused, StorageError):
        return None
    head = data[:16384].decode("utf-8", errors="replace")[:4096].replace("\r\n", "\n")
    blocks = frontmatter_blocks(head.split("\n"))
    kind = blocks[0].meta.get("type", "") if blocks else ""
    return kind if kind in AUTO_MEMORY_TYPES else None


def _folder_plan(reader: FileReader, rel: str, path: Path, forced: str | None) -> list[tuple[str, str]]:
    names = set(list_dir(path))
    kinds: list[tuple[str, str]] = []
    if "MEMORY.md" in names:
        kinds.append(("claude-memory", rel))
    if path.name == "memory-bank" or len(names & set(CLINE_FILES)) >= 2:
        kinds.append(("cline", rel))
    if any(n.endswith(".mdc") for n in names) or ".cursorrules" in names:
        kinds.append(("cursor", rel))
    if any(_exists(reader, _join(rel, n)) for n in INSTRUCTION_FILES) or is_claude_rules(path):
        kinds.append(("claude-md", rel))
    if path.name == ".claude" and _exists(reader, _join(rel, "rules")):  # the person's ~/.claude holds its rules too
        kinds.append(("claude-md", _join(rel, "rules")))
    for sub, fmt in ((CLAUDE_RULES, "claude-md"), (".cursor/rules", "cursor"), ("memory-bank", "cline")):
        if _exists(reader, _join(rel, sub)) and path.name not in ("rules", "memory-bank"):
            kinds.append((fmt, _join(rel, sub)))
    if forced:
        kinds = [k for k in kinds if k[0] == forced] or [(forced, rel)]
    if not kinds:
        raise ValidationError(
            "no memory files found in this folder",
            path=rel,
            hint=f"name a file, or force a format with --format ({', '.join(FORMATS)})",
        )
    return kinds


def codex_chain_files(reader: FileReader, rel: str) -> list[str]:
    """The project files Codex reads for a session in folder ``rel``, root first (Codex's "Custom
    instructions with AGENTS.md": from the project root down to the working folder, in each folder
    ``AGENTS.override.md``, else ``AGENTS.md``, at most one per folder, empty files skipped). The
    configurable fallback names (``project_doc_fallback_filenames``) are not read: they live in the
    person's ``config.toml``."""
    parts = [] if rel in ("", ".") else rel.split("/")
    chain = []
    for depth in range(len(parts) + 1):
        folder = "/".join(parts[:depth]) or "."
        for name in CODEX_CHAIN_NAMES:
            target = _join(folder, name)
            try:
                if not (reader.resolve(target).exists() and _not_empty(reader, target)):
                    continue
            except Refused as exc:  # it is this folder's file for Codex, and we may not read it
                reader.notes.append(str(exc))
                break
            chain.append(target)
            break
    return chain


def _chain_plan(reader: FileReader, rel: str, path: Path) -> list[str]:
    if not path.is_dir():
        raise ValidationError("--codex-chain takes the folder a Codex session works in", path=rel)
    chain = codex_chain_files(reader, rel)
    if not chain:
        raise ValidationError("no AGENTS.override.md or AGENTS.md on the way from the project root here", path=rel)
    return chain


def _not_empty(reader: FileReader, rel: str) -> bool:
    # By its size, without reading it: the read itself keeps every rule (regular file, caps, once).
    try:
        return reader.resolve(rel).stat().st_size > 0
    except OSError:
        return False


def _exists(reader: FileReader, rel: str) -> bool:
    try:
        return reader.resolve(rel).exists()
    except Refused:
        return True  # present, and refused when read: the note says why


def _join(folder: str, name: str) -> str:
    return name if folder in ("", ".") else posixpath.join(folder, name)


# --------------------------------------------------------------------------- readers


def _named(reader: FileReader, rel: str, named: bool) -> SourceFile | None:
    """Read ``rel``; when the person named it, a refusal is their error, not a note."""
    if not named:
        return reader.try_read(rel)
    try:
        return reader.read(rel)
    except Refused as exc:
        raise ValidationError(str(exc), path=rel) from None


def read_claude_md(reader: FileReader, rel: str, *, named: bool) -> list[Document]:
    """A ``CLAUDE.md``/``AGENTS.md`` file, or those a project folder holds, with their imports; or the rules
    of a ``.claude/rules`` folder."""
    path = reader.resolve(rel)
    if is_claude_rules(path):
        names = walk_names(path, lambda name: name.endswith(".md"), depth=RULES_DEPTH, skip=_hidden)
        targets = [_join(rel, name) for name in names]
    elif path.is_dir():
        targets = [_join(rel, name) for name in INSTRUCTION_FILES]
    else:
        file = _named(reader, rel, named)
        return read_instructions(reader, file, user_level=is_user_level(file.path)) if file else []
    documents: list[Document] = []
    for target in targets:
        # Each file is walked as soon as it is read: an AGENTS.md that CLAUDE.md imports is read through it, with
        # Claude Code's imports, and is then skipped here as read (review of session 33, ADR 0160)
        file = reader.try_read(target) if _exists(reader, target) else None
        if file is not None:
            documents += read_instructions(reader, file, user_level=is_user_level(file.path))
    return documents


def _hidden(name: str) -> bool:
    return name.startswith(".")


def is_user_level(path: Path) -> bool:
    """Whether ``path`` is one of the person's own instruction files, for every project:
    ``~/.claude/CLAUDE.md`` and ``~/.claude/rules/``, Codex's ``~/.codex/AGENTS.md`` (``$CODEX_HOME``) or
    ``~/.gemini/GEMINI.md``."""
    home = Path(os.path.expanduser("~"))  # "~" stays as it is when no home is known: no match
    codex = Path(os.environ["CODEX_HOME"]) if os.environ.get("CODEX_HOME") else home / ".codex"
    own = {
        "CLAUDE.md": home / ".claude",
        "AGENTS.md": codex,
        "AGENTS.override.md": codex,
        "GEMINI.md": home / ".gemini",
    }
    folder = own.get(path.name)
    rules = (home / CLAUDE_RULES).resolve()
    return (folder is not None and path.parent == folder.resolve()) or path.is_relative_to(rules)


def read_cursor(reader: FileReader, rel: str, *, named: bool) -> list[Document]:
    """Cursor rules: each ``.mdc`` file, split into one document per frontmatter block."""
    if not reader.resolve(rel).is_dir():
        file = _named(reader, rel, named)
        return _rule_documents(file) if file else []
    path = reader.resolve(rel)
    rules = walk_names(path, lambda name: name.endswith(".mdc"), depth=RULES_DEPTH, skip=_hidden)
    wanted = rules + [n for n in list_dir(path) if n == ".cursorrules"]
    files = [reader.try_read(_join(rel, n)) for n in wanted]
    return [doc for f in files if f is not None for doc in _rule_documents(f)]


def _rule_documents(file: SourceFile) -> list[Document]:
    lines = file.lines
    blocks = frontmatter_blocks(lines, anywhere=True)
    if not blocks:
        return [Document(file=file, format="cursor", kind="Cursor rule", start=0, end=len(lines))]
    docs = [Document(file=file, format="cursor", kind="Cursor rule", start=0, end=blocks[0].start)]
    for block, nxt in zip(blocks, [*blocks[1:], None], strict=True):
        end = nxt.start if nxt else len(lines)
        docs.append(
            Document(
                file=file,
                format="cursor",
                kind="Cursor rule",
                start=block.end,
                end=end,
                meta=block.meta,
                title=block.meta.get("description") or None,
            )
        )
    return [d for d in docs if d.end > d.start]


def read_cline(reader: FileReader, rel: str, *, named: bool) -> list[Document]:
    """A Cline memory bank: its core files in Cline's order, then any other Markdown file."""
    if not reader.resolve(rel).is_dir():
        file = _named(reader, rel, named)
        return [_cline_document(file)] if file else []
    names = list_dir(reader.resolve(rel))
    ordered = [n for n in CLINE_FILES if n in names] + [n for n in names if n.endswith(".md") and n not in CLINE_FILES]
    files = [reader.try_read(_join(rel, n)) for n in ordered]
    return [_cline_document(f) for f in files if f is not None]


def _cline_document(file: SourceFile) -> Document:
    start, end, meta = body_range(file)
    return Document(file=file, format="cline", kind="Cline memory bank", start=start, end=end, meta=meta)


def read_auto_memory(reader: FileReader, rel: str, *, named: bool) -> list[Document]:
    """A Claude Code auto-memory folder (or its ``MEMORY.md``, or one topic file)."""
    path = reader.resolve(rel)
    folder = rel if path.is_dir() else posixpath.dirname(rel)
    index_rel = _join(folder, "MEMORY.md")
    if not path.is_dir() and posixpath.basename(rel) != "MEMORY.md":
        file = _named(reader, rel, named)
        return [_topic_document(file, {})] if file else []
    index = _named(reader, index_rel, named)
    links, docs = _index(index) if index else ({}, [])
    for target, hook in links.items():
        file = reader.try_read(_join(folder, target))
        docs += [_topic_document(file, hook, via=f"linked from {index_rel}")] if file else []
    if path.is_dir():
        for name in (n for n in list_dir(path) if n.endswith(".md") and n != "MEMORY.md"):
            file = reader.try_read(_join(folder, name))
            docs += [_topic_document(file, {})] if file else []
    return docs


def is_index_line(line: str) -> bool:
    """Whether ``line`` is a ``- [Title](file.md) — hook`` entry of an auto-memory index."""
    return _INDEX_LINK.match(line) is not None


def _index(index: SourceFile) -> tuple[dict[str, dict[str, str]], list[Document]]:
    """The topic files ``MEMORY.md`` links to (with title and hook), and its own notes."""
    links: dict[str, dict[str, str]] = {}
    for line in index.lines:
        match = _INDEX_LINK.match(line)
        if match and "://" not in match.group(2) and not match.group(2).startswith("#"):
            links.setdefault(match.group(2), {"name": match.group(1), "hook": match.group(3) or ""})
    return links, [
        Document(
            file=index,
            format="claude-memory",
            kind="Claude Code auto memory (MEMORY.md notes)",
            start=start,
            end=end,
            meta={"index": "true"},
        )
        for start, end in _between_links(index)
    ]


def _between_links(index: SourceFile) -> list[tuple[int, int]]:
    """The runs of ``MEMORY.md`` lines that are not index links: notes kept in the index itself."""
    runs: list[tuple[int, int]] = []
    start = 0
    for number, line in enumerate(index.lines):
        if is_index_line(line):
            runs += [(start, number)] if number > start else []
            start = number + 1
    runs += [(start, len(index.lines))] if len(index.lines) > start else []
    return runs


def _topic_document(file: SourceFile, link: dict[str, str], via: str | None = None) -> Document:
    start, end, meta = body_range(file)
    merged = {"name": link.get("name", ""), "description": link.get("hook", "")}
    merged.update({k: v for k, v in meta.items() if v})
    return Document(
        file=file,
        format="claude-memory",
        kind="Claude Code auto memory",
        start=start,
        end=end,
        meta=merged,
        via=via,
        title=merged.get("name") or None,
        whole=True,
    )


READERS: dict[str, Callable[..., list[Document]]] = {
    "claude-md": read_claude_md,
    "claude-memory": read_auto_memory,
    "cursor": read_cursor,
    "cline": read_cline,
}
