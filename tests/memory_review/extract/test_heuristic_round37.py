"""The thirty-seventh round of the heuristic (ADR 0097): "Make this a rule" makes the sentence before a rule.

Held-out 98's person wrote "Split files into separate modules when a file gets longer than 300 lines of code. Make
this a rule". The rule has no signal word; the sentence after it says in so many words that it is one. Like a reminder
standing alone ("I'm on Ubuntu 22.04. You should know this."), the rule is the sentence before, and both are the quote.
"""

from __future__ import annotations

import pytest
from rounds_kit import said, user_transcript

from memory_review.extract.heuristic import extract


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        (
            "Split files into separate modules when a file gets longer than 300 lines of code. Make this a rule",
            "Split files into separate modules when a file gets longer than 300 lines of code.",
        ),
        ("Don't touch the tests. Make that a rule.", "Don't touch the tests."),
        ("Use ruff for linting. Please treat that as a standing rule from now on.", "Use ruff for linting."),
        ("Keep commits small and focused. Add it as a hard rule!", "Keep commits small and focused."),
    ],
)
def test_the_sentence_made_a_rule_is_proposed_with_both_as_its_quote(message: str, rule: str) -> None:
    findings = extract(user_transcript(message))
    assert [(f.signal, f.quote, f.memory.body) for f in findings] == [("made a rule", message, rule)]
    assert findings[0].priority == "high"


def test_a_rule_with_its_own_signal_is_proposed_once() -> None:
    assert said("Always check types. Make it a rule.") == ["Always check types."]


@pytest.mark.parametrize(
    "message",
    [
        "Make this a rule from now on.",  # nothing before it
        "fix the login bug. make this a rule",  # a task step
        "Build a parser. Make this a rule engine.",  # a thing to build
        "Don't touch parse_config(). Make that a rule.",  # named code, as for a reminder
        "Is it fast? Make that a rule.",  # a question
    ],
)
def test_no_rule_before_it_gives_nothing(message: str) -> None:
    assert said(message) == []
