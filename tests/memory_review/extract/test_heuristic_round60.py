"""The sixtieth round of the heuristic (ADR 0123), tuned on held-out 191.

"I wanted to remind you to always run specs locally beforu pushit to GH.": "remind you to" binds the agent before
"always" or "never", as "I want you to", "I told you to" and "remember to" do. "Remind me to check the logs" asks the
agent for a reminder, and "remind you to check the logs" with no standing word is this task's step.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

SPECS = (
    "Sorry for interrupting, continues with your suggestions, but I wanted to remind you to always run specs locally "
    "beforu pushit to GH."
)


@pytest.mark.parametrize(
    "sentence",
    [SPECS, "I wanted to remind you to never push to main.", "Just reminding you to always run the linter first."],
)
def test_remind_you_to_before_always_or_never_is_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


@pytest.mark.parametrize(
    "text", ["Can you remind me to always check the logs?", "I wanted to remind you to check the logs."]
)
def test_a_reminder_for_the_person_or_without_a_standing_word_is_none(text: str) -> None:
    assert said(text) == []
