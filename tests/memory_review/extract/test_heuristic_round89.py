"""The eighty-ninth round of the heuristic (ADR 0157): "which will be useful going forward" says what a thing is for.

Held-out 385's "If necessary, you might want to write a go ast tool to do the migration (which is going to be very
useful moving forward)." was proposed as a standing rule on "moving forward": the words say what the tool will be good
for later, as "so that it can be used going forward" does (ADR 0084). A standing word outside that clause still counts.
"""

from __future__ import annotations

import pytest

from memory_review.extract.signals import classify


@pytest.mark.parametrize(
    "sentence",
    [
        "If necessary, you might want to write a go ast tool to do the migration (which is going to be very useful "
        "moving forward).",
        "Write a small migration script, it will be useful going forward.",
        "Add a fixture builder for this, which would be really handy moving forward.",
        "Keep the benchmark harness (it's going to be helpful in the future).",
        "Let's extract that into a helper that will be reusable going forward.",
    ],
)
def test_what_a_thing_will_be_good_for_is_no_standing_rule(sentence: str) -> None:
    assert classify(sentence) is None


@pytest.mark.parametrize(
    "sentence",
    [
        "The most important rule going forward: the two canvases must remain perfectly aligned.",
        "Going forward, always write a migration tool for renames; it will be useful.",
        "From now on, write the scripts into the ticket, which will be useful moving forward.",
        "Moving forward, keep a detailed diary as you work.",
    ],
)
def test_a_standing_word_outside_that_clause_still_makes_a_rule(sentence: str) -> None:
    assert classify(sentence) is not None
