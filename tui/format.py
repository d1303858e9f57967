"""How things look: ages, tags, flag marks, coloured diffs and event summaries.

Pure functions over library values that return plain strings or rich ``Text``;
no widget lives here. :class:`Display` carries the three things that make a
screen vary between runs (the clock, candidate ids, timestamps) so tests can
pin them and snapshots stay stable.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from rich.text import Text

from memory_review.candidate import Candidate, CandidateChange, render_diff
from memory_review.errors import MemoryReviewError
from memory_review.events import Change, Event
from memory_review.models import Memory
from memory_review.record_io import memory_from_json
from memory_review.safety import visible_form

FLAG_MARKS: dict[str, str] = {
    "possible-prompt-injection": "I",
    "secret": "S",
    "previously-discarded": "D",
    "stale-base": "B",
    "hidden-unicode": "H",
    "untrusted-source": "U",
    "sync-conflict": "C",
    "similar-to": "N",
    "overrides": "O",
    "overridden-by": "X",
    "uncovers": "R",
    "blank-padding": "P",
    "look-alike": "L",
}
FLAG_WORDS: dict[str, str] = {
    "possible-prompt-injection": "the text tries to steer the agent (override, exfiltration link, "
    "forged tag or hidden characters)",
    "secret": "looks like a token, key or password; it would be put into every prompt",
    "previously-discarded": "an identical proposal was discarded before",
    "stale-base": "the memory changed since this was proposed; applying it will conflict",
    "hidden-unicode": "holds characters a reader cannot see; the note leaves them out (the diff shows them)",
    "untrusted-source": "it came from text the agent read (a file, a tool result), not from the user",
    "sync-conflict": "another clone changed this memory differently; pick one",
    "similar-to": "nearly repeats something already there (side by side below)",
    "overrides": "the user store has a memory with this id: once applied, this one hides it from the agent "
    "(side by side below)",
    "overridden-by": "the project store has a memory with this id that wins: once applied, this one is never "
    "injected (side by side below)",
    "uncovers": "this hides the user memory with the same id now: once applied, that one is injected again "
    "(side by side below)",
    "blank-padding": "blank lines in a row push the rest of the note out of sight; the note keeps one",
    "look-alike": "a word mixes Latin letters with look-alikes from another script (marked in the text as stored)",
}
PRIORITY_RANK = {"high": 0, "medium": 1, "low": 2}
OP_STYLE = {"create": "green", "update": "yellow", "delete": "red", "consolidate": "magenta"}
RAISED = "raised (edited)"
"""The type column of a ``candidate.edited`` that is a raise by the proposer (ADR 0050), not a person's edit."""


EVENT_STYLE = {
    "candidate.created": "cyan",
    "candidate.edited": "yellow",
    RAISED: "bold yellow",
    "candidate.applied": "green",
    "candidate.discarded": "bright_black",
    "candidate.restored": "cyan",
    "memory.reverted": "magenta",
    "memory.deleted": "red",
    "context.built": "blue",
    "store.recovered": "bright_red",
    "session.written": "blue",
}


def _utc_now() -> datetime:
    return datetime.now(UTC)


def parse_ts(ts: str) -> datetime:
    """A record or event timestamp (``...Z``, with or without microseconds) as an aware datetime."""
    return datetime.fromisoformat(ts.replace("Z", "+00:00"))


def default_time_display(ts: str) -> str:
    """``2026-11-30 19:55:00`` for ``2026-11-30T19:55:00.123456Z`` (UTC, second precision)."""
    return ts[:19].replace("T", " ")


CANDIDATE_ID_RE = re.compile(r"cand_[0-9A-HJKMNP-TV-Z]{26}")
TIMESTAMP_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z")


@dataclass(frozen=True)
class Display:
    """The run-dependent parts of what is shown; tests pass fixed ones.

    ``time_display`` None shows timestamps as ``default_time_display`` does and
    leaves them untouched inside texts (diffs); a given one is applied there too.
    """

    clock: Callable[[], datetime] = _utc_now
    id_display: Callable[[str], str] = field(default=lambda cid: cid)
    time_display: Callable[[str], str] | None = None

    def in_text(self, text: str) -> str:
        """``text`` (a diff) with candidate ids and, if asked, timestamps shown the same way."""
        text = CANDIDATE_ID_RE.sub(lambda m: self.id_display(m.group()), text)
        shown = self.time_display
        if shown is not None:
            text = TIMESTAMP_RE.sub(lambda m: shown(m.group()), text)
        return text

    def age(self, ts: str) -> str:
        """How long ago ``ts`` was, in the largest whole unit: ``42s``, ``5m``, ``3h``, ``12d``."""
        return age_text((self.clock() - parse_ts(ts)).total_seconds())

    def cid(self, candidate_id: str | None) -> str:
        """A candidate id as shown (``-`` for none)."""
        return self.id_display(candidate_id) if candidate_id else "-"

    def now(self) -> str:
        """The clock as a record timestamp (``2026-11-30T19:55:00Z``), for the age of a note."""
        return self.clock().astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    def when(self, ts: str) -> str:
        """An absolute timestamp, then its age: ``2026-11-30 19:55:00 (5m ago)``."""
        shown = (self.time_display or default_time_display)(ts)
        return f"{shown} ({self.age(ts)} ago)"


