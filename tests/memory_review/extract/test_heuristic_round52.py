"""The fifty-second round of the heuristic (ADR 0115), tuned on held-out 159.

"rede bitte Deutsch mit mir" (talk German with me, please; a paraphrase of the prompt) asks the agent for the
language of the conversation, as "answer in French" did (ADR 0059), in the language's own words. The request is
proposed at once in German, French, Spanish, Italian, Portuguese, Chinese and Japanese, and as a bare "speak German";
only verbs of talking count, and only asked of the agent (the sentence's start or after "please"): "write the docs
in German" is a task, "the app should speak German" describes the program.
"""

from __future__ import annotations

import pytest
from rounds_kit import said


@pytest.mark.parametrize(
    "sentence",
    [
        "rede bitte Deutsch mit mir",  # held-out 159, paraphrased
        "Bitte antworte immer auf Deutsch.",
        "speak German please",
        "réponds en français",
        "habla en español",
        "rispondimi sempre in italiano",
        "fale em português",
        "请用中文回答我的问题",
        "日本語で答えて",
    ],
)
def test_the_language_of_the_conversation_in_its_own_words(sentence: str) -> None:
    assert said(sentence) == [sentence]


@pytest.mark.parametrize(
    "sentence",
    [
        "Write the docs in German.",  # a task, not the conversation
        "The app should speak German to German users.",  # the program's behaviour
        "El bot habla en español con los clientes.",  # the bot speaks Spanish with the customers
        "the NPC speaks Spanish",
    ],
)
def test_a_language_that_is_not_the_conversations_is_no_rule(sentence: str) -> None:
    assert said(sentence) == []
