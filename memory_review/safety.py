"""Safety flags for text that may end up in a model's prompt: injection, secrets, hidden Unicode.

Agents and extractors only *propose* memories; a person approves them. These
checks exist so the person sees what a candidate may be hiding::

    possible-prompt-injection   instructions to ignore earlier rules, "you are now ...",
                                markdown images / links that exfiltrate data by URL,
                                forged ``[memory:`` tags or context-block delimiters,
                                chat role markers (``<|im_start|>``, ``system:``)
    secret                      API keys, tokens, JWTs, private keys, password assignments
    hidden-unicode              zero-width, bidi, tag, variation-selector and every other
                                character that draws nothing, stray control characters
                                (also implies possible-prompt-injection)
    blank-padding               three or more blank-looking lines in a row: the rest of a
                                note pushed below what a reviewer's pane shows
    look-alike                  a word mixing Latin letters with look-alike letters of another
                                script (``руpi.org``): the reader sees one host, the agent gets another

The checks are heuristics tuned against false positives on ordinary coding
preferences ("never use tabs", "ignore the generated files in dist/"): a flag is a
hint for the reviewer, never a verdict. Everything here is pure string work,
judged on what a reader would see (:mod:`memory_review.textfold`, ADR 0016):
injection patterns on the look-alike fold (``[ᴍᴇᴍᴏʀʏ:``, Cyrillic-lettered
"ignore previous instructions"), secrets on the visible fold (a key split by
zero-width characters or written in fullwidth); nothing else of the project is imported.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from memory_review import textfold
from memory_review.textfold import (
    BASIC_VARIATION_SELECTORS,
    BIDI_CONTROLS,
    MONGOLIAN_VARIATION_SELECTORS,
    NO_GLYPH_RANGES,
    TAG_RANGE,
    VARIATION_SELECTOR_RANGE,
    ZERO_WIDTH,
    is_invisible_char,
    is_no_glyph_char,
)

FLAG_INJECTION = "possible-prompt-injection"
FLAG_SECRET = "secret"
FLAG_HIDDEN_UNICODE = "hidden-unicode"
FLAG_BLANK_PADDING = "blank-padding"
FLAG_LOOK_ALIKE = "look-alike"

_JOINERS = frozenset({0x200C, 0x200D})


def is_control_char(ch: str) -> bool:
    """True for C0/C1 control characters and DEL, except tab and newline."""
    cp = ord(ch)
    return (cp < 0x20 and ch not in "\t\n") or 0x7F <= cp <= 0x9F


def _joins_script(text: str, i: int) -> bool:
    """A ZWJ/ZWNJ between two non-ASCII letters, marks or symbols is normal writing.

    Persian and Indic scripts need ZWNJ between letters, and emoji sequences
    (family, flags with gender) need ZWJ; an attacker's joiner sits between
    ASCII letters or on its own.
    """
    if ord(text[i]) not in _JOINERS or i == 0 or i + 1 >= len(text):
        return False
    return _script_char(text[i - 1]) and _script_char(text[i + 1])


def _script_char(ch: str) -> bool:
    return ord(ch) > 0x7F and unicodedata.category(ch)[0] in "LMS"


# The text and emoji forms (VS15, VS16) are picked for symbols and punctuation (``❤``, ``‼``, ``↔``) and one letter.
_TEXT_OR_EMOJI_FORM = frozenset({0xFE0E, 0xFE0F})
_EMOJI_LETTERS = frozenset("\u2139")  # INFORMATION SOURCE
# VS1-3 pick a glyph only in the standardized variants: of a CJK unified ideograph, and VS1 of a math operator
# (``∩︀``; the operator blocks, not every Sm: an arrow has no such variant).
_CJK_UNIFIED_IDEOGRAPHS = (range(0x3400, 0x4DC0), range(0x4E00, 0xA000), range(0x20000, 0x31350))
_MATH_OPERATORS = (range(0x2200, 0x2300), range(0x2A00, 0x2B00))
_MATH_VARIANT_SELECTOR = 0xFE00
# The CJK compatibility ideographs' standardized variants use VS1 to VS3: one after each ideograph of a Chinese
# text otherwise carried almost four bits a character, unflagged (VS1-14).
_CJK_VARIANT_SELECTORS = range(0xFE00, 0xFE03)


def _selects_a_glyph(text: str, i: int) -> bool:
    """A variation selector right after the character whose glyph it picks is normal writing.

    ``❤\ufe0f`` (an emoji's colour form), ``1\ufe0f\u20e3`` (a keycap), ``\u8fbb\ufe00`` (an ideograph's
    variant), ``\u2229\ufe00`` (a math symbol's), a Mongolian letter's free variation selector. Anywhere else
    it picks nothing and draws nothing: one after each letter of a Cyrillic or accented sentence, or a run of
    them, smuggles four bits a character past a reader (session 39's re-review).
    """
    cp = ord(text[i])
    if i == 0:
        return False
    before = text[i - 1]
    if cp in MONGOLIAN_VARIATION_SELECTORS:
        return 0x1820 <= ord(before) <= 0x18AF and unicodedata.category(before)[0] == "L"
    if cp not in BASIC_VARIATION_SELECTORS:
        return False
    if cp in _TEXT_OR_EMOJI_FORM:
        if before in "0123456789#*":
            return text[i + 1 : i + 2] == "\u20e3"
        return ord(before) > 0x7F and (unicodedata.category(before)[0] in "SP" or before in _EMOJI_LETTERS)
    if cp == _MATH_VARIANT_SELECTOR and any(ord(before) in block for block in _MATH_OPERATORS):
        return True
    return cp in _CJK_VARIANT_SELECTORS and any(ord(before) in block for block in _CJK_UNIFIED_IDEOGRAPHS)


def _is_hidden_at(text: str, i: int) -> bool:
    ch = text[i]
    if is_control_char(ch):
        # A CR that ends a CRLF line is a Windows newline, not hidden content.
        return not (ch == "\r" and text[i + 1 : i + 2] == "\n")
    return is_no_glyph_char(ch) and not _joins_script(text, i) and not _selects_a_glyph(text, i)


def _is_listed_hidden_at(text: str, i: int) -> bool:
    """:func:`_is_hidden_at` with the list frames 1 and 2 strip (:func:`strip_listed_invisible`)."""
    ch = text[i]
    if is_control_char(ch):
        return not (ch == "\r" and text[i + 1 : i + 2] == "\n")
    return is_invisible_char(ch) and not _joins_script(text, i)


def _char_class(codepoints: list[int]) -> str:
    return "".join(re.escape(chr(cp)) for cp in sorted(codepoints))


# Character-class bodies (for ``re``) of exactly the characters the two predicates above accept:
# scanning with a regex first keeps long text fast, as most text holds none of them.
CONTROL_CLASS = _char_class([cp for cp in range(0xA0) if is_control_char(chr(cp))])
INVISIBLE_CLASS = (
    _char_class(sorted(ZERO_WIDTH | BIDI_CONTROLS))
    + f"{chr(TAG_RANGE[0])}-{chr(TAG_RANGE[-1])}"
    + f"{chr(VARIATION_SELECTOR_RANGE[0])}-{chr(VARIATION_SELECTOR_RANGE[-1])}"
)
# The other characters that draw nothing (textfold.NO_GLYPH_RANGES). Not part of INVISIBLE_CLASS: memory
# files escape that class and names refuse it, and both must stay as they are.
NO_GLYPH_CLASS = "".join(f"{chr(block[0])}-{chr(block[-1])}" for block in NO_GLYPH_RANGES)
CONTROL_CHARS = re.compile(f"[{CONTROL_CLASS}]")
INVISIBLE_CHARS = re.compile(f"[{INVISIBLE_CLASS}]")
# Every character that *might* be hidden; _is_hidden_at decides.
_MAYBE_HIDDEN = re.compile(f"[{CONTROL_CLASS}{INVISIBLE_CLASS}{NO_GLYPH_CLASS}]")
_MAYBE_LISTED_HIDDEN = re.compile(f"[{CONTROL_CLASS}{INVISIBLE_CLASS}]")


def hidden_positions(text: str) -> list[int]:
    """Indexes of every hidden character (invisible, bidi, tag or stray control) in ``text``."""
    return [m.start() for m in _MAYBE_HIDDEN.finditer(text) if _is_hidden_at(text, m.start())]


def _replace_hidden(
    text: str,
    marker: Callable[[str], str],
    maybe: re.Pattern[str] = _MAYBE_HIDDEN,
    hidden: Callable[[str, int], bool] = _is_hidden_at,
) -> str:
    def one(match: re.Match[str]) -> str:
        return marker(match.group()) if hidden(text, match.start()) else match.group()

    return maybe.sub(one, text)


def strip_invisible(text: str) -> str:
    """Remove every hidden character (what frame 3 leaves out); joiners inside normal script, a variation
    selector picking its symbol's glyph and CRLF are kept."""
    return _replace_hidden(text, lambda ch: "")


def strip_listed_invisible(text: str) -> str:
    """Remove the hidden characters frames 1 and 2 leave out: the fixed list before frame 3 (a recorded
    block replays with it), without the variation selectors 1-16 and the other characters frame 3 added."""
    return _replace_hidden(text, lambda ch: "", _MAYBE_LISTED_HIDDEN, _is_listed_hidden_at)


def visible_form(text: str) -> str:
    """Replace every hidden character with a visible ``<U+200B>``-style marker (for the UI)."""
    return _replace_hidden(text, lambda ch: f"<U+{ord(ch):04X}>")


# --------------------------------------------------------------------------- blank padding

# What a line may hold and still show as empty: every kind of space, the braille blank, the Hangul fillers, the
# musical null notehead (a blank glyph), and combining marks, which on a line of their own draw a stray accent at
# most (session 39's re-review). A fixed list (frame 3 collapses runs of such lines, and a frame must render the
# same under every Python): the combining blocks, not the Mn category.
BLANK_CLASS = (
    "\t\x0b\x0c\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u202f\u205f\u3000\u2800\u115f\u1160\u3164\uffa0\U0001d159"
    "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"  # the combining blocks
)
BLANK_LINES_FLAGGED = 3
"""A run of this many blank-looking lines is flagged: more than the two that separate functions in Python."""
_PADDING_RE = re.compile(f"\n(?:[{BLANK_CLASS}]*\n){{{BLANK_LINES_FLAGGED},}}")


def blank_padding(text: str) -> int:
    """The longest run of lines that show as empty in ``text`` (hidden characters left out), when it is
    :data:`BLANK_LINES_FLAGGED` or more, else 0: padding that pushes the rest of a note below what a
    reviewer's pane shows."""
    if "\n" not in text and "\r" not in text and text.isascii():
        return 0
    lines = "\n" + "\n".join(strip_invisible(text).splitlines()) + "\n"
    runs = [match.group().count("\n") - 1 for match in _PADDING_RE.finditer(lines)]
    return max(runs, default=0)


# --------------------------------------------------------------------------- look-alikes

# A word for this check: letters and digits (``g୦୦gle`` has Oriya zeros), read across what draws nothing.
_WORD_RE = re.compile(r"[^\W_]+")
# Greek mu as the SI prefix (``μs``, ``μm``) is ordinary in a word of Latin letters.
_UNIT_LETTERS = frozenset("\u03bc\u00b5")
# Latin letters that are look-alikes within Latin: the IPA and phonetic letters (``ɡ``, ``ɑ``, small capital ``ᴘ``),
# which no language's spelling needs, unlike ``ı``, ``ł`` or ``ø`` of Latin-1 and Extended-A...
_PHONETIC_BLOCKS = (range(0x0250, 0x02B0), range(0x1D00, 0x1DC0))
# ...but for the IPA letters African alphabets spell with (Hausa ``ɓ ɗ``, Ewe ``ɖ ɣ ʋ``, Akan ``ɛ``, Bambara ``ɲ``,
# Kabiyè ``ɩ``): ordinary writing, like ``ł``.
_ORTHOGRAPHY_LETTERS = frozenset("\u0253\u0256\u0257\u025b\u0263\u0269\u0272\u028b")
_GLUE_CATEGORIES = frozenset({"Mn", "Me", "Cf"})


def _imitates_latin(ch: str) -> bool:
    """A character that reads as a Latin letter it is not: a letter of another script (Cyrillic ``р``, Greek
    ``υ``, mathematical ``𝐚``), an IPA or phonetic letter (``ɡ``, ``ᴘ``), another script's digit (Oriya ``୦``)."""
    if ch.isascii() or ch in _UNIT_LETTERS or ch in _ORTHOGRAPHY_LETTERS:
        return False
    if "LATIN" in unicodedata.name(ch, "LATIN") and not any(ord(ch) in block for block in _PHONETIC_BLOCKS):
        return False
    read = textfold.fold_char(ch)
    return len(read) == 1 and read.isascii() and read.isalpha()


def _is_latin(ch: str) -> bool:
    return (ch.isascii() and ch.isalpha()) or "LATIN" in unicodedata.name(ch, "")


def _draws_nothing(ch: str) -> bool:
    return is_no_glyph_char(ch) or unicodedata.category(ch) in _GLUE_CATEGORIES


def _words(text: str) -> Iterator[tuple[int, int]]:
    """Where each word of ``text`` starts and ends, a word going on across marks and characters that draw nothing
    between its pieces: ``ру\u0301pi`` is the one word a reader sees, not ``ру`` and ``pi``."""
    start = end = -1
    for match in _WORD_RE.finditer(text):
        if end < 0 or not _glue(text[end : match.start()]):
            if end >= 0:
                yield start, end
            start = match.start()
        end = match.end()
    if end >= 0:
        yield start, end


def _glue(gap: str) -> bool:
    return not gap.isascii() and all(_draws_nothing(ch) for ch in gap)


def look_alike_positions(text: str) -> list[int]:
    """Indexes of the characters that imitate Latin letters inside a word that also has Latin letters (``руpi``).

    UTS #39's mixed-script confusable check, one word at a time, with the IPA letters and other scripts' digits
    as look-alikes too (``ɡithub``, ``g୦୦gle``): a word wholly in Cyrillic or Greek is ordinary writing and is not
    named, nor is ``iPhone-версия`` (two words).
    """
    if text.isascii():
        return []
    found: list[int] = []
    for start, end in _words(text):
        word = text[start:end]
        if word.isascii():
            continue
        imitating = [i for i, ch in enumerate(word) if _imitates_latin(ch)]
        if imitating and any(_is_latin(ch) for ch in word):
            found.extend(start + i for i in imitating)
    return found


def look_alike_form(text: str) -> str:
    """``text`` with each letter :func:`look_alike_positions` names followed by its ``<U+0440>`` (for the UI)."""
    positions = look_alike_positions(text)
    if not positions:
        return text
    parts, start = [], 0
    for index in positions:
        parts += [text[start : index + 1], f"<U+{ord(text[index]):04X}>"]
        start = index + 1
    return "".join(parts) + text[start:]


# --------------------------------------------------------------------------- injection

_VERB = (
    r"(?:ignore|disregard|forget|override|overrule|bypass|circumvent|abandon|neglect"
    r"|set\s+aside|do\s+not\s+follow|don'?t\s+follow|stop\s+following|no\s+longer\s+follow)"
)
_QUALIFIER = (
    r"(?:previous|previously|prior|above|earlier|preceding|former|foregoing|original|initial"
    r"|system|developer|safety|user'?s|human'?s|operator'?s|user|human)"
)
_TARGET = (
    r"(?:instructions?|rules?|prompts?|directives?|directions?|guidelines?|guardrails?"
    r"|polic(?:y|ies)|constraints?|restrictions?|messages?|context|commands?|orders?"
    r"|programming|training|system\s+prompt|memor(?:y|ies))"
)
_DETERMINERS = r"(?:(?:all|any|every|each|the|of|your|my|their|these|those|its)\s+){0,3}"
_ROLE_WORDS = r"(?:system|assistant|developer|human)"
_PERSON = r"(?:the\s+|your\s+)?(?:user|human|operator|reviewer|developer)s?"
# What a person said, as an override's object: "what the user says", "anything you were told".
_SAID = (
    r"(?:what(?:ever)?|anything|everything|all)\s+(?:that\s+)?"
    rf"(?:{_PERSON}|they|i|you(?:'ve|\s+have|\s+were|\s+are)?(?:\s+been)?)\s+"
    r"(?:says?|said|asks?|asked|tells?\s+you|told(?:\s+you)?|wants?|writes?|wrote|types?|requests?"
    r"|instructs?|instructed)\b"
)
# What an override throws away: "what ...", "your ...", "all previous ...", "the system ...".
_OVERRIDDEN = (
    r"(?:what|anything|everything|your|previous|prior|earlier|above|safety|system"
    r"|(?:all|any|every|the)\s+(?:(?:of\s+)?(?:the|your)\s+)?(?:previous|prior|earlier|above|system|safety|user"
    r"|instructions|rules|guidelines))\b"
)
_SOON = r"(?:from\s+now\s+on|from\s+here\s+on|henceforth|going\s+forward|starting\s+now|for\s+the\s+rest)"


class _Guarded:
    """A pattern whose leading word-boundary guard is checked in code, not by ``re``.

    Python's ``re`` skips ahead by a literal prefix (or a set of first characters)
    only when a pattern starts with one; a leading ``\\b`` or lookbehind turns
    that off and made scanning long text 25 times slower. So the guard is cut
    off and checked on the character before each match, which finds exactly the
    matches the guarded pattern would.
    """

    __slots__ = ("regex", "refused_before")  # a plain class: a dataclass costs an exec at import

    def __init__(self, regex: re.Pattern[str], refused_before: Callable[[str], bool] | None) -> None:
        self.regex = regex
        self.refused_before = refused_before

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        pos, refused = 0, self.refused_before
        while (match := self.regex.search(text, pos)) is not None:
            start, end = match.span()
            if refused is not None and start and refused(text[start - 1]):
                allowed = self._allowed_within(text, start + 1, end, refused)
                if allowed is None:
                    pos = end if end > start else start + 1
                    continue
                match, start = allowed, allowed.start()
            yield match
            pos = match.end() if match.end() > start else start + 1

    def _allowed_within(self, text: str, begin: int, end: int, refused: Callable[[str], bool]) -> re.Match[str] | None:
        """The first match inside a refused one, at a start the guard allows, tried there alone.

        Searching again from the refused start + 1 found the next refused start of the same run and read it to the
        run's end again: a run of "ask-" or "axoxb-" over 80,000 characters took seconds (quadratic). The positions
        inside the refused match are tried here one by one (a try fails at the pattern's first letters), and the
        search goes on after it.
        """
        for start in range(begin, end):
            if not refused(text[start - 1]) and (match := self.regex.match(text, start)) is not None:
                return match
        return None

    def search(self, text: str) -> re.Match[str] | None:
        return next(self.finditer(text), None)


class _Gated(_Guarded):
    """A pattern tried only on a text that holds one of its words (the command a flag belongs to): each match of
    its flag is checked in code, and a text of nothing but flags would pay that for each (session 38)."""

    __slots__ = ("words",)

    def __init__(self, guarded: _Guarded, words: tuple[str, ...]) -> None:
        super().__init__(guarded.regex, guarded.refused_before)
        self.words = words

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        if any(word in text for word in self.words):
            yield from super().finditer(text)


class _Jwt(_Guarded):
    """The JWT pattern, tried once per run of token characters, not once per ``eyJ`` in it.

    Its header is a greedy run that must end at a ``.``; where it does not, ``re`` tried again at every later ``eyJ``
    of the same run, each time to the run's end: ``-eyJa`` repeated over 80,000 characters took a second, and a
    long prompt scanned on its way in grows with its square. Every later start in that run ends its header at the same
    place with less of it, so it fails the same way: the search goes on from the run's end.
    """

    __slots__ = ()
    _START = re.compile("eyJ")
    _RUN = re.compile(r"[A-Za-z0-9_-]*")

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        pos = 0
        while (start := self._START.search(text, pos)) is not None:
            at = start.start()
            if at and _is_word_char(text[at - 1]):  # the \b before "eyJ"
                pos = at + 1
                continue
            match = self.regex.match(text, at)
            if match is not None:
                yield match
                pos = match.end()
            else:
                run = self._RUN.match(text, at)  # matches at any position (it may match nothing)
                pos = run.end() if run is not None else at + 1


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _is_ascii_alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _is_key_char(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch in "_-")


_KEY_PREFIX = r"(?<![A-Za-z0-9_-])"
# For prefixes no word contains ("ghp_", "AIza", "xoxb-"): only a letter or digit glued before refuses,
# so a key after a hyphen or underscore ("t-ghp_…", "ID_AIza…") is still found.
_DISTINCT_PREFIX = r"(?<![A-Za-z0-9])"
# An identifier ending in a keyword ("DB_PASSWORD"): the keyword must not be glued to a letter before it.
_IDENTIFIER_HEAD = r"\b(?:[a-z0-9]{1,30}[_-]){0,6}+"
_GUARDS: tuple[tuple[str, Callable[[str], bool]], ...] = (
    (_IDENTIFIER_HEAD, str.isalnum),
    (r"\b", _is_word_char),
    (_KEY_PREFIX, _is_key_char),
    (_DISTINCT_PREFIX, _is_ascii_alnum),
)


def _guarded(pattern: str, flags: int = 0) -> _Guarded:
    """Compile ``pattern`` (its inline flags first), moving a leading ``\\b`` or key-prefix guard out."""
    inline = re.match(r"\(\?[a-z]+\)", pattern)
    head = inline.group() if inline else ""
    body = pattern[len(head) :]
    for guard, refused in _GUARDS:
        if body.startswith(guard):
            return _Guarded(re.compile(head + body[len(guard) :], flags), refused)
    return _Guarded(re.compile(pattern, flags), None)


@functools.cache
def _injection_patterns() -> tuple[tuple[str, _Guarded], ...]:
    # Compiled on first use: most commands (context, the hook) never scan for injections.
    # The text they run on is folded to lower case, so no IGNORECASE (which is slower).
    return tuple(
        (kind, _guarded(pattern, re.MULTILINE))
        for kind, pattern in (
            # "ignore all previous instructions", "disregard the system prompt"
            ("override", rf"\b{_VERB}\s+{_DETERMINERS}{_QUALIFIER}\s+(?:[\w-]+\s+)?{_TARGET}\b"),
            # "ignore all rules", "forget your instructions" (no word in between, so
            # "ignore all lint rules for tests/" stays a normal preference)
            (
                "override",
                (
                    rf"\b{_VERB}\s+(?:all|any|every|your)\s+(?:of\s+)?(?:the\s+|your\s+|my\s+)?"
                    r"(?:instructions|rules|guidelines|guardrails|directives|prompts|restrictions"
                    r"|constraints|programming)\b"
                ),
            ),
            (
                "override",
                r"\bforget\s+(?:everything|all)\s+(?:you|that|above|before|previously|else)\b",
            ),
            # "disregard what the user says", "ignore anything you were told"
            ("override", rf"\b{_VERB}\s+{_SAID}"),
            # "ignore the user and ...", "never listen to the user"
            (
                "override",
                (
                    r"\b(?:ignore|disregard|overrule|override|stop\s+listening\s+to|stop\s+obeying|disobey"
                    rf"|(?:do\s+not|don'?t|never)\s+(?:listen\s+to|obey))\s+{_PERSON}"
                    r"(?=\s*(?:[.,;:!]|$)|\s+(?:and|completely|entirely|from|if|when|whenever|even|now)\b)"
                ),
            ),
            # "the above instructions are void", "previous rules no longer apply"
            (
                "override",
                (
                    rf"\b{_QUALIFIER}\s+(?:[\w-]+\s+)?{_TARGET}\s+(?:are|is|were|was|have\s+been|has\s+been)?\s*"
                    r"(?:void|null|fake|false|wrong|outdated|obsolete|cancell?ed|revoked|suspended|lifted"
                    r"|a\s+test|no\s+longer\s+(?:valid|apply|applies|in\s+effect|relevant|binding))\b"
                ),
            ),
            # "this memory overrides the system prompt", "takes precedence over the user's instructions"
            (
                "override",
                (
                    r"\b(?:overrides?|supersedes?|outranks?|takes?\s+precedence\s+over|(?:has|have|takes?)\s+"
                    r"(?:higher|top|absolute|first)\s+priority\s+(?:over|than))\s+"
                    rf"(?:(?:all|any|every|your)\s+(?:other\s+)?(?:{_QUALIFIER}\s+)?|(?:the\s+)?(?:other\s+)?{_QUALIFIER}\s+)"
                    rf"{_TARGET}\b"
                ),
            ),
            # "from now on, disregard what ...", "from now on you are no longer ..."
            (
                "override",
                (
                    rf"\b{_SOON}\b[^.\n]{{0,40}}?\b(?:(?:disregard|override|overrule|bypass|circumvent"
                    rf"|stop\s+following|no\s+longer\s+follow|forget)\s+{_OVERRIDDEN}"
                    r"|you\s+(?:are|will\s+be)\s+(?:no\s+longer|free\s+(?:of|from)|unrestricted|jailbroken|dan\b"
                    r"|an?\s+(?:unrestricted|different|new|evil)\b)"
                    r"|(?:only\s+)?(?:obey|listen\s+to)\s+(?:me|only|this))"
                ),
            ),
            (
                "system-prompt",
                (
                    r"\b(?:reveal|print|show|output|repeat|leak|dump|display|disclose|ignore|override)"
                    r"\s+(?:[\w-]+\s+){0,3}?(?:system|initial|hidden)\s+(?:prompt|message|instructions?)\b"
                ),
            ),
            ("role-change", r"\byou\s+are\s+now\b"),
            (
                "role-change",
                (
                    r"\byou\s+are\s+no\s+longer\s+(?:an?\s+|the\s+|bound|restricted|limited|required|claude"
                    r"|chatgpt|gpt|codex|copilot|gemini|assistant|helpful|safe|an?\s+ai)"
                ),
            ),
            (
                "role-change",
                r"\byour\s+(?:new|real|true|actual)\s+(?:role|identity|persona|purpose|task|goal|objective)\b",
            ),
            (
                "role-change",
                (
                    r"\b(?:act|behave|respond|answer|roleplay|role-play)\s+(?:as|like)\s+(?:an?\s+|the\s+)?"
                    r"(?:unrestricted|unfiltered|uncensored|jailbroken|evil|malicious|rogue|different|root|admin"
                    r"|administrator|system|developer|dan)\b"
                ),
            ),
            (
                "role-change",
                r"\b(?:pretend|imagine)\s+(?:to\s+be|that\s+you\s+are|you\s+are)\s+(?:an?\s+|the\s+)?"
                r"(?:unrestricted|unfiltered|uncensored|jailbroken|evil|different\s+ai|system|developer|admin)",
            ),
            (
                "role-change",
                (
                    r"\b(?:enter|enable|switch\s+(?:to|into)|activate|turn\s+on)\s+(?:the\s+)?"
                    r"(?:dan|god|jailbreak|jailbroken|unrestricted|unfiltered)"
                    r"\s+mode\b"
                ),
            ),
            (
                "role-change",
                (
                    r"\byou\s+(?:now\s+)?(?:have|are\s+under|operate\s+with(?:out)?)\s+no\s+(?:restrictions|rules"
                    r"|limits|limitations|filters|guardrails|guidelines|content\s+polic(?:y|ies)|safety)\b"
                ),
            ),
            ("role-change", r"\b(?:unrestricted|unfiltered|uncensored|jailbroken)\s+(?:mode|ai|assistant|model)\b"),
            (
                "role-change",
                r"\bi\s+am\s+(?:your|the)\s+(?:developer|creator|administrator|admin|owner|operator|system)\b"
                r"(?=[^.\n]{0,60}\b(?:obey|override|ignore|disregard|you\s+must|authori[sz]e\s+you))",
            ),
            (
                "role-change",
                r"\bpretend\s+(?:that\s+)?you\s+(?:are|have)\s+(?:no|not|an?\s+unrestricted)\b",
            ),
            ("role-change", r"\b(?:dan|developer|god)\s+mode\s+(?:enabled|activated|on)\b"),
            (
                "new-instructions",
                (
                    r"^\W{0,6}(?:new|updated|real|actual|true|additional|hidden|secret|override)\s+"
                    r"(?:system\s+)?(?:instructions?|directives?|orders|objective|mission)\s*:"
                ),
            ),
            ("new-instructions", r"\bnew\s+system\s+prompt\b"),
            (
                "concealment",
                (
                    r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|notify|alert)\s+(?:the\s+)?"
                    r"(?:user|human|reviewer|operator)\b"
                ),
            ),
            (
                "concealment",
                (
                    r"\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose)\s+(?:this|these|it|that)\b"
                    r"[^.\n]{0,40}?\b(?:user|human|reviewer|operator)\b"
                ),
            ),
            (
                "concealment",
                r"\bwithout\s+(?:telling|informing|notifying|alerting)\s+(?:the\s+)?(?:user|human|reviewer|operator)\b",
            ),
            (
                "concealment",
                (
                    r"\b(?:keep|hide)\s+(?:this|these|it|that|the\s+\w+)\s+(?:\w+\s+)?(?:secret|hidden)?\s*from\s+"
                    rf"{_PERSON}\b"
                ),
            ),
            (
                "concealment",
                (
                    rf"\b(?:without|so\s+that)\s+{_PERSON}\s+(?:knowing|noticing|finding\s+out"
                    r"|(?:never|doesn'?t|does\s+not|won'?t)\s+(?:know|knows|notice|notices|find\s+out|finds\s+out))\b"
                ),
            ),
            (
                "concealment",
                r"\b(?:user|human|operator|reviewer)s?\s+(?:must|should|may)\s+(?:not|never)\s+"
                r"(?:know|find\s+out|learn)\s+(?:about\s+)?(?:this|that|it|these|what)\b",
            ),
            # Sending secrets or the conversation somewhere.
            (
                "exfiltration",
                (
                    r"\b(?:send|post|upload|exfiltrate|forward|leak|transmit|e-?mail|copy|paste|submit)\b[^.\n]{0,60}?"
                    r"(?:\.env\b|\b(?:secrets?|credentials?|tokens?|api[\s_-]?keys?|passwords?|env(?:ironment)?(?:\s+variables?|\s+vars?)?"
                    r"|ssh\s+keys?|id_rsa|private\s+keys?|conversation|chat\s+history|transcript|system\s+prompt"
                    r"|source\s+code|cookies?)\b)[^.\n]{0,60}?\b(?:to|at|into|via)\s+"
                    r"(?:https?://|ftp://|\S+@\S+\.\w|(?:an?|my|this|that|the)\s+(?:external|remote|third[- ]party|webhook|pastebin|gist|server|url|endpoint))"  # noqa: E501 - one alternation, easier to read whole
                ),
            ),
            (
                "exfiltration",
                (
                    r"\b(?:curl|wget|nc|netcat|http|fetch)\b[^\n]{0,200}?(?:\$\(\s*(?:cat|env|printenv|base64)\b"
                    r"|@~?/?\S*(?:\.env|\.ssh|\.aws|id_rsa|credentials)\b)"
                ),
            ),
            (
                "exfiltration",
                (
                    r"\b(?:env|printenv|cat\s+\S*(?:\.env|id_rsa|credentials|\.netrc)\S*)\s*\|\s*"
                    r"(?:curl|wget|nc|netcat|base64)\b"
                ),
            ),
            # Any remote markdown image is fetched when rendered, so its URL can carry data out.
            ("exfiltration", r"!\[[^\]\n]{0,200}\]\(\s*<?\s*(?:https?:)?//"),
            ("exfiltration", r"<img\b[^>]{0,200}?\bsrc\s*=\s*[\"']?\s*(?:https?:)?//"),
            (
                "exfiltration",
                (
                    r"\]\(\s*<?\s*(?:https?:)?//[^\s)?]{1,300}\?[^\s)]{0,300}?"
                    r"(?:[{}$]|%7[bd]|(?<![a-z0-9+/_=-])[a-z0-9+/_=-]{40})"
                ),
            ),
            (
                "exfiltration",
                (
                    r"(?:https?:)?//[^\s<>\"')?]{1,300}\?[^\s<>\"')]{0,300}?"
                    r"(?:\{\{?\s*[\w.-]{1,40}\s*\}|\$\{|\$\(|<[a-z_]{2,40}>)"
                ),
            ),
            ("forged-tag", r"\[\s*memory\s*:"),
            ("forged-tag", r"<\s*/?\s*memory(?:[-_][a-z]+)*\b"),
            ("role-marker", r"<\|[a-z0-9_]{1,30}\|>"),
            ("role-marker", r"\[/?inst\]|<</?sys>>"),
            ("role-marker", rf"^[ \t>]*(?:#{{1,6}}[ \t]*)?{_ROLE_WORDS}[ \t]*:"),
            (
                "role-marker",
                r"<\s*/?\s*(?:system|system[-_]prompt|instructions|assistant|developer)\s*>",
            ),
        )
    )


@dataclass(frozen=True)
class Finding:
    """Why a flag was raised: the flag, a short kind, and the matched text (secrets redacted)."""

    flag: str
    kind: str
    excerpt: str


def injection_findings(text: str) -> list[Finding]:
    """Every injection pattern that matches ``text`` as a reader sees it (the excerpt is that reading).

    Hidden characters are removed so ``ig\u200bnore`` cannot split a keyword, and
    the look-alike fold makes fullwidth ``ｉｇｎｏｒｅ``, Cyrillic ``іgnоrе`` and small
    capitals ``ɪɢɴᴏʀᴇ`` all read ``ignore``.
    """
    plain = textfold.reader_fold(strip_invisible(text))
    found = []
    for kind, pattern in _injection_patterns():
        match = pattern.search(plain)
        if match:
            found.append(Finding(FLAG_INJECTION, kind, match.group(0)[:120]))
    return found


# --------------------------------------------------------------------------- secrets

_PLACEHOLDER = re.compile(
    r"^(?:<[^>]*>|\$\{?[A-Za-z_]\w*\}?|\{\{?[^}]*\}\}?|%\(?\w*\)?s|\*{3,}|[xX]{3,}|\.{3}|…"
    r"|\[REDACTED(?::[\w-]+)?\]|None|null|nil|true|false|(?i:redacted|example|placeholder"
    r"|changeme|secret|password|your[_-]?\w*|env\b.*|os\.environ.*|os\.getenv.*"
    r"|process\.env.*|getpass.*|keyring.*))$"
)
_PASSWORD_SYMBOLS = frozenset("!@#$%^&*?~+")
_SECRET_GROUPS = ("secret", "dq", "sq", "bare")
# The value after a key runs to its end: a cut at 200 characters kept the tail of an AWS session token (~400 to
# 1,000 characters) and failed a longer quoted password whole. A quote's search stops at its line; past 200
# characters only a quote with no space in it is a value (prose quoting the key word, then something later on the
# line, is not: session 38's re-review).
_QUOTED_VALUE = r"\"(?P<dq>[^\"\n]{1,200}|[^\"\s]{201,1000})\"|'(?P<sq>[^'\n]{1,200}|[^'\s]{201,1000})'"
_PASSWORD_VALUE = rf"(?:{_QUOTED_VALUE}|(?P<bare>[^\s\"',;)=][^\s\"',;)]*))"
_TOKEN_VALUE = r"(?P<secret>[A-Za-z0-9+/_.=-]{20,})"
# A table row's key cell, then its value cell, each maybe in backticks or bold: "| `DB_PASSWORD` | Hunter2!x |".
# A key cell may have words before it and a note after it: "| DB password |", "| API Key |", "| Password (prod) |".
_PASSWORD_WORD = r"(?:password|passwd|passphrase|pwd)s?"
_TOKEN_WORD = r"(?:token|secret|key|apikey)s?"
_PASSWORD_KEY = rf"[A-Za-z0-9_. -]{{0,40}}{_PASSWORD_WORD}"
_TOKEN_KEY = rf"[A-Za-z0-9_. -]{{0,40}}{_TOKEN_WORD}"
_TABLE_KEY = r"^[ \t]*\|[ \t]*[`*]{0,2}"
_TABLE_VALUE = (
    r"(?:[ \t]*\([^)|\n]{0,40}\))?[`*]{0,2}[ \t]*\|[ \t]*[`*]{0,2}(?P<bare>[^\s|`*]{1,1000})[`*]{0,2}[ \t]*(?:\||$)"
)
# An element's text, or its CDATA section read as a quoted value: "<password><![CDATA[s3cr3t!]]></password>".
_ELEMENT_VALUE = r"\s*(?:<!\[CDATA\[(?P<dq>[^\n]{1,200}?)\]\]>|(?P<bare>[^<\s]{1,1000}))\s*"
# An element whose key attribute names a secret, and its value attribute: .NET's appSettings
# '<add key="DbPassword" value="s3cr3t!"/>', Spring's '<property name="db.password" value="…"/>', in either order,
# up to two other attributes between them (session 39).
_OTHER_ATTRIBUTES = r"(?:\s+[\w:.-]{1,40}\s*=\s*(?:\"[^\"<>\n]{0,200}\"|'[^'<>\n]{0,200}')){0,2}\s+"


def _attribute_pair(word: str) -> tuple[str, ...]:
    """The patterns of an element whose key attribute ends in ``word`` (its words may have a configuration section
    before them: "Stripe:ApiKey", "hibernate.connection.password"), and its value attribute, after it or before.

    The attributes' names are lower case, as XML (case-sensitive) spells them: each pattern then starts with a
    literal that ``re`` skips ahead by; ``(?i)`` on the names cost each text 40 times as much (session 39)."""
    named = rf"(?P<q>[\"'])(?i:[A-Za-z0-9_.: -]{{0,60}}{word})(?P=q)"
    value = rf"value\s*=\s*(?:{_QUOTED_VALUE})"
    return (
        rf"\bkey\s*=\s*{named}{_OTHER_ATTRIBUTES}{value}",
        rf"\bname\s*=\s*{named}{_OTHER_ATTRIBUTES}{value}",
        rf"\b{value}{_OTHER_ATTRIBUTES}(?:key|name)\s*=\s*{named}",
    )


class _TableColumn:
    """The cells under a table header that names a secret, in every row of that table (session 39)::

        | user | password |
        |------|----------|
        | bob  | Hunter2!xyz |

    A row that names its own key (``| password | Hunter2!x |``) is the row patterns' work. A header is found by a
    pattern (a cell naming the key among its first 64, then GitHub's delimiter row), its rows in code: a cell is known
    by its place in the row, which ``re`` cannot count. Each line is read once: the search for the next header goes
    on after the last table's rows.
    """

    __slots__ = ("cell", "header", "key", "row")
    _COLUMNS = 64

    def __init__(self, key: str) -> None:
        named = rf"[`*]{{0,2}}{key}(?:[ \t]*\([^)|\n]{{0,40}}\))?[`*]{{0,2}}"  # "`API Key`", "Password (prod)"
        self.key = re.compile(named, re.IGNORECASE)
        # Atomic: the first cell naming the key decides, so a header line is read once whatever follows it.
        self.header = re.compile(
            rf"(?im)(?>^[ \t]*\|(?:[^|\n]*\|){{0,{self._COLUMNS - 1}}}?[ \t]*{named}[ \t]*(?:\||\r?$))"
            r"[^\n]*+\n(?=[ \t]*\|[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*+\|?[ \t]*\r?$)"
        )
        self.cell = re.compile(r"(?m)[ \t]*[`*]{0,2}(?P<bare>[^\s|`*]{1,1000})[`*]{0,2}[ \t]*(?:\||\r?$)")
        self.row = re.compile(r"[ \t]*\|")

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        if "|" not in text:
            return
        pos = 0
        while (header := self.header.search(text, pos)) is not None:
            columns = self._secret_columns(text[header.start() : header.end() - 1])
            line = self._line_end(text, header.end()) + 1  # the row after the delimiter row
            while columns and line < len(text) and self.row.match(text, line, end := self._line_end(text, line)):
                yield from self._cells(text, line, end, columns)
                line = end + 1
            pos = line

    def _secret_columns(self, header: str) -> list[int]:
        """The places of the header's cells (its first 64) that name a secret."""
        cells = header.partition("|")[2].split("|", self._COLUMNS)[: self._COLUMNS]
        return [at for at, cell in enumerate(cells) if self.key.fullmatch(cell.strip(" \t\r"))]

    @staticmethod
    def _line_end(text: str, line: int) -> int:
        end = text.find("\n", line)
        return len(text) if end == -1 else end

    def _cells(self, text: str, line: int, end: int, columns: list[int]) -> Iterator[re.Match[str]]:
        pipe = text.find("|", line, end)
        for at in range(columns[-1] + 1):
            if pipe == -1:
                return
            if at in columns and (match := self.cell.match(text, pipe + 1, end)) is not None:
                yield match
            pipe = text.find("|", pipe + 1, end)


def _shannon_bits(token: str) -> float:
    counts = Counter(token)
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())


