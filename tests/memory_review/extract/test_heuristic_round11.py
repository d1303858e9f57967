"""The eleventh round of the heuristic (ADR 0067): the tenth round's two fresh mistakes, each a class.

Judged 1 and held-out 24 measured the frozen tenth round (ADR 0066): 3 proposals, 1 worth keeping. The two mistakes
were a program's report in the person's slot, whose sentence came back in every session, and "always show" with the
thing shown left out and a place after the verb. Frozen before held-out 25 and 26 were read, and measured on them.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.precision import report_fields

REPORT = (
    "User request: {request}\n\n"
    "Default agent: main\n"
    "Default model: not configured\n"
    "Config valid: true\n"
    "Gateway reachable: false\n"
    "Codex CLI: found\n"
    "OpenClaw source: https://github.com/openclaw/openclaw\n"
    "Source mode: package/install; use GitHub source when docs are insufficient.\n\n"
    "Agents:\n- id=main, default=true"
)
REQUESTS = ("where do you live? where are your files", "/skill", "dont you live in my files AI_Workflow?")
SESSIONS = ("s1", "s2", "s3")


# (1) A program's report appended to each request (held-out 24): its sentences are not the person's, however often
# they come back.
def test_a_programs_report_in_every_session_is_no_rule() -> None:
    assert said(*(REPORT.format(request=r) for r in REQUESTS), sessions=SESSIONS) == []


def test_the_same_sentence_said_by_the_person_in_three_sessions_is_still_a_rule() -> None:
    sentence = "use GitHub source when docs are insufficient."
    asks = (f"Check the gateway config. {sentence}", f"Why does the agent fail? {sentence}", f"{sentence} Thanks")
    assert said(*asks, sessions=SESSIONS) == [sentence]


def test_the_persons_request_beside_a_report_is_still_read() -> None:
    text = REPORT.format(request="never push to main without asking me")
    [quote] = said(text)
    assert quote.endswith("never push to main without asking me")


@pytest.mark.parametrize(
    "text",
    [
        # a person's conventions written as fields: sentences, not data
        "Style: always use tabs\nTests: run them with uv every time\nCommits: never push to main",
        # two fields are no report
        "Config valid: true\nNote: always run the tests with uv before you commit",
    ],
)
def test_fields_a_person_writes_are_read(text: str) -> None:
    assert said(text)
    assert report_fields(text) == []


# (2) "always / never show" with the thing shown left out and a place after the verb (judged 1): where the program
# puts what the message is about, a spec.
@pytest.mark.parametrize(
    "sentence",
    [
        "always show on line before, even 1 file",  # judged 1, one-off
        "Never display in the sidebar when collapsed.",
        "always render below the fold",
    ],
)
def test_always_show_at_a_place_is_a_spec(sentence: str) -> None:
    assert said(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Always show me the diff before you commit.",  # shown to the person: a rule for the agent
        "Never show secrets in logs.",
    ],
)
def test_always_show_something_to_someone_is_still_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]
