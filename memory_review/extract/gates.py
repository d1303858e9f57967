"""Literal gates: words every match of a pattern holds, looked for first, so that most searches are never made.

The heuristic tries some fifty signal patterns on each sentence, and most of their openings ("and", "please", "you")
are common: the regular expression engine tries each opening at every position, which cost about 300 µs a sentence and
made one message of a megabyte of rules take 16 s (ADR 0170); a turn's cues, searched through the whole of a pasted
log that holds none of them, cost a second a megabyte each. Every match of "avoid" holds the word "avoid"; every match
of "after each" holds one of "after", "before", "once", "when" and one of "each", "every", "any". A text missing one
such group cannot match, and looking for a few words in its lower case costs a microsecond or two. The words are read
from the pattern's own parse, so a gate never drifts from its pattern: an edit that adds an opening without a word
opens the gate; it never closes it.

Only an ASCII text is gated. There a pattern's letter matches a letter of the text, ignoring case, exactly when the
two lower cases are equal; in other scripts case folding has rules of its own ("ſ" matches "s", "İ" matches "i"), and
such a text is searched as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

# The parser of the ``re`` module, what it compiles a pattern from (the stubs do not list it: it is the module's own);
# the trees it makes are untyped, read here as ``Any``. A Python without it (the name is private) gates nothing:
# every pattern is searched, as before gates, and finds the same.
try:
    from re import _parser as regex_parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.11 to 3.14 have it
    regex_parser = None

_REPEATS = frozenset({"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"})
_ASCII = "".join(map(chr, range(128)))
_SHORTEST = 2
GATE_AFTER_CHARS = 20_000  # characters a pattern reads before its gate is made (see GatedPattern)

# Words every match holds: a match holds one word of each group
Groups = list[set[str]]


@dataclass(frozen=True)
class LiteralGate:
    """Groups of lower-case words: an ASCII text that holds no word of some group cannot match the pattern. With no
    group, every text may match."""

    groups: tuple[tuple[str, ...], ...]

    def rules_out(self, lowered: str) -> bool:
        """True when ``lowered`` (an ASCII text in lower case) cannot hold a match of the pattern."""
        return not all(any(map(lowered.__contains__, words)) for words in self.groups)


@cache  # a pattern read in two places (the cue of a turn and of a sentence) is parsed once
def literal_gate(pattern: re.Pattern[str]) -> LiteralGate:
    """The gate of ``pattern``: the groups of words every match holds one of, as an ASCII text's lower case shows them
    (a group of no word: no ASCII text matches)."""
    if regex_parser is None:
        return LiteralGate(())
    groups = _required(regex_parser.parse(pattern.pattern, pattern.flags), pattern.flags)
    ascii_groups = {
        tuple(sorted({form for literal in group for form in _ascii_forms(literal, pattern.flags)})) for group in groups
    }
    # a group of one-letter words ("-", "s") rules almost nothing out and costs a look; the longest words look first
    kept = [words for words in ascii_groups if not words or min(map(len, words)) >= _SHORTEST]
    return LiteralGate(tuple(sorted(kept, key=lambda words: (-min(map(len, words), default=99), words))))


class GatedPattern:
    """A pattern searched only in a text its gate does not rule out.

    A gate costs its pattern's parse, about half a millisecond, the price of searching some twenty thousand
    characters: it is made once the pattern has read that many, so that a hook reading one short prompt pays nothing
    for it, and a long message pays it once, at its start."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self._gate: LiteralGate | None = None
        self._read = 0

    def found(self, text: str) -> bool:
        """True when the pattern matches ``text`` (its lower case made here, for a caller that has none)."""
        return self.search(text, text.lower() if text.isascii() else None)

    def search(self, text: str, lowered: str | None) -> bool:
        """True when the pattern matches ``text``; ``lowered`` is the text's lower case when the text is ASCII, else
        None (searched as it is)."""
        return not self._rules_out(lowered) and self.pattern.search(text) is not None

    def sub(self, replacement: str, text: str, lowered: str | None) -> str:
        """``pattern.sub(replacement, text)``: ``text`` as it is when the gate rules a match out."""
        return text if self._rules_out(lowered) else self.pattern.sub(replacement, text)

    def _rules_out(self, lowered: str | None) -> bool:
        if lowered is None:
            return False
        if self._gate is None:
            self._read += len(lowered)
            if self._read < GATE_AFTER_CHARS:
                return False
            self._gate = literal_gate(self.pattern)
        return self._gate.rules_out(lowered)


