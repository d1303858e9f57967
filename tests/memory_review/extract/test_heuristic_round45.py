"""The forty-fifth round of the heuristic (ADR 0105), tuned on held-out 122.

- "Yes -- but as a general warning, do not assume that duplicative or similar names mean files are identical -- check
  by hash": the person says the instruction holds beyond this case, as held-out 50's "In general, do not offer several
  possibilities" did.
- "… but never paid direct attention." tells what happened, like "never worked": an irregular past after "never" is no
  instruction.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "Yes -- but as a general warning, do not assume that similar names mean files are identical -- check by hash!",
        "In general, do not offer several possibilities, choose the most robust one.",
        "As a rule, use pnpm.",
    ],
)
def test_a_general_warning_is_a_standing_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


@pytest.mark.parametrize(
    "sentence",
    [
        "In general, it didn't seem like this was very valuable.",  # a judgement, no instruction
        "Generally, the tests pass on CI.",
        "You've seen it in your peripheral vision a few times on the journey but never paid direct attention.",
        "I never told you to delete it.",
    ],
)
def test_what_happened_or_how_things_are_is_no_rule(sentence: str) -> None:
    assert said(sentence) == []


def test_never_before_a_verb_that_looks_past_still_instructs() -> None:
    assert said("Never take shortcuts with the tests.") == ["Never take shortcuts with the tests."]
