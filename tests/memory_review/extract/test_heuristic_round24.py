"""The twenty-fourth round of the heuristic (ADR 0083): "make sure you never …" binds the agent.

Held-out 58 to 63 measured the frozen twenty-third round once: 1 proposal, worth keeping, 0 of 3 rules found. One it
missed closed a task brief: "make sure the ai never writes any code to alter the test cases or meet this validation
criteria, use pysal and geopandas library only". "you never …" alone is mostly a complaint ("you never listen"); after
"make sure" or "ensure" it binds whoever is named, the agent or "we".
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "text",
    [
        "make sure the ai never writes any code to alter the test cases, use pysal and geopandas library only.",
        "Make sure you never commit the .env file.",
        "Ensure that you always run the linter before a commit.",
        "make sure claude always asks before deleting files.",
    ],
)
def test_make_sure_before_never_or_always_binds_the_agent(text: str) -> None:
    assert said(text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "you never listen to what I say.",  # a complaint, no rule
        "Make sure it never crashes when the file is empty.",  # what the program must do, this task
        "make sure the app always shows the total.",
        "make sure the agent never used that key.",  # a past tense tells what happened
    ],
)
def test_never_or_always_with_no_one_bound_is_no_rule(text: str) -> None:
    assert said(text) == []
