"""The eighty-fourth round of the heuristic (ADR 0147): who is credited on a commit.

"Claude should be listed as co-author (not main author) when Claude commits" carried no standing word and was never
proposed; how every commit is signed is a standing rule. And what a new CLAUDE.md "will instruct you to always …" do is
the rule, as with "update CLAUDE.md to always …".
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "Claude should be listed as co-author (not main author) when Claude commits.",
        "It's also important to default to single Co-Authored-By, because only the first one appears in GitHub's UI.",
        "Never add a Co-Authored-By trailer to my commits.",
    ],
)
def test_who_is_credited_on_a_commit_is_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


def test_what_a_new_claude_md_is_to_instruct_is_the_rule() -> None:
    text = "Let's create a claude.md file for the project that will instruct you to always list me as coauthor."
    assert said(text) == ["always list me as coauthor."]


@pytest.mark.parametrize(
    "sentence",
    [
        "Update GitHub Copilot co-author configuration with proper GitHub profile attribution.",
        "Credit Pro as first co-author, then Flash as second",
        "Create a CLAUDE.md that tells you about the layout.",
    ],
)
def test_a_task_about_co_authors_is_not(sentence: str) -> None:
    assert said(sentence) == []
