"""The sixty-seventh round of the heuristic (ADR 0130), tuned on held-out 218.

'add also "// TODO finished book", so that we grow this with all types when we get to that feature in the future':
"when we get to … in the future" names a point the work will reach, not a way of working, so its "in the future" is a
future the sentence only describes. "… add this as a hard rule to @CLAUDE.md so that we don't miss it in the future."
still reaches every later session.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

TODO = (
    'which them makes XP Epl. a "Local book with progress". add also "// TODO finished book", so that we grow this '
    "with all types when we get to that feature in the future"
)


@pytest.mark.parametrize(
    "text", [TODO, "Leave a TODO for the export, we'll handle it when we come to the reports in the future."]
)
def test_a_point_the_work_will_reach_in_the_future_is_none(text: str) -> None:
    assert said(text) == []


def test_a_rule_kept_so_that_it_is_not_missed_in_the_future_is_still_found() -> None:
    rule = "Update the file and add this as a hard rule to @CLAUDE.md so that we don't miss it in the future."
    assert said(rule) == [rule]
