"""The seventy-seventh round of the heuristic (ADR 0140), tuned on held-out 280.

"(always visible when `onCreateTap` is provided)" says what state a button is in: "always" or "never" before visible,
shown, hidden, enabled, available … describes the screen or the thing being built, it binds no one.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "Move the Create button in `CommunityLayoutsSheet` from the empty state into a persistent `OutlinedButton` "
        "footer (always visible when `onCreateTap` is provided, separated by a Divider).",
        "Keep the sidebar always expanded on wide screens.",
        "The legend is never shown on mobile, always displayed on desktop.",
    ],
)
def test_always_or_never_before_a_state_describes_the_thing_built(sentence: str) -> None:
    assert said(sentence) == []


@pytest.mark.parametrize("sentence", ["Always show me the diff before committing.", "Never hide errors from me."])
def test_always_or_never_before_an_action_is_still_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]
