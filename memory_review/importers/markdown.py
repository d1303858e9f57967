"""Markdown structure for import — frontmatter blocks, sections and size-capped pieces — pure.

Everything here works on a file's lines (0-based indices, ``\\n`` already normalised)
and returns line ranges, so each piece of text can be quoted back exactly as the
file holds it. Headings inside fenced code blocks are code, not structure (a bash
comment ``# 1. Make changes`` in a fence starts no section).

Splitting, in order, until every piece fits :data:`BODY_BYTES` / :data:`BODY_LINES`:

1. at the shallowest heading level that occurs at least twice (a lone ``# Title``
   only names the file), so each section becomes one memory;
2. a section still too big: at the next heading level inside it;
3. then at blank lines between paragraphs and bullet groups (never inside a fence);
4. then line by line, and a single over-long line by bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

# A memory file holds at most 4,096 bytes with its frontmatter, and the evidence
# quote is stored in that frontmatter too: these caps leave room for both.
BODY_BYTES = 1800
BODY_LINES = 60
QUOTE_BYTES = 700
MAX_FRONTMATTER_LINES = 40

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_KEY_LINE = re.compile(r"^([ \t]*)([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$")
_LIST_LINE = re.compile(r"^[ \t]*-[ \t]+(.*?)[ \t]*$")


@dataclass(frozen=True)
class Frontmatter:
    """A ``---`` delimited block of ``key: value`` lines at ``[start, end)``, keys in ``meta``."""

    start: int
    end: int
    meta: dict[str, str]


@dataclass(frozen=True)
class Section:
    """A heading (or none, for text before the first one) and its content lines ``[start, end)``."""

    titles: tuple[str, ...]
    heading: int | None
    start: int
    end: int


@dataclass(frozen=True)
class Piece:
    """Text that becomes one memory: the body and an exact quote of the source around it."""

    titles: tuple[str, ...]
    start: int  # first line of the body (0-based)
    end: int  # one past its last line
    body: str
    quote: str
    first: int  # the line the quote starts on (the section's heading, or the body's first line)
    part: int = 1
    parts: int = 1


# --------------------------------------------------------------------------- frontmatter


def frontmatter_blocks(lines: Sequence[str], *, anywhere: bool = False) -> list[Frontmatter]:
    """Frontmatter blocks: at line 0, or (``anywhere``) also after a blank line further down.

    Cursor rules may hold several (one rule per block); a block is only ``key: value``
    lines (and indented list items) between two ``---`` lines, so a Markdown rule
    (``---`` before ordinary text) is never mistaken for one.
    """
    if not anywhere:
        first = _block_at(lines, 0) if lines and lines[0].strip() == "---" else None
        return [first] if first else []
    blocks: list[Frontmatter] = []
    index = 0
    while index < len(lines):
        at_start = index == 0 or not lines[index - 1].strip()
        block = _block_at(lines, index) if at_start and lines[index].strip() == "---" else None
        blocks += [block] if block else []
        index = block.end if block else index + 1
    return blocks


def _block_at(lines: Sequence[str], start: int) -> Frontmatter | None:
    meta: dict[str, str] = {}
    listing: str | None = None  # the key whose value is a list, its items joined with ", " (Claude Code's paths:)
    stop = min(len(lines), start + MAX_FRONTMATTER_LINES + 2)
    for index in range(start + 1, stop):
        line = lines[index]
        if line.strip() == "---":
            return Frontmatter(start, index + 1, meta) if meta else None
        match = _KEY_LINE.match(line)
        item = _LIST_LINE.match(line)
        if match:
            key, value = match.group(2), _unquote(match.group(3) or "")
            listing = key if not value and key not in meta else None
            meta.setdefault(key, value)
        elif item and listing is not None and (start == 0 or line[:1].isspace()):
            meta[listing] = ", ".join(filter(None, (meta[listing], _unquote(item.group(1)))))
        elif line.strip() and not (item and line[:1].isspace()):
            # An item not indented is a list of the key above only in a file's own front matter (Claude Code's
            # ``paths:``); further down, ``---`` / ``Rules:`` / ``- Never …`` / ``---`` is Markdown (review of
            # session 33: its rules vanished into metadata)
            return None
    return None


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


# --------------------------------------------------------------------------- code


def code_lines(lines: Sequence[str], start: int = 0, end: int | None = None) -> set[int]:
    """Indices of the lines inside fenced code blocks (fence lines included)."""
    inside: set[int] = set()
    fence: str | None = None
    for index in range(start, len(lines) if end is None else end):
        match = _FENCE.match(lines[index])
        if fence is None and match:
            fence = match.group(1)
            inside.add(index)
        elif fence is not None:
            inside.add(index)
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = None
    return inside


def heading_at(line: str) -> tuple[int, str] | None:
    """``(level, title)`` when ``line`` is an ATX heading with a title."""
    match = _HEADING.match(line)
    if not match or not match.group(2).strip():
        return None
    return len(match.group(1)), match.group(2).strip()


# --------------------------------------------------------------------------- sections


def sections(lines: Sequence[str], start: int, end: int, titles: tuple[str, ...] = ()) -> list[Section]:
    """The sections of ``lines[start:end]``, split at the level where a document has sections."""
    headings = _headings(lines, start, end)
    level = _split_level([lvl for _, lvl, _ in headings])
    if level is None:
        return [Section(titles, None, start, end)]
    found: list[Section] = []
    path = list(titles)
    depth = len(titles)
    cut = [(i, t) for i, lvl, t in headings if lvl <= level]
    for (i, title), nxt in zip(cut, [*cut[1:], (end, "")], strict=True):
        del path[depth:]
        path.extend(_ancestors(headings, i, level))
        found.append(Section((*path, title), i, i + 1, nxt[0]))
    if cut[0][0] > start:
        found.insert(0, _preamble(lines, headings, start, cut[0][0], titles))
    return found


def _preamble(
    lines: Sequence[str],
    headings: list[tuple[int, int, str]],
    start: int,
    end: int,
    titles: tuple[str, ...],
) -> Section:
    """Text before the first section; a heading opening it (the document title) names it."""
    first, _ = _trim(lines, start, end)
    named = [(i, title) for i, _, title in headings if i == first]
    if named:
        return Section((*titles, named[0][1]), first, first + 1, end)
    return Section(titles, None, start, end)


def _headings(lines: Sequence[str], start: int, end: int) -> list[tuple[int, int, str]]:
    code = code_lines(lines, start, end)
    found = []
    for index in range(start, end):
        heading = None if index in code else heading_at(lines[index])
        if heading:
            found.append((index, heading[0], heading[1]))
    return found


def _split_level(levels: list[int]) -> int | None:
    # The shallowest level that occurs twice is where the sections are; a single
    # shallower heading (the title) only names them.
    for level in sorted(set(levels)):
        if levels.count(level) >= 2:
            return level
    return min(levels) if levels else None


def _ancestors(headings: list[tuple[int, int, str]], index: int, level: int) -> list[str]:
    """Titles of the shallower headings above ``index`` (a document title, a chapter)."""
    chain: list[tuple[int, str]] = []
    for i, lvl, title in headings:
        if i >= index:
            break
        if lvl < level:
            chain = [c for c in chain if c[0] < lvl] + [(lvl, title)]
    return [title for _, title in chain]


# --------------------------------------------------------------------------- pieces


def pieces(
    lines: Sequence[str],
    start: int,
    end: int,
    *,
    split_sections: bool = True,
    titles: tuple[str, ...] = (),
) -> list[Piece]:
    """Memories-to-be of ``lines[start:end]``: one per section (or whole), each within the caps."""
    if not split_sections and _fits(lines, start, end):
        found = [Section(titles, None, start, end)]
    else:
        found = sections(lines, start, end, titles)
    out: list[Piece] = []
    for section in found:
        out.extend(_section_pieces(lines, section))
    return out


def _section_pieces(lines: Sequence[str], section: Section) -> list[Piece]:
    start, end = _trim(lines, section.start, section.end)
    if not _has_content(lines, start, end):
        return []
    if _fits(lines, start, end):
        return [_piece(lines, section, start, end)]
    inner = sections(lines, start, end, section.titles)
    if len(inner) > 1 or inner[0].heading is not None:
        return [p for sub in inner for p in _section_pieces(lines, sub)]
    chunks = list(_chunks(lines, start, end))
    made = [_piece(lines, section, a, b, text) for a, b, text in chunks]
    return [replace(p, part=n, parts=len(made)) for n, p in enumerate(made, start=1)]


def _piece(lines: Sequence[str], section: Section, start: int, end: int, text: str | None = None) -> Piece:
    if text is not None:  # a slice of one over-long line
        return Piece(section.titles, start, end, text, clip_lines(text, QUOTE_BYTES), start)
    # The first piece of a section quotes its heading too: it says where the text stands.
    opens = section.heading is not None and start == _trim(lines, section.start, section.end)[0]
    first = section.heading if opens and section.heading is not None else start
    quote = clip_lines("\n".join(lines[first:end]), QUOTE_BYTES)
    return Piece(section.titles, start, end, "\n".join(lines[start:end]), quote, first)


def _trim(lines: Sequence[str], start: int, end: int) -> tuple[int, int]:
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return start, end


def _has_content(lines: Sequence[str], start: int, end: int) -> bool:
    # Headings alone and horizontal rules say nothing worth remembering.
    for line in lines[start:end]:
        bare = line.strip()
        if bare and not heading_at(line) and set(bare) - set("-*_= "):
            return True
    return False


def _fits(lines: Sequence[str], start: int, end: int) -> bool:
    return end - start <= BODY_LINES and _size(lines[start:end]) <= BODY_BYTES


def _size(lines: Sequence[str]) -> int:
    return sum(len(line.encode("utf-8")) + 1 for line in lines)


def _chunks(lines: Sequence[str], start: int, end: int) -> Iterator[tuple[int, int, str | None]]:
    """Greedy packing of paragraph/bullet blocks, then lines, then bytes, into fitting runs."""
    run_start = None
    run_end = start
    for a, b in _units(lines, start, end):
        if run_start is not None and _fits(lines, run_start, b):
            run_end = b
            continue
        if run_start is not None:
            yield (*_trim(lines, run_start, run_end), None)
        if _fits(lines, a, b):
            run_start, run_end = a, b
        else:
            run_start = None
            yield from _long_line(lines, a)
    if run_start is not None:
        yield (*_trim(lines, run_start, run_end), None)


def _units(lines: Sequence[str], start: int, end: int) -> Iterator[tuple[int, int]]:
    """Blocks separated by blank lines (a fence keeps its blank lines); a too-big block by lines."""
    for a, b in _blocks(lines, start, end):
        if _fits(lines, a, b):
            yield a, b
        else:
            yield from ((i, i + 1) for i in range(a, b) if lines[i].strip())


def _blocks(lines: Sequence[str], start: int, end: int) -> Iterator[tuple[int, int]]:
    code = code_lines(lines, start, end)
    block_start = None
    for index in range(start, end):
        blank = not lines[index].strip() and index not in code
        if blank and block_start is not None:
            yield block_start, index
            block_start = None
        elif not blank and block_start is None:
            block_start = index
    if block_start is not None:
        yield block_start, end


def _long_line(lines: Sequence[str], index: int) -> Iterator[tuple[int, int, str | None]]:
    text = lines[index]
    while text:
        part = clip_bytes(text, BODY_BYTES)
        yield index, index + 1, part
        text = text[len(part) :]


def clip_bytes(text: str, limit: int) -> str:
    """The longest prefix of ``text`` whose UTF-8 form fits ``limit`` bytes (at least one char)."""
    encoded = text.encode("utf-8")
    if len(encoded) <= limit:
        return text
    return encoded[:limit].decode("utf-8", "ignore") or text[:1]


def clip_lines(text: str, limit: int) -> str:
    """A verbatim prefix of ``text`` within ``limit`` bytes as stored, cut at a line end if it can.

    "As stored": a quote sits in the memory's frontmatter as a double-quoted string, where
    each newline, quote, backslash and tab takes two bytes.
    """
    if stored_size(text) <= limit:
        return text
    kept = text[: max(_fitting_prefix(text, limit), 1)]
    cut = kept.rfind("\n")
    return kept[:cut].rstrip("\n") if cut > 0 else kept


def _fitting_prefix(text: str, limit: int) -> int:
    """The length of the longest prefix of ``text`` whose stored size is within ``limit``."""
    size = 0
    for index, ch in enumerate(text):
        size += stored_size(ch)
        if size > limit:
            return index
    return len(text)


def stored_size(text: str) -> int:
    """The bytes ``text`` takes as an escaped frontmatter string (without the enclosing quotes)."""
    return len(text.encode("utf-8")) + sum(1 for ch in text if ch in '\n"\\\t')
