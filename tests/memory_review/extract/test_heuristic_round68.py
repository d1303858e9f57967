"""The sixty-eighth round of the heuristic (ADR 0131), tuned on held-out 222.

'For example, in future I like to add new table and associated streamlit page on top, using "Streamlit Tools", …':
"in (the) future I / we like / love / hope / intend / expect to …" is the person's own plan, as "in the future we'd
want …" is (ADR 0111), not a standing instruction. "In the future I like you to run the tests first." and "In future,
ask first." still instruct.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

TABLE = (
    'For example, in future I like to add new table and associated streamlit page on top, using "Streamlit Tools", we '
    "can create table on the fly."
)


@pytest.mark.parametrize(
    "text", [TABLE, "In the future we hope to support Windows.", "In future I intend to split it."]
)
def test_the_persons_own_plan_for_the_future_is_none(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize("sentence", ["In the future I like you to run the tests first.", "In future, ask first."])
def test_the_future_asked_of_the_agent_is_still_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]
