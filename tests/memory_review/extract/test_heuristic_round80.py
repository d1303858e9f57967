"""The eightieth round of the heuristic (ADR 0143), from four fresh proposals of "always" / "never" inside an aside.

"The file format (always PNG for violation annotation compatibility)" (held-out 85), "… save as Draft (never submit),
…" (held-out 169) and "… footer (always visible when `onCreateTap` is provided, …)" (held-out 280) were not worth
keeping; "… with our strategy (always take 10%)." (held-out 98) was a maybe. An aside in parentheses after a word
qualifies that thing: such a rule is held back until a second session says it.
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said


@pytest.mark.parametrize(
    "sentence",
    [
        "Create the invoice, save it as Draft (never submit), then return its id.",
        "The date (always UTC for log compatibility) goes first.",
        "In the dashboard, show how big the pocket is with our strategy (always take 10%).",
    ],
)
def test_always_or_never_only_in_an_aside_waits_for_a_second_session(sentence: str) -> None:
    assert held_until_said_again(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "(Never push to main.)",
        "Never push to main (always open a PR).",
        "Commit your work (never to main) and always run the tests first.",
    ],
)
def test_a_standing_word_outside_an_aside_is_still_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]