def looks_random(token: str) -> bool:
    """A long token that mixes character classes like a generated key, not like a word.

    Mixed case with digits (base64) needs high entropy; lowercase/digit tokens
    (hex) need a real share of digits, so ``use_pep8_naming`` is not a key.
    """
    if len(token) < 20:
        return False
    lower = any(c.islower() for c in token)
    upper = any(c.isupper() for c in token)
    digits = sum(c.isdigit() for c in token)
    if lower and upper and (digits or "+" in token or "/" in token):
        return _shannon_bits(token) >= 3.5
    return digits / len(token) >= 0.2 and (lower or upper) and _shannon_bits(token) >= 3.0


def _not_placeholder(value: str) -> bool:
    return not _PLACEHOLDER.match(value.strip())


def _password_value(match: re.Match[str]) -> bool:
    value = _span_text(match)
    if not _not_placeholder(value):
        return False
    if any(name in match.re.groupindex and match.group(name) for name in ("dq", "sq")):
        return True
    # A bare word after "password:" is usually prose or a type ("password: str").
    return any(c.isdigit() for c in value) or any(c in _PASSWORD_SYMBOLS for c in value)


def _glued_keyword(match: re.Match[str]) -> bool:
    """The keyword is glued to the word before it by its case: ``rootPassword``, ``PGPASSWORD``, ``accessToken``.

    Checked here, not by a pattern that starts at the word's first letter: that one tried 40 letters at every
    position of a long run and was most of the scan's time."""
    start = match.start()
    before = match.string[start - 1] if start else ""
    if not (before.isascii() and before.isalnum()):
        return False
    title = match.group("kw")[1].islower()
    return before.isdigit() or (before.islower() if title else before.isupper())


