"""The eighteenth round of the heuristic (ADR 0075): held-out 42's one mistake, after the frozen rounds.

Held-out 42 measured the frozen fifteenth to seventeenth rounds once: 3 proposals, 2 worth keeping. The mistake was
"never invent features", part of one step of a workflow that runs an agent command ("4. /sp.clarify — resolve
ambiguity …; never invent features."). Frozen before held-out 43 and 44 were read, and measured on them.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.precision import command_steps

WORKFLOW = (
    "Act as Principal Software Architect.\n\nSteps:\n"
    "1. /sp.specify — write the specification.\n"
    "4. /sp.clarify — resolve ambiguity from repo evidence; document remaining assumptions; never invent features.\n"
    "5. /sp.plan — architectural recommendations only now."
)


def test_a_rule_in_a_step_that_runs_an_agent_command_is_that_steps_instruction() -> None:
    assert said(WORKFLOW) == []


@pytest.mark.parametrize("marker", ["4.", "4)", "-", "*", "\u2022"])
def test_any_list_marker_makes_a_command_step(marker: str) -> None:
    assert said(f"Do this:\n{marker} /review — never skip the tests.") == []


@pytest.mark.parametrize(
    "text",
    [
        "Never invent features.",  # said on its own
        "/teach latency (for this and all later teaches, never use the code examples when there are none)",  # a command
        "Rules:\n- /home/me/app — never write outside it.",  # a path, not a command
        "Rules:\n1. never invent features.",  # a step that runs no command
    ],
)
def test_a_rule_outside_a_command_step_is_still_read(text: str) -> None:
    assert said(text)


def test_command_steps_are_bounded_on_hostile_text() -> None:
    # threat model: no hang; no time is asserted
    assert command_steps("- /" + "a" * 100_000) == []
    assert len(command_steps("1. /x y\n" * 20_000)) == 20_000
    assert said("1. /x never do y.\n" * 5_000) == []
    assert said("1. /x never do y.\n2. /z never do w.\nNever invent features.") == ["Never invent features."]
