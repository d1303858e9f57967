"""The thirty-fifth round of the heuristic (ADR 0095): "Remember you must …" is "remember that you must …".

Held-out 94's person opened a task with "Remember you must use the nx mcp, the effect doc search mcp, and context7 for
effect patterns … to find what you need." — the rule he states again two days later ("you should always use the nx mcp
server …", held-out 91). "remember" was a signal only before "that", "this", a colon, a comma or a dash; English
leaves "that" out before a clause. "remember" followed by "you" or "we" and a word that binds the agent ("must",
"should", "always", "never", "can't", "don't") is read as "remember that"; "remember you are …" and "I remember you
never …" are not. Nor, since round 44 (ADR 0104), "remember you need to …": this task's need.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "Remember you must use the nx mcp to find what you need.",
        "remember we always run the tests with uv.",
        "Remember you should never push to main.",
        "Please remember you don't commit generated files.",
    ],
)
def test_remember_with_that_left_out_binds(sentence: str) -> None:
    assert len(said(sentence)) == 1


@pytest.mark.parametrize(
    "sentence",
    [
        "Remember you are an AI agent working autonomously.",
        "I remember you never did that.",
        "Do you remember you must push?",
        "remember you said it would be done by friday",
    ],
)
def test_remember_that_binds_nothing_is_no_rule(sentence: str) -> None:
    assert said(sentence) == []