# A flag's command, looked for back along its line in code: a pattern that starts at the command and scans on for
# its flag took 200 steps at each mention of the command (session 38's re-review: 6 times the old scan's time).
_MYSQL_CLIENTS = re.compile(r"(?<![\w-])(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]*\Z")
_CURL = re.compile(r"(?<![\w-])curl\b[^\n|;&]*\Z")


def _flag_of(match: re.Match[str], command: re.Pattern[str]) -> bool:
    """The flag ``match`` starts with is a word of its own, with ``command`` before it on its line (within 200)."""
    start = match.start()
    if start and not match.string[start - 1].isspace():
        return False
    return command.search(match.string, max(0, start - 200), start) is not None


def _user_password(match: re.Match[str]) -> bool:
    """``user:password`` is a credential unless its password (or, with none, its user: an API key) is a
    placeholder such as ``$TOKEN``."""
    span = _span_text(match)
    user, _, password = span.partition(":")
    return _not_placeholder(span) and _not_placeholder(password or user)


def _token_value(match: re.Match[str]) -> bool:
    return _not_placeholder(_span_text(match)) and looks_random(_span_text(match))


# A URL scheme right before "://" (checked after the match, so the search can look for "://").
@functools.cache
def _scheme_end() -> re.Pattern[str]:
    return re.compile(r"(?i)(?<!\w)[a-z][a-z0-9+.-]{1,20}\Z")


