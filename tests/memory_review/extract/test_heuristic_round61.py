"""The sixty-first round of the heuristic (ADR 0124), tuned on held-out 184.

"I want you to update CLAUDE.md and AGENTS.md to keep agentic coding systems away from dev-logs, unless they are
explicitly instructed to do so by me.": a request to write a rule into the agent's instruction files, the rule being the
infinitive itself when it keeps something away or out, or says always or never; one request may name two files.
"update CLAUDE.md to keep it short" and "to reflect the new layout" say what this edit of the file is for.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

DEV_LOGS = (
    "I want you to update CLAUDE.md and AGENTS.md to keep agentic coding systems away from dev-logs, unless they are "
    "explicitly instructed to do so by me."
)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        (DEV_LOGS + " Should we also add a reason?", DEV_LOGS.split(" to ", 2)[2]),
        ("Please update CLAUDE.md to always run the specs before pushing.", "always run the specs before pushing."),
        ("update AGENTS.md & GEMINI.md files to never use npm.", "never use npm."),
        ("update CLAUDE.md to keep the agents out of the vendor folder.", "keep the agents out of the vendor folder."),
    ],
)
def test_an_instruction_file_updated_to_keep_out_or_to_always_holds_the_rule(text: str, rule: str) -> None:
    assert said(text) == [rule]


@pytest.mark.parametrize(
    "text", ["update CLAUDE.md to keep it short.", "Update the CLAUDE.md to reflect the new layout of the modules."]
)
def test_what_an_edit_of_the_file_is_for_is_none(text: str) -> None:
    assert said(text) == []
