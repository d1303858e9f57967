"""The eighty-first round of the heuristic (ADR 0144), tuned on held-out 299 and 300.

Adam Twardoch sent "Periodically do:" over a fenced block with his dev loop in twelve chats. A sentence ending in a
colon only leads in to what follows, so it was never read; but when what follows is the command the sentence says to
run, the colon is part of the rule, as "As you develop, run" over the block is without one (ADR 0071).
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said

LOOP = "\n\n```\nuv venv; source .venv/bin/activate; uv pip install -e .[dev,test]; hatch test;\n```"


@pytest.mark.parametrize("lead", ["Periodically do:", "Periodically run:", "As you develop, run:"])
def test_a_rule_whose_colon_leads_to_its_command_waits_for_a_second_session(lead: str) -> None:
    assert held_until_said_again(lead + LOOP)


def test_the_rule_in_a_request_is_quoted_with_its_command() -> None:
    text = "now update @TODO.md with what you've done\n\nPeriodically do:" + LOOP + "\n\nand react to the results."
    assert said(text, text, sessions=("s1", "s2")) == ["Periodically do:" + LOOP]


def test_a_colon_that_leads_to_a_command_of_no_rule_is_still_a_lead_in() -> None:
    text = "To suppress this, run:\n\n```\nexport FOO=1\n```"
    assert said(text, text, sessions=("s1", "s2")) == []
