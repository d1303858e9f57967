"""The forty-second round of the heuristic (ADR 0102): "make sure there is no mention of faceiq at all".

Held-out 111's person told his agent in four sessions, in four wordings, never to name the site he copies anywhere in
the code ("make sure there is no mention of faceiq at all", "Remember there should be no reference to FACEIQ at all in
the codebase", "do not include any mention of FACEIQ in the comments, codebase, etc", "Make sure to not mention them
at all"). No signal read "no mention … at all" or "not … include any mention": a name never to appear in the work is
a standing prohibition, like "never". When its object is a pronoun, the name is in the sentence before, and the quote
takes both.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "make sure there is no mention of faceiq at all, no comments nothing",
        "Remember there should be no reference to FACEIQ at all in the codebase, comments, etc",
        "make sure that you do not include any mention of FACEIQ in the comments, codebase, etc",
        "Please don't mention AI anywhere in the commit messages.",
        "Don't include any reference to the ticket number in the commit title.",
    ],
)
def test_a_name_kept_out_of_the_work_is_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


def test_a_pronoun_takes_the_sentence_that_names_it() -> None:
    message = "are we still at 100%+ parity with FACEIQ? Remember not to include any mention of that"
    assert said(message) == [message]
    assert said("We renamed the product to Nova. Make sure to not mention them at all.") == [
        "We renamed the product to Nova. Make sure to not mention them at all."
    ]


def test_a_pronoun_with_nothing_before_it_is_no_rule() -> None:
    assert said("Remember not to include any mention of that.") == []


@pytest.mark.parametrize(
    "sentence",
    [
        "There is no mention of it at all in the docs.",  # what the docs say
        "I checked and there's no mention of X anywhere.",
        "Remove any mention of Firecut in the documentation.",  # this edit
        "make sure that any mention of LOOKSMAXXLABS is changed to PROJECT CASSANOVA",
        "make sure there is no mention of the old API in the README.",  # one file, no "at all"
        "Don't include any mention of that file in the docs.",  # that file is the task's
    ],
)
def test_a_description_or_this_edit_is_no_rule(sentence: str) -> None:
    assert said(sentence) == []
