"""Text helpers shared by the extractors and the planner: sentences, normal forms, tokens, slugs.

Everything is deterministic and works on English and Chinese alike: words for Latin
script, character bigrams for CJK (which has no spaces to split on).
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import accumulate

# A sentence ends at . ! ? ; followed by space or line end (so "pyproject.toml" stays
# whole), at any CJK terminator, or at a line break: statements never span lines,
# which keeps every quote a substring of a single source line.
# An ellipsis that goes on in lower case ("put my... your words into my mouth") is a pause in one sentence, as people
# type or dictate it (held-out 255, ADR 0137).
_SENTENCE_END = re.compile(r"(?<!\.\.)\.(?=\s|$)|\.(?=\s|$)(?!\s+[a-z])|[!?;](?=\s|$)|[。！？；]|\n")
# A line's marks before its words: a list marker, a number, a heading, or pictographs ("❌ ", "✅", "📁 ", "→ "),
# which people (and the chat models whose briefs they paste) put before each rule of a list (ADR 0069)
_PICTOGRAPH = "\u2190-\u21ff\u2300-\u23ff\u25a0-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff"
_LEADING_NOISE = re.compile(
    rf"(?:[-*+•]\s+|\d{{1,3}}[.)]\s+|#{{1,6}}\s+|[{_PICTOGRAPH}][\ufe0f\u200d\U0001f3fb-\U0001f3ff]*\s*)+"
)
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"[a-z0-9][a-z0-9+#]*(?:['’][a-z]+)?")
_SPACE = re.compile(r"\s+")
# A file named by its name and extension ("ai-prompts.txt", "notes.md"), not a path's middle or a URL's host part
FILE_NAME = re.compile(r"(?<![\w/.-])[\w-]+(?:\.[\w-]+)*\.[a-z]{1,5}\b(?![/\w])", re.IGNORECASE)
_EDGE_PUNCT = " \t.,;:!?。，；：！？、\"'“”‘’()[]{}<>`*_-—–"

STOPWORDS: frozenset[str] = frozenset(
    """a an the to of in on for and or but with at by from as is are be been being it its this that
    these those our we us i me my you your yours please also just so then there here into onto than
    about over under up out off do does did doing done can could would should will shall may might must
    very really much more most some any all each every both either neither what which who whom whose
    when where why how if else because while until not no nor only own same too again further once
    ok okay yes yeah hey hi thanks thank let let's lets i'm i've i'd we're we've you're it's that's
    instead rather""".split()  # noqa: SIM905 (a word list reads better as prose)
)


def line_spans(text: str, start: int = 0) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each line of ``text`` from ``start`` on, its line break left out."""
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        yield start, end
        start = end + 1


def sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each sentence in ``text``, trimmed, skipping fenced code blocks."""
    in_fence = False
    line_start = 0
    for line in text.splitlines(keepends=True):
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and not line.lstrip().startswith((">", "|")):
            yield from _line_sentences(text, line_start, line_start + len(line.rstrip("\r\n")))
        line_start += len(line)


# A hard-wrapped message (lines broken at ~72-80 columns inside a sentence, as editors and `git commit` do)
# is read as paragraphs: a line break after a long line that ends mid-sentence joins the next line, unless
# that line starts something of its own (a list item, a heading, a fence, a quote, a table row) (ADR 0054).
WRAP_MIN_COLUMNS = 55
WRAP_MAX_COLUMNS = 100
_ENDS_SENTENCE = re.compile(r"[.!?;:。！？；：]\s*$")
_OWN_LINE = re.compile(r"^\s*(?:$|[-*+•>|]\s|\d{1,3}[.)]\s|#{1,6}\s|```|~~~|<\w)")


# A line of any length that ends on a word no sentence ends on ("… are expressions of") and a next line that goes on in
# lower case ("it, not replacements for it.") are one sentence too: a terminal's narrow wrap pasted back (ADR 0107).
_DANGLING = frozenset(
    """of the a an to and or but with for from in into on at by than that which whose is are was were be been our your
    their its my this these those""".split()  # noqa: SIM905 (a word list reads better as prose)
)
_GOES_ON = re.compile(r"^\s*[a-z]")


def unwrapped(text: str) -> str:
    """``text`` with its hard-wrap line breaks turned into spaces (same length, so spans still match)."""
    lines = text.splitlines(keepends=True)
    if len(lines) < 2:
        return text
    narrow = max(len(line.rstrip("\r\n")) for line in lines) <= WRAP_MAX_COLUMNS  # every line a wrap could make
    out: list[str] = []
    for line, following in zip(lines, [*lines[1:], ""], strict=True):
        body = line.rstrip("\r\n")
        wraps = (
            bool(following.strip())
            and (
                (narrow and len(body.strip()) >= WRAP_MIN_COLUMNS)
                or (_last_word(body) in _DANGLING and _GOES_ON.match(following) is not None)
            )
            and not _ENDS_SENTENCE.search(body)
            and not _OWN_LINE.match(following)
            and not _FENCE.match(line)
        )
        out.append(body + " " * (len(line) - len(body)) if wraps else line)
    return "".join(out)


def _last_word(line: str) -> str:
    last = line.rsplit(None, 1)
    return last[-1].casefold() if last else ""


def _line_sentences(text: str, start: int, stop: int) -> Iterator[tuple[int, int]]:
    begin = start
    for match in _SENTENCE_END.finditer(text, start, stop):
        span = _trim(text, begin, match.end())
        if span:
            yield span
        begin = match.end()
    span = _trim(text, begin, stop)
    if span:
        yield span


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start].isspace():
        start += 1
    noise = _LEADING_NOISE.match(text, start, end)
    if noise:
        start = noise.end()
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None


def normalize(text: str) -> str:
    """The comparison form of a statement: NFKC, case-folded, single spaces, no edge punctuation."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    return _SPACE.sub(" ", folded).strip(_EDGE_PUNCT)


