"""From imported documents to findings: one per section (or piece), typed, scoped, quoted, flagged.

The findings are the same values the transcript extractors make, so the extraction
planner deduplicates them against approved, pending and discarded memories exactly as
it does for a transcript. What is particular to import:

* **type** — a section whose heading or most of whose lines forbid something
  ("Never …", "Don't …", "Avoid …", "不要 …") is ``forbidden``; a description of the
  project (overview, architecture, stack, status …) is a ``fact``; an auto-memory file
  follows its ``type`` (``user``/``feedback`` → a preference, ``project``/``reference``
  → a fact); the rest of an instruction file is a ``convention`` (a ``preference`` in
  the person's own ``~/.claude/CLAUDE.md``);
* **scope** — ``project`` for files of a project, ``user`` for ``~/.claude/CLAUDE.md``
  and for auto memories about the person (``user``, ``feedback``); a forced scope wins;
* **evidence** — the exact source text (the section from its heading, clipped at a
  line end), located as ``<file>:<first line>-<last line>``;
* **safety** — every text is scanned (injection, secrets, hidden Unicode) and secrets
  are redacted before anything is stored.
"""

from __future__ import annotations

import posixpath
import re

from memory_review import safety
from memory_review.extract.finding import TYPE_PREFIX, Finding
from memory_review.extract.textutil import slug
from memory_review.importers.document import Document
from memory_review.importers.formats import is_index_line
from memory_review.importers.markdown import Piece, code_lines, heading_at, pieces
from memory_review.models import MAX_DESCRIPTION_CHARS, DurableScope, MemoryType
from memory_review.proposal import Evidence, Priority, ProposedMemory, Proposer
from memory_review.safety import redact_within

PROPOSER = Proposer(kind="import", name="memory-review-import")
MAX_WHERE = 160  # a deep path is shown by its tail: the evidence's place must not crowd out its text
_I = re.IGNORECASE
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")
_PROHIBITION = re.compile(
    r"^(?:\*\*|__)?(?:never|don'?t|do\s+not|avoid|must\s+not|mustn'?t|should\s+not|shouldn'?t|"
    r"forbidden|prohibited|no\s+\w|not\s+allowed|under\s+no\s+circumstances)\b|^(?:不要|禁止|别|不准|不许|严禁|切勿)",
    _I,
)
_FORBID_TITLE = re.compile(
    r"\b(?:never|don'?ts?|do\s+not|forbidden|prohibited|avoid|anti-?patterns?|restrictions?|must\s+not)\b"
    r"|禁止|不要",
    _I,
)
_FACT_TITLE = re.compile(
    r"\b(?:overview|architecture|product|about|background|brief|status|stack|structure|"
    r"glossary|cheat\s*sheet|key\s+ids|what\s+works|known\s+issues|directory|data\s+flow|problem|solution|"
    r"goals?|non-goals|users|use\s+cases|milestones?|technology|technologies|dependencies|services|"
    r"limitations|current\s+work|recent\s+changes|next\s+steps|challenges)\b",
    _I,
)
_PREFERS = re.compile(r"\b(?:prefers?|likes?|wants?|dislikes?|hates?)\b|喜欢|偏好", _I)
_MARKUP = re.compile(r"\*\*|`")  # not "__": it is part of names like __init__
_IMPORT_ONLY = re.compile(r"^\s*(?:@\S+\s*)+$")
_VOLATILE_CLINE = frozenset({"activecontext", "progress"})


def findings(documents: list[Document], *, scope: DurableScope | None = None) -> list[Finding]:
    """A finding for every piece of every document, with ids unique within the import."""
    used: set[str] = set()
    made: list[Finding] = []
    for doc in documents:
        for piece in document_pieces(doc):
            made.append(_finding(doc, piece, scope, used))
    return made


def document_pieces(doc: Document) -> list[Piece]:
    """The pieces of a document that say something (an index's bare link lines do not)."""
    titles = (doc.title,) if doc.title else ()
    found = pieces(doc.file.lines, doc.start, doc.end, split_sections=not doc.whole, titles=titles)
    return [p for p in found if not all(_bare(doc, line) for line in p.body.split("\n"))]


