"""The thirty-ninth round of the heuristic (ADR 0099): "you need to always …", "X is mandatory", "as you know …".

Held-out 106's person (thomas0369) gave four rules no round read: "you need always to verify that the importer is
working." ("always" after "you need", in his word order), "as you know we should avoid python because we want to
drive it on vercel." ("avoid" after "we should", said to be known already), "browser testing is mandatory" and "It is
mandatory that the dev server is running when browser tests are starting."
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "you need always to verify that the importer is working.",
        "you need to always verify that the importer is working.",
        "We need to always run the tests before a commit.",
        "browser testing is mandatory",
        "Type hints are mandatory in this codebase.",
        "It is mandatory that the dev server is running when browser tests are starting.",
        "as you know we should avoid python because we want to drive it on vercel.",
    ],
)
def test_a_rule_in_these_words_is_proposed(sentence: str) -> None:
    assert len(said(sentence)) == 1


@pytest.mark.parametrize(
    "sentence",
    [
        "we have to always wait for the build",  # a complaint
        "this is mandatory",  # what "this" is lives in the chat
        "The email field is mandatory.",  # a spec of the program
        "Is the field mandatory?",
        "we should avoid python here",  # a weak rule said once waits for a second session
        "As you know the server is down.",
    ],
)
def test_these_give_nothing(sentence: str) -> None:
    assert said(sentence) == []
