"""Heuristic precision (ADR 0033): named one-offs, scope, whole rules, pasted and quoted text, repetition."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_review.extract.heuristic import SIGNAL_SESSIONS, extract
from memory_review.extract.plan import plan
from memory_review.extract.readers import read_transcript
from memory_review.extract.signals import classify, examine
from memory_review.extract.transcript import Transcript, Turn

NAMED_ONE_OFF = [
    "Don't modify `resolve_offsets`.",
    "Don't replace the orders cache.",
    "Do not touch parse_config, it's fine.",
    "Avoid changing the Save button.",
    "Don't rename `userId` in the payload.",
    "Stop editing settings.py.",
    "Don't remove the revenue chart.",
    "不要改 load_cache 函数。",
]
NAMED_BUT_GENERAL = [  # (sentence, type, scope): a generalising word makes a named rule durable
    ("Never call `os.system`, use subprocess.run with a list.", "forbidden", "project"),
    ("Always run `make lint` before you commit.", "convention", "project"),
    ("From now on, don't touch settings.py without asking.", "forbidden", "project"),
    ("In this repo, we use `httpx` for HTTP.", "convention", "project"),
    ("I prefer `pathlib` over `os.path`.", "preference", "project"),
    ("Don't use print() for logging, use the logger instead.", "forbidden", "project"),
]


@pytest.mark.parametrize("sentence", NAMED_ONE_OFF)
def test_an_instruction_about_a_named_thing_is_a_task_detail(sentence: str) -> None:
    assert classify(sentence) is None
    found = examine(sentence)
    assert found is not None and found.named_one_off  # kept aside, for repetition


@pytest.mark.parametrize(("sentence", "kind", "scope"), NAMED_BUT_GENERAL)
def test_a_named_rule_that_generalises_is_durable_and_project_scoped(sentence: str, kind: str, scope: str) -> None:
    found = classify(sentence)
    assert found is not None, sentence
    assert (found.type, found.scope) == (kind, scope)


def test_personal_style_stated_generally_stays_user_scope() -> None:
    for sentence in (
        "From now on, keep your answers short.",
        "I prefer f-strings over .format() calls.",
        "Never use emojis in replies.",
    ):
        found = classify(sentence)
        assert found is not None and found.scope == "user", sentence


def _turns(*texts: str, sessions: tuple[str, ...] | None = None) -> Transcript:
    return Transcript(
        session_id="s0",
        format="text",
        turns=[
            Turn(
                turn_id=f"t{i}",
                role="user",
                source="user",
                text=text,
                index=i,
                session_id=sessions[i] if sessions else None,
            )
            for i, text in enumerate(texts)
        ],
    )


def test_the_corrective_half_stays_with_the_rule() -> None:
    # a weak "don't" is held back until said in a second session (ADR 0059); then the whole rule is proposed
    text = "Don't use print for logging. Use the logger instead. Thanks!"
    assert extract(_turns(text)) == []
    (finding,) = extract(_turns(text, text, sessions=("s1", "s2")))
    assert finding.quote == "Don't use print for logging. Use the logger instead."
    assert finding.memory.body == finding.quote
    (split,) = extract(_turns("Never hand-edit migrations; generate them with alembic."))
    assert split.quote == "Never hand-edit migrations; generate them with alembic."


def test_a_following_sentence_that_is_not_the_corrective_half_is_left_out() -> None:
    (finding,) = extract(_turns("Never mock the database in tests. The login page looks odd."))
    assert finding.quote == "Never mock the database in tests."


def test_a_rule_with_the_task_tacked_on_keeps_the_rule() -> None:
    # a real dev 2 prompt (ADR 0044), paraphrased: the rule, then a request about the code at hand
    said = "We should NEVER fill in the inserted-at and modified-at fields by hand, please remove that."
    (finding,) = extract(_turns(said))
    assert finding.quote == "We should NEVER fill in the inserted-at and modified-at fields by hand"
    assert finding.memory.type == "forbidden"
    # a weak signal, or deixis inside the rule itself, still makes it a task detail
    assert extract(_turns("Don't add a new dependency, please remove that.")) == []
    assert extract(_turns("Never edit this file by hand, please revert it.")) == []


def test_a_pasted_plan_is_not_the_users_instruction() -> None:
    plan_text = "\n".join(
        ["Steps to add a Flask service. Do not edit any existing files.", ""]
        + [f"{n}) Step {n}" for n in range(1, 6)]
        + [f"- Never use global state in step {n}" for n in range(1, 6)]
        + ["```python", "def app():", "    pass", "```"]
    )
    assert extract(_turns(plan_text)) == []
    assert extract(_turns("Never use global state.")) != []  # the same rule said plainly


def test_quoted_text_is_not_an_instruction() -> None:
    assert classify('The README says "never commit the lockfile", is that right for us') is None
    assert classify("\u201cAlways use tabs\u201d is what the old guide said.") is None
    assert classify('I prefer short commit messages, like "Add health endpoint".') is not None


def test_a_named_instruction_repeated_in_two_sessions_becomes_a_high_priority_rule() -> None:
    transcript = _turns(
        "Don't modify `resolve_offsets`.",
        "Now add the endpoint.",
        "Please don't modify resolve_offsets, it is shared with the worker.",
        sessions=("aider-1", "aider-1", "aider-2"),
    )
    (finding,) = extract(transcript)
    assert finding.signal == SIGNAL_SESSIONS and finding.priority == "high"
    assert finding.scope == "project"
    assert [(e.session_id, e.turn_id) for e in finding.evidence] == [("aider-1", "t0"), ("aider-2", "t2")]
    assert "2 sessions" in finding.rationale


def test_a_named_instruction_repeated_in_one_session_stays_a_task_detail() -> None:
    transcript = _turns("Don't modify `resolve_offsets`.", "Again: don't modify `resolve_offsets`!")
    assert extract(transcript) == []


def test_a_durable_rule_said_in_two_sessions_is_one_high_priority_proposal() -> None:
    rule = ("Always use uv for dependencies.", "always use uv for dependencies")
    findings = extract(_turns(*rule, sessions=("s1", "s2")))
    assert [f.priority for f in findings] == ["medium", "medium"]
    (proposal,) = plan(findings, approved=[], pending=[], discarded=[]).proposals
    assert proposal.proposal.priority == "high"
    assert {e.session_id for e in proposal.proposal.evidence} == {"s1", "s2"}
    assert "2 sessions" in proposal.proposal.rationale


def test_aider_sessions_count_as_sessions(tmp_path: Path) -> None:
    history = tmp_path / ".aider.chat.history.md"
    history.write_text(
        "\n# aider chat started at 2026-01-05 10:00:00\n\n#### don't touch the `billing_total` helper  \n\nOk.\n"
        "\n# aider chat started at 2026-01-09 16:30:00\n\n#### please don't touch billing_total  \n\nSure.\n",
        encoding="utf-8",
    )
    (finding,) = extract(read_transcript(history))
    assert finding.signal == SIGNAL_SESSIONS
    assert len({e.session_id for e in finding.evidence}) == 2
