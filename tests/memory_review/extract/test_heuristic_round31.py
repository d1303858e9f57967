"""The thirty-first round of the heuristic (ADR 0091): "Key patterns I follow:" heads the person's working rules too.

Held-out 72's person closes most Amp hand-offs with the way he works, under a first-person heading: "Key patterns I've
established:", "Key patterns I follow:", "Documentation workflow I established:" — "TDD: write failing tests first, then
implement", "Use saturating_sub for arithmetic to prevent overflow panics". The twenty-ninth round (ADR 0089) read the
items under a "Working Rules" heading only; a heading that owns a list of patterns, conventions, practices or a
workflow in the first person ("I follow", "we established", "I've set up", "we agreed on") heads the same kind of list.
Each item still waits for a second session's brief.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.precision import working_rule_items

HANDOFF = "\n".join(
    [
        "Continuing work from thread T-{n}. When you lack specific information you can use read_thread to get it.",
        "",
        "@src/model/editor.rs @src/update.rs @tests/layout.rs",
        "",
        "I added split view with editor groups:",
        "- EditorArea owns the groups",
        "- compute_layout() updates the group rects",
        "- Tab bar per group",
        "- Focus follows the last click",
        "- Closing the last tab closes the group",
        "- Tests cover the layout",
        "",
        "{heading}",
        "- TDD: write failing tests first, then implement",
        "- Use saturating_sub for arithmetic to prevent overflow panics",
        "",
        "Now make the splitters draggable. " * 20,
    ]
)


@pytest.mark.parametrize(
    "heading",
    ["Key patterns I follow:", "Key patterns I've established:", "Documentation workflow we established:"],
)
def test_the_items_under_a_first_person_heading_in_two_sessions_are_rules(heading: str) -> None:
    text = HANDOFF.replace("{heading}", heading)
    found = said(text.format(n=1), text.format(n=2), sessions=("s1", "s2"))
    assert found == [
        "TDD: write failing tests first, then implement",
        "Use saturating_sub for arithmetic to prevent overflow panics",
    ]


def test_in_one_session_they_wait() -> None:
    text = HANDOFF.replace("{heading}", "Key patterns I follow:")
    assert said(text.format(n=1), text.format(n=2), sessions=("s1", "s1")) == []


@pytest.mark.parametrize("heading", ["Key patterns:", "Patterns you should follow:", "Established patterns:"])
def test_a_heading_that_is_not_the_persons_own_heads_no_rules(heading: str) -> None:
    assert working_rule_items(f"{heading}\n- TDD: write failing tests first\n") == []
