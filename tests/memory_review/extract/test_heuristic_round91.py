"""The ninety-first round of the heuristic (ADR 0164): rules the person wrote with no standing word the heuristic read.

Misses of session 33's fresh splits (round 90 frozen; the splits were removed in session 34 for their licence, so the
person's sentences are paraphrased here):
- a request to "keep in mind to always follow" two instruction files, closing an opening prompt sent in six sessions:
  "keep in mind to" binds the agent as "remember to" and "make sure to" do, and was no lead before "always";
- a prohibition on scraping one site, said with "under no circumstances" and with "off limits": as strong as "never",
  in words no signal had (held-out 44's "Please under no circumstances make up of adjust data …" too);
- held-out 382's "do not track collateral creation as version changes! remember this.": "remember this" makes the
  sentence before a rule, but "do not …" was read as a task step ("do the migration").
A limit on the program's users ("the admin page is off limits to guests"), what the program must do ("Under no
circumstances should the app crash"), what a server answered ("the response is forbidden") and "that's strictly
off limits!" (what "that" is lives in the chat) are no rules for the agent.
"""

from __future__ import annotations

import pytest
from rounds_kit import bodies

from memory_review.extract.finding import describe
from memory_review.extract.signals import classify


@pytest.mark.parametrize(
    "sentence",
    [
        "Please also keep in mind to always read the contributing guide first!",
        "Keep in mind to never push to main.",
        "Bear in mind to always run the linter before you commit.",
    ],
)
def test_keep_in_mind_to_binds_the_agent_like_remember_to(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and not found.held_back


@pytest.mark.parametrize(
    "sentence",
    [
        "We can't use the staging database under no circumstances, for compliance reasons!!!",
        "deploying on Fridays is strictly off limits for compliance reasons",
        "Please under no circumstances make up or adjust data just to make it seem correct.",
        "Force pushing is strictly off limits.",
        "It is prohibited to push to main.",
        "Under no circumstances should you push to main.",
        "Do not, under any circumstances, push to main.",
        "You must not, under any circumstances, edit the migrations.",
        "You are forbidden to delete users.",
        "It is forbidden to change what the API returns.",
        "As I said, it is forbidden to push to main.",
        "the folder logs is normally OFF LIMITS for you",
    ],
)
def test_off_limits_and_under_no_circumstances_forbid(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and found.type == "forbidden" and found.signal == "off limits"


@pytest.mark.parametrize(
    "sentence",
    [
        "The admin page is off limits to guests.",
        "Deleting accounts is prohibited for regular users.",
        "the boxes are overlapping!!! that's strictly forbidden!",
        "Nodes overlap. That is strictly forbidden!",
        "that  is strictly off limits!",
        "The speed limit is 30 here.",
        # the review of session 34: what the program must do, what a server answered, what a language forbids
        "Under no circumstances should the app crash.",
        "Under no circumstances must the payment be processed twice.",
        "If I sign out on my phone, under no circumstances should it sign me out on my laptop.",
        "If the temperature is off limits the charger stops.",
        "When the cell voltage is off limits, the BMS shuts down.",
        'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:ci" cannot list resource "pods"',
        "The login works but when I call /api/orders the response is forbidden.",
        "HTTP 403 is Forbidden, 401 is Unauthorized.",
        "Empty passwords are forbidden.",
        "In Rust, mutable aliasing is forbidden.",
        "The API key is off limits for the frontend.",
        "Editing is forbidden for read-only accounts.",
        # the second review of session 34: a permission, pronouns, specifications, a server's words, a bug report
        "Nothing is off limits, feel free to refactor anything.",
        "No file in this repo is off limits to you.",
        "These are strictly off limits!",
        "They are off limits.",
        "Under no circumstances anyone should be able to delete another user's post.",
        "Under no circumstances customers should be charged twice.",
        "403: You are forbidden to access this resource.",
        "The bucket policy says it is forbidden to list objects without a token.",
        "You can't log in under no circumstances, the button does nothing.",
    ],
)
def test_a_limit_on_the_programs_users_or_on_what_the_chat_names_is_no_rule(sentence: str) -> None:
    found = classify(sentence)
    assert found is None or found.signal != "off limits"


@pytest.mark.parametrize(
    "sentence",
    [
        "Force pushing is strictly off limits.",
        "The vendor folder is strictly offlimits.",
        "The forest area is off limits until the player finds the key.",
    ],
)
def test_a_bare_off_limits_waits_for_a_second_session(sentence: str) -> None:
    # as often the program's specification as a rule for the agent: held back like a weak prohibition
    found = classify(sentence)
    assert found is not None and found.signal == "off limits" and found.held_back


def test_remember_this_after_a_do_not_makes_it_a_rule() -> None:
    assert bodies("do not track collateral creation as version changes! remember this.") == [
        "Do not track collateral creation as version changes!"
    ]


def test_remember_this_after_a_task_step_is_still_no_rule() -> None:
    assert bodies("do the migration of the user table now. remember this.") == []


@pytest.mark.parametrize(
    ("statement", "description"),
    [
        ("Remember to always run the tests.", "Always run the tests."),
        ("Please keep in mind to always read the contributing guide!", "Always read the contributing guide!"),
        ("Keep in mind that we use pnpm.", "We use pnpm."),
        ("Remember tomorrow is a holiday.", "Tomorrow is a holiday."),
        ("Remember to-do items go in TODO.md.", "To-do items go in TODO.md."),
        ("Bear in mind that we use pnpm.", "We use pnpm."),
    ],
)
def test_a_description_drops_the_lead_in_with_its_to(statement: str, description: str) -> None:
    assert describe(statement) == description
