"""The ninety-fourth round of the heuristic (ADR 0167): "Add this as a memory" points back at the rule before it.

Held-out 414 (round 92 measured it first) holds "YOU MUST RECORD ALL REFERENCES TO CONCEPTS WE CREATE FROM REAL PAPERS
ONLINE!! THAT IS THEIR IP AND IT WILL BE RESPECTED!!! NO EXCEPTIONS!!! ADD THIS AS A MEMORY!!!", and held-out 98 "…
write this also to memory-bank as required.". "Make this a rule" pointed back at the sentence before (ADR 0097);
a memory is asked for the same way, and when the sentence before is a sigh too short to be a rule ("NO
EXCEPTIONS!!!"), "this" is its line. (Held-out 414's prompt itself stays unproposed: the rest of it is a pasted table
of papers.)
"""

from __future__ import annotations

import pytest
from rounds_kit import said

WARNING = (
    "YOU MUST RECORD ALL REFERENCES TO CONCEPTS WE CREATE FROM REAL PAPERS ONLINE!! THAT IS THEIR IP AND IT WILL BE "
    "RESPECTED!!! NO EXCEPTIONS!!! ADD THIS AS A MEMORY!!!"
)


@pytest.mark.parametrize(
    "text",
    [
        "We deploy from the release branch only. Add this as a memory.",
        "We deploy from the release branch only. Save this to memory please.",
        "We deploy from the release branch only. Please add this to your memory.",
        "We deploy from the release branch only. Put that in your long-term memory.",
        "We deploy from the release branch only. Write this also to memory-bank.",
        "We deploy from the release branch only. Make this a permanent memory!",
        # no word of the cheap cue filters but "memory"
        "Deploy from main only. Add this as a memory.",
        "Tabs, not spaces, for indentation in Go files. Save this to memory.",
        # "Make this a habit / guideline / principle" were hidden by the same filters
        "Deploy from main only. Make this a habit.",
        "Deploy from main only. Make that a guideline.",
        # the endings people type (the session's review)
        "We deploy from the release branch only. Add this as a memory please.",
        "We deploy from the release branch only. Add this to memory, please.",
        "We deploy from the release branch only. Also add this to memory.",
        "We deploy from the release branch only. Add this as memory.",
    ],
)
def test_a_memory_asked_for_points_back_at_the_sentence_before(text: str) -> None:
    assert said(text) == [text]


def test_a_sigh_too_short_to_be_a_rule_takes_its_line() -> None:
    text = f"%%WARNING%%\n{WARNING}\n\n%%NEW DISC%%\nI want to open a new discussion."
    assert said(text) == [WARNING]


def test_held_out_98s_request_keeps_its_rule() -> None:
    text = "Always test, validate and verify with browser after a prompt. write this also to memory-bank as required."
    assert said(text) == ["Always test, validate and verify with browser after a prompt."]


def test_a_sentence_leaning_on_the_one_before_takes_that_one_too() -> None:
    text = "We deploy from main only. That is non-negotiable! No exceptions! Add this as a memory."
    assert said(text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        # sighs and thanks: no rule on the line (the session's review)
        "No! No! No! Add this as a memory.",
        "Thanks! Great work! Add this as a memory.",
        "Hmm. OK. Sure. Add this as a memory.",
        # a task between the rule and the pointer: the pointer does not reach past it
        "We deploy from main only. Fix the typo in the README. No exceptions! Add this as a memory.",
        # a task asked politely
        "Can you add a retry to the upload? Add this as a memory.",
        # data kept in RAM
        "The session token is sensitive. Keep it in memory.",
        "We cache the results. Store this in memory.",
    ],
)
def test_no_rule_on_the_line_or_memory_as_ram_is_none(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize("brk", ["\n", "\r", "\u2028", "\x85"])
def test_the_line_stops_at_any_line_break(brk: str) -> None:
    assert said(f"We deploy from main only.{brk}No exceptions! Add this as a memory.") == []


def test_the_line_is_read_no_further_than_a_reminder() -> None:
    text = "We deploy from main only. " + "Oh no! " * 100 + "Add this as a memory."
    assert said(text) == []


def test_the_line_stops_at_a_line_break() -> None:
    # the task on the line before is not the rule; "No exceptions!" alone is none
    assert said("Fix the login bug now.\nNo exceptions! Add this as a memory.") == []


@pytest.mark.parametrize(
    "text",
    [
        "Add this to memory.",  # nothing before it
        "Fix the login bug now. Add this to your memory.",  # a task step
        "The cache is warm. Add this as a memory.",  # what "the cache" is lives in the chat
        "Add this to the memory leak report.",
        "Please add this to the memory section of the README.",
        "Write a memory allocator. Add it to the memory module.",
    ],
)
def test_no_rule_before_it_or_a_task_about_memory_is_none(text: str) -> None:
    assert said(text) == []
