"""The seventy-second round of the heuristic (ADR 0135), tuned on held-out 248.

"In general, do not offer several possibilities" frames a rule that holds beyond this case (ADR 0105). After the same
frame, a question ("Generally, how would the evaluation … work.") or a filler of dictated speech ("But, generally,
like, I don't know …") is no rule, even with no question mark.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "But, generally, like, I don't know how would we...",
        "Generally, how how would the evaluation evaluation of Maintaining TDD discipline, BDD discipline work.",
        "In general, what would make this faster.",
        "Generally, um, keep going with the plan.",
    ],
)
def test_a_question_or_a_filler_after_generally_is_not_a_rule(sentence: str) -> None:
    assert said(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "In general, do not offer several possibilities, chose the most professional, robust and reliable option.",
        "Generally, prefer small functions over long ones.",
        "As a general rule, write the test first.",
    ],
)
def test_a_rule_after_the_frame_is_still_proposed(sentence: str) -> None:
    assert said(sentence) == [sentence]
