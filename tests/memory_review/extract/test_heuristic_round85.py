"""The eighty-fifth round of the heuristic (ADR 0149): "完成後" (when this is done) is a time of the task at hand.

"完成後 commit（不要 push/tag），回報 commit hash 與測試結果。" closes a hand-off for one job: commit when it
is done, and do not push. Like "when you're done", "完成後" ties what follows to this job.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "完成後 commit（不要 push/tag），回報 commit hash 與測試結果。",
        "做完后不要 push，直接告诉我结果。",
        "When you're done, commit but never push.",
    ],
)
def test_a_step_for_when_this_job_is_done_is_not_a_rule(sentence: str) -> None:
    assert said(sentence) == []


def test_a_rule_without_it_is_still_read() -> None:
    assert said("以后不要 push 到 main。") == ["以后不要 push 到 main。"]
