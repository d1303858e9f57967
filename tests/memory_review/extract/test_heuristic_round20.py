"""The twentieth round of the heuristic (ADR 0077): held-out 47 to 51's mistakes, after the frozen nineteenth round.

Held-out 47 to 51 (636 prompts from prompt logs people keep in their repositories) measured the frozen nineteenth round
(341b857) once: 16 proposals, 9 worth keeping. Each mistake below is a text from them, with near misses that must stay
rules.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "text",
    [
        "There are way many things i don't like, let me just name a few of them so that you can get a sense.",
        "Here is what I dislike: the colours and the spacing.",
        "Things I really don't like, in order.",
    ],
)
def test_a_dislike_with_no_object_after_it_states_none(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        'For "examples/ct_model_styles.jl", i don\'t like "apply_branch!" which sounds less physical.',
        'I prefer "apply_with_prob!", it reads better.',
    ],
)
def test_a_quoted_name_disliked_or_preferred_is_the_thing_at_hand(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        'I never say "CT.jl" is the reference you should follow.',
        "I never asked you to delete the fixtures.",
        "I have never said the cache must be global.",
        "I never meant that you should rewrite the parser.",
    ],
)
def test_i_never_said_sets_right_what_the_agent_took_from_the_person(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "You could easily use one and never use the other.",
        "You could always restart the server by hand.",
        "We might never need the second queue.",
    ],
)
def test_never_or_always_after_could_or_might_is_a_possibility(text: str) -> None:
    assert said(text) == []


def test_what_others_will_do_in_the_future_is_no_standing_word() -> None:
    text = (
        "They are meant to appear as legitimate WPDs to the agents that will process them in the future, even if "
        "they don't represent work we actually want to perform."
    )
    assert said(text) == []


def test_a_rule_about_these_steps_is_about_the_task_even_said_in_two_sessions() -> None:
    text = "Do not do all of these steps in one go."
    assert said(text, text, sessions=("s1", "s2")) == []


def test_as_i_mentioned_many_times_somewhere_is_the_cue_alone() -> None:
    cue = "So as i mentioned many times in the previous sisyphus plan."
    assert said(f"{cue} I want a PyTorch-like tool.") == []  # was the rule "Many times in the previous sisyphus plan."
    rule = "Every API should read like physics: you code just as you speak."
    assert said(f"{rule}\n\n{cue}") == [f"{rule}\n\n{cue}"]  # the rule the cue points back to


@pytest.mark.parametrize(
    "text",
    [
        "I don't like emojis in commit messages.",
        "I never want print statements in the code.",  # the person's own standing wish, not what they said
        "Never say 'I hope this helps'.",
        "You must never push to main.",
        "In the future, ask before deleting files.",
        "Always run the tests before you commit.",
        "Never modify files in the vendor directory.",
    ],
)
def test_rules_near_them_are_still_rules(text: str) -> None:
    assert said(text) == [text]
