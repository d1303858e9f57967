"""The fifty-fifth round of the heuristic (ADR 0118), tuned on held-out 169.

"In general analyze the cpgrid-bot and use the best out of it." says how to look at one thing of the task: a bare "in
general" or "generally" frames a sentence as a rule beyond this case only with its comma ("In general, do not offer
several possibilities", held-out 50). "As a rule" and "as a general warning" need none.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "In general analyze the cpgrid-bot and use the best out of it.",
        "Generally check the logs of the importer first.",
    ],
)
def test_a_bare_in_general_without_its_comma_frames_no_rule(sentence: str) -> None:
    assert said(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "In general, do not offer several possibilities, choose the most robust one.",
        "Generally: keep functions under 40 lines.",
        "As a rule keep functions under 40 lines.",
    ],
)
def test_with_its_comma_or_as_a_rule_it_still_frames_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]
