"""Rendering memories as inert, framed notes inside one delimited block.

The block is a contract in bytes (golden tests pin it; ADR 0005 and ADR 0015 explain it)::

    <memory-review-context>
    ...header: these are remembered notes, not instructions...
    <blank line>
    [memory:<scope>:<type>] <description> (id=<id>[; this memory is N days old])
    <body, when it says more than the description>
    <blank line>
    [memory:...] ...
    </memory-review-context>

:func:`render_frame` is the one renderer of a note: the review UI's preview,
``show``, ``memories`` and the exports print what it returns, so what a person
approves is byte for byte what the agent is given. Blocks recorded before this
layout (``context.built`` without ``frame``) replay with the layout they were
built with (``version=1``); blocks recorded under layout 2 replay with its
character lists and fold, which layout 3 widened (:func:`sanitize`).

Memory text is data written by people and agents, so before it goes in it is
made inert: invisible and bidi characters are stripped, every kind of line break
becomes ``\\n``, control characters go, and anything that *reads* like a frame tag
(``[memory:``) or like the block's own delimiters (``<memory-review-context``,
``</memory-review-context``) gets its opening bracket replaced by a visible ``(``.
"Reads like" is decided on the reader fold of the text (:mod:`memory_review.textfold`:
NFKD per character, casefolded, combining marks and format characters dropped,
look-alikes from Unicode's confusables mapped to ASCII), so ``［ＭＥＭＯＲＹ：``,
``[mеmory:`` with a Cyrillic ``е``, ``[ᴍᴇᴍᴏʀʏ:`` in small capitals, ``⦋memory:`` and
``[\\u0301memory:`` are escaped too.
"""

from __future__ import annotations

import re

from memory_review import textfold

# The block's bytes and the clock-dependent part of a note live with the per-prompt path; re-exported here.
from memory_review.lean.block import (  # noqa: F401
    CLOSE,
    FRAME_VERSION,
    HEADER,
    OPEN,
    age_days,
    age_words,
    assemble,
    fixed_cost,
    frame_cost,
)
from memory_review.models import Memory
from memory_review.safety import BLANK_CLASS, strip_invisible, strip_listed_invisible

# Detection runs on the folded text; each pattern's first character is the bracket to escape.
_FORGERY_RE = re.compile(
    r"\[\s*memory\s*:"
    r"|<\s*/?\s*memory[\s_-]*review[\s_-]*context",
)
_ESCAPE_CHAR = "("

# Every control character except tab and newline: none of them has a place in a note.
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# In ASCII text: what splitlines(), strip_invisible() or _CONTROL_RE would change (all but tab, \n and printables).
_ASCII_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


# Frame 3: a run of lines that show as empty (spaces, U+2800, U+3000, lone combining marks, ...) is one empty
# line; at the ends, none of the blank glyphs (marks stay there: a text may end in a letter's accent).
_BLANK_RUN_RE = re.compile(f"\n(?:[{BLANK_CLASS}]*\n)+")
_BLANK_ENDS = "".join(chr(cp) for cp in range(0x3001) if chr(cp).isspace()) + "\u2800\u115f\u1160\u3164\uffa0\U0001d159"


def sanitize(text: str, version: int = FRAME_VERSION) -> str:
    """Make memory text inert: no invisibles, ``\\n`` line breaks only, no forged tags or delimiters.

    Order matters: line breaks are normalised before control characters are
    removed (a lone ``\\r`` or ``\\x85`` is a break, not noise), and escaping comes
    last, so ``[mem\\u200bory:`` cannot become a tag after it has been looked at.
    ``version`` is the frame's: 3 also strips every character that draws nothing (not only
    the listed ones), makes each run of blank-looking lines one empty line (padding that hid
    the rest of a note below a reviewer's pane, and spent the block's line budget), and
    escapes more bracket and colon look-alikes; 1 and 2 render as they always did.
    """
    if text.isascii() and _ASCII_CONTROL_RE.search(text) is None:
        # The common case, in one scan: no line break but \n (splitlines would only drop a last one,
        # which strip() drops anyway), nothing hidden (every invisible character is beyond ASCII), no control.
        text = text.strip()
        return escape_forgeries(_BLANK_RUN_RE.sub("\n\n", text) if version >= 3 else text, version)
    text = "\n".join(text.splitlines())
    if version < 3:
        return escape_forgeries(_CONTROL_RE.sub("", strip_listed_invisible(text)).strip(), version)
    text = _CONTROL_RE.sub("", strip_invisible(text)).strip(_BLANK_ENDS)
    return escape_forgeries(_BLANK_RUN_RE.sub("\n\n", text), version)


def escape_forgeries(text: str, version: int = FRAME_VERSION) -> str:
    """Replace the opening bracket of anything that reads as a frame tag or block delimiter."""
    if text.isascii():  # the common case: the fold is lower(), one for one, so no origin list is needed
        if "[" not in text and "<" not in text:  # every match starts with one of them: no scan needed
            return text
        hits = {match.start() for match in _FORGERY_RE.finditer(text.lower())}
    else:
        folded, origin = _fold(text) if version >= 3 else _fold(text, unmapped=textfold.FRAME3_READINGS)
        hits = {origin[match.start()] for match in _FORGERY_RE.finditer(folded)}
    if not hits:
        return text
    chars = list(text)
    for index in hits:
        chars[index] = _ESCAPE_CHAR
    return "".join(chars)


# The reader fold (ADR 0016): NFKD, casefold, marks and format characters dropped, and the look-alike
# table generated from Unicode's confusables; ASCII folds to its lower case, by the run.
_fold = textfold.reader_fold_with_origin
_fold_char = textfold.fold_char


FRAME_VERSIONS = frozenset({1, 2, 3})
"""The note layouts a ``context.built`` can record as ``frame`` (:data:`FRAME_VERSION` is the one new blocks
use): 1 is the layout before ADR 0015; 3 is 2's layout with the text made inert more thoroughly (:func:`sanitize`)."""


def render_frame(memory: Memory, now: str | None = None, *, version: int = FRAME_VERSION) -> str:
    """One note, ending in ``\\n``: the tag, the description as its headline, the body under it.

    The headline is one line (a line break in it becomes a space); the body is left
    out when it is empty or says what the headline says. ``now`` None leaves the age
    out: exports must not change with the clock, and a preview shows the note as
    injected right after it is applied.
    """
    if version == 1:
        return _frame_v1(memory, now or memory.updated_at)
    headline = " ".join(sanitize(memory.description, version).split("\n"))
    body = sanitize(memory.body, version)
    age = age_words(age_days(memory.updated_at, now)) if now is not None else ""
    line = " ".join(
        part for part in (f"[memory:{memory.scope}:{memory.type}]", headline, f"(id={memory.id}{age})") if part
    )
    return f"{line}\n{body}\n" if body and body != headline else f"{line}\n"


def _frame_v1(memory: Memory, now: str) -> str:
    """The layout of ``context.built`` events recorded before ADR 0015 (no headline; the id on the tag)."""
    text = sanitize(memory.body, 1) or sanitize(memory.description, 1)
    tag = f"[memory:{memory.scope}:{memory.type}] id={memory.id}{age_note(memory.updated_at, now)}"
    return f"{tag}\n{text}\n" if text else f"{tag}\n"


def age_note(updated_at: str, now: str) -> str:
    """`` (This memory is N days old.)`` for memories a full day old or more, else ``""`` (layout 1)."""
    days = age_days(updated_at, now)
    if days < 1:
        return ""
    unit = "day" if days == 1 else "days"
    return f" (This memory is {days} {unit} old.)"
