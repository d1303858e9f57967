"""The seventy-fourth round of the heuristic (ADR 0137), tuned on held-out 255.

"I am super allergic when you try to put my... your words into my mouth." is a dislike of the agent's way of working,
said as strongly as "I hate when you …" (ADR 0133): a rule said once. The ellipsis that goes on in lower case is a pause
inside the sentence, so the quote is the whole rule.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.textutil import sentence_spans


@pytest.mark.parametrize(
    "sentence",
    [
        "I am super allergic when you try to put my... your words into my mouth.",
        "I'm allergic to mocks in integration tests.",
        "I'm really allergic when you summarise instead of quoting me.",
    ],
)
def test_an_allergy_to_the_agents_way_or_to_a_kind_of_thing_is_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


@pytest.mark.parametrize(
    "sentence",
    ["I'm allergic to the way this looks.", "I am allergic to this.", "I'm allergic to it."],
)
def test_an_allergy_to_the_thing_at_hand_is_not_proposed(sentence: str) -> None:
    assert said(sentence) == []


def _sentences(text: str) -> list[str]:
    return [text[start:end] for start, end in sentence_spans(text)]


def test_an_ellipsis_that_goes_on_in_lower_case_does_not_end_the_sentence() -> None:
    assert _sentences("put my... your words into my mouth. So next.") == [
        "put my... your words into my mouth.",
        "So next.",
    ]


def test_an_ellipsis_before_a_capital_still_ends_the_sentence() -> None:
    assert _sentences("Wait... Next one.") == ["Wait...", "Next one."]
