"""The fourteenth round of the heuristic (ADR 0070): held-out 31 and 32's classes, after the frozen rounds.

Held-out 31 and 32 measured the frozen twelfth and thirteenth rounds once: 5 proposals, 3 worth keeping, 3 of 18
rules found. Taken as classes: Claude Code's "#" memory shortcut (nine of held-out 31's sixteen rules), a question with
no question mark after a joining word ("also ARE WE USING …"), and "I don't like" before data pasted back from the
agent's output. Frozen before held-out 33 and 34 were read, and measured on them.
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said, user_transcript

from memory_review.extract.heuristic import SIGNAL_MEMORY_NOTE, extract
from memory_review.extract.rule_files import memory_shortcut
from memory_review.extract.signals import is_question
from memory_review.extract.transcript import Transcript, Turn


# (1) Claude Code's "#" shortcut saves the line as a memory: that is what the person typed it for.
@pytest.mark.parametrize(
    ("text", "note"),
    [
        (
            "#Always run bun format && bun lint --fix && bun typecheck after every change.",
            "Always run bun format && bun lint --fix && bun typecheck after every change.",
        ),
        ("#mark the tasks from the @TODO.md as done after they have been finished", None),
        (
            "# When opening PRs include screenshots of the new features",
            "When opening PRs include screenshots of the new features",
        ),
    ],
)
def test_a_memory_shortcut_is_proposed_whatever_its_words(text: str, note: str | None) -> None:
    [quote] = said(text)
    assert quote == (note or text[1:])


def test_a_memory_shortcut_is_proposed_and_says_how_it_was_typed() -> None:
    [finding] = extract(user_transcript("#never push to main without asking me first"))
    assert finding.quote == "never push to main without asking me first"
    assert (finding.memory.type, finding.scope, finding.signal) == ("forbidden", "project", SIGNAL_MEMORY_NOTE)
    assert "memory shortcut" in finding.rationale


@pytest.mark.parametrize(
    "text",
    [
        "#terminalSelection Please check, diagnose and fix",  # VS Code Copilot's chat variables point at something
        "#terminalLastCommand there was an error during runtime, let's diagnose",
        "#sym:DrawBBox #sym:VisBoxMot 这三个的绘制要求统一风格",
        "#codebase how is the cache invalidated here",
        "#123 fix the flaky login test please",  # an issue number
        "## Plan for the release today",  # a heading
        "# Task",  # too few words to be a note
        "#is this the right way to do it?",  # a question
        "# Release plan\n- bump the version\n- tag it",  # a document, not a one-line note
    ],
)
def test_what_only_looks_like_a_memory_shortcut(text: str) -> None:
    assert memory_shortcut(text) is None


@pytest.mark.parametrize("text", ["# Fix the login bug now", "#update this file with the new endpoint"])
def test_a_one_line_heading_over_this_task_is_no_memory_note(text: str) -> None:
    assert memory_shortcut(text) is not None  # shaped like one …
    assert said(text) == []  # … but tied to the task at hand, as any one-off is


# (2) A question after a joining word, with no question mark (held-out 32).
@pytest.mark.parametrize(
    "sentence",
    ["also ARE WE USING SERIALIARIOTN CORRECTLY AND FULLY", "so, do we use pnpm here", "ok what is this config for"],
)
def test_a_question_after_a_joining_word(sentence: str) -> None:
    assert is_question(sentence)
    assert said(sentence) == []


@pytest.mark.parametrize(
    "sentence", ["Also always run the tests with uv.", "and never push to main.", "so we use pnpm."]
)
def test_a_rule_after_a_joining_word_is_still_a_rule(sentence: str) -> None:
    assert not is_question(sentence)
    assert said(sentence) == [sentence] if "we use" not in sentence else held_until_said_again(sentence)  # ADR 0110


# (3) "I don't like" before data pasted back from the agent's output (held-out 32) dislikes that output.
@pytest.mark.parametrize(
    "sentence",
    [
        "I dont like ('Tight Aggressive', 'VPIP < 25% and PFR > 20%', 'style', 250),",
        'I don\'t like {"theme": "dark", "size": 12}',
        "I hate [1, 2, 3] as the default",
    ],
)
def test_disliking_pasted_data_is_no_rule(sentence: str) -> None:
    assert said(sentence) == []


def test_a_standing_dislike_still_is_one() -> None:
    # a dislike said once waited (ADR 0110); a kind of thing disliked is proposed at once since round 70 (ADR 0133)
    assert said("I don't like nested ternaries, write ifs.") == ["I don't like nested ternaries, write ifs."]
    assert held_until_said_again("I hate it when the build is slow, write ifs.")
    instead = "I don't like nested ternaries, write ifs instead."
    assert said(instead) == [instead]


def test_a_line_starting_with_hash_in_tool_output_is_no_memory_note() -> None:
    comment = "# always install the deps with npm ci before the build"
    turns = [
        Turn(turn_id="t0", role="user", text="run the setup script", source="user", index=0),
        Turn(turn_id="t1", role="tool", text=comment, source="tool-output", index=1),
    ]
    transcript = Transcript(session_id="s", format="text", turns=turns)
    [finding] = extract(transcript, include_untrusted=True)  # read as any tool output is: flagged, never a note
    assert finding.signal != SIGNAL_MEMORY_NOTE
    assert "untrusted-source" in finding.flags
