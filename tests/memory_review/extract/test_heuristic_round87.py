"""The eighty-seventh round of the heuristic (ADR 0151): where the agent may not write is a standing rule.

"Do NOT change my files outside of /home/me/src/pipeboard." (paraphrased), "do not change things outside of your own
folder" and "DO NOT WRITE outside vioverse-refactor" were weak prohibitions, held back until said in a second
session; a sandbox for every task is said once, at the start. "Outside this function" is about the change at hand
and stays unread.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.signals import classify


@pytest.mark.parametrize(
    "sentence",
    [
        "Do NOT change my files outside of /home/me/src/pipeboard.",  # paraphrased
        "do not change things outside of your own folder",
        "DO NOT WRITE outside vioverse-refactor",
        "You are not allowed to read, write, analyze, or reference anything outside this folder.",
        "**NO MODIFICATIONS** to any files outside vioverse-refactor, including the parent.",
        "Do not create files outside the docs folder.",
    ],
)
def test_a_place_the_agent_may_not_write_outside_is_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


def test_the_rule_is_the_projects() -> None:
    found = classify("do not change things outside of your own folder")
    assert found is not None and found.scope == "project"


@pytest.mark.parametrize(
    "sentence",
    [
        "Don't change anything outside this function.",
        "Don't modify anything outside parseConfig.",
        "Don't change anything outside the login component.",
        "Don't edit anything outside src/components/Button.tsx.",
        "Do not modify anything outside main.py",
        "Do not change the expected values in the tests (6 changed, 4 outside, 3 affected).",
        "Move the images outside this folder.",
        "The code may write outside the intended vault root.",
        "No need to modify anything outside src/ for this fix.",
        "Don't hesitate to change things outside of your own folder.",
    ],
)
def test_a_unit_of_the_code_or_no_prohibition_is_not(sentence: str) -> None:
    assert said(sentence) == []
