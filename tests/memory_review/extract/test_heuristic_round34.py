"""The thirty-fourth round of the heuristic (ADR 0094): "never" or "always" that begins a title is no rule.

Held-out 93's person pasted the first lines of a downloader's run log: "別プロセスダウンロード完了: Rick Astley - Never
Gonna Give You Up (Official Video) (4K Remaster)". The video's title made a "never" rule. A title is written in Title
Case — each word capitalised, but for the small words ("a", "the", "of", "on" …) — and a rule is not: it is written in
sentence case, or shouted in capitals. "never" / "always" followed by two or more capitalised words (small words
between them allowed) is a title, and the signal is read in the rest of the sentence only.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "別プロセスダウンロード完了: Rick Astley - Never Gonna Give You Up (Official Video) (4K Remaster)",
        "Now playing: Always Look on the Bright Side of Life",
        "Downloaded 'Never Let Me Go' to data/",
    ],
)
def test_a_title_is_no_rule(sentence: str) -> None:
    assert said(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Never push to main.",
        "NEVER PUSH TO MAIN",
        "Never in the main branch, always in a feature branch.",
        "Never Gonna Give You Up is stuck in my head, but never commit secrets.",
    ],
)
def test_a_rule_is_still_one(sentence: str) -> None:
    assert said(sentence) == [sentence]
