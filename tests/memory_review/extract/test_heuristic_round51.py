"""The fifty-first round of the heuristic (ADR 0112), tuned on held-out 152.

"make sure to periodically upload work to the current repo with commit and push check if upstream needs to be set, …"
is a routine the person sets for the agent. "Remember to always …" and "make sure you never …" already bound the agent
(ADR 0083, 0085); "make sure to" and "be sure to" now do too. A routine about git is proposed at once (ADR 0059);
another "periodically …" still waits for a second session, as every occasion marker does (ADR 0073).
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said

GIT_ROUTINE = (
    "make sure to periodically upload work to the current repo with commit and push check if upstream needs to be set, "
    "resolve any merge conflicts and prioritize current code from my user"
)


@pytest.mark.parametrize(
    "sentence",
    [GIT_ROUTINE, "Make sure to always run the tests.", "Be sure to never push to main."],
)
def test_make_sure_to_binds_the_agent(sentence: str) -> None:
    assert said(sentence) == [sentence]


def test_an_occasion_not_about_git_still_waits_for_a_second_session() -> None:
    assert held_until_said_again("make sure to periodically check the logs for new warnings")


@pytest.mark.parametrize(
    "sentence",
    [
        "make sure to always handle the empty list in this function",  # names the code at hand: a task detail
        "Make sure it never crashes on an empty file.",  # "it": the program, not the agent
        "make sure to run the tests",  # no standing word
    ],
)
def test_near_misses_are_no_rule_said_once(sentence: str) -> None:
    assert said(sentence) == []