class GateTable:
    """The gates of a table of patterns, read together: each of their words is looked for once a text, not once a
    pattern (a signal table's fifty gates share most of their words). Made, as a pattern's gate is, once the table
    has read :data:`GATE_AFTER_CHARS` characters."""

    def __init__(self, patterns: Sequence[re.Pattern[str]]) -> None:
        self._patterns = tuple(patterns)
        self._read = 0
        self._words: dict[str, int] | None = None  # each word, by the bits of the groups that hold it
        self._required: tuple[int, ...] = ()  # each pattern's groups, as bits

    def open_to(self, lowered: str | None) -> list[bool]:
        """Which patterns may match a text: ``lowered`` is its lower case when the text is ASCII, else None (all
        may)."""
        if lowered is None:
            return [True] * len(self._patterns)
        words = self._words
        if words is None:
            self._read += len(lowered)
            if self._read < GATE_AFTER_CHARS:
                return [True] * len(self._patterns)
            words = self._words = self._made()
        held = 0
        for word, bits in words.items():
            if word in lowered:
                held |= bits
        return [not required & ~held for required in self._required]

    def _made(self) -> dict[str, int]:
        """Each word by the bits of the groups that hold it; each pattern's groups as bits are kept beside."""
        words: dict[str, int] = {}
        required = []
        bit = 1
        for pattern in self._patterns:
            mine = 0
            for group in literal_gate(pattern).groups:
                for word in group:
                    words[word] = words.get(word, 0) | bit
                mine |= bit  # a group of no word is never held: no ASCII text matches
                bit <<= 1
            required.append(mine)
        self._required = tuple(required)
        return words


def _ascii_forms(literal: str, flags: int) -> list[str]:
    """The lower cases of the ASCII texts ``literal`` matches: none for "永远"; "artik" for "artık", whose dotless "ı"
    matches "i" ignoring case. A case-sensitive pattern's word is found in the lower case too."""
    forms = [""]
    for char in literal:
        if char.isascii():
            forms = [form + char.lower() for form in forms]
            continue
        matched = sorted({ascii_char.lower() for ascii_char in re.findall(re.escape(char), _ASCII, flags & re.I)})
        forms = [form + lower for form in forms for lower in matched]
    return forms


def _required(items: Any, flags: int) -> Groups:
    """The groups of strings of which every match of the parsed sequence ``items`` holds one each.

    A run of literals is a group of one; a group, a repeat of at least once and a lookahead or lookbehind that must
    match hold what their body holds; a branch holds one string of the best group of each alternative."""
    groups: Groups = []
    run: list[str] = []
    for op, argument in items:
        name = str(op)
        if name == "LITERAL":
            run.append(chr(argument))
            continue
        if run:
            groups.append({"".join(run)})
            run = []
        groups.extend(_required_of(name, argument, flags))
    if run:
        groups.append({"".join(run)})
    return groups


def _required_of(name: str, argument: Any, flags: int) -> Groups:
    """What one item of a parsed sequence holds (see :func:`_required`); nothing told for anything else."""
    if name == "SUBPATTERN":
        _, added, _, body = argument
        if added & re.IGNORECASE and not flags & re.IGNORECASE:
            return []  # a group that ignores case in a pattern that does not: its words are not the pattern's
        return _required(body, flags)
    if name == "BRANCH":
        best = [_best(_required(alternative, flags)) for alternative in argument[1]]
        if any(group is None for group in best):
            return []  # an alternative that holds no word
        return [set().union(*(group for group in best if group is not None))]
    if name in _REPEATS:
        least, _, body = argument
        return _required(body, flags) if least >= 1 else []
    if name == "ATOMIC_GROUP":
        return _required(argument, flags)
    if name == "ASSERT":  # a lookahead or lookbehind that must match: its text is in the searched text
        return _required(argument[1], flags)
    return []


def _best(groups: Groups) -> set[str] | None:
    """The group whose shortest string is longest (the fewest strings breaking a tie): the one that rules most out."""
    return max(groups, key=lambda group: (min(map(len, group)), -len(group)), default=None)
