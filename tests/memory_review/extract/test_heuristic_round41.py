"""The forty-first round of the heuristic (ADR 0101): "After implementing each feature run an end to end test …".

Held-out 112's person appended "After implementing each feature run an end to end test that looks for bottlenecks,
bugs, …" to his requests in 24 sessions, and held-out 111 has the same rule as "remember after every feature is
implemented that it runs those end to end tests …" in 8. No round read either: an occasion for each piece of the work
("after each X", "after every X is built") followed by what to do is a standing step, the way "whenever you" is (ADR
0073). Like "whenever you", it waits for a second session; "remember" before it is "remember that".
"""

from __future__ import annotations

import pytest
from rounds_kit import said

STEP = "After implementing each feature run an end to end test that looks for bottlenecks and bugs."


def test_a_step_for_each_piece_of_work_said_in_two_sessions_is_a_rule() -> None:
    found = said("Build the export page. " + STEP, "Fix the login. " + STEP, sessions=("s1", "s2"))
    assert found == [STEP]


@pytest.mark.parametrize(
    "sentence",
    [STEP, "After each feature, run the tests.", "After every change run the linter."],
)
def test_said_once_it_waits(sentence: str) -> None:
    assert said(sentence) == []


def test_remember_before_the_occasion_is_remember_that() -> None:
    sentence = "remember after every feature is implemented that it runs the end to end tests and fixes what fails."
    assert len(said(sentence)) == 1


@pytest.mark.parametrize(
    "sentence",
    [
        "After each build we get errors.",  # what happens, not what to do
        "After each request the server logs the time.",
        "When every test passes, deploy.",  # "every" is not the occasion's
    ],
)
def test_a_description_of_each_time_is_no_rule(sentence: str) -> None:
    assert said(sentence, sentence, sessions=("s1", "s2")) == []
