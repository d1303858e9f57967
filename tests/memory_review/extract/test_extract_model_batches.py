"""A long history reaches the model whole: several calls, each within the prompt budget (ADR 0155).

Before, everything past 60,000 characters of statements was replaced by "[later statements left out]", and the
hook's offsets moved past it: those statements were never read. Real stand-in CLIs answer each call.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from agent_cli_kit import MOCKS, PNPM, StandIn, make_stand_in
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples

from memory_review.extract.cli_config import CliConfig
from memory_review.extract.model_extractor import (
    MAX_PROMPT_CHARS,
    MAX_TURN_CHARS,
    batches,
    extract_with_agent_cli,
    render_prompt,
)
from memory_review.extract.readers import read_transcript
from memory_review.extract.transcript import Transcript, Turn

FIRST_RULE = "Never mock the database in tests, use the test container."
LAST_RULE = "Always use pnpm, not npm."


def _task(number: int) -> str:
    """A long one-off request, distinct per turn (about 1,500 characters)."""
    return f"Look at module m{number} and tell me what it does. " + " ".join(f"w{number}n{k}" for k in range(200))


def _long_session(claude_session) -> Path:
    """100 user turns with the agent's replies between them; a rule in the first and in the last."""
    messages: list[tuple[str, object]] = []
    for number in range(100):
        said = FIRST_RULE if number == 0 else LAST_RULE if number == 99 else _task(number)
        messages += [("user", said), ("assistant", [{"type": "text", "text": f"Done with {number}."}])]
    return claude_session(*messages)


def _claude(tmp_path: Path, timeout: float = 60.0) -> tuple[StandIn, CliConfig]:
    stand_in = make_stand_in(tmp_path / "bin", "claude")
    return stand_in, CliConfig(agent="claude", program=str(stand_in.program), timeout=timeout)


def test_every_statement_is_sent_once_in_calls_within_the_budget(claude_session, tmp_path: Path) -> None:
    transcript = read_transcript(_long_session(claude_session))
    stand_in, config = _claude(tmp_path)
    stand_in.act(per_call=[{"answer": json.dumps([MOCKS])}, {"answer": "[]"}, {"answer": json.dumps([PNPM])}])
    told: list[tuple[int, int]] = []
    result = extract_with_agent_cli(transcript, config, progress=lambda *at: told.append(at))
    calls = stand_in.calls()
    assert len(calls) == 3 and result.batches == 3 and result.answered == 3
    assert told == [(1, 3), (2, 3), (3, 3)]
    assert result.failure is None and result.read_to == len(transcript.turns)
    assert [f.memory.id for f in result.findings] == ["forbidden-mock-database", "pref-pnpm"]
    user_turns = transcript.user_turns()
    for turn in user_turns:  # each statement in exactly one call
        assert sum(f"[turn {turn.turn_id}] " in call["stdin"] for call in calls) == 1
    assert "left out" not in "".join(call["stdin"] for call in calls)
    assert all(len(call["stdin"]) < MAX_PROMPT_CHARS + 10_000 for call in calls)  # the budget, plus the instructions


def test_a_failed_call_keeps_what_the_earlier_ones_found_and_says_where_to_resume(
    claude_session, tmp_path: Path
) -> None:
    transcript = read_transcript(_long_session(claude_session))
    stand_in, config = _claude(tmp_path)
    stand_in.act(per_call=[{"answer": json.dumps([MOCKS])}, {"error": True}, {"answer": json.dumps([PNPM])}])
    result = extract_with_agent_cli(transcript, config)
    assert len(stand_in.calls()) == 2  # the third batch is never asked
    assert [f.memory.id for f in result.findings] == ["forbidden-mock-database"]
    assert result.failure is not None and result.failure.message.startswith("batch 2 of 3: ")
    [first, second, _] = batches(transcript)
    assert result.read_to == first[1] == transcript.turns.index(second[0][0])
    assert result.answered == 1


