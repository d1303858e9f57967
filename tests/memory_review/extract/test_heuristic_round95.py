"""The ninety-fifth round of the heuristic (ADR 0168): what the person forgot to mention, and the other ways of saying
"I remind you" and "you keep forgetting".

Held-out 410 (round 92 measured it first) holds "Oh my gosh I totally forgot to mention our backend MUST be GPU enabled
where ever possible for speed and efficiency.", and held-out 48 "One thing I forgot to mention -- the development should
be "test driven" …": a condition the person should have given with the task, added now; in every split the four
prompts that say "forgot to mention" were all worth keeping (two durable, two maybe). Held-out 69's "you've been
forgetting to add all my prompts to ai-prompts.txt" stays unproposed (its labeller kept the sentence after it); "I want
to remind you that …", "You keep forgetting this." and "We went over this before." are the reminders of ADR 0065 in
other words.
"""

from __future__ import annotations

import pytest
from rounds_kit import bodies, said, user_transcript

from memory_review.extract.heuristic import extract

GPU = (
    "Oh my gosh I totally forgot to mention our backend MUST be GPU enabled where ever possible for speed and "
    "efficiency."
)


def test_held_out_410s_forgotten_condition_is_proposed() -> None:
    assert said(GPU) == [GPU]
    assert bodies(GPU) == ["Our backend MUST be GPU enabled where ever possible for speed and efficiency."]


@pytest.mark.parametrize(
    ("text", "body"),
    [
        (
            "I forgot to tell you that we deploy from the release branch only.",
            "We deploy from the release branch only.",
        ),
        ("Sorry, I should have mentioned that all dates are stored in UTC.", "All dates are stored in UTC."),
        (
            "Also I forgot to say: the public API must stay backwards compatible.",
            "The public API must stay backwards compatible.",
        ),
        (
            "One thing I forgot to mention -- every page needs a dark mode variant.",
            "Every page needs a dark mode variant.",
        ),
        (
            "I forgot to mention earlier, all money amounts are integers in cents.",
            "All money amounts are integers in cents.",
        ),
    ],
)
def test_what_the_person_forgot_to_mention_is_the_rule(text: str, body: str) -> None:
    assert said(text) == [text]
    assert bodies(text) == [body]


@pytest.mark.parametrize(
    "text",
    [
        # a report of what was done, not a condition of the work
        "I forgot to mention that I renamed the config module.",
        "I forgot to mention we already merged the branch.",
        "I forgot to mention I've updated the fixtures.",
        # what "the file" is lives in the chat
        "I forgot to mention the file is in src.",
        # a question about it
        "I forgot to mention this previously -- does this affect the initial design principles?",
        # a step of the job at hand
        "I forgot to mention, fix the login bug too.",
        "I forgot to mention, add a retry to the upload.",
        "Damn I forgot to mention that we are now running the demo from my laptop.",
        # not the person's words about what they left out
        "You forgot to mention the tests in your summary.",
        "I forgot to add the file.",
        "I forgot to mention it.",
    ],
)
def test_no_rule_in_what_was_forgotten(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("I just want to remind you that the tests must run offline.", "The tests must run offline."),
        ("Let me remind you that every migration needs a down step.", "Every migration needs a down step."),
        (
            "i want to remind you (and you should also write it down somewhere) that generated files are never edited "
            "by hand",
            "Generated files are never edited by hand.",
        ),
        (
            "I'd like to remind you that the staging database is shared with QA.",
            "The staging database is shared with QA.",
        ),
    ],
)
def test_i_want_to_remind_you_is_a_reminder(text: str, body: str) -> None:
    assert said(text) == [text]
    assert bodies(text) == [body]


@pytest.mark.parametrize(
    "text",
    [
        "Please work on, to remind you, there is the prompt:",
        "We are using the hook to remind you of parts of your system prompt anyway.",
        "I want to remind you to fix the login bug.",
        "Let me remind you that it is broken.",
        "I wanted to remind you that the file is in src.",
        "Can I remind you that the demo is at three?",
    ],
)
def test_no_rule_after_a_reminder_of_the_job(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        # held-out 69's labeller kept its prompt's next sentence as the rule ("Always add them there along with any
        # summaries of changes."), so "you've been forgetting to" is not read as "don't forget to" (it made a proposal
        # the measure counts as not worth keeping, and found nothing new)
        "Also, you've been forgetting to add all my prompts to ai-prompts.txt.",
        # nothing says how often: the thing at hand
        "You keep forgetting to close the div.",
        "You keep forgetting to add it here.",
        "You forgot to update the changelog.",
        "Why do you keep forgetting to run all the tests?",
    ],
)
def test_forgetting_to_do_something_is_no_rule_yet(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    ("text", "quote", "body"),
    [
        (
            "Each commit carries the ticket number in its title. You keep forgetting this.",
            "Each commit carries the ticket number in its title. You keep forgetting this.",
            "Each commit carries the ticket number in its title.",
        ),
        (
            "Dates go over the wire as ISO strings. We went over this before.",
            "Dates go over the wire as ISO strings. We went over this before.",
            "Dates go over the wire as ISO strings.",
        ),
        (
            "Commit messages are in English. We've been over this.",
            "Commit messages are in English. We've been over this.",
            "Commit messages are in English.",
        ),
        (
            "we went over this before, the mobile app only uses React Native components",
            "we went over this before, the mobile app only uses React Native components",
            "The mobile app only uses React Native components.",
        ),
    ],
)
def test_you_keep_forgetting_this_points_at_the_rule(text: str, quote: str, body: str) -> None:
    assert said(text) == [quote]
    assert bodies(text) == [body]


@pytest.mark.parametrize(
    "text",
    [
        "Fix the login bug. You keep forgetting this.",
        "It is broken. We went over this before.",
        "Thanks! We went over this before.",
        "We went over this in the planning meeting.",
        "we went over this before the release and it was fine",
    ],
)
def test_no_rule_before_you_keep_forgetting(text: str) -> None:
    assert said(text) == []


def test_the_rationale_says_what_was_forgotten_not_that_it_was_said_before() -> None:
    (finding,) = extract(user_transcript(GPU))
    assert "forgotten to mention" in finding.rationale
    assert "said before" not in finding.rationale
    (reminded,) = extract(user_transcript("I just want to remind you that the tests must run offline."))
    assert "said before" in reminded.rationale
