"""The forty-eighth round of the heuristic (ADR 0109), tuned on held-out 140.

"I dont like how you can see the sections with the hard lines and want them to blend right into each other": the
"you" of "you can see" is anyone looking at this screen; the complaint is about the artifact, like "I don't like how
it looks", not about how the agent works.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "I dont like how you can see the sections with the hard lines and want them to blend right into each other",
        "I don't like how one can tell the page reloads.",
        "I don't like how it looks.",
    ],
)
def test_a_complaint_about_what_the_screen_shows_is_no_rule(sentence: str) -> None:
    assert said(sentence) == []


def test_a_dislike_of_how_the_agent_works_is_still_a_preference() -> None:
    sentence = "I don't like when you add comments to every line, keep them short."
    # a dislike said once waited for a second session (ADR 0110); of the agent's way of working, it is proposed at once
    # since round 70 (ADR 0133)
    assert said(sentence) == [sentence]
