"""The thirtieth round of the heuristic (ADR 0090): "can … in the future" says what may become of a thing.

Held-out 78 (a later stretch of held-out 72's person) measured the frozen twenty-eighth and twenty-ninth rounds once: 2
proposals, 1 worth keeping (a maybe). The mistake: "The `is_in_modal` function … were marked with
`#[allow(dead_code)]` as they are now used indirectly or might be used in the future." — what may become of the code,
not a way of working; the other ("… a good abstraction … that can work as the foundation for adding other panels in the
future") fired on the same words. "In the future" after "can", "could", "may" or "might" with no "you" bound is now a
described future (ADR 0084), whose standing word instructs no one.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.signals import examine


@pytest.mark.parametrize(
    "text",
    [
        "The `is_in_modal` function was marked with `#[allow(dead_code)]` as it might be used in the future.",
        "Define an abstraction that can work as the foundation for adding other panels in the future.",
        "Keep the old parser, it could come in handy in the future.",
    ],
)
def test_what_may_become_of_a_thing_is_no_rule(text: str) -> None:
    assert examine(text) is None
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "In the future, you can skip the slow tests.",
        "In the future, always run the linter before you commit.",
        "From now on, write helpers so that they can be reused in the future.",
    ],
)
def test_a_rule_for_the_future_still_is_one(text: str) -> None:
    found = examine(text)
    assert found is not None and found.signal == "from now on"
