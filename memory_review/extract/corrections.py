"""Corrections: "no, use pnpm" said once is a task detail; said in two turns it is a preference.

A correction is a sentence that rejects what the agent did and says what to do instead.
Its *key* is the instruction reduced to its content words (or, in Chinese, to its
characters), so "no, use pnpm" and "I said use pnpm!" count as the same correction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory_review.extract.textutil import content_words, normalize

_I = re.IGNORECASE
_EN_PREFIX = re.compile(
    r"^(?:no+|nope|nah|wrong|not\s+like\s+that|that's\s+(?:wrong|not\s+(?:right|what\s+i\s+(?:said|asked|meant)))|"
    r"actually|again|i\s+(?:already\s+)?(?:said|told\s+you)(?:\s+to)?)\b[\s,.!:;\u2014\u2013-]*(?P<rest>.+)$",
    _I,
)
_EN_INSTEAD = re.compile(
    r"^(?:please\s+)?(?P<rest>(?:use|run|call|keep|put|write|import|return|name|pass|set)\s.+?)"
    r"(?:,\s*not\b|\binstead\b|\brather\s+than\b)",
    _I,
)
_EN_IMPERATIVE = re.compile(
    r"^(?:please\s+)?(?:(?:don'?t|do\s+not|never|always)\s+)?(?:use|run|call|keep|put|write|import|return|"
    r"name|add|remove|make|do|stick|switch|go|pass|set|move|leave|mock|test|format|start|stop)\b",
    _I,
)
_EN_CUT = re.compile(r"(?:,\s*not\b|\binstead\b|\brather\s+than\b|[,.;!]).*$", _I)
_NEGATIVE = re.compile(r"^(?:please\s+)?(?:don'?t|do\s+not|never)\b|^(?:请)?(?:不要|别)", _I)
_ZH_PREFIX = re.compile(r"^(?:不对|不是这样|错了|我说了|我说过|说了)[，,。！!：:\s]*(?P<rest>.+)$")
_ZH_IMPERATIVE = re.compile(r"^(?:请)?(?:用|使用|改用|换成|要用|不要|别)")
_ZH_CUT = re.compile(r"[，,。；;！!].*$")
MAX_KEY_WORDS = 4
# A correction is one short sentence: longer text is not looked at, which also bounds the patterns' work. No pattern
# here joins two runs that can both take spaces ("use\s+.+?\s*,"): on a run of spaces those multiply, and "use"
# before 1,000 spaces took 10 s (round 10's hostile-input run).
MAX_CHARS = 600


@dataclass(frozen=True)
class Correction:
    """One corrective instruction: its comparison key, its wording, and whether it forbids."""

    key: str
    phrase: str
    negative: bool


def find_correction(sentence: str) -> Correction | None:
    """The correction a sentence makes, if it is one."""
    text = sentence.strip().replace("\u2019", "'")
    if len(text) > MAX_CHARS:
        return None
    return _english(text) or _chinese(text)


def _english(text: str) -> Correction | None:
    match = _EN_PREFIX.match(text) or _EN_INSTEAD.match(text)
    if match is None:
        return None
    rest = match.group("rest").strip()
    if not _EN_IMPERATIVE.match(rest):
        return None
    phrase = _EN_CUT.sub("", rest).strip()
    key = " ".join(content_words(phrase)[:MAX_KEY_WORDS])
    if not key:
        return None
    return Correction(key=key, phrase=rest.rstrip(" .!"), negative=_NEGATIVE.match(rest) is not None)


def _chinese(text: str) -> Correction | None:
    match = _ZH_PREFIX.match(text)
    if match is None:
        return None
    rest = match.group("rest").strip()
    if not _ZH_IMPERATIVE.match(rest):
        return None
    key = re.sub(r"\s+", "", normalize(_ZH_CUT.sub("", rest)))
    if not key:
        return None
    return Correction(key=key, phrase=rest.rstrip("。！! "), negative=_NEGATIVE.match(rest) is not None)
