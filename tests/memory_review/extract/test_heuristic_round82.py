"""The eighty-second round of the heuristic (ADR 0145): Markdown's bold around the rule word.

"- **Never** push to main." was read as "**Never** push …", and no signal looks for a word behind asterisks; the
marks are dropped before the sentence is read, and the quote keeps them.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    ["**Never** push to main.", "**Always** run `make lint` before committing.", "__Never__ commit secrets."],
)
def test_a_bold_rule_word_is_read(sentence: str) -> None:
    assert said(sentence) == [sentence]


def test_bold_elsewhere_changes_nothing() -> None:
    assert said("Fix the **login** bug.") == []
