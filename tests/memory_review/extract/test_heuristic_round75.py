"""The seventy-fifth round of the heuristic (ADR 0138), tuned on held-out 261.

"I would like to reserve pushing decision for myself." and "Leave the merging to me." keep a kind of decision or
action for the person: the agent is not to take it, from now on. "Leave it to me" is about the thing at hand.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "For example, the pushing on local machine, I would like to reserve pushing decision for myself.",
        "I'd like to reserve the merge decisions for myself.",
        "Leave the merging to me.",
        "Leave releases to me.",
    ],
)
def test_keeping_a_kind_of_decision_or_action_for_the_person_is_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


@pytest.mark.parametrize(
    "sentence",
    ["Leave it to me.", "leave this to me", "I want to leave the room to me", "We reserve the right to refuse."],
)
def test_leaving_the_thing_at_hand_to_the_person_is_not(sentence: str) -> None:
    assert said(sentence) == []
