"""The seventeenth round of the heuristic (ADR 0074): held-out 40's one mistake, after the frozen rounds.

Held-out 40 measured the frozen fifteenth and sixteenth rounds once: 1 proposal, not worth keeping, "I dont like the
way you put coming soon as buttons, …", a complaint about the screen in front of the person. Frozen before held-out
39 was read, and measured on it.
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said


@pytest.mark.parametrize(
    "text",
    [
        "I dont like the way you put coming soon as buttons, rather than phase2 or pahse 3, I think we should put "
        "Coming soon there in that text, but not yellow, teal",
        "I hate the way you placed the icons in the header.",
        "I don't like the way you styled the cards on the dashboard.",
    ],
)
def test_disliking_how_the_agent_did_a_part_of_the_screen_is_no_rule(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "I hate the way you write commit messages.",  # the agent's way of working, no part of the screen
        "I don't like the way you name database tables.",
        "I don't like the way you add icons everywhere in the docs.",  # said of every time
        "I don't like the way you always add tooltips.",
    ],
)
def test_disliking_the_agents_way_of_working_is_still_a_rule(text: str) -> None:
    # said once, a dislike waits for a second session (ADR 0110), unless it is about git
    assert said(text) == [text] if "commit" in text else held_until_said_again(text)


def test_a_long_clause_after_the_way_you_is_bounded() -> None:
    # threat model: no hang; no time is asserted
    assert said("I don't like the way you " + "x " * 50_000 + "buttons") == []
