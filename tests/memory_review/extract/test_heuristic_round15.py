"""The fifteenth round of the heuristic (ADR 0071): held-out 35 and 36's classes, after the frozen rounds.

Held-out 35 and 36 measured the frozen twelfth to fourteenth rounds once: 3 proposals, all on prompts worth keeping,
9 of 23 rules found. One kept proposal was "As you develop, run" with its command left out (it is in the fenced block
below), and "Plus always use "uv pip...", not "pip"!" was missed ("plus" was no joining word). Frozen before held-out
37 and 38 were read, and measured on them.
"""

from __future__ import annotations

import pytest
from rounds_kit import said, user_transcript

from memory_review.extract.heuristic import extract

LOOP = "uv venv; source .venv/bin/activate; hatch run lint:fix; hatch test;"


# (1) A rule that leads to a fenced command holds the command.
@pytest.mark.parametrize("fence", ["```", "```bash", "~~~"])
def test_a_rule_holds_the_fenced_command_it_leads_to(fence: str) -> None:
    closing = fence[:3]
    text = f"Read @TODO.md and update it.\n\nAs you develop, run\n\n{fence}\n{LOOP}\n{closing}\n\nthen continue"
    findings = extract(user_transcript(text, text, sessions=("a", "b")))
    [finding] = findings
    assert finding.quote == f"As you develop, run\n\n{fence}\n{LOOP}\n{closing}"
    assert finding.memory.description == f"As you develop, run `{LOOP}`"


def test_a_rule_holds_its_command_on_the_next_line() -> None:
    text = f"Before each commit, always run\n```\n{LOOP}\n```"
    assert said(text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        f"Always run the checks before you commit.\n\n```\n{LOOP}\n```",  # the sentence is whole: the block is apart
        f"Always run\n\nthe checks below\n```\n{LOOP}\n```",  # words between: the block is not its command
        "Always run\n```\n" + "x" * 700 + "\n```",  # too long to quote
        "Always run\n```\nno closing fence",
    ],
)
def test_a_block_that_is_not_the_rules_command_stays_out(text: str) -> None:
    quotes = said(text)
    assert quotes
    assert all("```" not in quote for quote in quotes)


# (2) "plus" joins a rule to what came before it, like "also".
def test_a_rule_after_plus_is_read() -> None:
    text = 'No no, let\'s not change to static versioning. Plus always use "uv pip...", not "pip"!'
    assert said(text) == ['Plus always use "uv pip...", not "pip"!']