def _after_scheme(match: re.Match[str]) -> bool:
    start = match.start()
    return _scheme_end().search(match.string, max(0, start - 21), start) is not None


def _has_digit(match: re.Match[str]) -> bool:
    return any(c.isdigit() for c in _span_text(match))


def _always(match: re.Match[str]) -> bool:
    return True


@functools.cache
def _secret_patterns() -> tuple[tuple[str, _Guarded | _TableColumn, Callable[[re.Match[str]], bool]], ...]:
    # Compiled on first use, like the injection patterns.
    patterns = tuple(
        (kind, _compiled(kind, pattern), check)
        for kind, pattern, check in (
            (
                "private-key",
                (
                    r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
                    r"(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----|\Z)"
                ),
                _always,
            ),
            ("anthropic-key", rf"{_DISTINCT_PREFIX}sk-ant-[A-Za-z0-9_-]{{20,}}", _always),
            (
                "openai-key",
                rf"{_KEY_PREFIX}sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{{20,}}",
                _has_digit,
            ),
            (
                "github-token",
                rf"{_DISTINCT_PREFIX}(?:gh[pousr]_[A-Za-z0-9]{{30,}}|github_pat_[A-Za-z0-9_]{{22,}})",
                _always,
            ),
            ("slack-token", rf"{_DISTINCT_PREFIX}xox[abposr]-[A-Za-z0-9-]{{10,}}", _has_digit),
            ("aws-access-key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", _always),
            ("google-api-key", rf"{_DISTINCT_PREFIX}AIza[0-9A-Za-z_-]{{35}}", _always),
            ("stripe-key", rf"{_KEY_PREFIX}(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{{16,}}", _always),
            ("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", _always),
            (
                "url-credentials",
                r"(?i)://[^\s/:@]{1,1000}:(?P<secret>[^\s/@]{1,1000})@",
                lambda m: _after_scheme(m) and _not_placeholder(_span_text(m)),
            ),
            ("bearer-token", r"\b[Bb]earer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)", _has_digit),
            (
                "password",
                (
                    rf"(?i){_IDENTIFIER_HEAD}(?:password|passwd|passphrase|pwd)s?\b[\"']?"
                    # a tab: a .env or a pasted table's columns
                    rf"(?:\s*(?::=|=>|[:=])\s*|\s+is\s+|[ ]*\t[ \t]*){_PASSWORD_VALUE}"
                ),
                _password_value,
            ),
            (
                # a keyword glued on by case, camel or upper: "rootPassword: …", "PGPASSWORD=…" (session 37's re-review)
                "password",
                rf"(?P<kw>Password|Passwd|Pwd|PASSWORD|PASSWD|PWD)s?[\"']?\s*(?::=|=>|[:=])\s*{_PASSWORD_VALUE}",
                lambda m: _glued_keyword(m) and _password_value(m),
            ),
            (
                # a command's flag: "--password 'hunter2!'", "--db-password s3cret" (session 37's review)
                "password",
                (
                    r"(?i)(?<![\w-])--?(?:[a-z0-9]{1,30}[_-]){0,3}(?:password|passwd|passphrase|pwd)\s+"
                    rf"(?:{_QUOTED_VALUE}|(?P<bare>[^\s\"'-][^\s\"',;)]*))"
                ),
                _password_value,
            ),
            (
                # a client's glued short flag: "mysql -uroot -pHunter2 db" (ADR 0170's left item)
                "password",
                (
                    ("mysql", "mariadb"),
                    r"-p(?:\"(?P<dq>[^\"\n]{1,200})\"|'(?P<sq>[^'\n]{1,200})'|(?P<bare>[^\s\"'][^\s\"';|&]*))",
                ),
                # glued to -p it is the password, whatever it looks like
                lambda m: _flag_of(m, _MYSQL_CLIENTS) and _not_placeholder(_span_text(m)),
            ),
            (
                # "curl -u user:pw", "curl -su 'user:pw'", "-uAPIKEY:": a credential by its syntax, the user part too
                # (an API key often is the user); curl's own, not docker's "-u 1000:1000" (session 38's re-review)
                "password",
                (("curl",), r"(?:-[A-Za-z]*?u|--user)[ \t]*[\"']?(?P<bare>[^\s:\"']{1,200}:[^\s\"']{0,1000})"),
                lambda m: _flag_of(m, _CURL) and _user_password(m),
            ),
            (
                "token",
                (
                    rf"(?i){_IDENTIFIER_HEAD}(?:token|secret|key|apikey)s?\b[\"']?"
                    rf"(?:\s*[:=]\s*|\s+is\s+|\s+)[\"']?{_TOKEN_VALUE}"
                ),
                _token_value,
            ),
            (
                # a keyword glued on by case: "accessToken", "clientSecret", "secretAccessKey", "GITHUBTOKEN"
                # (session 38's review; the same rule as the password's above)
                "token",
                rf"(?P<kw>Token|Secret|Key|TOKEN|SECRET|KEY)s?[\"']?(?:\s*(?::=|=>|[:=])\s*|\s+is\s+)[\"']?{_TOKEN_VALUE}",
                lambda m: _glued_keyword(m) and _token_value(m),
            ),
            # A key and its value in a Markdown table row or an XML element (a CLAUDE.md's settings table).
            ("password", rf"(?im){_TABLE_KEY}{_PASSWORD_KEY}{_TABLE_VALUE}", _password_value),
            ("token", rf"(?im){_TABLE_KEY}{_TOKEN_KEY}{_TABLE_VALUE}", _token_value),
            ("password", rf"(?i)<(?P<tag>{_PASSWORD_KEY})>{_ELEMENT_VALUE}</(?P=tag)>", _password_value),
            ("token", rf"(?i)<(?P<tag>{_TOKEN_KEY})>{_ELEMENT_VALUE}</(?P=tag)>", _token_value),
        )
    )
    return patterns + _secret_shapes()


