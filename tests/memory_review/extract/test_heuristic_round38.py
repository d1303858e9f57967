"""The thirty-eighth round of the heuristic (ADR 0098): "update CLAUDE.md to ensure that …" carries its rule.

Held-out 102's person asked "Change my CLAUDE.md to ensure that I am called Jack and not 'Harp Dog'" and "add a line
to CLAUDE.md in ~/.claude to ensure that the last action is always to check the conversation history …". A request
to write into an instruction file is the person's word that the text is a rule (ADR 0058), but the rule was read only
after a colon or in quotes. What the file is to ensure, to the end of the sentence, is the rule too.
"""

from __future__ import annotations

import pytest
from rounds_kit import said, user_transcript

from memory_review.extract.heuristic import extract


@pytest.mark.parametrize(
    ("message", "rule", "scope"),
    [
        ("Change my CLAUDE.md to ensure that I am called Jack and not 'Harp Dog'", "I am called Jack", "project"),
        (
            "add a line to CLAUDE.md in ~/.claude to ensure that the last action is always to check the history",
            "the last action is always to check the history",
            "user",
        ),
        ("Update AGENTS.md to ensure we use pnpm. Then run the tests.", "we use pnpm.", "project"),
        ("please update the agents.md to make sure that every bug fix gets an e2e test", "every bug fix", "project"),
    ],
)
def test_what_the_file_is_to_ensure_is_the_rule(message: str, rule: str, scope: str) -> None:
    findings = extract(user_transcript(message))
    assert len(findings) == 1
    assert findings[0].signal == "for an instruction file"
    assert findings[0].quote.startswith(rule)
    assert findings[0].scope == scope


@pytest.mark.parametrize(
    "message",
    [
        "Please update CLAUDE.md to make sure that it has whatever is needed to remind you to do that regularly.",
        "Update CLAUDE.md to reflect the current organization of the workspace directory.",
        "Update the README to ensure that the install steps work.",  # not an instruction file
        "Update CLAUDE.md to ensure that " + "x" * 700,  # longer than a rule
    ],
)
def test_no_rule_in_the_words_gives_nothing(message: str) -> None:
    assert said(message) == []