def test_a_statement_whose_reply_is_always_rejected_is_passed_over_and_the_rest_is_read(
    claude_session, tmp_path: Path
) -> None:
    # The review of session 32: a reply off the schema (here a body over 1,000 characters, as a long rule quoted
    # whole gives) was rejected with its batch, the hook's offset stayed, and every later Stop sent the same
    # statements again, to be rejected again: nothing the session said after it was ever proposed (ADR 0159).
    poison = "Write down the whole release checklist as one rule, every step of it."
    transcript = read_transcript(
        claude_session(("user", FIRST_RULE), ("user", poison), ("user", "Now fix the login test."), ("user", LAST_RULE))
    )
    too_long = {**MOCKS, "name": "release-checklist", "body": "step " * 300}
    stand_in, config = _claude(tmp_path)
    stand_in.act(
        when=[
            [poison, {"answer": json.dumps([too_long])}],
            [FIRST_RULE, {"answer": json.dumps([MOCKS])}],
            [LAST_RULE, {"answer": json.dumps([PNPM])}],
        ],
        otherwise={"answer": "[]"},
    )
    result = extract_with_agent_cli(transcript, config)
    asked = [
        [turn.text for turn in transcript.user_turns() if f"[turn {turn.turn_id}] " in call["stdin"]]
        for call in stand_in.calls()
    ]
    # All four, then halves, then the poisoned half's two statements alone.
    assert asked == [
        [FIRST_RULE, poison, "Now fix the login test.", LAST_RULE],
        [FIRST_RULE, poison],
        [FIRST_RULE],
        [poison],
        ["Now fix the login test.", LAST_RULE],
    ]
    assert [f.memory.id for f in result.findings] == ["forbidden-mock-database", "pref-pnpm"]
    assert result.failure is None and result.read_to == len(transcript.turns) and result.answered == 1
    [passed] = result.passed_over
    poisoned = next(turn for turn in transcript.user_turns() if turn.text == poison)
    assert passed.startswith(f"turn {poisoned.turn_id} (schema): item 0: body: ")


def test_a_model_that_answers_nothing_within_the_rules_stops_the_run_after_a_few_calls(
    claude_session, tmp_path: Path
) -> None:
    # The review of session 33: a model that fences its JSON (many do) made every reply "malformed"; the search asked
    # about each of 40 statements alone (79 calls) and passed every one over, so the hook's offset moved past them all.
    transcript = read_transcript(claude_session(*(("user", f"Statement {n}: look at module m{n}.") for n in range(40))))
    stand_in, config = _claude(tmp_path)
    stand_in.act(answer="```json\n[]\n```")
    result = extract_with_agent_cli(transcript, config)
    assert len(stand_in.calls()) <= 8  # the batch, halves down to one statement, and the next one alone
    assert result.failure is not None and result.failure.kind == "malformed"
    assert result.passed_over == [] and result.read_to == 0 and result.findings == []


def test_one_bad_reply_about_one_statement_loses_nothing(claude_session, tmp_path: Path) -> None:
    transcript = read_transcript(claude_session(("user", LAST_RULE)))
    stand_in, config = _claude(tmp_path)
    stand_in.act(per_call=[{"answer": "Sure! Here is the JSON you asked for."}, {"answer": json.dumps([PNPM])}])
    first = extract_with_agent_cli(transcript, config)
    assert first.failure is not None and first.passed_over == [] and first.read_to == 0
    again = extract_with_agent_cli(transcript, config)  # the next run asks again, and the model answers
    assert [f.memory.id for f in again.findings] == ["pref-pnpm"] and again.read_to == len(transcript.turns)


def test_a_statement_rejected_first_is_passed_over_once_the_rest_is_answered(claude_session, tmp_path: Path) -> None:
    poison = "Write down the whole release checklist as one rule, every step of it."
    transcript = read_transcript(claude_session(("user", poison), ("user", LAST_RULE)))
    too_long = {**MOCKS, "name": "release-checklist", "body": "step " * 300}
    stand_in, config = _claude(tmp_path)
    stand_in.act(when=[[poison, {"answer": json.dumps([too_long])}]], otherwise={"answer": json.dumps([PNPM])})
    result = extract_with_agent_cli(transcript, config)
    assert len(stand_in.calls()) == 3 and result.failure is None and result.read_to == len(transcript.turns)
    assert [f.memory.id for f in result.findings] == ["pref-pnpm"] and len(result.passed_over) == 1


def test_a_failed_first_call_reads_nothing(claude_session, tmp_path: Path) -> None:
    transcript = read_transcript(_long_session(claude_session))
    stand_in, config = _claude(tmp_path)
    stand_in.act(exit=1, stdout="garbage")
    result = extract_with_agent_cli(transcript, config)
    assert result.findings == [] and result.read_to == 0 and result.answered == 0
    assert len(stand_in.calls()) == 1


def test_no_call_starts_that_its_timeout_could_carry_past_the_deadline(claude_session, tmp_path: Path) -> None:
    transcript = read_transcript(_long_session(claude_session))
    stand_in, config = _claude(tmp_path, timeout=30.0)
    stand_in.act(delay=1, answer=json.dumps([MOCKS]))
    # The first call may finish by the deadline; once it has taken its second, the next one could not.
    result = extract_with_agent_cli(transcript, config, deadline=time.monotonic() + 30.5)
    assert len(stand_in.calls()) == 1 and result.failure is None
    assert result.answered == 1 and result.read_to == batches(transcript)[0][1] < len(transcript.turns)
    assert [f.memory.id for f in result.findings] == ["forbidden-mock-database"]


