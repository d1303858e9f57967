"""What a reader sees in a text: the folds that escaping and flagging judge on (ADR 0016).

Two folds, both per character, both able to say which original character each
folded one came from (so a match in the fold can be acted on in the original):

``reader_fold``
    Case-blind, for frame tags and injection phrasing: each character becomes
    the lowercase ASCII a reader takes it for — NFKD, casefold, combining marks
    and format characters dropped, then the look-alike table generated from
    Unicode's confusables (UTS #39) by ``scripts/gen_textfold_table.py``. So
    ``[ᴍᴇᴍᴏʀʏ:``, ``⦋memory:``, ``[ɱemory:``, ``[mеmory:`` (Cyrillic ``е``)
    and ``［ＭＥＭＯＲＹ：`` all read ``[memory:``.
``visible_fold``
    Case-keeping, for secrets: NFKC, and every invisible character (zero-width,
    bidi, tag, variation selector, combining mark, stray control) dropped, so a
    key split by U+200B or written in fullwidth reads as the key it is.

ASCII text is the common case and takes a fast path (a ``lower()`` or nothing).
The look-alike table is imported only when a non-ASCII character is folded, so
the per-prompt path pays for it only on text that needs it. Nothing here imports
the rest of the project.
"""

from __future__ import annotations

import re
import unicodedata

# Characters that render as nothing (or reorder what is rendered) in most
# terminals and editors. A fixed list, not unicodedata categories, so the
# answer does not change between Python versions.
ZERO_WIDTH: frozenset[int] = frozenset(
    {0x00AD, 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x200B, 0x200C, 0x200D}
    | {0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x3164, 0xFEFF, 0xFFA0}
)
BIDI_CONTROLS: frozenset[int] = frozenset(
    {0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E} | {0x2066, 0x2067, 0x2068, 0x2069}
)
TAG_RANGE = range(0xE0000, 0xE0080)
# Supplementary variation selectors carry no glyph; runs of them smuggle data.
VARIATION_SELECTOR_RANGE = range(0xE0100, 0xE01F0)


def is_invisible_char(ch: str) -> bool:
    """True for a zero-width, bidi-control, tag or supplementary variation-selector character.

    The list that names and files refuse and that frames 1 and 2 strip; it stays as it is, since
    memory files escape exactly these characters and recorded blocks replay with them.
    """
    cp = ord(ch)
    return cp in ZERO_WIDTH or cp in BIDI_CONTROLS or cp in TAG_RANGE or cp in VARIATION_SELECTOR_RANGE


# Every other character that draws nothing: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties
# 15.1) and the format controls (Cf) that have no glyph, less those listed above. Frame 3 strips them, the
# hidden-unicode flag and the UI name them. Fixed, like the list above, so a frame never renders differently
# under another Python; the Arabic number signs and other prepended marks (Cf with a glyph) are not here.
NO_GLYPH_RANGES: tuple[range, ...] = (
    range(0x180B, 0x180E),  # Mongolian free variation selectors 1-3 (U+180E is in ZERO_WIDTH)
    range(0x180F, 0x1810),  # Mongolian free variation selector 4
    range(0x2065, 0x2066),  # unassigned, default-ignorable
    range(0x206A, 0x2070),  # deprecated format controls (symmetric swapping, shaping, digit shapes)
    range(0xFE00, 0xFE10),  # variation selectors 1-16 (one after an emoji is ordinary: see below)
    range(0xFFF0, 0xFFFC),  # unassigned default-ignorables and the interlinear annotation controls
    range(0x13430, 0x13440),  # Egyptian hieroglyph format controls
    range(0x16FE4, 0x16FE5),  # Khitan small script filler: a mark with no glyph, not default-ignorable
    range(0x1BCA0, 0x1BCA4),  # shorthand format controls
    range(0x1D173, 0x1D17B),  # musical symbol format controls
    range(0xE0080, 0xE0100),  # the rest of plane 14's default-ignorable block
    range(0xE01F0, 0xE1000),
)
# The variation selectors that pick a glyph's style when they follow a symbol or a letter of a script.
BASIC_VARIATION_SELECTORS = range(0xFE00, 0xFE10)
MONGOLIAN_VARIATION_SELECTORS = frozenset({0x180B, 0x180C, 0x180D, 0x180F})


def is_no_glyph_char(ch: str) -> bool:
    """True for every character that draws nothing: :func:`is_invisible_char`'s and :data:`NO_GLYPH_RANGES`."""
    cp = ord(ch)
    return is_invisible_char(ch) or any(cp in block for block in NO_GLYPH_RANGES)


# Combining marks and format characters (e.g. a joiner between two letters) are
# invisible glue: a reader sees the word without them.
_DROPPED = frozenset({"Mn", "Me", "Cf"})
_NON_ASCII_RE = re.compile(r"[^\x00-\x7f]+")
_RUN_RE = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]+")

_reader_cache: dict[str, str] = {}
_table: dict[str, str] | None = None


