"""The fifty-sixth round of the heuristic (ADR 0119), tuned on held-out 173.

"Please don't write doctrings in specs, … (make a note in project memory of this important style guidance, plz)": the
person asks for what the sentence says to be kept, as "keep that in mind" does (ADR 0059, 0110), so a "don't" said
once is proposed at once. "Make a note of all things and continue" asks for notes of the task, and a request in a
sentence of its own points at no rule in its words.
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said

NO_DOCSTRINGS = (
    "Please don't write doctrings in specs, these are redundant with describe_/it_ functions -- remember we'll get a "
    "human readable description when we run `pytest --spec` (make a note in project memory of this important style "
    "guidance, plz)"
)


@pytest.mark.parametrize(
    "sentence",
    [NO_DOCSTRINGS, "Don't add docstrings to the specs, make a note of that.", "Avoid mocks, make a note to memory."],
)
def test_asking_for_a_note_in_memory_keeps_the_rule_of_its_sentence(sentence: str) -> None:
    assert said(sentence) == [sentence]


def test_without_it_a_dont_said_once_still_waits_for_a_second_session() -> None:
    assert held_until_said_again("Please don't write docstrings in specs, they are redundant.")


@pytest.mark.parametrize("text", ["Make a note of all things and continue.", "Use tabs. Make a note of this."])
def test_a_note_of_the_task_or_on_its_own_is_no_rule(text: str) -> None:
    assert said(text) == []
