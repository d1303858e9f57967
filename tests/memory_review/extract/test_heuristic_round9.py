"""The ninth round of the heuristic (ADR 0064): held-out 19's lessons, with near misses.

The frozen eighth round found none of held-out 19's five rules: the person wrote "Use uv pip", "USE "uv pip"!" and
"USE "uv pip"!!! …" in three chats on three days, with no signal word, so the repetition the issue calls the strongest
durable signal was never counted. Its one proposal put "we use" inside what the person asked to ensure.
"""

from __future__ import annotations

import pytest
from rounds_kit import said, user_transcript

from memory_review.extract.heuristic import SIGNAL_SESSIONS, extract
from memory_review.extract.signals import SIGNAL_TOOL_CHOICE, a_tool_choice, classify
from memory_review.extract.transcript import Transcript, Turn


# (1) A bare "use X" is a choice of tool or way: held back, proposed when said in a second session.
@pytest.mark.parametrize(
    "sentence",
    ["Use uv pip", 'USE "uv pip"!!!', "Use `uv pip ...` not `pip ...` .", "use plan mode"],
)
def test_a_bare_use_x_waits_for_a_second_session(sentence: str) -> None:
    found = a_tool_choice(sentence)
    assert found is not None and found.held_back and found.signal == SIGNAL_TOOL_CHOICE
    assert said(sentence) == []
    assert said(sentence, "ok, go on", sentence) == []  # twice in one chat is still one occasion


def test_use_x_in_three_chats_in_other_words_is_proposed_once() -> None:
    findings = extract(user_transcript("Use uv pip", 'USE "uv pip"!', 'USE "uv pip"!!!', sessions=("a", "b", "c")))
    assert [(f.quote, f.signal) for f in findings] == [("Use uv pip", SIGNAL_SESSIONS)]
    assert len(findings[0].evidence) == 3


@pytest.mark.parametrize(
    "sentence",
    [
        "use it",  # what "it" is lives in the chat, not in the rule
        "Use the second option.",  # a pick among what the agent offered
        "use a different approach",
        "Use red for the error text now.",  # "now": this task
        "Use the logger everywhere in the new service, and make sure every handler logs its request id and timing.",
    ],
)
def test_what_is_no_choice_of_tool_is_not_held_for_a_second_session(sentence: str) -> None:
    assert a_tool_choice(sentence) is None
    assert said(sentence, sentence, sessions=("a", "b")) == []


def test_a_bare_use_x_in_text_the_user_did_not_write_is_nothing_even_when_untrusted_text_is_shown() -> None:
    # docs and tool output are full of "Use pip install …": never the person's choice, not even flagged
    turns = [
        Turn(turn_id="t0", role="user", text="read the docs", source="user", index=0, session_id="a"),
        Turn(turn_id="t1", role="tool", text="Use pip install foo", source="tool-output", index=1, session_id="a"),
        Turn(turn_id="t2", role="tool", text="Use pip install foo", source="tool-output", index=2, session_id="b"),
    ]
    transcript = Transcript(session_id="round9", format="text", turns=turns)
    assert extract(transcript) == []
    assert extract(transcript, include_untrusted=True) == []


def test_the_same_whole_message_opening_a_new_chat_is_a_re_send() -> None:
    # held-out 8: "Use the MCP integration patterns for enhanced development" opened two chats a minute apart
    message = "Use the MCP integration patterns for enhanced development"
    assert said(message, message, sessions=("a", "b")) == []
    # said again in other words, or inside another message, it is a second occasion
    assert said(message, "Thanks. Use the MCP integration patterns for enhanced development.", sessions=("a", "b"))


# (2) "we use" inside what the person asks to ensure is the program's behaviour.
@pytest.mark.parametrize(
    "sentence",
    [
        "Ensure that a search without `-e` parameter, we use the `best` preset",  # held-out 19
        "Make sure that when the cache is cold we use the slow path.",
    ],
)
def test_we_use_in_what_is_to_be_ensured_is_a_spec(sentence: str) -> None:
    assert classify(sentence) is None


def test_we_use_stated_still_states_a_convention() -> None:
    assert said("We use uv for everything in this repo.") == ["We use uv for everything in this repo."]
    assert said("We use uv for everything.") == []  # no place, nothing chosen against: waits (ADR 0110)
