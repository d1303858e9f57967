"""The forty-fourth round of the heuristic (ADR 0104), tuned on held-out 115 and 118.

- Held-out 118's person asked his agent, in Italian, to update his CLAUDE.md "so that" it works a certain way
  ("aggiorna il tuo CLAUDE.md globale affinché …", "aggiorna CLAUDE.md e tutto il nostro sistema … in modo che …"):
  the rule is what follows, as in "update CLAUDE.md to ensure that …" (ADR 0098).
- Held-out 115's "remember you need to do this in the background whilst I work on other things" states this task's
  need; "remember you must …" still binds (ADR 0095).
- "use the /auto command to complete this as well" points at the task, like "do it again".
"""

from __future__ import annotations

import pytest
from rounds_kit import said

GEMINI = (
    "utilizzi il tool gemini-mcp-tool per confrontarti con gemini cli e di base a seguito di ogni pianificazione dei "
    "task tu sfrutti i nostri agenti esperti"
)


def test_an_italian_request_to_update_claude_md_so_that_gives_the_rule() -> None:
    assert said("aggiorna il tuo CLAUDE.md globale affinché " + GEMINI) == [GEMINI]
    rule = "le attività di pianificazione siano demandate a Opus mentre l'implementazione va a Sonnet."
    assert said("aggiorna CLAUDE.md e tutto il nostro sistema di agenti in modo che " + rule) == [rule]


def test_a_few_words_after_so_that_point_back() -> None:
    assert said("aggiorna CLAUDE.md in modo che lo rifletta.") == []  # "that it reflect it"


@pytest.mark.parametrize(
    "sentence",
    [
        "remember you need to do this in the background whilst I work on other things",
        "Remember we need to make these API calls to have it exactly like the other site does",
    ],
)
def test_remember_you_need_to_is_this_tasks_need(sentence: str) -> None:
    assert said(sentence) == []


def test_remember_you_must_still_binds() -> None:
    assert len(said("Remember you must use the nx mcp to find what you need.")) == 1


def test_a_tool_to_complete_this_points_at_the_task() -> None:
    sentence = "Use the /auto command to complete this as well"
    assert said(sentence, sentence, sessions=("s1", "s2")) == []
