"""The twenty-eighth round of the heuristic (ADR 0087): "that file" is the file the sentence before names.

Seen held-out 53 and 69 each hold a standing rule about "this file" or "that file" right after the sentence that names
it: "I want you to keep a detailed log over every command I give in a file called ai-history.md. ALWAYS record my
messages … into this file …", "Did you add that prompt to my ai-prompts.txt? You should always add my prompts to that
file." "that file" made each a one-off. Read with the one file named before it, it is a rule, and both sentences are
its quote, so the memory says which file.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "text",
    [
        "Did you add that prompt to my ai-prompts.txt? You should always add my prompts to that file.",
        "Keep a log in ai-history.md. ALWAYS record my messages into this file.",
        "Read notes.md first. Never change that file.",
    ],
)
def test_that_file_is_the_one_named_before(text: str) -> None:
    assert said(text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "Look at main.py and utils.py. Never touch that file.",  # which one?
        "Never change that file.",  # nothing named before it
        "Fix the parser. Never change that file.",  # no file named
        "Read notes.md " + "and think about it very carefully " * 20 + ". Never change that file.",  # quote too long
    ],
)
def test_no_one_file_named_before_is_no_rule(text: str) -> None:
    assert said(text) == []
