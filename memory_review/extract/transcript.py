"""What every transcript reader produces: a session as a list of turns, each saying who wrote it.

``role`` is the speaker slot the transcript put a message in; ``source`` is who actually
wrote the words. They differ on purpose: Claude Code records tool results, slash-command
wrappers and subagent prompts as role "user", but only ``source == "user"`` is the person
speaking, and only that is trusted by the extractors.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from memory_review.models import Strict

Role = Literal["user", "assistant", "tool", "system"]
TurnSource = Literal["user", "assistant", "tool-output", "file", "system"]
TranscriptFormat = Literal["claude-code", "claude-history", "codex", "gemini", "jsonl", "aider", "chat-export", "text"]

FORMATS: tuple[str, ...] = (
    "claude-code",
    "claude-history",
    "codex",
    "gemini",
    "jsonl",
    "aider",
    "chat-export",
    "text",
)
UNTRUSTED_SOURCES: frozenset[str] = frozenset({"tool-output", "file"})


class Turn(Strict):
    """One message of a transcript, with the exact text it holds.

    ``text`` is the message's text exactly as the file holds it (after JSON decoding);
    wrappers such as ``<system-reminder>`` blocks may be cut out, but never rewritten,
    so any span of one line of ``text`` appears verbatim in the source.
    """

    turn_id: str = Field(min_length=1)
    role: Role
    text: str
    source: TurnSource
    is_sidechain: bool = False
    index: int = Field(ge=0, description="0-based position of the turn in the transcript")
    line: int | None = Field(default=None, ge=1, description="1-based line where it starts, if line-based")
    session_id: str | None = None
    timestamp: str | None = None

    @property
    def is_user_speaking(self) -> bool:
        """True only for words the person typed in the main conversation."""
        return self.source == "user" and not self.is_sidechain


# A file of a million unusable lines kept a model object for each (3 GB for 10 MB, session 37's review): the first
# thousand are kept to report, and every one is counted by its reason, of which a few dozen kinds are told apart.
MAX_SKIPPED_KEPT = 1_000
MAX_SKIP_REASONS = 64
OTHER_REASONS = "other reasons"


class SkippedRecord(Strict):
    """A record a reader could not use; kept so nothing is dropped in silence."""

    line: int | None = None
    index: int | None = None
    reason: str


class Transcript(Strict):
    """A parsed session: its id, the turns in file order, and what was skipped."""

    session_id: str = Field(min_length=1)
    format: TranscriptFormat
    path: str | None = None
    turns: list[Turn]
    skipped: list[SkippedRecord] = Field(default_factory=list)
    """The first :data:`MAX_SKIPPED_KEPT` records skipped, for the report; ``skip_counts`` counts them all."""
    skip_counts: dict[str, int] = Field(default_factory=dict)

    def session_of(self, turn: Turn) -> str:
        """The session a turn belongs to (its own, else the transcript's)."""
        return turn.session_id or self.session_id

    def user_turns(self) -> list[Turn]:
        """The turns where the person speaks in the main conversation."""
        return [turn for turn in self.turns if turn.is_user_speaking]


def merge_transcripts(transcripts: list[Transcript]) -> Transcript:
    """Several session files as one run, each turn keeping its own session (ADR 0041).

    Repetition across sessions is the heuristic's strongest durable signal, and it can only be counted
    where the sessions are seen together; the first transcript names the run.
    """
    first = transcripts[0]
    if len(transcripts) == 1:
        return first
    turns = [
        turn.model_copy(update={"session_id": transcript.session_of(turn), "index": position})
        for position, (transcript, turn) in enumerate((t, turn) for t in transcripts for turn in t.turns)
    ]
    skipped = [record for transcript in transcripts for record in transcript.skipped][:MAX_SKIPPED_KEPT]
    counts: dict[str, int] = {}
    for transcript in transcripts:
        for reason, count in transcript.skip_counts.items():
            counts[reason] = counts.get(reason, 0) + count
    return Transcript(
        session_id=first.session_id, format=first.format, path=None, turns=turns, skipped=skipped, skip_counts=counts
    )
