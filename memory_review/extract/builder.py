"""Collecting turns while a reader walks a file: unique ids, positions, and skipped records."""

from __future__ import annotations

import re
from pathlib import Path

from memory_review.extract.transcript import (
    MAX_SKIP_REASONS,
    MAX_SKIPPED_KEPT,
    OTHER_REASONS,
    Role,
    SkippedRecord,
    Transcript,
    TranscriptFormat,
    Turn,
    TurnSource,
)
from memory_review.ids import SESSION_ID_MAX, SESSION_ID_RE
from memory_review.limits import MAX_TURN_ID_CHARS
from memory_review.proposal import check_turn_id

_NOT_SESSION_CHAR = re.compile(r"[^A-Za-z0-9_.-]+")


def session_key(raw: str) -> str:
    """A session id the stores accept (``SESSION_ID_RE``), derived deterministically from ``raw``.

    Ids written by the tool that made the transcript are kept as they are when valid;
    anything else (a file stem like ``.aider.chat.history``, or a hostile ``../x``) is
    reduced to safe characters, so it can never become a path outside a store.
    """
    if SESSION_ID_RE.fullmatch(raw):
        return raw
    cleaned = _NOT_SESSION_CHAR.sub("-", raw).lstrip("-_.")[:SESSION_ID_MAX].rstrip("-")
    return cleaned or "transcript"


# Room left under the evidence limit for the "@line" and "+" a repeated id gets.
_TURN_ID_KEPT = MAX_TURN_ID_CHARS - 40


def turn_key(raw: str, line: int | None, index: int) -> str:
    """A turn id evidence can carry: the file's own id when it is a clean label, else one from its position.

    A transcript is untrusted: an id with a control character or of any length must not
    make the extraction fail later, when the evidence is validated.
    """
    if 0 < len(raw) <= _TURN_ID_KEPT:
        try:
            return check_turn_id(raw)
        except ValueError:
            pass
    return f"line-{line}" if line is not None else f"turn-{index + 1}"


class TurnSink:
    """Accumulates the turns and skips of one transcript, in file order."""

    def __init__(self) -> None:
        self.turns: list[Turn] = []
        self.skipped: list[SkippedRecord] = []
        self.skip_counts: dict[str, int] = {}
        self._ids: set[str] = set()
        self.first_session: str | None = None

    def add(
        self,
        turn_id: str,
        role: Role,
        text: str,
        source: TurnSource,
        *,
        line: int | None = None,
        is_sidechain: bool = False,
        session_id: str | None = None,
        timestamp: str | None = None,
    ) -> None:
        """Add a turn unless its text is blank; a repeated id gets its position appended."""
        if not text.strip():
            return
        session_id = session_key(session_id) if session_id else None
        index = len(self.turns)
        unique = self._unique(turn_id, line, index)
        self.turns.append(
            Turn(
                turn_id=unique,
                role=role,
                text=text,
                source=source,
                is_sidechain=is_sidechain,
                index=index,
                line=line,
                session_id=session_id,
                timestamp=timestamp,
            )
        )
        if session_id and self.first_session is None:
            self.first_session = session_id

    def name_session(self, raw: str) -> None:
        """The session id the file itself declares (a Codex ``session_meta``, a Gemini ``sessionId``)."""
        if raw and self.first_session is None:
            self.first_session = session_key(raw)

    def skip(self, reason: str, *, line: int | None = None, index: int | None = None) -> None:
        """Record a record that could not be used, so the caller can report it (the first ones kept, all counted)."""
        if len(self.skipped) < MAX_SKIPPED_KEPT:
            self.skipped.append(SkippedRecord(line=line, index=index, reason=reason))
        if reason not in self.skip_counts and len(self.skip_counts) >= MAX_SKIP_REASONS:
            reason = OTHER_REASONS  # a reason can name a value of the file's: their kinds are bounded here
        self.skip_counts[reason] = self.skip_counts.get(reason, 0) + 1

    def build(self, path: Path, fmt: TranscriptFormat, session_override: str | None) -> Transcript:
        """The finished transcript; its session id is the override, the first seen, or the file stem."""
        chosen = session_override or self.first_session or path.stem
        session = session_key(chosen)
        return Transcript(
            session_id=session,
            format=fmt,
            path=str(path),
            turns=self.turns,
            skipped=self.skipped,
            skip_counts=self.skip_counts,
        )

    def _unique(self, turn_id: str, line: int | None, index: int) -> str:
        # Real files repeat uuids (resumed or hand-edited sessions); evidence must
        # still point at exactly one turn.
        turn_id = turn_key(turn_id, line, index)
        candidate = turn_id
        if candidate in self._ids:
            candidate = f"{turn_id}@{line if line is not None else index}"
        repeat = 1
        while candidate in self._ids:
            repeat += 1
            candidate = f"{turn_id}@{line if line is not None else index}#{repeat}"
        self._ids.add(candidate)
        return candidate
