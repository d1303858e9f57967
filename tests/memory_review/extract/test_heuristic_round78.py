"""The seventy-eighth round of the heuristic (ADR 0141), from held-out 207's and 228's fresh mistakes.

"So we'll learn from this crisis for the next time." and "I'd like to end this day's session and continue next time."
were each taken out by their own words (ADR 0127, 0132). What they share is the person's own plan, "I'd", "I'll",
"we'll", "let's", before "next time" or "in the future", with no "you" in between; the plan's earlier reading missed
the contractions ("I'll" never matched "i 'll") and "next time".
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "I'd like to revisit this in the future.",
        "We'll fix the styling next time.",
        "I'll do that next time.",
        "Let's do that next time.",
        "So we'll learn from this crisis for the next time.",
        "I'd like to end this day's session and continue next time.",
    ],
)
def test_the_persons_own_plan_for_next_time_is_no_rule(sentence: str) -> None:
    assert said(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Next time, ask me before pushing.",
        "I would like you to ask first next time.",
        "I'd like you to always run the linter in the future.",
        "We should write the tests first next time.",
    ],
)
def test_next_time_asked_of_the_agent_is_still_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]