def has_cjk(text: str) -> bool:
    """True when the text contains CJK ideographs."""
    return _CJK.search(text) is not None


def words(text: str) -> list[str]:
    """Latin-script words of ``text`` (normalised), stopwords included, in order."""
    return _WORD.findall(normalize(text))


def content_words(text: str) -> list[str]:
    """Latin-script words without stopwords, lightly stemmed, in order."""
    return [_stem(word) for word in words(text) if word not in STOPWORDS]


def _stem(word: str) -> str:
    # Plural and third-person endings only: enough for "tests"/"test" and
    # "dependencies"/"dependency", harmless elsewhere.
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokens(text: str) -> frozenset[str]:
    """The bag used for overlap: content words plus CJK character bigrams."""
    bag = set(content_words(text))
    for run in _CJK_RUN.findall(normalize(text)):
        bag.update(run[i : i + 2] for i in range(max(1, len(run) - 1)))
    return frozenset(bag)


def overlap(left: frozenset[str], right: frozenset[str]) -> float:
    """Jaccard similarity of two token bags (0 when either is empty)."""
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def leaders(bags: Sequence[frozenset[str]], threshold: float) -> list[int]:
    """For each bag, the index of the first earlier group leader it overlaps by ``threshold`` or more, else its own
    (it leads a new group): what comparing each bag with every leader in order gives, without doing that.

    Comparing every bag with every leader is quadratic, and one pasted message of distinct named instructions made
    it minutes; :class:`BagIndex` gives the only leaders that can match (ADR 0075).
    """
    index = BagIndex(bags, threshold)
    chosen: list[int] = []
    for position, bag in enumerate(bags):
        candidates = index.candidates(position)
        leader = next((c for c in sorted(candidates) if overlap(bag, bags[c]) >= threshold), position)
        chosen.append(leader)
        if leader == position:
            index.add(position)
    return chosen


