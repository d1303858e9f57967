"""The ninety-fifth round of the heuristic (ADR 0168): what the person forgot to mention, and the other ways of saying
"I remind you" and "you keep forgetting".

Held-out 410 (round 92 measured it first) holds "Oh my gosh I totally forgot to mention our backend MUST be GPU enabled
where ever possible for speed and efficiency.": a condition the person should have given with the task, added now; in
every split the four prompts that say "forgot to mention" were worth keeping (two durable, two maybe). "I want to remind
you that …", "You keep forgetting this." and "We went over this before." are the reminders of ADR 0065 in other words.
The session's review showed all these cues as often before a report, a complaint, a schedule, thanks or this task's
spec ("I forgot to mention, the customer wants the header in dark blue.", "Your fix didn't work. We've been over
this."), so what they lead to must bind someone (a word of duty or of every case), and what the person forgot to
mention must hold both.
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
            "I forgot to tell you that we must deploy from the release branch only, every time.",
            "We must deploy from the release branch only, every time.",
        ),
        ("Sorry, I should have mentioned that all dates must be stored in UTC.", "All dates must be stored in UTC."),
        (
            "Also I forgot to say: every public API must stay backwards compatible.",
            "Every public API must stay backwards compatible.",
        ),
        (
            "One thing I forgot to mention -- every page needs to have a dark mode variant.",
            "Every page needs to have a dark mode variant.",
        ),
        (
            "Oh, sorry, I forgot to mention that all money amounts must be integers in cents.",
            "All money amounts must be integers in cents.",
        ),
        (
            "Forgot to mention: all API responses must use snake case keys.",
            "All API responses must use snake case keys.",
        ),
        (
            "I forgot to add that every endpoint must require authentication.",
            "Every endpoint must require authentication.",
        ),
    ],
)
def test_what_the_person_forgot_to_mention_is_the_rule(text: str, body: str) -> None:
    assert said(text) == [text]
    assert bodies(text) == [body]


@pytest.mark.parametrize(
    "text",
    [
        # a report of what was done, by the person or someone else
        "I forgot to mention that I renamed the config module.",
        "I forgot to mention we already merged the branch.",
        "I forgot to mention I've updated the fixtures.",
        "I forgot to mention that I ran the migrations already.",
        "I forgot to mention that my colleague pushed a fix for the login issue.",
        "I forgot to mention: we found the root cause, it was a race condition in the worker.",
        "I forgot to mention the build also fails on Node 18.",
        # what "the file" is lives in the chat
        "I forgot to mention the file is in src.",
        # a question about it
        "I forgot to mention this previously -- does this affect the initial design principles?",
        # a step of the job at hand, or its spec
        "I forgot to mention, fix the login bug too.",
        "I forgot to mention, add a retry to the upload.",
        "I forgot to mention that you need to add tests for the new endpoint.",
        "I forgot to mention that we should also update the README.",
        "One more thing I forgot to mention: the sidebar should collapse on mobile.",
        "I forgot to mention that this needs to ship by Thursday.",
        "I forgot to mention, the customer wants the header in dark blue.",
        "Damn I forgot to mention that we are now running the demo from my laptop.",
        # held-out 48's "the development should be "test driven"": a duty, but of no case in general
        'One thing I forgot to mention -- the development should be "test driven".',
        # chatter, thanks, a schedule
        "I forgot to say thank you for the quick fix.",
        "I forgot to tell you, I'll be offline until Monday.",
        "I should have mentioned that before, my bad.",
        # not the person's words about what they left out
        "You forgot to mention the tests in your summary.",
        "Fix the README because I forgot to mention the install steps for Windows.",
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
        ("Let me just remind you that every migration needs a down step.", "Every migration needs a down step."),
        ("I need to remind you that all dates must be stored in UTC.", "All dates must be stored in UTC."),
        (
            "I want to remind you that your commit messages must follow conventional commits.",
            "Your commit messages must follow conventional commits.",
        ),
        (
            "Let me remind you of our rule: every PR needs to have two approvals.",
            "Every PR needs to have two approvals.",
        ),
        (
            "I want to remind you guys that every PR needs to have two approvals.",
            "Every PR needs to have two approvals.",
        ),
        (
            "i want to remind you (and you should also write it down somewhere) that every generated file needs to "
            "come from the generator",
            "Every generated file needs to come from the generator.",
        ),
        (
            "I'd like to remind you that every deploy must go through staging first.",
            "Every deploy must go through staging first.",
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
        # the review's complaints, schedules, task steps and chatter
        "Let me remind you that we have a demo on Friday.",
        "Let me remind you that you still haven't fixed the pagination.",
        "I would like to remind you that your previous answer was wrong.",
        "I want to remind you to commit your changes.",
        "I'd like to remind you about our coding standards.",
        "I'd like to remind you that we still need the unit tests for the cart.",
        "Let me remind you again (as I said yesterday (twice)) that every page needs a dark mode variant.",
        "Let me remind you that the staging database is shared with QA.",
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
    ("text", "body"),
    [
        (
            "Every commit must carry the ticket number in its title. You keep forgetting this.",
            "Every commit must carry the ticket number in its title.",
        ),
        (
            "Dates should go over the wire as ISO strings. We went over this before.",
            "Dates should go over the wire as ISO strings.",
        ),
        ("Commit messages must be in English. We've been over this.", "Commit messages must be in English."),
        (
            "Timestamps must be stored in UTC. You keep forgetting about this.",
            "Timestamps must be stored in UTC.",
        ),
        ("Timestamps must be stored in UTC. We already discussed this.", "Timestamps must be stored in UTC."),
        ("Timestamps must be stored in UTC! We've been over this!!", "Timestamps must be stored in UTC!"),
        (
            "Your commit messages must follow conventional commits. We went over this before.",
            "Your commit messages must follow conventional commits.",
        ),
    ],
)
def test_you_keep_forgetting_this_points_back_at_the_rule(text: str, body: str) -> None:
    # the quote holds both sentences, the body the rule before the cue
    assert said(text) == [text]
    assert bodies(text) == [body]


@pytest.mark.parametrize(
    ("text", "body"),
    [
        (
            "we went over this before, the mobile app must only use React Native components",
            "The mobile app must only use React Native components.",
        ),
        ("We discussed this before, timestamps must be stored in UTC.", "Timestamps must be stored in UTC."),
        ("We went over this before - every migration needs a down step.", "Every migration needs a down step."),
        ("We went over this before \u2014 every migration needs a down step.", "Every migration needs a down step."),
        ("We went over this before -- every migration needs a down step.", "Every migration needs a down step."),
        # the lead-in is shared with "I told you" (its dash was kept in the body before)
        ("I told you -- never push directly to main.", "Never push directly to main."),
    ],
)
def test_we_went_over_this_before_leads_a_rule(text: str, body: str) -> None:
    assert said(text) == [text]
    assert bodies(text) == [body]


@pytest.mark.parametrize(
    ("text", "body"),
    [
        (
            "I forgot to mention in my last message that all PRs need to be squashed.",
            "All PRs need to be squashed.",
        ),
        (
            "I forgot to mention yesterday that every endpoint must require authentication.",
            "Every endpoint must require authentication.",
        ),
        (
            "I forgot to mention one thing: every endpoint must require authentication.",
            "Every endpoint must require authentication.",
        ),
    ],
)
def test_words_between_the_cue_and_its_rule_stay_out_of_the_body(text: str, body: str) -> None:
    assert bodies(text) == [body]


@pytest.mark.parametrize(
    "text",
    [
        "Fix the login bug. You keep forgetting this.",
        "It is broken. We went over this before.",
        "Thanks! We went over this before.",
        "We went over this in the planning meeting.",
        "we went over this before the release and it was fine",
        # the review's complaints and chatter; "I went over this" is "I reviewed it"
        "I went over this before, the code looks fine to me.",
        "The retry logic looks correct to me. I went over this already.",
        "We went over this before, but I still don't understand how the cache works.",
        "We went over this before, thanks for being patient with me.",
        "We went over this before, you said it was fixed.",
        "We've been over this: your last three attempts all failed.",
        "Your fix didn't work. We've been over this.",
        "You didn't update the changelog. You forgot this again.",
        "You deleted my comments again. You always forget that.",
        "I'm not happy with the new layout. We discussed this before.",
        "The header is still misaligned. We went over this before.",
        # the second review's reports, schedules, specs of this task, other people's words, quoted text
        "Let me remind you that all of your previous attempts failed.",
        "All the tests failed again. We went over this.",
        "I forgot to mention, every request to the staging API must have failed last night because the cert expired.",
        "Let me remind you that all hands must attend the retro at 4pm.",
        "I forgot to mention, the demo MUST be ready by Friday.",
        "I want to remind you that all the charts in the report need to have a legend.",
        "Forgot to mention: each card in the product grid should have a drop shadow.",
        "I forgot to mention: all three new endpoints must return JSON.",
        "Great, every test must be green, as if that ever happens. We went over this.",
        "We went over this before: the vendor insists every request must be signed, though their docs are wrong.",
        'I forgot to mention the error says "all arguments must be strings" when I call it.',
        "I forgot to add tests for all the handlers that must be public.",
        "I forgot to tell you about all the files that must be deleted.",
        "Oh I forgot to mention the CI always fails on Fridays.",
        "Let me remind you that the build always fails on Mondays.",
        "I forgot to mention that the old laptop can't run any of the tests.",
        "My boss always told me, let me remind you that every PR must be small.",
        "Forgot to say, we don't have any budget left for the paid plan.",
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
