"""The forty-third round of the heuristic (ADR 0103), tuned on held-out 116, 117 and 121.

- "I am asking you to always use nix develop --command bun test." binds the agent like "I want you to always …".
- "Add to CLAUDE.md that python should use uv, uvx and ruff …": what the instruction file is to say is the rest of the
  sentence, as with "to ensure that" (ADR 0098).
- "I use github and prefer the gh cli" is "I prefer" with its subject said once for two verbs.
- "… to look into how Roo Code does it." points at the task, like "do it".
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said


def test_asking_the_agent_to_always_binds_it() -> None:
    sentence = "I am asking you to always use nix develop --command bun test."
    assert said(sentence) == [sentence]


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        (
            "Add to CLAUDE.md that python should use uv, uvx and ruff for as much as possible. consult the websites",
            "python should use uv, uvx and ruff for as much as possible.",
        ),
        ("Add to CLAUDE.md that we use uv.", "we use uv."),
    ],
)
def test_what_the_instruction_file_is_to_say_after_that(message: str, rule: str) -> None:
    assert said(message) == [rule]


@pytest.mark.parametrize(
    "message",
    [
        "Add to CLAUDE.md that it should be kept short.",  # "it" is something said before
        "Add this to CLAUDE.md that we use uv.",  # "this" points back: only a colon or a quote says what
        'add a "gstack" section to CLAUDE.md that says to use the /browse skill',  # a section, written by the agent
    ],
)
def test_that_after_a_pointer_or_a_section_gives_nothing(message: str) -> None:
    assert said(message) == []


def test_i_use_x_and_prefer_y_is_a_preference() -> None:
    sentence = "I use github and prefer the gh cli, use git as a backup"
    assert said("jj is not part of this installation. " + sentence) == []  # said once, it waits (ADR 0110)
    assert held_until_said_again(sentence)


def test_i_tried_both_and_prefer_is_not_read() -> None:
    assert said("I tried both and prefer the first one.") == []


def test_how_another_program_does_it_points_at_the_task() -> None:
    assert (
        said(
            "Use github mcp to look into how Roo Code does it.",
            "Use github mcp to look into how Roo Code does it.",
            sessions=("s1", "s2"),
        )
        == []
    )
