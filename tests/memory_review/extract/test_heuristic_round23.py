"""The twenty-third round of the heuristic (ADR 0082): a rule tacked onto this task's request after "remember".

Held-out 53 measured the frozen nineteenth and twentieth rounds once: 3 proposals, all worth keeping, 2 of 4 rules
found. One it missed: "Come up with a plan for these tests, remember I don't like to use mocks." "these tests" ties the
sentence to the task; the rule after "remember" stands on its own, as the rule before "please remove that" does
(ADR 0044).
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        (
            "Come up with a plan for these tests, remember I don't like to use mocks.",
            "I don't like to use mocks.",
        ),
        ("Update this file, and keep in mind that we use pnpm.", "we use pnpm."),
        ("Fix that bug, and don't forget we never push to main.", "we never push to main."),
    ],
)
def test_a_strong_rule_after_remember_stands_on_its_own(text: str, rule: str) -> None:
    assert said(text) == [rule]


@pytest.mark.parametrize(
    "text",
    [
        "Fix the login bug, remember to run the tests.",  # a step of this task, no standing word
        "Update the docs, remember that this file is generated.",  # about the thing at hand
        "Remember I don't like to use mocks? Fix this test.",  # a question
        "Fix this test, remember the fixtures we added yesterday.",
    ],
)
def test_a_task_with_remember_and_no_strong_rule_is_no_rule(text: str) -> None:
    assert said(text) == []
