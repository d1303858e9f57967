"""The sixty-sixth round of the heuristic (ADR 0129), tuned on held-out 216.

"That book is already there, I told you to copy Extreme Programming Explained": "I told you to copy / paste / fetch /
clone …" is a job the agent has not done yet, as "I told you to fix the login bug" is (ADR 0065), not a rule it forgot.
A reminder of a standing rule still counts ("I told you to send me a summary after every task.", "I told you to always
run the tests.").
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "text",
    [
        "That book is already there, I told you to copy Extreme Programming Explained",
        "I told you to paste the whole error here.",
        "I already told you to clone the repo into /tmp.",
    ],
)
def test_a_reminder_of_a_step_not_done_is_none(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "sentence", ["I told you to send me a summary after every task.", "I told you to always run the tests."]
)
def test_a_reminder_of_a_standing_rule_still_counts(sentence: str) -> None:
    assert said(sentence) == [sentence]