def _secret_shapes() -> tuple[tuple[str, _Guarded | _TableColumn, Callable[[re.Match[str]], bool]], ...]:
    """ADR 0171's left shapes (session 39): an element's key and value attributes, a table's header-named column."""
    return (
        *(("password", _guarded(pattern), _password_value) for pattern in _attribute_pair(_PASSWORD_WORD)),
        *(("token", _guarded(pattern), _token_value) for pattern in _attribute_pair(_TOKEN_WORD)),
        ("password", _TableColumn(_PASSWORD_KEY), _password_value),
        ("token", _TableColumn(_TOKEN_KEY), _token_value),
    )


def _compiled(kind: str, pattern: str | tuple[tuple[str, ...], str]) -> _Guarded:
    if isinstance(pattern, tuple):
        words, source = pattern
        return _Gated(_guarded(source), words)
    return _Jwt(re.compile(pattern[len(r"\b") :]), _is_word_char) if kind == "jwt" else _guarded(pattern)


@dataclass(frozen=True)
class SecretMatch:
    """One secret in a text: its kind and the span to redact."""

    kind: str
    start: int
    end: int


def _span(match: re.Match[str]) -> tuple[int, int]:
    for name in _SECRET_GROUPS:
        if name in match.re.groupindex and match.group(name) is not None:
            return match.span(name)
    return match.span()


