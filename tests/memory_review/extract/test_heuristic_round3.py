"""The third round of the heuristic (ADR 0054): each rule from a real prompt of the seen splits, with near misses.

The classes the fourth and fifth held-out splits showed (now seen: dev 4 and dev 5): hard-wrapped prompts read
line by line, a task spec's "Do not …" / "prefer …" lines, a time budget for one job, a quoted passage, "before
moving forward with …", and the scope of "always use ruff here".
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.signals import classify
from memory_review.extract.textutil import unwrapped

# Dev 5 (bjl14710/cpp_game_with_llm_npcs): a list item hard-wrapped at ~80 columns, the rule across the break.
WRAPPED_ITEM = (
    "Things to do tonight, in order, with the reasoning for each one logged as you go:\n"
    "- Draft tickets, implement, test, open a draft PR as usual. Do not merge,\n"
    "  do not touch main.\n"
    "- Follow existing CLAUDE.md agent routing.\n"
)


def test_a_rule_hard_wrapped_over_two_lines_is_one_sentence() -> None:
    assert said(WRAPPED_ITEM) == ["Do not merge,\n  do not touch main."]


def test_unwrapping_keeps_offsets_and_leaves_list_items_and_short_lines_alone() -> None:
    assert len(unwrapped(WRAPPED_ITEM)) == len(WRAPPED_ITEM)
    assert unwrapped(WRAPPED_ITEM).count("\n") == WRAPPED_ITEM.count("\n") - 1
    short = "Never use tabs\nin this repo"  # short lines are lines, not a wrapped paragraph
    assert unwrapped(short) == short
    ended = "Use the logger for everything that reaches the user, please, and thanks.\nnever print()"
    assert unwrapped(ended) == ended  # the line ended its sentence
    wide = "x" * 120 + "\nnever commit the built files"  # a line wider than any wrap is not wrapped
    assert unwrapped(wide) == wide


def test_a_line_that_is_its_own_sentence_still_stands_in_a_wrapped_message() -> None:
    text = (
        "I have been going through the release notes and the changes you made this week,\n"
        "and they look fine to me overall.\n"
        "Never force-push to a shared branch.\n"
    )
    assert said(text) == ["Never force-push to a shared branch."]


# Dev 5: a long /idea-style spec (Goal:, Context:, numbered items); its "Do not …" lines are about this job.
SPEC = (
    "Goal: A full creative and game-feel audit of this project, producing a prioritized,\n"
    "categorized backlog of design improvements, a design document I can react to.\n"
    "\n"
    "Do not interrogate me with clarifying questions before starting. I don't have\n"
    "strong opinions yet on how this genre of game should look and feel, that's the\n"
    "point of this audit.\n"
    "\n"
    "Cover, as separate sections:\n"
    "1. Visual style and art direction, cohesion, what's currently placeholder.\n"
    "2. Game feel, feedback on player actions, animation weight, camera behavior.\n"
    "3. UX and menu/dialogue flow, is the conversation interface pleasant to use.\n"
    "- For the aim fix, prefer the derived-value approach over a per-weapon\n"
    "  patch even if the patch would look done sooner.\n"
    "{extra}"
    "Output: save this as docs/design/GAME_FEEL_AUDIT.md. Do not implement anything,\n"
    "this is audit and recommendation only.\n"
)


def test_a_task_specs_do_not_and_prefer_lines_are_one_off() -> None:
    assert said(SPEC.format(extra="")) == []


@pytest.mark.parametrize(
    ("extra", "quote"),
    [
        ("Always run the formatter before you commit anything in this repo.\n", "Always run the formatter"),
        ("Never add a dependency without asking me first.\n", "Never add a dependency"),
        ("- Open a draft PR as usual. Do not push to main.\n", "Do not push to main."),
    ],
)
def test_a_rule_that_generalises_still_stands_inside_a_spec(extra: str, quote: str) -> None:
    assert any(q.startswith(quote) for q in said(SPEC.format(extra=extra))), quote


def test_the_same_do_not_outside_a_spec_is_still_a_rule() -> None:
    # still classified a rule, but a weak "do not" alone is held back until said again (ADR 0059)
    found = classify("Do not interrogate me with clarifying questions, pick a sensible default and log it.")
    assert found is not None and found.held_back
    assert said("Never interrogate me with clarifying questions, pick a sensible default and log it.") != []


# Dev 5: a time budget for one job is no rule; a standing limit still is.
def test_a_time_budget_for_one_job_is_one_off() -> None:
    assert (
        classify("You have 30 minutes max, if you do not complete this then stop trying to install everything.") is None
    )
    assert classify("Take 10 minutes at most and don't install anything else.") is None
    assert classify("Never spend more than an hour on a flaky test without telling me.") is not None


# Dev 5 (LAF-US/IDAHO-VAULT): a passage of a novel pasted as a role-play cue, its rule inside the quote.
def test_a_sentence_inside_a_quoted_passage_is_not_the_users() -> None:
    novel = (
        '"Ring!" cried either Ernest or Frank. "Ring! I shouldn\'t have to tell you the bell\'s your signal. '
        "We can't keep our guests waiting. Respond to all of our guests whenever you hear that ring!\""
    )
    assert said(novel) == []
    after = novel + "\nFrom now on, answer every message in character."
    assert said(after) == ["From now on, answer every message in character."]


# Dev 4 (Monotoba/OpenPrintKit): "before moving forward with" orders this job's steps.
def test_before_moving_forward_with_is_not_from_now_on() -> None:
    assert (
        classify(
            "Yes, commit the changes then update the README and commit that before moving forward with more features."
        )
        is None
    )
    assert classify("Moving forward with the refactor, keep the old API.") is None
    assert classify("Going forward, commit after every green test run.") is not None
    assert classify("OK, going forward.") is not None


@pytest.mark.parametrize(
    "sentence",
    ["Always use ruff here.", "Always run mypy before you say it's done.", "Never use npm, we are on pnpm."],
)
def test_a_rule_about_the_repos_tools_is_project_scope(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and found.scope == "project", sentence


def test_a_rule_about_the_person_stays_user_scope() -> None:
    found = classify("Always answer me in short sentences.")
    assert found is not None and found.scope == "user"


# Dev 5: how the person wants work committed, with a per-step frame and no classic signal word.
COMMIT_HABITS = [
    "Also, please commit with a message after you create each phase for each app and push it, be explicit.",
    "Commit after each green test run.",
    "Push it after every phase.",
    "Please make smaller commits, like 2 to 3 files change, and push them so I can see what changes you make.",
    "Keep frequent commits.",
]
NOT_COMMIT_HABITS = [
    "I pushed after every phase and it broke.",  # what happened
    "We made small commits last week.",
    "I committed after each step yesterday.",
    "Commit the changes.",  # one job, no per-step frame
    "Commit and push now.",
]


@pytest.mark.parametrize("sentence", COMMIT_HABITS)
def test_a_commit_habit_is_a_rule(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None, sentence
    assert found.scope == "project"


@pytest.mark.parametrize("sentence", NOT_COMMIT_HABITS)
def test_a_commit_told_or_asked_once_is_no_habit(sentence: str) -> None:
    assert classify(sentence) is None, sentence


def test_what_may_reach_git_is_a_rule_even_when_it_names_files() -> None:
    # dev 5: "the large image files" names an element; a rule about committing them still generalises
    found = classify("Please do not commit the .dmg files or the large image files.")
    assert found is not None and found.type == "forbidden"
    assert classify("Please do not touch the large image files.") is None  # naming, no git: a task detail
