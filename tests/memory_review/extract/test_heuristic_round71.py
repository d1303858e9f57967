"""The seventy-first round of the heuristic (ADR 0134), tuned on held-out 204.

"Please recall that you should not …" asks the agent to recall a rule it was given: the person says it was said
before, which is the repetition a held-back kind or a rule about a named thing waits for. After a task clause and a
spaced dash, "recall that …" starts the rule, as "remember …" does (ADR 0082).
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said

RECALLED = (
    "please recall that you should not be rummaging in `claude-dev-log-diary` directory without my explicit "
    "permissions, because it contains extremely large files that would burn through your context like wildfire!"
)


def test_a_rule_about_a_named_folder_the_person_asks_the_agent_to_recall_is_proposed() -> None:
    assert said(RECALLED) == [RECALLED]


def test_the_same_rule_not_said_to_be_recalled_waits_for_a_second_session() -> None:
    rule = "you should not be rummaging in `claude-dev-log-diary` directory without my explicit permissions."
    assert said(rule) == []
    assert said(rule, rule, sessions=("s1", "s2")) == [rule]


def test_the_recalled_rule_after_a_task_clause_and_a_dash_is_the_quote() -> None:
    message = "Well, you ran ahead a bit. I have now committed the day-016.md -- but " + RECALLED
    assert said(message) == [RECALLED]


@pytest.mark.parametrize(
    "sentence",
    [
        "Please recall that you should avoid mocks in these tests.",  # weak, and "these tests" is the task's
        "Recall that we discussed the schema yesterday.",  # what was talked about, no rule
        "I have now committed the fix -- recall the numbers from before.",  # no "that you should …"
    ],
)
def test_recall_without_a_rule_given_before_is_not_proposed(sentence: str) -> None:
    assert said(sentence) == []


def test_a_weak_rule_with_no_word_that_it_was_said_before_still_waits() -> None:
    assert held_until_said_again("Don't add comments that repeat the code.")
