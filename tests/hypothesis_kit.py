"""How many examples a property test draws: the count it names under ``MEMORY_REVIEW_FULL=1``, a third of
it (never under 50) in the default suite.

Each run draws new random examples, so the default suite keeps sampling the space run after run (and
replays any failure hypothesis saved); the full run draws the whole count at once (docs/adr/0039).
"""

from __future__ import annotations

import os

FULL = os.environ.get("MEMORY_REVIEW_FULL") == "1"


def examples(full: int) -> int:
    """``max_examples`` for a property whose full run draws ``full`` examples."""
    return full if FULL else min(full, max(50, full // 3))
