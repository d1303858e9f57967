"""The forty-ninth round of the heuristic (ADR 0110), from the fresh record by signal.

On the 129 proposals the rounds made on held-out splits they had never seen (held-out 11 to 144), "we use" was worth
keeping 3 times of 13, "I don't like" 1 of 6 and "I prefer" 1 of 4, against 71 of 106 for every other kind. Said
once, those three now wait for a second session, as a bare "prefer X" has since ADR 0059. They are proposed at once
when they choose against something ("not Y", "over Y", "instead"), say where they hold ("in this repo"), follow a
reminder word ("remember I don't like …"), ask to be kept in mind, or follow a request naming an instruction file.
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said, user_transcript

from memory_review.extract.heuristic import extract
from memory_review.extract.signals import classify


@pytest.mark.parametrize(
    "sentence",
    [
        "We use Go for the backend.",
        "We only use aarch64-linux.",
        "I prefer the file to be named LICENSE-Apache-2.0",
        # "I dont like nested types, …" and "I don't like to use mocks." dislike a kind of thing: proposed at once
        # since round 70 (ADR 0133)
        "I hate it when the build is slow.",
    ],
)
def test_what_the_person_or_team_does_or_likes_said_once_waits_for_a_second_session(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and found.held_back
    assert held_until_said_again(sentence)


def test_said_in_a_second_session_it_says_why_it_waited() -> None:
    text = "We use Go for the backend."
    (finding,) = extract(user_transcript(text, text, sessions=("s1", "s2")))
    assert "with no standing word in 2 sessions" in finding.rationale


@pytest.mark.parametrize(
    "sentence",
    [
        "We use pnpm, not npm.",
        "Prefer composition over inheritance.",
        "My preference is tabs over spaces.",
        "I don't like nested ternaries, write ifs instead.",
        "We use uv for everything in this repo.",
        "We always use uv.",  # a standing word beside it
        "You should be using the subagents you have for this work.",  # how the agent is to work
    ],
)
def test_a_rule_that_chooses_against_something_or_says_where_it_holds_is_proposed_at_once(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and not found.held_back
    assert said(sentence) == [sentence]


def test_asking_for_it_to_be_kept_in_mind_proposes_it_at_once() -> None:
    text = "Fetch the docs for Gemini API, we're using the Free Tier, keep that in mind."
    assert said(text) == [text]


def test_after_a_reminder_word_it_is_proposed_at_once() -> None:
    text = "Come up with a plan for these tests, remember I don't like to use mocks."
    assert said(text) == ["I don't like to use mocks."]


def test_after_a_request_naming_an_instruction_file_it_is_proposed_at_once() -> None:
    text = "Then, add methodologies, workflows and conventions to claude.md - we are using Test Driven Development."
    assert said(text) == ["we are using Test Driven Development."]
    # with no file named, the request before the dash is any task's, and the rule waits
    assert said("Then, write the docs for the new parser module - we are using Test Driven Development.") == []


@pytest.mark.parametrize(
    "sentence",
    [
        "We use pnpm, not only npm.",  # "not only" adds, it chooses against nothing
        "I prefer to keep it short.",
        "We're using the old API for now.",
    ],
)
def test_near_misses_of_the_exceptions_still_wait(sentence: str) -> None:
    assert said(sentence) == []
