"""The ninety-second round of the heuristic (ADR 0165): "from here forward" and "from this point on" are "from now on".

Held-out 405 (session 34, round 91 frozen) missed "From here forward in this repo we will refer to all existing
archived docs … as v0 …": the heuristic read "from here on (out)" as a standing word, but not "from here forward",
"from this point on", "from this point forward" or "… onwards". The prompt itself stays unproposed (its sentence
announces what the code will be called, with "will"), so the round moves no split; it is kept for the words.
"""

from __future__ import annotations

import pytest
from rounds_kit import bodies

from memory_review.extract.signals import classify


@pytest.mark.parametrize(
    "sentence",
    [
        "From this point on, run the linter before you commit.",
        "From here forward, use pnpm, not npm.",
        "From this point forward, write the commit messages in the imperative.",
        "From this point onwards we use uv for everything.",
        "From here on out, squash before you merge.",
    ],
)
def test_from_here_or_this_point_on_is_a_standing_word(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and not found.held_back


@pytest.mark.parametrize(
    "text",
    [
        "From here on the tests must pass before you commit.",
        "From here on every commit needs a signed-off-by line.",
        "Use pnpm from here on.",
    ],
)
def test_a_rule_without_a_comma_after_the_words_is_still_one(text: str) -> None:
    assert bodies(text) == [text]


def test_the_marker_alone_takes_the_sentence_after_it() -> None:
    assert bodies("OK, from this point forward. Always run the tests before you commit.") == [
        "OK, from this point forward. Always run the tests before you commit."
    ]


@pytest.mark.parametrize(
    "text",
    [
        "From this point on, work on the frontend.",
        "From here forward: fix the login bug now.",
        "OK, from this point on.",
        "Draw the route from this point on the map to the station.",
        "From here on the left you can see the settings.",
        # the review of session 34: a place in a text or a route, a description of the program
        "Copy everything from here onwards into a new file.",
        "Delete all lines from this point on in config.yaml.",
        "Move the cursor from here forward by 3 characters.",
        "Read the file from this point forward and parse each line.",
        "From this point onward, the function returns None.",
        "From here forward the road is closed, so the route must go around it.",
    ],
)
def test_the_next_piece_of_work_or_the_marker_alone_is_no_rule(text: str) -> None:
    assert bodies(text) == []
