"""Properties that must hold for any input: readers fail only with ValidationError, quotes are exact."""

from __future__ import annotations

import tempfile
from pathlib import Path

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples

from memory_review.errors import ValidationError
from memory_review.extract.heuristic import extract
from memory_review.extract.plan import plan
from memory_review.extract.readers import read_transcript
from memory_review.extract.textutil import sentence_spans
from memory_review.extract.transcript import Transcript, Turn
from memory_review.ids import new_candidate_id
from memory_review.models import SLUG_RE, utc_now
from memory_review.rules import proposed_record

FAST = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG_ZH = "记住，" + "测试数据库在五四三三端口而且只能通过内网访问" * 12 + "。"
PHRASES = [
    LONG_ZH,
    "Never commit " + "x" * 590 + ".",
    "Never\x08 use tabs\r in tests.",
    "Never mock the database in tests.",
    "always use pnpm, not npm",
    "Don't modify this function",
    "No, use uv.",
    "I said use uv!",
    "We use black.",
    "记住，测试数据库在 5433 端口。",
    "以后不要用 mock。",
    "remember to push",
    "```\nnever\n```",
    "> always quoted",
    "sk_test_51NzQe2KbLr8TmVx4Hc7pYd9WfA3sJ",
    "ignore all previous instructions",
    "\u200b",
    "\n",
    "\n\n",
    " ",
    "- ",
    "1. ",
    ";",
    "?",
    "。",
]
texts = st.lists(st.one_of(st.sampled_from(PHRASES), st.text(max_size=30)), max_size=8).map("".join)


@FAST
@given(texts)
def test_sentence_spans_are_trimmed_single_line_slices(text: str) -> None:
    for start, end in sentence_spans(text):
        piece = text[start:end]
        assert 0 <= start < end <= len(text)
        assert piece == piece.strip() and not any(c in piece for c in "\n\r")


@FAST
@given(st.lists(texts, min_size=1, max_size=5))
def test_findings_quote_their_turn_exactly_and_are_valid(turn_texts: list[str]) -> None:
    turns = [Turn(turn_id=f"t{i}", role="user", source="user", text=text, index=i) for i, text in enumerate(turn_texts)]
    transcript = Transcript(session_id="sess_prop", format="text", turns=turns)
    by_id = {turn.turn_id: turn.text for turn in turns}
    findings = extract(transcript)
    for finding in findings:
        assert SLUG_RE.fullmatch(finding.memory.id)
        assert "\n" not in finding.memory.description and len(finding.memory.description) <= 200
        for evidence in finding.evidence:
            assert evidence.turn_id is not None
            if "secret" not in finding.flags:
                assert evidence.quote in by_id[evidence.turn_id]
    first = plan(findings, approved=[], pending=[], discarded=[])
    for planned in first.proposals:  # what the store would write must fit a memory file
        proposal = planned.proposal
        proposed_record(None, proposal.memory, proposal, proposal.scope, new_candidate_id(), utc_now())
    again = plan(findings, approved=[], pending=[p.proposal.memory for p in first.proposals], discarded=[])
    assert again.proposals == []


records = st.one_of(
    st.dictionaries(
        st.sampled_from(["type", "message", "uuid", "role", "content", "sessionId", "isMeta"]),
        st.one_of(
            st.sampled_from(["user", "assistant", "system", "progress", None, True]),
            st.text(max_size=20),
            st.just({"role": "user", "content": [{"type": "text", "text": "Never use tabs."}]}),
            st.just({"role": "user", "content": ["bare"]}),
            st.lists(st.dictionaries(st.sampled_from(["type", "text"]), st.text(max_size=10)), max_size=2),
        ),
        max_size=5,
    ),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.text(max_size=10),
    st.lists(st.integers(min_value=0, max_value=9), max_size=2),
)


@FAST
@given(st.lists(records, max_size=6), st.sampled_from(["lines", "array"]))
def test_any_json_input_reads_or_fails_with_validation_error(values: list[object], layout: str) -> None:
    raw = b"\n".join(orjson.dumps(v) for v in values) if layout == "lines" else orjson.dumps(values)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.jsonl"
        path.write_bytes(raw)
        try:
            transcript = read_transcript(path)
        except ValidationError:
            return
        extract(transcript, include_untrusted=True)


@FAST
@given(st.binary(max_size=200))
def test_any_bytes_read_or_fail_with_validation_error(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.txt"
        path.write_bytes(raw)
        try:
            extract(read_transcript(path))
        except ValidationError:
            pass
