"""The seventy-sixth round of the heuristic (ADR 0139), tuned on held-out 275 and 278.

"… pre-fill the category when an item is entered in the future" says what an app does when a thing happens to it later:
a specification, not a way of working. "…; never with the IMGUI HUD on screen" says when or how the step before it is
done: "never" or "always" before a preposition states no action of its own.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "Remember the mapping of categories to items locally, and pre-fill the category when an item is entered in the "
        "future.",
        "Show a toast when a new file is uploaded in the future.",
        "never with the IMGUI HUD on screen or at timeScale=0 (both garble MCP captures on this editor).",
        "Capture it via a positioned camera; always without the debug overlay.",
    ],
)
def test_a_future_event_of_the_app_or_a_qualifier_of_a_step_is_not_a_rule(sentence: str) -> None:
    assert said(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "In the future, when a test is added, run the whole suite.",
        "Never push to main.",
        "Always in English.",
    ],
)
def test_a_standing_word_that_binds_the_agent_still_does(sentence: str) -> None:
    assert said(sentence) != []
