"""The sixty-third round of the heuristic (ADR 0126), tuned on held-out 205.

"Prepare a task list with TodoWrite to incrementally improve the regexes and always test the modified script to ensure
it would properly guide you to heed the system prompt instuctions": a sentence that opens by asking for this work's
task list or plan sets the method of that plan's steps, "always" or "never" included. The same "always" in a sentence
of its own is still a rule.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

REGEXES = (
    "Prepare a task list with TodoWrite to incrementally improve the regexes and always test the modified script to "
    "ensure it would properly guide you to heed the system prompt instuctions"
)


@pytest.mark.parametrize(
    "text",
    [
        REGEXES,
        "Create a todo list for the migration and never skip a step of it.",
        "OK, first make a detailed plan for the refactor and always show me the diff of each step.",
    ],
)
def test_always_in_the_sentence_that_asks_for_this_works_plan_is_none(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "sentence", ["Always test the modified script before committing.", "Never skip the tests when you plan your work."]
)
def test_always_in_a_sentence_of_its_own_is_still_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]
