"""The sixty-fourth round of the heuristic (ADR 0127), tuned on held-out 207.

"So we'll learn from this crisis for the next time.": a lesson to be taken "for (the) next time" says no rule, so its
"next time" is a future the sentence only describes. "Next time, ask me first." still instructs, and so does a
standing word beside the lesson.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "text",
    [
        "So we'll learn from this crisis for the next time.",
        "Good, I learned something for next time.",
        "Let's learn from this mistake for the next time and move on.",
    ],
)
def test_a_lesson_for_next_time_is_none(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "sentence",
    ["Next time, ask me first.", "Let's learn from this for next time and always run the tests first."],
)
def test_next_time_that_instructs_is_still_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]
