"""What ``forget`` takes out, and how every kind of stored text is redacted (pure; ADR 0019).

A :class:`Needle` is the text (or pattern) to forget; every match in a string becomes
:data:`MARKER`. Redaction works on decoded values — JSON strings, memory fields — never on
raw bytes alone, so a secret stored with escapes (``\\"`` in JSON, a quoted YAML value) is
found too.

A hash over text that held the secret is itself a way to test guesses of it (everything
else in the hashed bytes can be read after the rewrite). So no such hash is kept:
:class:`LogRedactor` maps every old hash it can recompute to the new one — a memory's
sha256 (manifest entries, candidate bases, ``context.built`` items), a sync content key, the
line hashes of the rewritten lines (sync version ids) — and drops the one it cannot: the
sha256 of a context block that showed a changed memory (that context is marked
``forgotten`` instead; ``replay --session`` reports it as changed).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memory_review.candidate import candidate_from_json, render_diff
from memory_review.errors import MemoryReviewError, ValidationError
from memory_review.models import Memory
from memory_review.record_io import memory_from_json, memory_sha256
from memory_review.sync_merge import content_key

MARKER = "[forgotten]"
MIN_TEXT_CHARS = 6
"""Shorter texts match too much ordinary writing to be taken out everywhere without a look first."""
_IDENTIFIERS = ("type", "session", "candidate", "origin", "ts", "actor")


@dataclass(frozen=True)
class Needle:
    """The text to forget, as a compiled pattern (a literal text is escaped)."""

    regex: re.Pattern[str]
    kind: str  # "text" or "pattern"

    @classmethod
    def of(cls, *, text: str | None = None, pattern: str | None = None) -> Needle:
        if (text is None) == (pattern is None):
            raise ValidationError("give exactly one of a text or a pattern to forget")
        if text is not None:
            if len(text.strip()) < MIN_TEXT_CHARS:
                raise ValidationError(f"the text to forget must have at least {MIN_TEXT_CHARS} characters")
            return cls(re.compile(re.escape(text)), "text")
        try:
            regex = re.compile(pattern or "")
        except re.error as exc:
            raise ValidationError(f"not a valid regular expression: {exc}", field="pattern") from exc
        if regex.search("") is not None or regex.search(MARKER) is not None:
            raise ValidationError("the pattern matches the empty text or the redaction marker itself", field="pattern")
        return cls(regex, "pattern")

    def sub(self, text: str) -> tuple[str, int]:
        """``text`` with every match replaced by the marker, and how many there were."""
        return self.regex.subn(MARKER, text)

    def count(self, text: str) -> int:
        return sum(1 for _ in self.regex.finditer(text))

    def count_bytes(self, data: bytes) -> int:
        """Matches in stored bytes, read as UTF-8 (bytes that are not UTF-8 cannot hold a text match)."""
        return self.count(data.decode("utf-8", "replace"))


@dataclass
class JsonRedactor:
    """Redacts strings (and object keys) of JSON values, renaming known hashes on the way."""

    needle: Needle
    hashes: dict[str, str] = field(default_factory=dict)
    """Old hash -> new hash of every redacted record this redactor has seen."""
    found: Counter[str] = field(default_factory=Counter)
    """Matches taken out, per place."""

    def value(self, value: Any, *, place: str, renamed: Mapping[str, str] = {}) -> Any:  # noqa: B006
        if isinstance(value, str):
            text, hits = self.needle.sub(value)
            if hits and place:
                self.found[place] += hits
            return renamed.get(text) or self.hashes.get(text, text)
        if isinstance(value, list):
            return [self.value(item, place=place, renamed=renamed) for item in value]
        if isinstance(value, dict):
            return {
                self.value(k, place=place, renamed=renamed): self.value(v, place=place, renamed=renamed)
                for k, v in value.items()
            }
        return value

    def quiet(self, value: Any) -> Any:
        """Redacted without counting (to work out a record's new hashes before the counted pass)."""
        return self.value(value, place="", renamed={})

    def memory(self, old: Memory, where: str) -> Memory:
        """A memory with its text redacted; its old and new hashes are remembered."""
        from memory_review.record_io import memory_to_json  # noqa: PLC0415 - beside its inverse

        raw = memory_to_json(old)
        new = _checked(lambda: memory_from_json(self.quiet(raw), where=where), where)
        self._pair(memory_sha256(old), memory_sha256(new))
        self._pair(content_key(raw), content_key(memory_to_json(new)))
        return new

    def _pair(self, old: str, new: str) -> None:
        if old != new:
            self.hashes[old] = new


@dataclass
class LogRedactor(JsonRedactor):
    """The edit :func:`events.rewrite.rechain` runs on each event of one log."""

    forget_seq: int = 0
    """The seq the ``store.forgotten`` event gets: changed contexts point at it."""
    where: str = "events.jsonl"
    contexts: list[int] = field(default_factory=list)
    """Seqs of the ``context.built`` events whose block showed redacted text."""

    def __call__(self, fields: dict[str, Any], renamed: Mapping[str, str]) -> dict[str, Any]:
        where = f"{self.where} seq {fields.get('seq')}"
        self._refuse_identifiers(fields, where)
        self._learn_records(fields, where)
        edited = self.value(fields, place="events.jsonl", renamed=renamed)
        if edited == fields:
            return fields
        if isinstance(edited.get("record"), dict) and edited.get("type") in ("candidate.created", "candidate.edited"):
            edited["record"] = self._fresh_diff(edited["record"], where)
        if edited.get("type") == "context.built" and isinstance(edited.get("context"), dict):
            edited["context"] = self._changed_context(edited["context"], fields["seq"])
        return edited

    def _refuse_identifiers(self, fields: dict[str, Any], where: str) -> None:
        names = [n for n in _IDENTIFIERS if isinstance(fields.get(n), str) and self.needle.count(fields[n])]
        names += [
            f"changes.memory {c.get('memory')!r}"
            for c in fields.get("changes") or ()
            if isinstance(c, dict) and self.needle.count(str(c.get("memory", "")))
        ]
        if names:
            raise ValidationError(
                f"{where}: the text occurs in {', '.join(names)}; forget rewrites text, "
                "never an identifier or who acted",
                hint="forget a longer, more exact text",
            )

    def _learn_records(self, fields: dict[str, Any], where: str) -> None:
        for change in fields.get("changes") or ():
            for side in ("before", "after"):
                if isinstance(change.get(side), dict):
                    self.memory(
                        _checked(lambda s=side, change=change: memory_from_json(change[s], where=where), where), where
                    )
        record = fields.get("record")
        if isinstance(record, dict) and fields.get("type") in ("candidate.created", "candidate.edited"):
            candidate = _checked(lambda: candidate_from_json(record, where=where), where)
            for change in candidate.changes:
                for memory in (change.before, change.after):
                    if memory is not None:
                        self.memory(memory, where)

    @staticmethod
    def _fresh_diff(record: dict[str, Any], where: str) -> dict[str, Any]:
        # The diff is derived from the changes; derived again, a secret split over lines cannot stay in it.
        candidate = _checked(lambda: candidate_from_json(record, where=where), where)
        return {**record, "diff": render_diff(candidate.changes)}

    def _changed_context(self, context: dict[str, Any], seq: int) -> dict[str, Any]:
        """A context that showed redacted text keeps no hash of what it showed; it points at the forget."""
        self.contexts.append(seq)
        kept = {k: v for k, v in context.items() if k != "sha256"}
        return {**kept, "forgotten": self.forget_seq}


def _checked(build, where: str):  # noqa: ANN001, ANN202 - a thunk and what it builds
    """Run ``build``; a record the redaction made invalid is one clear error naming where."""
    try:
        return build()
    except MemoryReviewError as exc:
        raise ValidationError(
            f"the text occurs in an identifier or a fixed-form field, which forget never "
            f"rewrites: with it redacted, {exc}",
            hint="forget a longer, more exact text",
        ) from exc
