"""The ninetieth round of the heuristic (ADR 0163): "always" in a purpose or a condition, and a statement pasted below.

Session 33's fresh splits of Windsurf and Antigravity exports (held-out 397 and 400, round 89 frozen) gave three kinds
of mistake no earlier round had seen (held-out 397's two are paraphrased: it was removed in session 34 for its licence):
- a wish that the title show the season "so I always know" what is being edited: "always" says what the change will
  let the person do, in a purpose clause, as "so that it can be used going forward" does (ADR 0084);
- "if it's always the same button, …": "always" in a condition about how things are;
- "Please read the statement below and see if this agrees with our DISC or ADR or SPEC …" and then a pasted statement,
  whose "we always include a NOTICE file", "Always check the source's license first" and "always vet and cite origins"
  are someone else's words, not the person's rules.
A standing word outside the clause still makes a rule, and a list the person introduces as their own rules is theirs.
"""

from __future__ import annotations

import pytest

from memory_review.extract import extract
from memory_review.extract.signals import classify
from memory_review.extract.transcript import Transcript, Turn


@pytest.mark.parametrize(
    "sentence",
    [
        "Show the name only once at the top, and also add the season to the title so I always know which one I'm "
        "editing.",
        "Put the branch name in the prompt so I always know where I am.",
        "Pin the header so we never lose the column names when scrolling.",
        "If it's always the same button then we might not need a separate stylesheet for it.",
        "If they're always the same two files, merge them into one.",
    ],
)
def test_always_in_a_purpose_or_a_condition_is_no_standing_rule(sentence: str) -> None:
    assert classify(sentence) is None


@pytest.mark.parametrize(
    "sentence",
    [
        "Always run the tests so that we never ship a broken build.",
        "From now on, keep the year in the title so I always know where we are.",
        "If you change the schema, always write a migration.",
        "Never push to main, so that we always have a review.",
    ],
)
def test_a_standing_word_outside_the_clause_still_makes_a_rule(sentence: str) -> None:
    assert classify(sentence) is not None


def _said(text: str) -> Transcript:
    return Transcript(
        session_id="s", format="text", turns=[Turn(turn_id="t1", role="user", source="user", text=text, index=0)]
    )


STATEMENT = (
    "Common practices for referencing others' work in our code products.\n"
    "LICENSE and NOTICE Files: In enterprise-grade stuff, we always include a NOTICE file listing all external "
    "contributions with their licenses.\n"
    "Best Methods and Pitfalls to Avoid: Always check the source's license first. Tools like GitHub Copilot can "
    "suggest code, always vet and cite origins."
)


def test_a_statement_the_person_pastes_below_their_request_is_not_their_rules() -> None:
    text = (
        "Please read the statement below and see if this agrees with our DISC or ADR or SPEC on the topic, I want to "
        f"add this nuance to our documentation where applicable please\n\n{STATEMENT}"
    )
    assert extract(_said(text)) == []


def test_rules_the_person_introduces_as_their_own_are_theirs() -> None:
    text = "Please follow the rules below from now on:\n\n- Always run the linter before you commit.\n"
    assert [f.memory.body for f in extract(_said(text))] == ["Always run the linter before you commit."]


def test_a_rule_the_person_adds_after_the_pasted_statement_is_theirs() -> None:
    text = (
        f"Please read the statement below and see if this agrees with our docs.\n\n{STATEMENT}\n\n"
        "Also, from now on never commit .env files to the repository."
    )
    assert [f.memory.body for f in extract(_said(text))] == [
        "Also, from now on never commit .env files to the repository."
    ]
