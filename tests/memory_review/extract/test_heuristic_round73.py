"""The seventy-third round of the heuristic (ADR 0136), tuned on held-out 195.

"Ask me first before modifying/writing!" says what the agent must ask leave for, in general: a standing rule said once.
"Ask me before deleting the file", "ask me to confirm before running any shell command that …" and "ask me first before
changing this" are about one step of the task at hand.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "You can always read, but Ask me first before modifying/wrting!",
        "Ask me before committing.",
        "Always ask me before pushing to main.",
        "Check with me before installing new dependencies.",
        "ask us first before merging",
    ],
)
def test_asking_leave_before_a_kind_of_action_is_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


@pytest.mark.parametrize(
    "sentence",
    [
        "Ask me first before changing this.",
        "Ask me before deleting the file.",
        "For each issue, explain what the fix will do, then ask me to confirm before running any shell command.",
        "Ask me before doing that.",
    ],
)
def test_asking_leave_for_one_step_of_this_task_is_not(sentence: str) -> None:
    assert said(sentence) == []
