"""The sixty-fifth round of the heuristic (ADR 0128), tuned on held-out 213.

"Please remember that." and "Would you remember that, or shoudl we add these as task in Todo, too?" hold no rule: their
"that" points at what was said before, as "Make this a rule" does. The rule before them, when it reads as one, is the
finding (with the pointer in its quote); when it does not ("this was very good."), nothing is proposed. "Remember that
the API is slow." still carries its own fact.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

INCREMENTS = (
    "yes, proceed with the plan. But we should start by restoring the library.py to working state and keep working in "
    "small increments, maintaining the test running state of test, checking the coverage as we go and commiting after "
    "each succesfull refactoring. Would you remember that, or shoudl we add these as task in Todo, too?"
)


@pytest.mark.parametrize(
    "text", [INCREMENTS, "this was very good. Please remember that. I want to record this learnign in git history."]
)
def test_remember_that_with_no_rule_before_it_is_none(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text", ["Use pnpm, not npm. Please remember that.", "Don't mock the database. Would you remember that?"]
)
def test_remember_that_points_at_the_rule_before_it(text: str) -> None:
    assert said(text) == [text]


def test_remember_that_before_a_fact_still_carries_it() -> None:
    assert said("Remember that the API is slow.") == ["Remember that the API is slow."]