def _bare(doc: Document, line: str) -> bool:
    """A line that says nothing by itself: blank, a heading, an ``@import`` line, an index link."""
    if not line.strip() or heading_at(line):
        return True
    if doc.format == "claude-md" and _IMPORT_ONLY.match(line):
        return True  # the imported file is a document of its own
    return doc.meta.get("index") == "true" and is_index_line(line)


def _finding(doc: Document, piece: Piece, forced: DurableScope | None, used: set[str]) -> Finding:
    label = section_label(doc, piece)
    memory_type = memory_type_of(doc, piece, label)
    raw_description = _description(label + _glob_note(doc), piece, doc)
    memory = ProposedMemory(
        id=_unique(_memory_id(doc, label, memory_type), used),
        type=memory_type,
        description=safety.redact(raw_description),
        body=_storable(safety.redact(piece.body)),
    )
    flags = safety.scan(piece.body) | safety.scan(piece.quote) | safety.scan(raw_description)
    return Finding(
        memory=memory,
        scope=forced or scope_of(doc),
        rationale=redact_within(_rationale(doc, piece, label, memory_type), 2000),
        evidence=(_evidence(doc, piece),),
        signal=f"import:{doc.format}",
        flags=flags,
        priority=_priority(doc, memory_type),
    )


# --------------------------------------------------------------------------- naming


def section_label(doc: Document, piece: Piece) -> str:
    """What a person calls the piece: its (sub)section title, or the file's name; and its part."""
    titles = [t.rstrip(":").strip() for t in piece.titles if t.strip()]
    meaningful = titles[1:] if len(titles) > 1 and titles[0] != doc.title else titles
    label = " \u203a ".join(meaningful[-2:]) or posixpath.basename(doc.file.rel)
    return label + (f" (part {piece.part} of {piece.parts})" if piece.parts > 1 else "")


def _glob_note(doc: Document) -> str:
    # A rule Cursor or Claude Code only applies to some files would read as global once injected: say so.
    globs = _only_for(doc)
    return f" (for {globs})" if globs else ""


def _only_for(doc: Document) -> str:
    """The files a path-scoped rule applies to (Cursor's ``globs``, Claude Code's rules' ``paths``); '' for all."""
    if doc.format == "cursor" and doc.meta.get("alwaysApply", "").lower() != "true":
        return doc.meta.get("globs", "")
    return doc.meta.get("paths", "") if doc.kind == "Claude Code rules" else ""


def _description(label: str, piece: Piece, doc: Document) -> str:
    part = f" (part {piece.part} of {piece.parts})" if piece.parts > 1 else ""
    if doc.whole and doc.meta.get("description", "").strip():  # an auto memory names itself
        return _one_line(doc.meta["description"], suffix=part)
    lines = piece.body.split("\n")
    code = code_lines(lines)
    first = next((_plain(line) for i, line in enumerate(lines) if i not in code and _plain(line)), "")
    text = f"{label}: {first}" if first and first.lower() != label.lower() else label
    return _one_line(text)


def _plain(line: str) -> str:
    if heading_at(line) or line.strip().startswith(("```", "~~~")):
        return ""
    return " ".join(_MARKUP.sub("", _BULLET.sub("", line)).split())


def _one_line(text: str, *, suffix: str = "") -> str:
    text = "".join(ch for ch in " ".join(text.split()) if not safety.is_control_char(ch))
    room = MAX_DESCRIPTION_CHARS - len(suffix)
    if len(text) <= room:
        return text + suffix
    cut = text[: room - 1].rsplit(" ", 1)[0]
    return cut + "\u2026" + suffix


def _memory_id(doc: Document, label: str, memory_type: MemoryType) -> str:
    stem = posixpath.basename(doc.file.rel).split(".")[0]
    if doc.whole:  # an auto-memory file is one memory: its file name is its name
        return slug(TYPE_PREFIX[memory_type], stem.replace("_", " "), max_words=5)
    tag = stem.replace("_", " ").split()[-1] if stem.strip("_") else "file"
    return slug(TYPE_PREFIX[memory_type], f"{tag} {label}", max_words=6)


def _unique(memory_id: str, used: set[str]) -> str:
    candidate, number = memory_id, 1
    while candidate in used:
        number += 1
        suffix = f"-{number}"
        candidate = memory_id[: 64 - len(suffix)] + suffix
    used.add(candidate)
    return candidate