def test_the_first_call_starts_even_when_its_timeout_is_as_long_as_the_deadline(claude_session, tmp_path: Path) -> None:
    # The review of session 32: the worker's deadline is its start plus the longest timeout a person may set, so a
    # first call checked against it never started and the hooks' model extraction silently did nothing.
    transcript = read_transcript(_long_session(claude_session))
    stand_in, config = _claude(tmp_path, timeout=1800.0)
    stand_in.act(answer=json.dumps([MOCKS]))
    result = extract_with_agent_cli(transcript, config, deadline=time.monotonic() + 1800.0)
    assert len(stand_in.calls()) == 1 and result.answered == 1


def test_a_resumed_run_sends_only_the_statements_not_answered(claude_session, tmp_path: Path) -> None:
    transcript = read_transcript(_long_session(claude_session))
    stand_in, config = _claude(tmp_path)
    stand_in.act(answer=json.dumps([PNPM]))
    start = batches(transcript)[1][1]  # where a run that answered two calls stopped
    result = extract_with_agent_cli(transcript, config, start=start)
    [call] = stand_in.calls()
    assert LAST_RULE in call["stdin"] and FIRST_RULE not in call["stdin"]
    assert [f.memory.id for f in result.findings] == ["pref-pnpm"] and result.read_to == len(transcript.turns)


def test_a_short_history_is_one_call_as_before(claude_session, tmp_path: Path) -> None:
    transcript = read_transcript(claude_session(("user", FIRST_RULE), ("user", LAST_RULE)))
    stand_in, config = _claude(tmp_path)
    stand_in.act(answer=json.dumps([MOCKS, PNPM]))
    told: list[tuple[int, int]] = []
    result = extract_with_agent_cli(transcript, config, progress=lambda *at: told.append(at))
    assert len(stand_in.calls()) == 1 and told == []  # nothing to say about progress for one call
    assert result.batches == 1 and len(result.findings) == 2


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3 * MAX_TURN_CHARS), st.sampled_from(["user", "user", "assistant", "tool-output"])),
        max_size=120,
    ),
    st.integers(0, 10),
)
def test_batches_cover_each_statement_once_in_order_within_the_budget(shape: list[tuple[int, str]], start: int) -> None:
    turns = [
        Turn(
            turn_id=f"t{i}",
            role="assistant" if source == "assistant" else "user",
            source=source,
            text="x" * size,
            index=i,
        )
        for i, (size, source) in enumerate(shape)
    ]
    transcript = Transcript(session_id="s", format="text", turns=turns)
    groups = batches(transcript, start)
    sent = [turn for group, _ in groups for turn in group]
    assert sent == [turn for turn in turns[start:] if turn.is_user_speaking]
    for number, (group, read_to) in enumerate(groups):
        assert group and len(render_prompt(transcript, group)) <= MAX_PROMPT_CHARS
        following = groups[number + 1][0][0] if number + 1 < len(groups) else None
        assert read_to == (turns.index(following) if following is not None else len(turns))


def test_a_long_statement_reaches_the_model_by_both_ends(claude_session, tmp_path: Path) -> None:
    # The review of session 32: a statement over MAX_TURN_CHARS was sent as its first 2,000 characters, so the rule a
    # person typed after a pasted log never reached the model, and the turn counted as read.
    paste = "\n".join(f"2026-01-01 10:00:{n % 60:02d} ERROR worker {n} failed: timeout" for n in range(300))
    key = "sk-ant-api03-" + "A" * 60
    transcript = read_transcript(claude_session(("user", f"{paste}\nfix this. {key} {LAST_RULE}")))
    stand_in, config = _claude(tmp_path)
    stand_in.act(answer=json.dumps([PNPM]))
    result = extract_with_agent_cli(transcript, config)
    [call] = stand_in.calls()
    asked = call["stdin"]
    assert LAST_RULE in asked and "worker 0 failed" in asked and "worker 150 failed" not in asked
    assert key not in asked and "sk-ant-api03-AAAA" not in asked  # redacted before the cut
    assert [f.memory.id for f in result.findings] == ["pref-pnpm"]


def test_a_model_that_fails_only_replies_with_items_loses_no_rule(claude_session, tmp_path: Path) -> None:
    # The review of session 33: a model that answers "[]" fine but fences any reply holding an item made the rules'
    # statements "the statement's doing" (something had answered), so exactly the rules were passed over for good.
    transcript = read_transcript(
        claude_session(
            ("user", "Look at module a."), ("user", FIRST_RULE), ("user", "Look at module b."), ("user", LAST_RULE)
        )
    )
    stand_in, config = _claude(tmp_path)
    fenced = {"answer": "```json\n" + json.dumps([MOCKS]) + "\n```"}
    stand_in.act(when=[[FIRST_RULE, fenced], [LAST_RULE, fenced]], otherwise={"answer": "[]"})
    result = extract_with_agent_cli(transcript, config)
    assert result.passed_over == [] and result.failure is not None and result.failure.kind == "malformed"
    rule = next(turn for turn in transcript.turns if turn.text == FIRST_RULE)
    assert result.read_to == transcript.turns.index(rule)  # read again next run, from the first rule on
