"""The fifty-ninth round of the heuristic (ADR 0122), tuned on held-out 181.

"(remember I'm unfamiliar with modern python best practices, so please don't let me derail you -- I'm asking questions
to learn)": "remember" with "that" left out before what the person is or does, as "Remember, I'm unfamiliar with …"
and "remember that I'm …" already read; an opening bracket does not hide a sentence's first word. "Do you remember my
prompts …?" asks, and "remember I said …" reminds of a rule its words do not hold.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

UNFAMILIAR = (
    "(remember I'm unfamiliar with modern python best practices, so please don't let me derail you -- I'm asking "
    "questions to learn)"
)


@pytest.mark.parametrize(
    "sentence",
    [UNFAMILIAR, "remember I don't use Windows, so give me the macOS commands.", "Remember I am colour-blind."],
)
def test_remember_before_what_the_person_is_or_does_is_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


@pytest.mark.parametrize(
    "text", ["Do you remember my prompts about adding export options?", "remember I said to use pnpm"]
)
def test_a_question_or_a_reminder_with_no_rule_in_it_is_none(text: str) -> None:
    assert said(text) == []
