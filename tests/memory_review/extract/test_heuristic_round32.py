"""The thirty-second round of the heuristic (ADR 0092): a bare "use X" counts by what it chooses; a table's row is
no rule.

Held-out 84's person said "Use nix develop --command to develop and run the code." in one session and "Use nix
develop --command to wrap all commands." in another: one choice, two purposes. The two wordings share too few words to
count as one instruction, so the rule said in two sessions was never proposed. A bare "use X" now joins the earlier one
that chose the same thing, whatever it is for. (Since the thirty-sixth round, ADR 0096, "to wrap all commands" is a
convention said once; the tests below give the second session another purpose.)

Held-out 85's person pasted a naming convention whose table of segments reads ".png    The file format (always PNG
for violation annotation compatibility)": the "always" describes the column, it is not said to the agent. The lines of
a table pasted as text (two or more lines in a row, each with cells apart by a tab or three or more spaces) are read
like quoted text.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.precision import table_rows
from memory_review.extract.signals import chosen_thing


def test_one_thing_chosen_in_two_sessions_for_two_purposes_is_a_rule() -> None:
    found = said(
        "We have a flake.nix at the root. Use nix develop --command to develop and run the code.",
        "Use nix develop --command for the tests.",
        sessions=("s1", "s2"),
    )
    assert found == ["Use nix develop --command to develop and run the code."]


def test_in_one_session_it_waits() -> None:
    found = said(
        "Use nix develop --command to develop and run the code.",
        "Use nix develop --command for the tests.",
        sessions=("s1", "s1"),
    )
    assert found == []


def test_two_things_chosen_are_two_instructions() -> None:
    found = said(
        "Use nix develop --command to develop and run the code.",
        "Use docker compose to develop and run the code.",
        sessions=("s1", "s2"),
    )
    assert found == []


@pytest.mark.parametrize(
    ("sentence", "thing"),
    [
        ("Use nix develop --command to wrap all commands.", "nix develop --command"),
        ("Use `uv pip ...` not `pip ...`", "uv pip"),
        ('USE "uv pip"!', "uv pip"),
        ("please use pnpm, not npm", "pnpm"),
        ("Use the logger instead.", "the logger"),
        ("Use Tailwind for styling and shadcn for components.", "tailwind"),
        ("Run it with uv.", None),
    ],
)
def test_what_a_use_x_chooses(sentence: str, thing: str | None) -> None:
    assert chosen_thing(sentence) == thing


TABLE = "\n".join(
    [
        "Every page saved as a PNG follows the strict pattern:",
        "[CREDITOR]-[BUREAU]-[YYYY-MM-DD]-P[PageNum].png",
        "Segment    Description",
        "AL    Creditor Code (e.g., AL = Ally Financial)",
        ".png    The file format (always PNG for annotation compatibility)",
        "",
        "Summary Rules",
        "Always use ISO date format: YYYY-MM-DD",
    ]
)


def test_a_row_of_a_table_pasted_as_text_is_no_rule_and_the_rules_below_it_are() -> None:
    assert said(TABLE) == ["Always use ISO date format: YYYY-MM-DD"]


def test_a_table_with_tabs_is_one_too() -> None:
    text = "Step\tWhat\nbuild\talways run make first\n"
    assert said(text) == []
    assert said("always run make first") == ["always run make first"]


def test_one_aligned_line_is_a_sentence_with_a_wide_gap() -> None:
    assert said("Note:    always run the tests with uv.") == ["Note:    always run the tests with uv."]
    assert table_rows("Note:    always run the tests with uv.\nThanks") == []


def test_an_indent_is_no_cell_gap() -> None:
    text = "Rules:\n    always run the tests with uv\n    never push to main\n"
    assert table_rows(text) == []
