"""The ninety-third round of the heuristic (ADR 0166): "X should always", "any time we", "moving forward through".

From session 35's fresh splits and the misses of held-out 405 and 409 (round 92 frozen):
- a kind of thing bound with "should / must always" ("Docstrings must always say why") is a rule, as "should / must
  never" already was, but kept aside until said in a second session (as often the product's spec: "Users should always
  see a confirmation dialog"); one thing of the program ("the page must always load the cart first") stays a spec, and
  so does what someone said or thought the program does ("You said it must always be there");
- "any time we / you …" is an occasion like "whenever we / you …" (kept aside until said in a second session);
- "moving forward through the wizard" walks through the app; "going forward through the end of this investigation"
  still says how long;
- "please remember we are running on docker containers as our primary method": "that" left out before what we are
  or how we work, as it was before "I am …"; kept aside until said again ("remember we're almost done" is this
  session's state).
"""

from __future__ import annotations

import pytest
from rounds_kit import bodies, held_until_said_again, said


@pytest.mark.parametrize(
    "text",
    [
        "Parameters should always be part of the test, otherwise they will be unmaintained.",
        "Docstrings must always say why, not what.",
        "New endpoints should always come with an integration test.",
        "Errors should always be logged with the request id.",
        "Update the prompt.log (should always be done without an extra step!)",
        # as often the product's spec (the session's review): kept aside the same way
        "Users should always see a confirmation dialog before deleting.",
        "Modals should always close when pressing Escape.",
    ],
)
def test_a_kind_of_thing_that_should_always_be_so_waits_for_a_second_session(text: str) -> None:
    assert held_until_said_again(text)


@pytest.mark.parametrize(
    "text",
    [
        "Docstrings must always say why, not what, in this repo.",
        "From now on, docstrings must always say why, not what.",
    ],
)
def test_with_a_word_that_makes_a_rule_at_once_it_is_proposed(text: str) -> None:
    assert said(text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        # a git word is no rule word here (the session's second review)
        "Commit messages should always be written in English.",
        "Users should always see the commit hash in the footer.",
        "Push notifications should always be opt-in.",
        "Remember we're mid-rebase.",
    ],
)
def test_a_git_word_does_not_release_what_is_kept_aside(text: str) -> None:
    assert held_until_said_again(text)


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
        "He said tests must always pass before merging, but I disagree.",
        "We thought the cache should never be cold.",
        "Bob said the cache should never be cold.",
        "My manager said the cache should never be cold.",
        "I knew the cache should never be cold.",
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
        "Moving forward into the next screen, the button disappears.",
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
        "Remember we run every service in docker.",
        # as often a state of this session (the session's review): kept aside until said again
        "Remember we're almost done.",
        "Please remember we are on the feature branch.",
    ],
)
def test_remember_we_are_without_that_waits_for_a_second_session(text: str) -> None:
    assert held_until_said_again(text)


def test_remember_we_are_with_a_standing_word_is_a_memory_at_once() -> None:
    assert bodies("Please remember we use pnpm in this repo, never npm.") != []


@pytest.mark.parametrize(
    "text",
    [
        # the person's own rule said again, not a report of what someone took the program to do
        "I said the main branch must never be force-pushed!",
        "You know the main branch must never be force-pushed.",
        "We said the main branch must never be force-pushed.",
        "I already said the main branch must never be force-pushed!",
        "I think tests should never hit the network.",
        "Remember I said the API keys must never be logged.",
    ],
)
def test_the_persons_own_rule_said_again_is_still_a_rule(text: str) -> None:
    assert said(text) == [text]


def test_at_any_time_is_a_possibility_not_an_occasion() -> None:
    text = "At any time we can roll back."
    assert said(text) == [] and said(text, text, sessions=("s1", "s2")) == []


def test_going_forward_into_the_next_release_says_when() -> None:
    text = "Going forward into the next release, ask before adding dependencies."
    assert said(text) == [text]


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