def _look_alikes() -> dict[str, str]:
    global _table
    if _table is None:
        from memory_review.textfold_table import KEYS, VALUES

        _table = dict(zip(KEYS, VALUES.split("\0"), strict=True))
    return _table


# Brackets and colons the table reads as ``[`` and ``:`` since frame 3 (the generator's hand list): TR39 lists
# none of them. Frames 1 and 2 escaped without these readings, and a recorded block must replay byte for byte,
# so their escaping folds these characters as before (NFKD and casefold alone: :func:`unmapped_char`).
FRAME3_READINGS: frozenset[str] = frozenset("\u298d\u298f\u2045\u3018\u27ec\u2997\u2e22\u2e24\u2308\u230a")
FRAME3_READINGS |= frozenset("\u23a1\u23a3\u2e55\u2e57\u1804\ufe30\u1365\u2982")


def fold_char(ch: str) -> str:
    """The lowercase reading of one character (``""`` for invisible glue)."""
    if ch.isascii():
        return ch.lower()
    cached = _reader_cache.get(ch)
    if cached is None:
        cached = _look_alikes().get(ch)
        if cached is None:
            cached = unmapped_char(ch)
        _reader_cache[ch] = cached
    return cached


def unmapped_char(ch: str) -> str:
    """The reading of ``ch`` without the look-alike table: NFKD, casefolded, marks and format characters dropped."""
    decomposed = unicodedata.normalize("NFKD", ch).casefold()
    return "".join(c for c in decomposed if unicodedata.category(c) not in _DROPPED)


def reader_fold(text: str) -> str:
    """``text`` as a reader names it: lowercase ASCII look-alikes, no marks or format characters.

    Equal to ``"".join(map(fold_char, text))``; ASCII runs are lowered whole.
    """
    if text.isascii():
        return text.lower()
    return "".join(run.lower() if run.isascii() else "".join(map(fold_char, run)) for run in _RUN_RE.findall(text))


def reader_fold_with_origin(text: str, *, unmapped: frozenset[str] = frozenset()) -> tuple[str, list[int]]:
    """The reader fold, and for each folded character the index of the original it came from.

    ``unmapped``: characters read without the look-alike table (:data:`FRAME3_READINGS` for frames 1 and 2).
    """
    if text.isascii():
        return text.lower(), list(range(len(text)))
    parts: list[str] = []
    origin: list[int] = []
    start = 0
    for run in _NON_ASCII_RE.finditer(text):
        _ascii_run(text, start, run.start(), parts, origin, str.lower)
        for index in range(run.start(), run.end()):
            ch = text[index]
            folded = unmapped_char(ch) if ch in unmapped else fold_char(ch)
            parts.append(folded)
            origin.extend([index] * len(folded))
        start = run.end()
    _ascii_run(text, start, len(text), parts, origin, str.lower)
    return "".join(parts), origin


def _ascii_run(text: str, start: int, end: int, parts: list[str], origin: list[int], fold) -> None:
    if start < end:
        parts.append(fold(text[start:end]))
        origin.extend(range(start, end))


# --------------------------------------------------------------------------- visible fold

# ASCII controls a reader never sees; tab and the line breaks (which separate, not join) stay.
_ASCII_HIDDEN_RE = re.compile(r"[\x00-\x08\x0e-\x1b\x1f\x7f]")
_LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
# A run of characters the visible fold keeps as they are.
_VISIBLE_ASCII_RE = re.compile(r"[\t-\r\x1c-\x1e\x20-\x7e]+")
_visible_cache: dict[str, str] = {}


def _visible_char(ch: str) -> str:
    cached = _visible_cache.get(ch)
    if cached is None:
        category = unicodedata.category(ch)
        hidden = (
            is_invisible_char(ch)
            or category in _DROPPED
            or (category == "Cc" and ch not in _LINE_BREAKS and ch != "\t")
        )
        cached = "" if hidden else unicodedata.normalize("NFKC", ch)
        _visible_cache[ch] = cached
    return cached


def visible_fold_with_origin(text: str) -> tuple[str, list[int]] | None:
    """``text`` as it shows (NFKC, invisibles dropped, case kept) with each character's origin.

    ``None`` when that is ``text`` itself (plain ASCII), so callers skip the mapping.
    """
    if text.isascii() and not _ASCII_HIDDEN_RE.search(text):
        return None
    parts: list[str] = []
    origin: list[int] = []
    start = 0
    for run in _VISIBLE_ASCII_RE.finditer(text):
        _other_run(text, start, run.start(), parts, origin)
        _ascii_run(text, run.start(), run.end(), parts, origin, str)
        start = run.end()
    _other_run(text, start, len(text), parts, origin)
    return "".join(parts), origin


def _other_run(text: str, start: int, end: int, parts: list[str], origin: list[int]) -> None:
    for index in range(start, end):
        shown = _visible_char(text[index])
        parts.append(shown)
        origin.extend([index] * len(shown))
