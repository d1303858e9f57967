"""The ninety-third round of the heuristic (ADR 0166): "X should always", "any time we", "moving forward through".

From session 35's fresh splits and the misses of held-out 405 and 409 (round 92 frozen):
- a kind of thing bound with "should / must always" ("Commit messages should always be in English") is a rule, as
  "should / must never" already was; one thing of the program ("the page must always load the cart first") stays a
  spec, and so does what someone said or thought the program does ("You said it must always be there");
- "any time we / you …" is an occasion like "whenever we / you …" (kept aside until said in a second session);
- "moving forward through the wizard" walks through the app; "going forward through the end of this investigation"
  still says how long;
- "please remember we are running on docker containers as our primary method": "that" left out before what we are
  or how we work, as it was before "I am …".
"""

from __future__ import annotations

import pytest
from rounds_kit import bodies, held_until_said_again, said


@pytest.mark.parametrize(
    "text",
    [
        "Commit messages should always be written in English.",
        "Parameters should always be part of the test, otherwise they will be unmaintained.",
        "Docstrings must always say why, not what.",
        "New endpoints should always come with an integration test.",
        "Errors should always be logged with the request id.",
        "Update the prompt.log (should always be done without an extra step!)",
    ],
)
def test_a_kind_of_thing_that_should_always_be_so_is_a_rule(text: str) -> None:
    assert said(text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        # one thing of the program: a spec (ADR 0057)
        "It should always return a list.",
        "The page must always load the cart first.",
        "When I click save the dialog should always close.",
        "The tag labels should always be shown (if enabled).",
        "There should always be one as soon as the timer starts.",
        "That button should always stay blue.",
        "the header should always stay at the top when scrolling",
        "The API must always return JSON.",
        # no subject at all: what is it said of?
        "Should always be green.",
        # what someone said or took the program to do
        "You said it must always be there, but it isn't.",
        "I thought the cache should always be warm.",
        "I thought the cache should never be cold.",
        "I know the build must always pass.",
        # a question
        "Which one should always win when both are set?",
        "Why should I always have to remind you?",
    ],
)
def test_one_thing_of_the_program_or_a_report_is_no_rule(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Any time we touch the schema, you must update the migration notes.",
        "Anytime you change the schema, update the migration notes.",
        "Any time we reference a possible cross-over of topics you MUST pick up on the other DISC and notify the User",
    ],
)
def test_any_time_we_is_an_occasion_kept_until_said_again(text: str) -> None:
    assert held_until_said_again(text)


@pytest.mark.parametrize(
    "text",
    ["Anytime you're ready, push it.", "Feel free to ping me any time you want.", "Any time you like, merge it."],
)
def test_any_time_you_like_is_politeness(text: str) -> None:
    assert said(text) == [] and said(text, text, sessions=("s1", "s2")) == []


def test_any_time_with_always_is_a_rule_at_once() -> None:
    assert said("Any time you add a dependency, always pin it.") == ["Any time you add a dependency, always pin it."]


@pytest.mark.parametrize(
    "text",
    [
        "Moving forward through the wizard I arrived successfully at the Preview step after selecting all tables.",
        "Going forward past the login screen, the app crashed.",
        "Moving forward into the settings page, I clicked Save.",
        "Going forward along the list, every item shows the same date.",
    ],
)
def test_moving_forward_through_a_place_is_motion(text: str) -> None:
    assert said(text) == [] and said(text, text, sessions=("s1", "s2")) == []


def test_going_forward_through_the_end_of_something_still_says_how_long() -> None:
    text = "Going forward through the end of this project, always run the linter before you commit."
    assert said(text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "Please REMEMBER we are running on docker containers as our PRIMARY method.",
        "Please remember we're on Windows, so use PowerShell syntax.",
        "Also remember we use pnpm in this repo.",
        "Remember we run every service in docker.",
    ],
)
def test_remember_we_are_without_that_is_a_memory(text: str) -> None:
    assert bodies(text) != []


@pytest.mark.parametrize(
    "text",
    [
        "I remember we are using three levels of plans.",
        "Please remember we are going to deploy this tomorrow.",
        "Can you remember where we are in the plan?",
    ],
)
def test_remembering_for_oneself_or_a_plan_is_no_memory_at_once(text: str) -> None:
    assert said(text) == []
