"""The sixty-second round of the heuristic (ADR 0125), tuned on held-out 183.

"(BTW is that from your report? If yes, that's a total BS and we shouldn't commit but go to review of the reports
instead)": a sentence that opens on the answer to a question just asked ("If yes", "If so", "If not", "If that's the
case") says what to do in this case, not how to work. A strong word after it ("If so, never push to main again.") and
a condition of the person's own ("If you are unsure, don't guess.") still count as before.
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said

REPORT = (
    "Loose the whole key findings section (BTW is that from your report? If yes, that's a total BS and we shouldn't "
    "commit but go to review of the reports instead)"
)


@pytest.mark.parametrize(
    "text",
    [
        REPORT,
        "Did the tests pass? If not, don't merge it and show me the log.",
        "Is that the old config? If that's the case, we should not deploy it.",
    ],
)
def test_a_step_on_the_answer_to_a_question_just_asked_is_none(text: str) -> None:
    assert said(text) == []
    assert said(text, text, sessions=("s1", "s2")) == []


def test_a_strong_word_on_the_answer_is_still_a_rule() -> None:
    assert said("If so, never push to main again.") == ["If so, never push to main again."]


def test_a_condition_of_its_own_still_waits_for_a_second_session() -> None:
    assert held_until_said_again("If you are unsure, don't guess.")
