"""The sixteenth round of the heuristic (ADR 0073): recall on the seen splits, with nothing proposed at once.

Held-out 37 and 38 measured the frozen fifteenth round: no proposal, no rule to find. What this round mends was missed
on the seen splits: a rule said in many sessions quoted only three of them, "Periodically run `./cleanup.py status`"
(said in six chats) had no signal, nor had "you are not allowed to". Each new kind is held back until said in a second
session (ADR 0059). Frozen before held-out 39 and 40 were read, and measured on them.
"""

from __future__ import annotations

import pytest
from rounds_kit import said, user_transcript

from memory_review.extract.finding import within_evidence_bytes
from memory_review.extract.heuristic import SIGNAL_SESSIONS, extract
from memory_review.limits import MAX_EVIDENCE_ITEMS

CHECKS = "Periodically run `python ./cleanup.py status` to see results of lints and tests."


# (1) A rule said in many sessions is quoted from each of them, up to the evidence limit, as many as its memory file
# holds beside the statement.
def test_a_rule_said_in_many_sessions_is_quoted_from_each() -> None:
    sessions = tuple(f"s{i}" for i in range(MAX_EVIDENCE_ITEMS + 3))
    [finding] = extract(user_transcript(*(CHECKS for _ in sessions), sessions=sessions))
    assert finding.signal == SIGNAL_SESSIONS
    assert [e.session_id for e in finding.evidence] == list(sessions[:MAX_EVIDENCE_ITEMS])
    assert all(e.quote == CHECKS for e in finding.evidence)
    assert ", ".join(sessions) in finding.rationale  # every session is still named


def test_a_long_rule_is_quoted_from_as_many_sessions_as_its_memory_file_holds() -> None:
    long_rule = "Periodically run the full check script " + "and read its whole report " * 18 + "to see results."
    sessions = tuple(f"s{i}" for i in range(6))
    [finding] = extract(user_transcript(*(long_rule for _ in sessions), sessions=sessions))
    assert len(long_rule.encode()) > 500
    assert [e.session_id for e in finding.evidence] == ["s0", "s1", "s2"]
    assert within_evidence_bytes([(long_rule, s, "t0") for s in sessions]) == 3
    assert within_evidence_bytes([("x" * 5_000, "s" * 128, "t" * 160)] * 4) == 2  # the longest: two, each clipped


def test_two_sessions_give_two_quotes() -> None:
    [finding] = extract(user_transcript(CHECKS, "Hi. " + CHECKS, sessions=("a", "b")))
    assert [e.session_id for e in finding.evidence] == ["a", "b"]


# (2) "Periodically run X": an occasion, proposed when said in a second session.
@pytest.mark.parametrize(
    "text",
    [
        CHECKS,
        "Also, periodically re-read the README to keep the big picture in mind.",
        "Regularly check the logs for new warnings.",
    ],
)
def test_periodically_is_held_back_then_proposed_in_a_second_session(text: str) -> None:
    assert said(text) == []
    [finding] = extract(user_transcript(text, text, sessions=("a", "b")))
    assert finding.signal == SIGNAL_SESSIONS
    assert finding.quote in text


@pytest.mark.parametrize(
    "text",
    [
        "It must connect to the internet periodically to fetch a new token.",  # what a program does
        "Periodically updated docs are a pain.",  # a participle describes
        "The cache is regularly cleared by the server.",
        "Periodically the job fails and I don't know why.",  # a determiner after it: a report
        "Should we periodically run the cleanup?",  # a question
    ],
)
def test_periodically_that_instructs_no_one_is_not_a_rule(text: str) -> None:
    assert extract(user_transcript(text, text, sessions=("a", "b"))) == []


# (3) "You are not allowed to X": a limit on the agent, weak like "don't".
@pytest.mark.parametrize(
    "text",
    [
        # "… anything outside the project folder" is where the agent may not write, a rule at once since ADR 0151
        "You are not allowed to read or reference anything in the parent folder.",
        "yes, you are allowed to read any file from the project except the .env files",
        "You're only permitted to edit files under src.",
    ],
)
def test_not_allowed_is_held_back_then_proposed_in_a_second_session(text: str) -> None:
    assert said(text) == []
    [finding] = extract(user_transcript(text, text, sessions=("a", "b")))
    assert finding.memory.type == "forbidden"
    assert finding.signal == SIGNAL_SESSIONS


@pytest.mark.parametrize(
    "text",
    [
        "The signed lease tells the app exactly which version you are allowed to run.",  # describes
        "You are allowed to use any library you like.",  # a permission with no limit in it
        "Am I allowed to push to main?",
    ],
)
def test_allowed_without_a_limit_is_not_a_rule(text: str) -> None:
    assert extract(user_transcript(text, text, sessions=("a", "b"))) == []


# (4) Bounded on hostile text (threat model: no hang); no time is asserted.
def test_the_new_signals_in_long_runs() -> None:
    assert said("periodically " + " " * 50_000 + "run x") == []
    assert said("you are allowed to " + "a " * 50_000 + "except b") == []
    assert said("Periodically run x. " * 5_000) == []  # one session: held back, never a scan per pair
    many = tuple(f"s{i}" for i in range(2_000))
    [finding] = extract(user_transcript(*(CHECKS for _ in many), sessions=many))
    assert len(finding.evidence) == MAX_EVIDENCE_ITEMS
