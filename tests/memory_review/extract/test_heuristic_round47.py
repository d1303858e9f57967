"""The forty-seventh round of the heuristic (ADR 0108), tuned on held-out 137.

- "Based on the state resources and the way its set up we run into some critical problems.": "we run into" tells
  what happened; it is no convention of how the project is run.
- "lets do gemini as well as a local AI but i would prefer the local AI first": a sentence that opens with "let's"
  proposes this work's next step, and the preference inside it chooses for that step.
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said


@pytest.mark.parametrize(
    "sentence",
    [
        "Based on the state resources and the way its set up we run into some critical problems.",
        "Every time we run out of tokens the job stops.",
        "Sometimes we run across old files like this one.",
        "lets do gemini as well as a local AI but i would prefer the local AI first",
        "OK, let's build the parser next, but I'd prefer the recursive one.",
    ],
)
def test_what_happened_or_this_steps_choice_is_no_rule(sentence: str) -> None:
    assert said(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "We run the tests with pytest.",
        "We run everything through nix develop --command.",
        "I would prefer the local AI first.",  # no step proposed: the preference stands as before
        "Okay, let's go, I prefer tabs over spaces.",  # two ways compared: a preference in general
        "Let's use pnpm from now on.",
    ],
)
def test_how_we_work_and_a_general_preference_are_still_rules(sentence: str) -> None:
    # said once, "we run X" and "I prefer X" wait for a second session unless they compare two ways (ADR 0110)
    assert (
        said(sentence) == [sentence]
        if "over" in sentence or "from now on" in sentence
        else held_until_said_again(sentence)
    )
