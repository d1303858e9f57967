"""The twenty-fifth round of the heuristic (ADR 0084): a time said to lie ahead, a purpose, and "make a note to".

Held-out 57, 64 and 65 measured the frozen twenty-third and twenty-fourth rounds once: 3 proposals, 2 worth keeping,
1 of 4 rules found. The one not worth keeping: "… append the structured data to the task so that it can be used going
forward" (why this step is done). "The last time you used is in the future" was proposed too (it counted, its prompt
being a maybe, but it is a complaint about a timestamp). A rule missed: "Either install it or make a note to not use it
again and what to use instead": the person asks the agent to keep it for later sessions.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "text",
    [
        "The last time you used is in the future.",
        "Then, when exporting back to Jira, append the structured data to the task so that it can be used going "
        "forward.",
        "Save the parsed rows to a cache so they can be reused in the future.",
    ],
)
def test_a_time_ahead_or_a_purpose_is_no_standing_word(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "In the future, ask before deleting files.",
        "We should write the dates as ISO 8601 going forward.",
        "The deadline is in the future, never set it to the past.",  # the rule after the comma
    ],
)
def test_the_standing_words_still_instruct(text: str) -> None:
    assert said(text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "Either install it or make a note to not use it again and what to use instead.",
        "Also make a note to always update the prompt history.",
        "Please make a note that we deploy with fly.io.",
    ],
)
def test_make_a_note_asks_the_agent_to_keep_it(text: str) -> None:
    assert said(text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "Make a note in the README that the API changed.",  # a step of the task: what to write where
        "Can you make a note of this?",
        "I'll make a note to check it later.",  # the person's own plan
        "Please make a note that I fixed the login bug.",  # a report of what was done
        "and make a note to call the client tomorrow.",  # one day's errand
    ],
)
def test_a_note_in_a_file_or_the_persons_own_is_no_memory(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "From now on, write helper functions so that they can be reused in the future.",
        "Going forward, keep the fixtures small so they can be loaded going forward.",
        "From now on, put dates that are in the future in UTC.",
    ],
)
def test_a_standing_word_outside_the_described_future_still_instructs(text: str) -> None:
    assert said(text) == [text]