class BagIndex:
    """The bags added so far that may overlap a bag by Jaccard ``threshold`` (and, with ``contained``, that hold it
    or sit in it with at most ``contained`` times its words): a superset of the ones that do, found without comparing
    with all of them.

    A bag is compared only with those that share a token in their *prefixes* (each bag's rarest tokens, the prefix
    filter of similarity joins, PPJoin): one no longer than the bag is looked up by its short *indexing* prefix with
    the bag's probing prefix, a longer one by its probing prefix with the bag's indexing prefix. Two bags that overlap
    by ``threshold`` always share a token there. The short prefix keeps a token every bag holds ("periodically run
    x1", "…x2", …) out of the lookups (ADR 0075). A bag inside another holds that one's rarest token, or gives its own
    rarest to it (ADR 0080).
    """

    def __init__(self, bags: Sequence[frozenset[str]], threshold: float, contained: int = 0) -> None:
        self._bags = bags
        self._threshold = threshold
        self._contained = contained
        self._frequency = Counter(token for bag in bags for token in bag)
        self._by_indexing: dict[str, list[int]] = {}  # bags added, under their indexing prefix's tokens
        self._by_probing: dict[str, list[int]] = {}  # bags added, under their probing prefix's tokens
        self._by_rarest: dict[str, list[int]] = {}  # bags added, under their rarest token (with ``contained``)
        self._by_token: dict[str, list[int]] = {}  # bags added, under every token (with ``contained``)
        self._prefixes: dict[int, tuple[list[str], list[str]]] = {}  # a bag's, made once whether probed or added

    def add(self, position: int) -> None:
        """Add the bag at ``position`` of the bags given."""
        bag = self._bags[position]
        probing, indexing = self._prefixes_of(position)
        for token in indexing:
            self._by_indexing.setdefault(token, []).append(position)
        for token in probing:
            self._by_probing.setdefault(token, []).append(position)
        if self._contained and bag:
            self._by_rarest.setdefault(probing[0], []).append(position)
            for token in bag:
                self._by_token.setdefault(token, []).append(position)

    def candidates(self, position: int) -> set[int]:
        """The positions of bags added that may be near the bag at ``position``."""
        bag = self._bags[position]
        bags = self._bags
        probing, indexing = self._prefixes_of(position)
        size = len(bag)
        found = {c for token in probing for c in self._by_indexing.get(token, ()) if len(bags[c]) <= size}
        found.update(c for token in indexing for c in self._by_probing.get(token, ()) if len(bags[c]) > size)
        if self._contained and bag:
            found.update(c for token in bag for c in self._by_rarest.get(token, ()))  # inside this bag
            found.update(self._by_token.get(probing[0], ()))  # holding this bag
        return found

    def _prefixes_of(self, position: int) -> tuple[list[str], list[str]]:
        made = self._prefixes.get(position)
        if made is None:
            made = self._prefixes[position] = _prefixes(self._bags[position], self._frequency, self._threshold)
        return made


def _prefixes(bag: frozenset[str], frequency: Counter[str], threshold: float) -> tuple[list[str], list[str]]:
    # A pair with Jaccard >= t shares at least ceil(t * |bag|) of this bag's tokens, and when this bag is the shorter,
    # at least ceil(2t / (1 + t) * |bag|); the tolerance keeps 0.6 * 5 (which floats make 3.0000000000000004) at 3, and
    # a longer prefix only adds candidates, never loses one.
    ordered = sorted(bag, key=lambda token: (frequency[token], token))
    probing = len(bag) - math.ceil(threshold * len(bag) - 1e-9) + 1
    indexing = len(bag) - math.ceil(2 * threshold / (1 + threshold) * len(bag) - 1e-9) + 1
    return ordered[:probing], ordered[:indexing]


class Covered:
    """Whether a span lies inside (or meets) any of some ranges, each asked in O(log n).

    Asking every range for every sentence is quadratic, and a message of thousands of quoted sentences took seconds
    (ADR 0075). Sorted by start, the furthest end reached by the ranges that start at or before a span's start tells
    whether one of them holds it.
    """

    def __init__(self, ranges: Sequence[tuple[int, int]]) -> None:
        ordered = sorted(ranges)
        self._starts = [start for start, _ in ordered]
        self._reach = list(accumulate((end for _, end in ordered), max))

    def covers(self, start: int, end: int) -> bool:
        """True when a range starts at or before ``start`` and ends at or after ``end``."""
        position = bisect_right(self._starts, start)
        return position > 0 and self._reach[position - 1] >= end

    def overlaps(self, start: int, end: int) -> bool:
        """True when a range starts before ``end`` and ends after ``start``."""
        position = bisect_left(self._starts, end)
        return position > 0 and self._reach[position - 1] > start


def slug(prefix: str, text: str, *, ignore: frozenset[str] = frozenset(), max_words: int = 4) -> str:
    """A deterministic memory id from a statement, like ``forbidden-mock-database-test``.

    CJK statements (whose words cannot appear in a slug) get a short content hash,
    so different statements never share an id by accident.
    """
    kept = (w for w in words(text) if w not in STOPWORDS and w not in ignore)
    picked = [_stem(w) for w in kept if re.fullmatch(r"[a-z0-9]+", w)]
    parts = [prefix, *picked[:max_words]]
    if has_cjk(text) or not picked:
        parts.append(hashlib.sha256(normalize(text).encode()).hexdigest()[:8])
    return "-".join(parts)[:64].rstrip("-")


def fence_after(line: str, fence: tuple[str, int] | None) -> tuple[str, int] | None:
    """The open fence after ``line``: CommonMark's, closed only by the same character, at least as long, alone."""
    opened = _FENCE_OPEN.match(line)
    if opened is None:
        return fence
    run, info = opened.group(1), opened.group(2)
    if fence is None:
        return None if run[0] == "`" and "`" in info else (run[0], len(run))
    closes = run[0] == fence[0] and len(run) >= fence[1] and not info.strip()
    return None if closes else fence
