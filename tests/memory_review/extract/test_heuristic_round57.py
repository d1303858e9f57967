"""The fifty-seventh round of the heuristic (ADR 0120), tuned on held-out 175.

"Remove the word fixture from the commit message, as we don't use it anymore.": after "as", "since" or "because", "we
don't …" gives the reason for the request at hand; it forbids nothing. Read as a prohibition about git, it was proposed
at once. "We don't use fixtures in commit messages." still states one.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "Remove the word fixture from the commit message, as we don't use it anymore.",
        "Drop the lint step from the commit hook since we do not run it on CI.",
        "Delete the old branch because you don't need it.",
    ],
)
def test_a_dont_that_gives_the_reason_forbids_nothing(sentence: str) -> None:
    assert said(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    ["We don't use fixtures in commit messages.", "Never push to main, as we do not review after the fact."],
)
def test_a_prohibition_said_as_such_is_still_one(sentence: str) -> None:
    assert said(sentence) == [sentence]