def _span_text(match: re.Match[str]) -> str:
    start, end = _span(match)
    return match.string[start:end]


def _candidates(text: str) -> Iterator[SecretMatch]:
    for kind, pattern, check in _secret_patterns():
        for match in pattern.finditer(text):
            if check(match):
                yield SecretMatch(kind, *_span(match))


def find_secrets(text: str) -> list[SecretMatch]:
    """Non-overlapping secrets in ``text``, in order; the earliest (then longest) match wins.

    Matched on the text as written and on its visible fold (NFKC, invisibles
    dropped), whose spans are mapped back so a redaction covers the whole key,
    invisible glue included. Both, because dropping a character can also join a
    key to the word before it, which its prefix guard then refuses. And on its
    percent-decoded form when it has escapes: a URL's ``%3Dghp_…`` glues a hex
    digit before the key, which every prefix guard refuses (decoded up to three
    times over: a URL in a URL's query has ``%253D``).
    """
    found = list(_candidates(text))
    seen = textfold.visible_fold_with_origin(text)
    if seen is not None:
        folded, origin = seen
        found += (SecretMatch(m.kind, origin[m.start], origin[m.end - 1] + 1) for m in _candidates(folded))
    decoded = _percent_decoded(text)
    if decoded is not None:
        found += (
            SecretMatch(m.kind, decoded.start(m.start), decoded.end(m.end - 1)) for m in _candidates(decoded.text)
        )
        both = _percent_decoded(folded) if seen is not None else None
        if both is not None:  # escapes and invisible glue together
            found += (
                SecretMatch(m.kind, origin[both.start(m.start)], origin[both.end(m.end - 1) - 1] + 1)
                for m in _candidates(both.text)
            )
    ordered = sorted(found, key=lambda m: (m.start, -(m.end - m.start)))
    kept: list[SecretMatch] = []
    for match in ordered:
        if not kept or match.start >= kept[-1].end:
            kept.append(match)
    return kept


