"""The twenty-sixth round of the heuristic (ADR 0085): the person's own hope, and "remember to always".

Held-out 66 to 69 measured the frozen twenty-third to twenty-fifth rounds once, the same for all three: 7 proposals, 6
worth keeping, 6 of 22 rules found. The one not worth keeping: "Especially as I look forward to implementing searching,
auditing, and editing assets in the future." (the person's own hope). A rule missed: "Don't forget to always add my
queries to ai-prompts.txt", where "always" follows "forget to"; and, near it, "Remember to always run the tests" and "In
the future, I'd like you to ask first" were no rule.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "text",
    [
        "Especially as I look forward to implementing searching, auditing, and editing assets in the future.",
        "I plan to add a dark mode in the future.",
        "I'm hoping to move the docs to a wiki in the future.",
    ],
)
def test_the_persons_own_plan_for_the_future_is_no_rule(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Don't forget to always add my queries to ai-prompts.txt",
        "Remember to always run the tests before committing.",
        "remember to never push to main",
        "In the future, I'd like you to ask before deleting files.",
    ],
)
def test_always_or_never_after_remember_to_or_a_wish_for_you_instructs(text: str) -> None:
    assert said(text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "I forget to always lint.",  # the person about themself
        "Don't forget to run the tests.",  # a reminder of a step, no standing word: held back as before
        "In the future, we'd like to add a dark mode.",  # a plan
    ],
)
def test_no_standing_word_for_the_agent_is_no_rule(text: str) -> None:
    assert said(text) == []
