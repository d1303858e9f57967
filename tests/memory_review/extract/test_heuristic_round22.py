"""The twenty-second round of the heuristic (ADR 0081): "for all future sessions", a standing word (held-out 48, seen).

Round 20 tuned on held-out 48; of its 11 durable prompts it still missed "Also, please record all the prompts in a
file called prompt_history.md -- I'd like you to do this both for the current session so far, but also for all the
future sessions.": "in future sessions" is an adjective before a noun (ADR 0049), but "all" reaches every one of them.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "text",
    [
        "Also, please record all the prompts in a file called prompt_history.md -- I'd like you to do this both for "
        "the current session so far, but also for all the future sessions.",
        "Answer in French in all future conversations.",
        "Keep a changelog entry for every change, for all future sessions.",
    ],
)
def test_for_all_future_sessions_is_a_standing_word(text: str) -> None:
    assert said(text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "In future sessions we will add caching.",
        "To suppress this warning in future sessions, run:",
        "Provide the new agent with the data we generated, both now and in subsequent sessions.",
    ],
)
def test_future_sessions_without_all_are_still_no_rule(text: str) -> None:
    assert said(text) == []