_PERCENT_ESCAPE = re.compile(r"%[2-7][0-9A-Fa-f]")  # printable ASCII only: what a key or its key word is made of
# A URL in a URL's query is encoded again: "%253D" is "%3D" is "=" (session 39). Three levels, each a linear pass.
_PERCENT_LEVELS = 3


class _Decoded:
    """A text with its printable percent escapes decoded, up to three times over, and the way back to where each
    character was.

    Only the escapes' places are kept, one list per level (a list per character cost 2 GB for one ``%20`` in a 10 MB
    log, session 38's re-review): before the k-th escape's decoded place, every escape so far took two characters
    more. A character of the last level is mapped back through each level before it in turn."""

    __slots__ = ("levels", "text")

    def __init__(self, text: str, levels: list[list[int]]) -> None:
        self.text = text
        self.levels = levels  # per level, outermost first: each escape's index in that level's decoded text

    def start(self, index: int) -> int:
        """Where the character at ``index`` of the decoded text starts in the original."""
        for escapes in reversed(self.levels):
            index += 2 * bisect.bisect_left(escapes, index)
        return index

    def end(self, index: int) -> int:
        """Where the character at ``index`` of the decoded text ends in the original."""
        for escapes in reversed(self.levels):
            at = bisect.bisect_left(escapes, index)
            escaped = at < len(escapes) and escapes[at] == index
            index += 2 * at + (2 if escaped else 0)  # the last character it came from, one level out
        return index + 1


