"""The ninety-fourth round of the heuristic (ADR 0167): "Add this as a memory" points back at the rule before it.

Held-out 414 (round 92 measured it first) holds "YOU MUST RECORD ALL REFERENCES TO CONCEPTS WE CREATE FROM REAL PAPERS
ONLINE!! THAT IS THEIR IP AND IT WILL BE RESPECTED!!! NO EXCEPTIONS!!! ADD THIS AS A MEMORY!!!", and held-out 98 "…
write this also to memory-bank as required.". "Make this a rule" pointed back at the sentence before (ADR 0097);
a memory is asked for the same way, and when the sentence before is a sigh too short to be a rule ("NO
EXCEPTIONS!!!") a first version took its line; the session's two reviews showed that line as often thanks or a status
report, so "this" stays the sentence before. (Held-out 414's prompt itself stays unproposed: it is a pasted table of
papers.)
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


def test_held_out_98s_request_keeps_its_rule() -> None:
    text = "Always test, validate and verify with browser after a prompt. write this also to memory-bank as required."
    assert said(text) == ["Always test, validate and verify with browser after a prompt."]


@pytest.mark.parametrize(
    "text",
    [
        # "this" is the sentence before, and that must read as a rule (the session's two reviews)
        "No! No! No! Add this as a memory.",
        "Thanks! Great work! Add this as a memory.",
        "Hmm. OK. Sure. Add this as a memory.",
        "Use pnpm. NO EXCEPTIONS!!! Add this as a memory.",
        "We deploy from main only. Thanks for the fix earlier. No exceptions! Add this as a memory.",
        "Perfect, thank you so much. This is exactly what I wanted. Add this as a memory.",
        "The build passed. That's great news. Add this as a memory.",
        "OK it works. Add this as a memory.",
        "Great job, that worked. Add this as a memory.",
        # a task asked politely
        "Can you add a retry to the upload? Add this as a memory.",
        "Would you make the button blue? Add this as a memory.",
        # a query, an error, a command
        "SELECT * FROM users WHERE id = 1; Add this as a memory.",
        "TypeError: Cannot read properties of undefined. Add this as a memory.",
        "docker compose up -d --build. Add this as a memory.",
        "def add(a, b): return a + b. Add this as a memory.",
        "const x = items.map(i => i.id); Add this as a memory.",
        # data kept in RAM
        "The session token is sensitive. Keep it in memory.",
        "We cache the results. Store this in memory.",
    ],
)
def test_no_rule_before_it_or_memory_as_ram_is_none(text: str) -> None:
    assert said(text) == []


def test_held_out_414s_sigh_before_the_request_gives_nothing() -> None:
    # "NO EXCEPTIONS!!!" is the sentence before, too short to be a rule; the rule two sentences back is not taken
    assert said(f"%%WARNING%%\n{WARNING}\n\n%%NEW DISC%%\nI want to open a new discussion.") == []


def test_a_rule_told_before_still_counts() -> None:
    assert said("I told you to make small commits.") == ["I told you to make small commits."]


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
