"""The fortieth round of the heuristic (ADR 0100): a session hand-off the agent wrote is not the person's rules.

Held-out 109's person opens new sessions by pasting the hand-off his agent wrote at the end of the last one
("Continue work on LOOKSMAXX at …", then "What's Done:", "Current State:", "Next Step:", "Key Files:", "Key Context:",
"Approach: Do NOT explore the full codebase. Use the context above."). Pasted in two sessions, its "Do NOT explore the
full codebase." was proposed as a rule said twice. A message with three of those labels at a line's start holds a
hand-off: from its first label to the end of its last label's block it is read like quoted text; what the person
types after it is read as ever.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.precision import handoff_ranges

HANDOFF = (
    "Continue work on LOOKSMAXX at /Users/me/looksmaxx-app.\n\n"
    "  What's Done: Fixed the side profile flow bug\n\n"
    "  Current State: Side profile workflow should now work correctly\n\n"
    "  Next Step: Test the full front to side workflow end-to-end\n\n"
    "  Key Files:\n  - src/components/LandmarkAnalysisTool.tsx\n  - src/lib/landmarks.ts\n\n"
    "  Approach: Do NOT explore the full codebase. Use the context above."
)


def test_the_hand_off_is_not_read_as_rules_in_two_sessions() -> None:
    assert said(HANDOFF, HANDOFF + "\n\nThe slider still does not move.", sessions=("s1", "s2")) == []


def test_what_the_person_types_after_it_is_read() -> None:
    message = HANDOFF + "\n\n\nNever push to main."
    assert said(message) == ["Never push to main."]
    start, end = handoff_ranges(message)[0]
    assert message[start:].lstrip().startswith("What's Done") and message[:end].endswith("Use the context above.")


@pytest.mark.parametrize(
    "message",
    [
        "Next Step: deploy.\nApproach: never push to main.",  # two labels: not a hand-off
        "Our current state: never push to main.",  # not at a line's start, one label
    ],
)
def test_fewer_labels_are_no_hand_off(message: str) -> None:
    assert handoff_ranges(message) == []
