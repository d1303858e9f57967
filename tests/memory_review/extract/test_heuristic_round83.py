"""The eighty-third round of the heuristic (ADR 0146): "don't forget to …" asks for a standing habit.

"Don't forget to update ai-prompts.txt with every prompt that I give you." was read as a weak reminder, like "remember
to", and never proposed; it is read as a rule on its own when it says how often, unless it points at the thing at hand.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "Don't forget to update ai-prompts.txt with every prompt that I give you.",
        "don't forget to run bun format && bun lint --fix && bun typecheck before marking a task as done",
        "Please do not forget to follow all instructions in the copilot-instructions.md.",
    ],
)
def test_dont_forget_to_do_it_every_time_is_a_standing_request(sentence: str) -> None:
    assert said(sentence) == [sentence]


@pytest.mark.parametrize(
    "sentence",
    [
        "don't forget to multiply it here and not in DB!",
        "Don't forget to add this prompt to all the logs.",
        "don't forget to update the changelog",
        "Remember to run all the tests before committing.",
    ],
)
def test_a_reminder_of_a_step_or_about_the_thing_at_hand_is_not(sentence: str) -> None:
    assert said(sentence) == []