# --------------------------------------------------------------------------- classifying


def memory_type_of(doc: Document, piece: Piece, label: str) -> MemoryType:
    """The memory type of a piece (see the module docstring for the rules)."""
    if forbids(label, piece.body):
        return "forbidden"
    if doc.format == "claude-memory":
        return _auto_memory_type(doc.meta.get("type", ""), piece.body)
    if doc.format == "cline":
        stem = posixpath.basename(doc.file.rel).split(".")[0].lower()
        return "convention" if stem == "systempatterns" else "fact"
    if _FACT_TITLE.search(label):
        return "fact"
    return "preference" if doc.user_level else "convention"


def forbids(label: str, body: str) -> bool:
    """A heading that names prohibitions, or a body most of whose statements forbid."""
    if _FORBID_TITLE.search(label):
        return True
    statements = [_BULLET.sub("", line).strip() for line in body.split("\n")]
    statements = [s for s in statements if s and not heading_at(s) and not s.startswith(("```", "~~~"))]
    if not statements:
        return False
    prohibitions = sum(1 for s in statements if _PROHIBITION.search(s))
    return prohibitions * 2 > len(statements)


def _auto_memory_type(kind: str, body: str) -> MemoryType:
    if kind == "feedback":
        return "preference"
    if kind == "user":
        return "preference" if _PREFERS.search(body) else "fact"
    return "fact" if kind in ("project", "reference") else "convention"


def scope_of(doc: Document) -> DurableScope:
    """``user`` for the person's own files and auto memories about them; ``project`` otherwise."""
    if doc.format == "claude-memory":
        return "user" if doc.meta.get("type") in ("user", "feedback") else "project"
    return "user" if doc.user_level else "project"


def _priority(doc: Document, memory_type: MemoryType) -> Priority:
    stem = posixpath.basename(doc.file.rel).split(".")[0].lower()
    if memory_type == "forbidden":
        return "high"
    if memory_type == "fact" or (doc.format == "cline" and stem in _VOLATILE_CLINE):
        return "low"
    return "medium"


# --------------------------------------------------------------------------- provenance


def _evidence(doc: Document, piece: Piece) -> Evidence:
    last = piece.first + piece.quote.count("\n") + 1
    rel = doc.file.rel if len(doc.file.rel) <= MAX_WHERE else "\u2026" + doc.file.rel[1 - MAX_WHERE :]
    where = f"{rel}:{piece.first + 1}-{last}"
    return Evidence(quote=safety.redact(piece.quote), session_id=None, turn_id=where)


_TYPE_REASON: dict[str, str] = {
    "forbidden": "its heading or most of its lines forbid something, so it is a prohibition",
    "fact": "it describes the project rather than telling how to work, so it is a fact",
    "convention": "it is a standing rule for how work is done here, so it is a convention",
    "preference": "it is how this person wants the work done, so it is a preference",
}


def _rationale(doc: Document, piece: Piece, label: str, memory_type: MemoryType) -> str:
    link = f" (a link to {doc.file.link_to})" if doc.file.link_to else ""
    lines = f"lines {piece.start + 1}-{piece.end}"
    where = f'section "{label}"' if piece.titles or piece.parts > 1 else "the file"
    via = f", {doc.via}" if doc.via else ""
    reason = _TYPE_REASON[memory_type]
    text = f"Imported from {doc.kind} {doc.file.rel}{link}, {where} ({lines}){via}: {reason}."
    return text + _applies(doc)


def _applies(doc: Document) -> str:
    if doc.format == "cursor" and doc.meta:
        if doc.meta.get("alwaysApply", "").lower() == "true":
            return " Cursor applies this rule to every request."
        globs = doc.meta.get("globs", "")
        return f" Cursor applies this rule only to files matching {globs}." if globs else ""
    if doc.format == "claude-memory" and doc.meta.get("type"):
        return f" Claude Code saved it as a {doc.meta['type']!r} memory."
    if doc.kind == "Claude Code rules" and doc.meta.get("paths"):
        return f" Claude Code applies this rule only to files matching {doc.meta['paths']}."
    return ""


def _storable(text: str) -> str:
    # A memory file holds no control characters but tab and newline; the flags still report them.
    return "".join(ch for ch in text if ch in "\t\n" or not safety.is_control_char(ch))
