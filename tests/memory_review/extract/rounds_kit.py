"""The heuristic's round tests (``test_heuristic_round*.py``): one user message per text, as a transcript."""

from __future__ import annotations

from memory_review.extract.heuristic import extract
from memory_review.extract.transcript import Transcript, Turn


def user_transcript(*texts: str, sessions: tuple[str, ...] = ()) -> Transcript:
    """One user turn per text; ``sessions`` gives each turn its session (else the transcript's own)."""
    turns = [
        Turn(
            turn_id=f"t{i}",
            role="user",
            text=t,
            source="user",
            index=i,
            session_id=sessions[i] if sessions else None,
        )
        for i, t in enumerate(texts)
    ]
    return Transcript(session_id="rounds", format="text", turns=turns)


def said(*texts: str, sessions: tuple[str, ...] = ()) -> list[str]:
    """What the heuristic finds in one user message per text, as quotes."""
    return [f.quote for f in extract(user_transcript(*texts, sessions=sessions))]


def bodies(*texts: str) -> list[str]:
    """What the heuristic finds in one user message per text, as the memories' bodies a reviewer reads."""
    return [f.memory.body for f in extract(user_transcript(*texts))]


def held_until_said_again(text: str) -> bool:
    """True when a rule said once is kept aside and proposed once it is said in a second session (ADR 0059, 0110)."""
    return said(text) == [] and said(text, text, sessions=("s1", "s2")) == [text]
