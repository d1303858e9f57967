"""The sixty-ninth round of the heuristic (ADR 0132), tuned on held-out 228.

"I'd like to end this day's session and continue next time.": "continue / resume / carry on / pick it up … next time"
says where this work picks up again, a future the sentence only describes. "Next time, continue from the last commit
instead of starting over." still tells the agent how to work.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "text",
    [
        "I'd like to end this day's session and continue next time.",
        "Let's pick this up next time.",
        "OK, we'll resume the migration next time.",
    ],
)
def test_where_the_work_picks_up_next_time_is_none(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "sentence", ["Next time, continue from the last commit instead of starting over.", "Next time, ask me first."]
)
def test_next_time_that_instructs_is_still_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]