def age_text(seconds: float) -> str:
    """A compact age; a timestamp from the future (clock skew) shows as ``0s``."""
    seconds = max(0, int(seconds))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def flag_marks(flags: Iterable[str]) -> str:
    """One letter per flag: ``I`` injection, ``S`` secret, ``D`` discarded before, ``B`` stale."""
    letters = "".join(FLAG_MARKS.get(flag_kind(flag), "?") for flag in sorted(flags))
    return f"⚠{letters}" if letters else ""  # the symbol survives NO_COLOR and the cursor bar


def flag_kind(flag: str) -> str:
    """The kind of a flag: ``similar-to:<id>`` is of kind ``similar-to``; others are their own."""
    return flag.split(":", 1)[0]


def memory_tag(memory: Memory) -> str:
    """The tag injection puts before the memory: ``[memory:project:fact]``."""
    return f"[memory:{memory.scope}:{memory.type}]"


def frame_text(frame: str, *, gone: bool = False) -> Text:
    """A note exactly as ``injection.render.render_frame`` made it, coloured; the bytes are untouched.

    The tag is cyan, the headline bold, the ``(id=...)`` trailer dim; a note that
    would be forgotten (``gone``) is struck through.
    """
    if gone:
        return Text(frame, style="strike dim")
    headline, _, body = frame.partition("\n")
    tag, _, rest = headline.partition(" ")
    cut = rest.rfind(" (id=") if rest.endswith(")") else -1
    title, trailer = (rest[:cut], rest[cut:]) if cut >= 0 else ("", f" {rest}" if rest else "")
    out = Text()
    out.append(tag, style="cyan")
    out.append(f" {title}" if title else "", style="bold")
    out.append(trailer, style="dim")
    out.append(f"\n{body}")
    return out


def proposer_text(candidate: Candidate) -> str:
    """``heuristic:extract`` or ``llm:extract (local-model)``."""
    proposer = candidate.proposer
    model = f" ({proposer.model})" if proposer.model else ""
    # an agent names itself: an escape sequence in its name or model reached the terminal (session 37's re-review)
    return visible_form(f"{proposer.kind}:{proposer.name}{model}")


def main_memory(candidate: Candidate) -> str:
    """The memory id a queue row names (the first one; ``+N`` for a consolidation of several)."""
    ids = candidate.memory_ids()
    return ids[0] if len(ids) == 1 else f"{ids[0]} +{len(ids) - 1}"


def description(candidate: Candidate) -> str:
    """The one-line description of what would be remembered (or of what a deletion removes)."""
    for change in candidate.changes:
        if change.after is not None:
            return visible_form(change.after.description)
    before = candidate.changes[0].before
    return f"forget: {visible_form(before.description)}" if before else "(nothing)"


def safe(text: str) -> str:
    """Text with every hidden character made visible, for any place a person reads it."""
    return visible_form(text)


def diff_text(diff: str, display: Display) -> Text:
    """A unified diff, coloured like git: additions green, removals red, hunks cyan."""
    out = Text()
    for line in display.in_text(visible_form(diff)).splitlines():
        out.append(line + "\n", style=_diff_style(line))
    if not out.plain:
        out.append("(no textual change)\n", style="dim")
    return out


def _diff_style(line: str) -> str:
    if line.startswith(("+++", "---")):
        return "bold"
    if line.startswith("@@"):
        return "cyan"
    if line.startswith("+"):
        return "green"
    if line.startswith("-"):
        return "red"
    return ""


def event_diff(event: Event) -> str:
    """The unified diff of an event's before/after snapshots ("" when it changed no memory)."""
    return changes_diff(event.changes or ())


def changes_diff(changes: Iterable[Change]) -> str:
    """Unified diff of logged changes, rendered as the memory files they stand for."""
    converted = []
    for change in changes:
        try:
            converted.append(
                CandidateChange(memory=change.memory, before=_record(change.before), after=_record(change.after))
            )
        except MemoryReviewError as exc:  # a snapshot the current rules reject: say so, do not hide it
            return f"(cannot show the diff of {change.memory}: {exc})\n"
    return render_diff(tuple(converted))


def _record(data: dict | None) -> Memory | None:
    return memory_from_json(data, where="event snapshot") if data is not None else None


def event_subject(event: Event, display: Display) -> str:
    """What an event is about, for a timeline row: its memories, else its candidate."""
    if event.changes:
        return ", ".join(change.memory for change in event.changes)
    record = event.record or {}
    changes = record.get("changes") or []
    ids = [c.get("memory") for c in changes if isinstance(c, dict) and c.get("memory")]
    if ids:
        return ", ".join(str(i) for i in ids)
    return display.cid(event.candidate)


def error_text(exc: MemoryReviewError) -> str:
    """The message a person reads for a library error: what happened, then what to do."""
    hint = f"\n{exc.hint}" if exc.hint else ""
    return f"{exc}{hint}"


ERROR_TITLES: dict[str, str] = {
    "ConflictError": "Conflict — nothing was written",
    "LockTimeoutError": "Store locked by another process",
    "ValidationError": "Not valid — nothing was written",
    "UnsafePathError": "Unsafe path — nothing was written",
    "NotFoundError": "Not found",
    "PermissionDeniedError": "Not allowed",
    "IntegrityError": "Store damaged — run `memory-review verify`",
    "StorageError": "Disk error",
}


def error_title(exc: MemoryReviewError) -> str:
    """A short title naming the kind of failure."""
    for cls in type(exc).__mro__:
        if cls.__name__ in ERROR_TITLES:
            return ERROR_TITLES[cls.__name__]
    return "Error"
