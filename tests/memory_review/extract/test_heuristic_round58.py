"""The fifty-eighth round of the heuristic (ADR 0121), tuned on held-out 178.

"Please correct these <code_style> violations and improve the CLAUDE.md to prevent this type of <tdd_discipline>
failure in the future.": "in the future" inside "to prevent / to avoid …" says what this step is for, as "so that it
can be used going forward" does (ADR 0084); it makes the request no standing rule. A standing word outside the purpose
clause still counts.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "Please correct these <code_style> violations and improve the CLAUDE.md to prevent this type of "
        "<tdd_discipline> failure in the future.",
        "Add a regression test to avoid this bug in the future.",
        "Pin the version in order to prevent the same breakage going forward.",
    ],
)
def test_the_future_of_a_purpose_clause_makes_no_standing_rule(sentence: str) -> None:
    assert said(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "In the future, add a regression test for every bug you fix.",
        "Always run the linter to avoid CI failures in the future.",
    ],
)
def test_a_standing_word_outside_it_still_counts(sentence: str) -> None:
    assert said(sentence) == [sentence]
