"""The seventieth round of the heuristic (ADR 0133), tuned on held-out 196, 205, 215 and 218.

A dislike of a kind of thing ("I dislike comments in bash source listings", "I don't like to use mocks") or of the
agent's way of working ("I hate when you just drop 100 lines of code …", "I really dislike how you always rush …") is
a rule said once. A dislike of the thing at hand ("I dislike the ton of functions for path handling", "I don't like
that layout") still waits for a second session (ADR 0110).
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said


@pytest.mark.parametrize(
    "sentence",
    [
        "I hate when you just drop 100 lines of code without first explaining what we are about to do.",
        "I hate all the bla-bla comments that say the exact same thing the code does.",
        "I dislike comments in bash source listings, Github offers copy button next to them and I like pasting pure "
        "commands into my terminal.",
        "I really dislike how you always rush to implementation withthout proper thinking!",
        "I don't like to use mocks.",
        "I don't like it when you add comments everywhere.",  # held back by round 49 (ADR 0110)
    ],
)
def test_a_dislike_of_a_kind_or_of_the_agents_way_is_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


@pytest.mark.parametrize(
    "sentence",
    [
        "I dislike the ton of functions for path handling.",
        "I don't like that layout.",
        "I don't like some of the regexes you used there.",
    ],
)
def test_a_dislike_of_the_thing_at_hand_is_not_proposed_at_once(sentence: str) -> None:
    assert said(sentence) == []


def test_a_dislike_with_no_kind_named_still_waits_for_a_second_session() -> None:
    assert held_until_said_again("I hate it when the build is slow.")


def test_a_dislike_of_this_change_to_named_files_is_not_proposed_at_once() -> None:
    assert said("I dislike you adding all the inline documentation to pytest.ini and conftest.py.") == []
