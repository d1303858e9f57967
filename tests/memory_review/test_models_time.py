"""Timestamps: the fast calendar check accepts exactly what strptime does, leap seconds included."""

from __future__ import annotations

import itertools
from datetime import datetime

from memory_review.models import _real_time


def _strptime_accepts(value: str) -> bool:
    try:
        datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return False
    return True


def test_real_time_matches_strptime_on_every_edge() -> None:
    years = ["0000", "0001", "1900", "2000", "2023", "2024", "2100", "9999"]
    edges = itertools.product(
        years, range(14), (0, 1, 28, 29, 30, 31, 32), (0, 23, 24), (0, 59, 60), (0, 59, 60, 61, 62)
    )
    for year, month, day, hour, minute, second in edges:
        value = f"{year}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"
        assert _real_time(value) is _strptime_accepts(value), value
