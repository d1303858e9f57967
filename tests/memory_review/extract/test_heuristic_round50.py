"""The fiftieth round of the heuristic (ADR 0111), tuned on held-out 146.

"In this project, we're going to create a Python script that creates a time-series analysis of air raid alerts in
Ukraine." opens a task brief: what this project will do, not how work is done in it. A plan after "in this project /
repo" ("we're going to", "we'll", "we want to", "we can") is read as "in the future we'd …" has been since ADR 0049.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "In this project, we're going to create a Python script that creates a time-series analysis of alerts.",
        "In this project we are going to build a small CLI.",
        "In this repo we'll add a cache later.",
        "In this project, we want to compare three models.",
        "In the future we're going to add a cache.",
    ],
)
def test_a_plan_in_this_project_is_no_convention(sentence: str) -> None:
    assert said(sentence) == []
    assert said(sentence, sentence, sessions=("s1", "s2")) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "In this repo, you must run the linter before committing.",
        "In this project, we always write the tests first.",
        "In our codebase all dates are UTC.",
        "In this project we use pnpm, not npm.",
    ],
)
def test_how_work_is_done_in_this_project_is_still_a_convention(sentence: str) -> None:
    assert said(sentence) == [sentence]
