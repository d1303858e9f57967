"""The eighty-sixth round of the heuristic (ADR 0150): the word before "Co-Authored-By" is read.

Round 84 read who is credited on a commit when "should", "never", "no" … came before "co-author(s)", or after the name;
"Single-line commit messages, no Co-Authored-By trailer, no em-dashes anywhere." named the trailer itself and was
missed.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "Single-line commit messages, no Co-Authored-By trailer, no em-dashes anywhere.",
        "Default to a single Co-Authored-By line.",
    ],
)
def test_a_standing_word_before_the_trailer_is_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


@pytest.mark.parametrize(
    "sentence",
    [
        "Every commit carries the project's Co-Authored-By and Claude-Session trailers.",
        "No. Like this: Co-Authored-By: Gemini 2.5 Pro <noreply@google.com>",
        "Add a Co-Authored-By trailer to this commit.",
    ],
)
def test_the_trailer_without_a_standing_word_in_its_clause_is_not(sentence: str) -> None:
    assert said(sentence) == []
