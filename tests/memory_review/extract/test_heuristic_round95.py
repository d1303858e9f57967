"""The ninety-fifth round of the heuristic (ADR 0168) was withdrawn: what its cues precede stays unproposed.

Held-out 410 holds "Oh my gosh I totally forgot to mention our backend MUST be GPU enabled where ever possible for speed
and efficiency.", and every split's four "forgot to mention" prompts were worth keeping; "I want to remind you that …",
"We went over this before." and "You keep forgetting this." read as the reminders of ADR 0065 in other words. Three
reviews of three versions found the words after these cues as often a report, a complaint, a schedule, this task's spec
or someone else's words as a rule, each version blocking the last review's phrases and not their kind (68 of 85, then
39 of 62, then 33 of 50 realistic one-off messages proposed). The round was withdrawn; the one-off messages of the
reviewers' probe lists (those counted and the third review's further probes, less four that older signals propose;
`rounds/round95_one_off.txt`) stay here so that a later round that takes these cues up again is measured on them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rounds_kit import said

ONE_OFF = [
    line
    for line in (Path(__file__).parent / "rounds" / "round95_one_off.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]


def test_the_reviewers_wrote_a_whole_set() -> None:
    # the three reviews' probes: a test over a file that lost its lines would pass on nothing
    assert len(ONE_OFF) == 204
    assert len(set(ONE_OFF)) == len(ONE_OFF)


@pytest.mark.parametrize("text", ONE_OFF)
def test_a_one_off_message_after_a_weaker_cue_is_no_proposal(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        # held-out 410's rule, said once after "forgot to mention": not found (ADR 0168)
        "Oh my gosh I totally forgot to mention our backend MUST be GPU enabled where ever possible for speed and "
        "efficiency.",
        "I just want to remind you that the tests must run offline.",
        "Commit messages must be in English. You keep forgetting this.",
    ],
)
def test_the_rules_the_round_was_for_are_not_found(text: str) -> None:
    # the limit the withdrawal keeps, pinned so that a change to it is seen
    assert said(text) == []
