"""The seventh and eighth rounds of the heuristic (ADR 0062, 0063): held-out 12, 13 and 14's lessons, with near misses.

The sixth round, frozen (11fa775) before held-out 12 and 13 were labelled, made 3 proposals on them, 1 worth keeping,
and missed held-out 12's one durable rule. Its two mistakes were "we use" pointing at code already there and
"always" in a terse list of what one screen should do; its miss was a weak "should not" the person said they had
given before.
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said

from memory_review.extract.precision import is_a_role_brief
from memory_review.extract.signals import classify

# (1) "we use" after a noun qualifies that noun: a pointer at code already there, not a convention.
POINTS_AT_CODE = [
    'make another Card called "Beispiele" and use the linking method we use in "latestEvents"',  # held-out 12
    "Use the same formatter we use in the API.",
    "Copy the retry helper we're using in the sync job.",
]
STATES_A_CONVENTION = [
    "In the backend we use Go.",  # a place opens the sentence, the person states what is used there
    "In this repo we use pnpm.",
    "For tests we use pytest.",
    "We use pnpm, not npm.",
    "Here we use ruff for linting.",
]
# Said once, "we use X" waits for a second session unless it says where it holds or what it is chosen against (ADR 0110)
AT_ONCE = {"In this repo we use pnpm.", "We use pnpm, not npm."}


@pytest.mark.parametrize("sentence", POINTS_AT_CODE)
def test_we_use_after_a_noun_points_at_code(sentence: str) -> None:
    assert classify(sentence) is None
    assert said(sentence, sentence, sessions=("s1", "s2")) == []


@pytest.mark.parametrize("sentence", STATES_A_CONVENTION)
def test_we_use_opening_its_clause_still_states_a_convention(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and found.type == "convention" and found.held_back == (sentence not in AT_ONCE)
    assert said(sentence) == [sentence] if sentence in AT_ONCE else held_until_said_again(sentence)


# (2) "always display …" with a screen element as its object is a spec of the screen, article or not.
@pytest.mark.parametrize(
    "sentence",
    [
        "-consistency of filters, always display reasonably populated button groups, update url",  # held-out 12
        "Always show loading spinners while fetching.",
        "never hide sidebar panels on desktop",
    ],
)
def test_always_showing_an_element_without_an_article_is_a_spec(sentence: str) -> None:
    assert said(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Never show the API key in logs.",  # no element of the screen: a rule
        "Always display errors to the user in plain words.",
        "Always keep commits small.",
    ],
)
def test_always_showing_what_is_not_an_element_is_still_a_rule(sentence: str) -> None:
    assert said(sentence) != []


# (3) The person says the rule was given before: the second time, in so many words.
@pytest.mark.parametrize(
    "sentence",
    [
        "I told you any changes that you make should not cause issues with the program.",  # held-out 12, durable
        "As I said, do not add comments to every line.",
        "I already told you: avoid adding new dependencies.",
        "I keep telling you: avoid one-letter variable names.",
        "我说过，不要在代码里打印日志。",
    ],
)
def test_a_weak_rule_said_to_be_given_before_is_proposed_at_once(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and not found.held_back, sentence
    assert len(said(sentence)) == 1


@pytest.mark.parametrize(
    "sentence",
    [
        "Tests should not hit the network.",  # the same kind without it still waits for a second session
        "I told you the file is in src.",  # "told you" with no rule in it is no rule
        "I asked you to fix the login bug, not the signup page.",  # a task, named
    ],
)
def test_without_said_before_or_a_rule_nothing_changes(sentence: str) -> None:
    found = classify(sentence)
    assert found is None or found.held_back, sentence
    assert said(sentence) == []


# The eighth round (ADR 0063), tuned on held-out 14's mistakes after it measured the seventh.
# (4) A role prompt pasted in: its rules limit the one task it sets.
ROLE_BRIEF = (
    "This is outside the roadmap - but I want you to add it to the roadmap as a phase 3.\n\n"
    "You are a Principal UI Architect, Design System Engineer, UX Researcher, Blazor Architect, and MudBlazor "
    "expert.\n\n"
    "Your mission is NOT to clone a website.\n\n"
    "Never produce a pixel-perfect clone.\n\n"
    "Never copy HTML or CSS directly.\n"
)


def test_a_role_prompt_pasted_in_is_a_brief_for_one_task() -> None:
    assert is_a_role_brief(ROLE_BRIEF)
    assert said(ROLE_BRIEF) == []


@pytest.mark.parametrize(
    "prompt",
    [
        "You are a great help. Never push to main without asking.",  # praise, no brief: the rule stands
        "Your task is to fix the login bug. From now on, always run the tests before you say you are done.",
        "you are an idiot\nnever push to main",  # no mission line
    ],
)
def test_without_both_lines_of_a_brief_the_persons_rules_stand(prompt: str) -> None:
    assert not is_a_role_brief(prompt)
    assert said(prompt) != []


# (5) "Would it be possible to …" asks, even without its question mark.
def test_would_it_be_possible_asks() -> None:
    sentence = (
        "Would it be possible to put the Case history as a collapsible at the bottom of the page under Civil Status "
        "and always closed by default - Use a datagrid instead of this history view."
    )
    assert classify(sentence) is None
    assert said(sentence) == []
