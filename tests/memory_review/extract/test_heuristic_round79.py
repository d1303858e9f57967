"""The seventy-ninth round of the heuristic (ADR 0142), from held-out 213's fresh mistake.

"Would you remember that, or shoudl we add these as task in Todo, too?" points at what was said before; round 65 (ADR
0128) read "remember this / that" alone in its sentence as that pointer. Said with whom or when it is for ("Remember
this for me.", "Could you remember that for next time?") it is still the pointer: it was proposed as itself, or as
"This for me.".
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "Remember this for me.",
        "Could you remember this for next time?",
        "Can you remember that for me?",
        "Remember that for later, please.",
        "Remember this for the next session.",
    ],
)
def test_remember_this_for_someone_or_some_time_points_back(sentence: str) -> None:
    assert said(sentence) == []


def test_the_rule_before_the_pointer_is_what_is_proposed() -> None:
    rule = "Always run the tests before pushing."
    assert said(f"{rule} Remember this for me.") == [rule]


def test_remember_that_before_a_fact_is_still_the_fact() -> None:
    assert said("Remember that I use pnpm.") == ["Remember that I use pnpm."]
