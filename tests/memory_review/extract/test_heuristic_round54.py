"""The fifty-fourth round of the heuristic (ADR 0117), tuned on held-out 164.

"every time I ask you to do something, please log a transcript of exactly what I say and exactly what you say to
claude-conversation.md" is a routine for every request: an occasion that is every request is a standing rule, as
"from now on" is, when it opens the clause. "Every time you run the tests, …" is still an occasion that waits for a
second session (ADR 0073), and "… so you don't have to each time I ask you to do something" describes.
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said

LOG_EVERY_REQUEST = (
    "every time I ask you to do something, please log a transcript of exactly what I say and exactly what you say to "
    "claude-conversation.md"
)


@pytest.mark.parametrize(
    "sentence",
    [LOG_EVERY_REQUEST, "Whenever I ask you anything, answer in two sentences at most."],
)
def test_an_occasion_that_is_every_request_is_a_standing_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


def test_an_occasion_of_the_agents_work_still_waits_for_a_second_session() -> None:
    assert held_until_said_again("Every time you run the tests, pass -x to pytest.")


@pytest.mark.parametrize(
    "sentence",
    [
        "this way you don't have to put it on my phone each time I ask you to do something.",  # describes
        "every time I ask you to fix the login, check the logs.",  # one request, not every request
    ],
)
def test_near_misses_are_no_rule_said_once(sentence: str) -> None:
    assert said(sentence) == []
