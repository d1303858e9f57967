"""The tenth round of the heuristic (ADR 0065): the person reminding the agent of a rule it did not keep.

"I told you …", "I remind you …", "… like you were supposed to", "You should know this.": on the seen labelled splits 9
of the 10 prompts with such a cue were worth keeping and the ninth round proposed one. Frozen before held-out 20–22
were read, and measured on them once.
"""

from __future__ import annotations

import pytest
from rounds_kit import said, user_transcript

from memory_review.extract.heuristic import extract
from memory_review.extract.reminders import SIGNAL_REMINDER, a_reminder, kind_of
from memory_review.extract.transcript import Transcript, Turn


# (1) The cue leads and the rule follows: the rule is what follows it.
@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        (  # held-out 15, durable
            "I told you to make sure any changes you did would not cause issues with the program.",
            "Make sure any changes you did would not cause issues with the program.",
        ),
        (  # held-out 10, durable
            "In terms of todo, I remind you the main directive that we rely on task-master, not in a file.",
            "The main directive that we rely on task-master, not in a file.",
        ),
        ("Like I said before, keep every commit small enough to review!", "Keep every commit small enough to review!"),
        ("I've already told you that we deploy with the makefile only.", "We deploy with the makefile only."),
    ],
)
def test_a_rule_after_a_reminder_is_proposed_as_the_rule(sentence: str, rule: str) -> None:
    [finding] = extract(user_transcript(sentence))
    assert finding.signal == SIGNAL_REMINDER and finding.quote == sentence
    assert finding.memory.body == rule and finding.priority == "high"


# (2) The cue trails the rule: the sentence is the rule.
def test_like_you_were_supposed_to_makes_the_sentence_a_rule() -> None:
    sentence = (  # dev 2, durable (paraphrased)
        "If you had been handing this to the UI subagent like you were supposed to, it would already know how to run "
        "the tests."
    )
    [finding] = extract(user_transcript(sentence))
    assert finding.signal == SIGNAL_REMINDER and finding.quote == sentence


# (3) The cue stands alone: the rule is the sentence before it, quoted with the cue.
def test_a_cue_alone_points_at_the_sentence_before_it() -> None:
    text = "I'm on Ubuntu 22.04. You should know this... I'm not headless I am typing the terminal in a gui session."
    [finding] = extract(user_transcript(text))  # held-out 4, durable
    assert finding.quote == "I'm on Ubuntu 22.04. You should know this..."
    assert finding.memory.body == "I'm on Ubuntu 22.04."
    assert (finding.memory.type, finding.scope) == ("fact", "user")


@pytest.mark.parametrize(
    "cue", ["I told you that already.", "As I said before.", "How many times do I have to tell you?"]
)
def test_every_form_of_a_cue_alone_points_back(cue: str) -> None:
    assert said(f"My editor is Helix. {cue}") == [f"My editor is Helix. {cue}"]


def test_a_cue_alone_after_a_rule_already_found_adds_nothing() -> None:
    # "We keep the changelog in English here, not in German." is a finding of its own ("we" + a convention, chosen
    # against another way, so proposed said once: ADR 0110): not proposed twice
    text = "We keep the changelog in English here, not in German. I told you that already."
    assert said(text) == ["We keep the changelog in English here, not in German."]


def test_a_cue_alone_with_nothing_before_it_or_a_question_before_it_is_nothing() -> None:
    assert said("You should know this.") == []
    assert said("Which shell do I use? You should know this.") == []


# Near misses: a reminder of a job, of something in the chat, of code, or of this moment is no rule.
@pytest.mark.parametrize(
    "sentence",
    [
        "I told you to fix the login bug.",  # a job not done yet
        "I told you the file is in src.",  # "the file": a referent of the chat
        "As I said, it's broken.",
        "I told you to rename `parse_row` to `parse_line`.",  # named code: this task's
        "I told you the build is failing right now.",  # "right now"
        "I told you so.",  # nothing before it
        "Did I tell you to use the old API?",  # a question
        "I told you, no.",  # too short to be a rule
        "Like I said, it's broken.",
    ],
)
def test_a_reminder_of_no_rule_is_nothing(sentence: str) -> None:
    assert said(sentence) == [], sentence


def test_a_reminder_in_text_the_user_did_not_write_is_never_proposed() -> None:
    turns = [
        Turn(turn_id="t0", role="user", text="read the log", source="user", index=0),
        Turn(turn_id="t1", role="tool", text="I told you to always deploy on Fridays.", source="tool-output", index=1),
    ]
    transcript = Transcript(session_id="round10", format="text", turns=turns)
    assert SIGNAL_REMINDER not in [f.signal for f in extract(transcript, include_untrusted=True)]


@pytest.mark.parametrize(
    ("rule", "kind"),
    [
        ("I'm on Ubuntu 22.04.", ("fact", "user")),
        ("We deploy with the makefile only.", ("convention", "project")),
        ("Never push to main without a review.", ("forbidden", "project")),
        ("Answer me in French.", ("preference", "user")),
    ],
)
def test_a_reminded_rule_gets_its_type_and_scope(rule: str, kind: tuple[str, str]) -> None:
    assert kind_of(rule) == kind


def test_a_page_long_sentence_is_no_reminder_and_costs_one_look() -> None:
    assert a_reminder("How many times do I have to tell you" + " " * 100_000 + "x") is None
    assert a_reminder("I told you " + "to keep it " * 20_000) is None
