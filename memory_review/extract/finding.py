"""A finding: one memory an extractor thinks the transcript supports, with its evidence and flags.

Findings are pure values. :func:`memory_review.extract.plan.plan` turns them into
proposals after comparing them with what the stores already hold.

Secrets: every text that leaves the transcript (description, body *and* the evidence
quote) goes through :func:`memory_review.safety.redact`. A quote is therefore verbatim
from the turn unless the finding carries the ``secret`` flag, in which case the secret
inside it reads ``[REDACTED:<kind>]`` — the event log is append-only, and a secret
written into it could never be taken back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import Field, field_serializer

from memory_review import safety
from memory_review.extract.textutil import content_words, slug, tokens
from memory_review.limits import MAX_EVIDENCE_ITEMS
from memory_review.models import MAX_DESCRIPTION_CHARS, DurableScope, MemoryType, Strict
from memory_review.proposal import Evidence, Priority, ProposedMemory
from memory_review.safety import redact_within

FLAG_UNTRUSTED = "untrusted-source"
# A stored memory is at most 4,096 bytes with its frontmatter, and every evidence quote
# is copied into it as a source: these caps keep a finding's record well inside that.
MAX_STATEMENT_BYTES = 1200
MAX_QUOTE_BYTES = 600
# All of a finding's sources together, each its quote with its session id (twice: the source and the memory's
# related sessions), its turn id and the lines that hold them: what the memory file has room for beside a statement and
# description of 600 bytes each. With UUID ids a rule of 40 bytes said in ten sessions is quoted from all ten, one of
# 600 bytes from two (ADR 0073).
MAX_EVIDENCE_BYTES = 2200
_SOURCE_LINES_BYTES = 64
TYPE_PREFIX: dict[str, str] = {
    "forbidden": "forbidden",
    "preference": "pref",
    "convention": "conv",
    "fact": "fact",
}
# Words that say *that* something is a rule, not *what* the rule is about.
SLUG_IGNORE: frozenset[str] = frozenset(
    """remember never always prefer don't dont use using convention conventions project repo repository
    codebase now forward future note mind avoid stop like hate dislike preference rule rules default
    time whenever make sure keep bear redacted""".split()  # noqa: SIM905 (a word list reads better as prose)
)
# The same words as a token bag holds them, stemmed ("always" is "alway" there): what is left is what a rule is about.
BAG_IGNORE: frozenset[str] = SLUG_IGNORE | frozenset(content_words(" ".join(sorted(SLUG_IGNORE))))


def rule_bag(text: str) -> frozenset[str]:
    """The words a rule is about, for comparing two rules: "never use tabs" and "always use tabs" are one topic."""
    return frozenset(t for t in tokens(text) if t not in BAG_IGNORE)


# Whole words only: "Some of it is redundant" is no "So" before "me of it", nor "Android" an "And" (held-out 178); "Note
# to self:" is one lead-in, not "note" before "To self: …"
_FILLER = re.compile(
    # "Remember to always run the tests." says "Always run the tests.", not "To always run the tests."
    r"^(?:(?:(?:remember|(?:keep|bear) in mind)\s+to(?=\s)|"
    r"(?:ok(?:ay)?|so|and|also|oh|btw|hey|please|pls|just|alright|one more thing|"
    r"remember|note(?: to self)?|(?:keep|bear) in mind|fyi|for the record|just so you know|from now on|going forward|"
    r"moving forward|in (?:the )?future)\b\s*(?:that\b|[,:.!;\u2014-])?"
    r"|(?:no|nope|actually|again)\b\s*[,:\u2014-])\s*)+",
    re.IGNORECASE,
)
_ZH_FILLER = re.compile(r"^(?:(?:请|记住|记得|注意|另外|还有|好的|好|以后|今后|从现在开始)[，,：:]?\s*)+")


class Finding(Strict):
    """One proposed memory with why (``rationale``, ``signal``) and where (``evidence``) it came from."""

    memory: ProposedMemory
    scope: DurableScope
    rationale: str = Field(min_length=1, max_length=2000)
    evidence: tuple[Evidence, ...] = Field(min_length=1)
    signal: str = Field(min_length=1)
    flags: frozenset[str] = frozenset()
    priority: Priority = "medium"

    @field_serializer("flags")
    def _sorted_flags(self, flags: frozenset[str]) -> list[str]:
        return sorted(flags)  # set order varies between runs; JSON output must not

    @property
    def quote(self) -> str:
        """The first evidence quote (the statement the finding was made from)."""
        return self.evidence[0].quote


class Redactions:
    """Each text's redaction and safety flags, worked out once for one run.

    A rule's quote is its statement, a turn's rationale is the same for each of its findings, and merging a group
    redacts its quotes again at each merge: one message of thousands of rules asked the same of the redactor many
    times over. Made for one run and dropped with it, so that no text the person said outlives the run in a
    long-lived process (the TUI)."""

    def __init__(self) -> None:
        self._redacted: dict[str, str] = {}
        self._flags: dict[str, frozenset[str]] = {}
        self._within: dict[tuple[str, int], str] = {}

    def redact(self, text: str) -> str:
        """:func:`memory_review.safety.redact`, once a text."""
        if text not in self._redacted:
            self._redacted[text] = safety.redact(text)
        return self._redacted[text]

    def scan(self, text: str) -> frozenset[str]:
        """:func:`memory_review.safety.scan`, once a text."""
        if text not in self._flags:
            self._flags[text] = safety.scan(text)
        return self._flags[text]

    def redact_within(self, text: str, limit: int) -> str:
        """:func:`memory_review.safety.redact_within`, once a text and limit."""
        if (text, limit) not in self._within:
            self._within[text, limit] = redact_within(text, limit)
        return self._within[text, limit]


def build_finding(
    statement: str,
    *,
    memory_type: MemoryType,
    scope: DurableScope,
    rationale: str,
    evidence: list[tuple[str, str | None, str | None]],
    signal: str,
    priority: Priority,
    extra_flags: frozenset[str] = frozenset(),
    memory_id: str | None = None,
    description: str | None = None,
    redactions: Redactions | None = None,
) -> Finding:
    """Make a finding from a statement: slug id, one-line description, redacted texts, safety flags.

    ``evidence`` holds ``(quote, session_id, turn_id)`` triples, quotes verbatim from the turns.
    ``memory_id`` and ``description`` replace the derived ones (a model names its own). ``redactions`` is the run's,
    when it makes many findings.
    """
    safe = redactions or Redactions()
    texts = [statement, description or "", *(quote for quote, _, _ in evidence)]
    flags = frozenset().union(*(safe.scan(text) for text in texts)) | extra_flags
    body = storable(safe.redact(statement))
    memory = ProposedMemory(
        id=memory_id or slug(TYPE_PREFIX[memory_type], body, ignore=SLUG_IGNORE),
        type=memory_type,
        description=describe(storable(safe.redact(description)) if description else body),
        body=body,
    )
    quotes = tuple(
        Evidence(
            quote=clip_bytes(safe.redact(quote), MAX_QUOTE_BYTES),
            session_id=session,
            turn_id=turn,
        )
        for quote, session, turn in evidence
    )
    return Finding(
        memory=memory,
        scope=scope,
        rationale=safe.redact_within(rationale, 2000),  # redacted, then cut: a cut can halve a key
        evidence=quotes,
        signal=signal,
        flags=flags,
        priority=priority,
    )


def within_evidence_bytes(
    evidence: Sequence[tuple[str, str | None, str | None]], redactions: Redactions | None = None
) -> int:
    """How many ``(quote, session_id, turn_id)`` from the first a memory file holds: at most the evidence limit
    (:data:`~memory_review.limits.MAX_EVIDENCE_ITEMS`), within :data:`MAX_EVIDENCE_BYTES` (at least one)."""
    safe = redactions or Redactions()
    used = 0
    for count, (quote, session, turn) in enumerate(evidence[:MAX_EVIDENCE_ITEMS]):
        stored = clip_bytes(safe.redact(quote), MAX_QUOTE_BYTES)
        ids = 2 * len((session or "").encode()) + len((turn or "").encode())
        used += len(stored.encode("utf-8", "surrogatepass")) + ids + _SOURCE_LINES_BYTES
        if used > MAX_EVIDENCE_BYTES:
            return max(count, 1)
    return min(len(evidence), MAX_EVIDENCE_ITEMS)


def storable(text: str) -> str:
    """``text`` without the control characters a memory file cannot hold (the flags still tell)."""
    clipped = clip_bytes(text, MAX_STATEMENT_BYTES)
    if clipped.isprintable():  # no control character in it: nothing to take out, and no loop over each character
        return clipped
    return "".join(ch for ch in clipped if ch in "\t\n" or not safety.is_control_char(ch))


def clip_bytes(text: str, limit: int) -> str:
    """The longest prefix of ``text`` whose UTF-8 encoding fits in ``limit`` bytes (still verbatim)."""
    encoded = text.encode("utf-8", "surrogatepass")
    if len(encoded) <= limit:
        return text
    return encoded[:limit].decode("utf-8", "ignore")


# A fenced command in a rule ("As you develop, run ``` hatch test ```" once on one line) reads as inline code
_FENCE_ON_ONE_LINE = re.compile(r"(?:```|~~~)[\w+-]{0,20} ([^`~]{1,400}?) (?:```|~~~)")


def describe(statement: str) -> str:
    """One concise line: the statement without lead-in fillers, capitalised, at most 200 chars."""
    line = " ".join(_FENCE_ON_ONE_LINE.sub(r"`\1`", " ".join(statement.split())).split())
    trimmed = _ZH_FILLER.sub("", _FILLER.sub("", line)).strip()
    if len(trimmed) < 3:
        trimmed = line
    trimmed = trimmed[:1].upper() + trimmed[1:]
    if len(trimmed) <= MAX_DESCRIPTION_CHARS:
        return trimmed
    cut = trimmed[: MAX_DESCRIPTION_CHARS - 1].rsplit(" ", 1)[0]
    return cut + "\u2026"
