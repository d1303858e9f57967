"""The twenty-first round of the heuristic (ADR 0078): held-out 52's mistakes, after the frozen twentieth round.

Held-out 52 (212 prompts, a later stretch of two people in held-out 51) measured the frozen nineteenth (341b857) and
twentieth (f4dbd59) rounds once, the same for both: 9 proposals, 3 worth keeping.
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said


@pytest.mark.parametrize(
    "text",
    [
        "I would ask you to perform this, but this is an operation that we would want to perform multiple times in the "
        "future.",
        "Perhaps I should in the future.",
        "I will probably split the module in the future.",
        "We might need a second queue in the future.",
        "It could break in the future.",
    ],
)
def test_a_plan_or_a_possibility_in_the_future_is_no_standing_word(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Though we use WSD heavily in this investigation, it's not actually required by the session agent.",
        "Although we use Go, the scripts are Python.",
        "While we are using the old client, the new one is on its way.",
    ],
)
def test_we_use_in_a_concession_states_no_convention(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "To stay relevant, we should take the leap up to this new version, and then lock that moving forward.",
        "That's by design - we will use the new schema moving forward, and the command is idempotent.",
        "Do it like this going forward.",
    ],
)
def test_going_forward_with_what_only_this_chat_names_is_no_rule(text: str) -> None:
    assert said(text) == []


def test_we_are_using_x_to_see_what_is_the_method_of_this_work() -> None:
    text = 'We\'re using the "cow paths" philosophy to see what the script _wants_ to create, and gathering up.'
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "We're using pnpm to manage packages.",
        "Keep it that way going forward.",
        "We will use pnpm moving forward.",
        "In the future, ask before deleting files.",
        "Please ask first in the future.",
        "I would like you to ask first in the future.",  # "you" in it: an instruction to the agent
        "We should run the linter in the future.",
        "We use Go for the backend.",
        "We use pnpm, though npm also works.",
    ],
)
def test_rules_near_them_are_still_rules(text: str) -> None:
    assert said(text) == [text] if text not in WAITS else held_until_said_again(text)


# "we use X" said once, with no place and nothing chosen against, waits for a second session (ADR 0110)
WAITS = {"We're using pnpm to manage packages.", "We use Go for the backend.", "We use pnpm, though npm also works."}