def _decoded_once(text: str) -> tuple[str, list[int]] | None:
    """``text`` with its printable percent escapes decoded once, and their places; None when it has none."""
    if "%" not in text or _PERCENT_ESCAPE.search(text) is None:
        return None
    escapes: list[int] = []

    def decode(escape: re.Match[str]) -> str:
        escapes.append(escape.start() - 2 * len(escapes))  # its place in the decoded text
        return chr(int(escape.group()[1:], 16))

    return _PERCENT_ESCAPE.sub(decode, text), escapes


def _percent_decoded(text: str) -> _Decoded | None:
    """``text`` with its printable percent escapes decoded until none are left (at most three times); None when it
    has none."""
    levels: list[list[int]] = []
    while len(levels) < _PERCENT_LEVELS and (once := _decoded_once(text)) is not None:
        text, escapes = once
        levels.append(escapes)
    return _Decoded(text, levels) if levels else None


# How far past a cut a secret is still read whole: a key that straddles the cut is redacted, not left half-shown.
_CUT_MARGIN = 4096


def redact_within(text: str, limit: int) -> str:
    """``text`` with each secret replaced by ``[REDACTED:<kind>]``, cut back to ``limit`` characters.

    Redacted before it is cut: a cut inside a secret leaves what its pattern no longer knows (the password of
    ``postgres://u:pw@host`` without its ``@``, session 38's review). A marker can be longer than the secret it
    replaces (``pw=abc`` -> ``pw=[REDACTED:password]``), and a stored field must still meet its own bound when it
    is read back. Only what the cut needs is read, the first ``limit`` characters and a margin: a CLI's error text
    can be megabytes. Secrets before the cut can shrink the text by more than the margin (a private key becomes a
    marker), so the window grows until the redacted text still has the margin past the cut.
    """
    window = limit + _CUT_MARGIN
    while True:
        redacted = redact(text[:window])
        if window >= len(text) or len(redacted) >= limit + _CUT_MARGIN:
            return redacted[:limit]
        window *= 2


def secret_shape(value: str) -> str | None:
    """``looks like a secret (<kind>)`` when ``value`` holds one, for an id that is refused rather than redacted
    (a session id, a memory id: other records and file names refer to it)."""
    found = find_secrets(value)
    return f"looks like a secret ({found[0].kind})" if found else None


def redact(text: str) -> str:
    """Replace each secret with ``[REDACTED:<kind>]``, keeping every other character."""
    parts, last = [], 0
    for match in find_secrets(text):
        parts.append(text[last : match.start])
        parts.append(f"[REDACTED:{match.kind}]")
        last = match.end
    parts.append(text[last:])
    return "".join(parts)


# --------------------------------------------------------------------------- scan


def findings(text: str) -> list[Finding]:
    """Everything ``scan`` found, with a reason each, for showing the reviewer why."""
    found: list[Finding] = []
    hidden = hidden_positions(text)
    if hidden:
        markers = "".join(f"<U+{ord(text[i]):04X}>" for i in hidden[:8])
        found.append(Finding(FLAG_HIDDEN_UNICODE, "hidden-characters", markers))
        found.append(Finding(FLAG_INJECTION, "hidden-characters", markers))
    padding = blank_padding(text)
    if padding:
        found.append(Finding(FLAG_BLANK_PADDING, "blank-lines", f"{padding} blank lines in a row"))
    imitating = look_alike_positions(text)
    if imitating:
        found.append(Finding(FLAG_LOOK_ALIKE, "mixed-script", _letters(text, imitating)))
    found.extend(injection_findings(text))
    found.extend(Finding(FLAG_SECRET, m.kind, f"[REDACTED:{m.kind}]") for m in find_secrets(text))
    return found


def _letters(text: str, positions: list[int]) -> str:
    return " ".join(f"{text[i]}<U+{ord(text[i]):04X}>" for i in positions[:8])


def scan(text: str) -> frozenset[str]:
    """The set of flags (``FLAG_*``) that apply to ``text``; empty when nothing looks wrong."""
    return frozenset(finding.flag for finding in findings(text))
