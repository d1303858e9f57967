"""The nineteenth round of the heuristic (ADR 0076): held-out 43's one mistake, after the frozen rounds.

Held-out 43 measured the frozen fifteenth to eighteenth rounds once: 2 proposals, 1 worth keeping. The mistake was a
report of a bug, "RestorationMoveTarget is set once during unit restoration and never updated when moveTarget
changes": a past participle after "never" describes, as a gerund does (ADR 0069).
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "text",
    [
        "RestorationMoveTarget is set once during unit restoration and never updated when moveTarget changes",
        "The cache is filled at start and never cleared, so memory grows.",
        "We never used mocks.",
        "The handler was always called twice.",
        "Always used the cache here",
    ],
)
def test_a_past_participle_after_never_or_always_describes(text: str) -> None:
    assert said(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Never embed secrets in the code.",  # verbs that end in -ed themselves
        "Never shed load silently.",
        "Never shred the audit log.",
        "Always proceed with the tests first.",  # -eed
        "Never commit generated files.",  # a participle later in the sentence
        "Always add tests.",
    ],
)
def test_an_imperative_after_never_or_always_is_still_a_rule(text: str) -> None:
    assert said(text) == [text]
