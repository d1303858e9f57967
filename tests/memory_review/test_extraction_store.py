"""Extraction through the stores: candidates only, deduplicated, idempotent, flags carried."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from workspace_kit import fresh_workspace

from memory_review.errors import NotFoundError, ValidationError
from memory_review.extract import Finding, read_transcript
from memory_review.workspace import Workspace

DEMO = Path(__file__).resolve().parents[2] / "memory_review" / "data" / "demo_transcript.jsonl"


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return fresh_workspace(tmp_path)


def test_extract_proposes_candidates_and_never_memory(ws: Workspace) -> None:
    summary = ws.extract(DEMO)
    assert summary.proposed and summary.found >= len(summary.proposed)
    assert ws.memories() == []
    types = {e.type for e in ws.log()} | {e.type for e in ws.log(scope="user")}
    assert types == {"candidate.created"}
    turns = {turn.turn_id: turn.text for turn in read_transcript(DEMO).turns}
    for state in ws.list_candidates():
        for evidence in state.candidate.evidence:
            if "secret" not in state.flags:  # secrets are redacted in the quote too
                assert evidence.quote in turns[evidence.turn_id]


def test_rerun_proposes_nothing_new(ws: Workspace) -> None:
    first = ws.extract(DEMO)
    second = ws.extract(DEMO)
    assert second.proposed == [] and second.skipped_duplicates == first.found


def test_discarded_then_rerun_flags_previously_discarded_or_skips(ws: Workspace) -> None:
    first = ws.extract(DEMO)
    ws.discard(first.proposed, actor="alice", reason="not useful")
    again = ws.extract(DEMO)
    flagged = [ws.show(cid) for cid in again.proposed]
    assert all("previously-discarded" in state.flags for state in flagged)


def test_secret_is_redacted_and_flagged(ws: Workspace) -> None:
    ws.extract(DEMO)
    log_bytes = ws.project.log_path.read_bytes() + ws.user.log_path.read_bytes()
    secret_states = [s for s in ws.list_candidates() if "secret" in s.flags]
    assert secret_states
    assert b"sk_test_" not in log_bytes or b"REDACTED" in log_bytes


def test_unknown_file_is_a_clear_error(ws: Workspace, tmp_path: Path) -> None:
    with pytest.raises(NotFoundError):
        ws.extract(tmp_path / "missing.jsonl")
    binary = tmp_path / "x.bin"
    binary.write_bytes(b"\x00\x01\x02\xff" * 100)
    with pytest.raises(ValidationError):
        ws.extract(binary)


def test_extract_cli_summary_json(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", "memory_review.cli", "extract", str(DEMO), "--json"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert {"found", "proposed", "skipped_duplicates", "flagged"} <= set(summary)
    assert len(summary["proposed"]) == summary["found"] - summary["skipped_duplicates"]


def test_a_failing_model_extractor_is_recorded_and_breaks_nothing(ws: Workspace, monkeypatch) -> None:
    from memory_review.integrations.claude_hooks import hook_errors

    # An endpoint nothing listens on: the model extractor must fail, record it, and propose nothing.
    monkeypatch.setenv("MEMORY_REVIEW_LLM_URL", "http://127.0.0.1:9/v1/chat/completions")
    monkeypatch.setenv("MEMORY_REVIEW_LLM_MODEL", "test-model")
    monkeypatch.setenv("MEMORY_REVIEW_LLM_API", "openai")
    summary = ws.extract(DEMO, extractor="model")
    assert summary.failure and summary.proposed == []
    [entry] = hook_errors(ws)
    assert entry.event == "model-extractor" and entry.error == "ModelFailure"
    assert ws.list_candidates() == []


def test_a_rule_quoted_from_many_sessions_at_the_longest_sizes_fits_its_memory_file(
    ws: Workspace, tmp_path: Path
) -> None:
    # ADR 0073: a repeated rule is quoted from each session while the sources fit beside the statement; at the longest
    # quote, session id and turn id a transcript can carry, extract and apply still succeed.
    rule = "Periodically run the full check script " + "and read its whole report carefully " * 15 + "to see results."
    path = tmp_path / "t.jsonl"
    records = [
        {
            "type": "user",
            "sessionId": f"s{i:02d}" + "x" * 125,
            "uuid": f"u{i:02d}" + "y" * 157,
            "message": {"role": "user", "content": rule},
        }
        for i in range(12)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    summary = ws.extract(path)
    [candidate] = summary.proposed
    evidence = ws.show(candidate).candidate.evidence
    assert 1 <= len(evidence) < 12
    ws.apply([candidate], actor="alice")
    [memory] = ws.memories()
    assert memory.body == rule
    assert [s.session_id for s in memory.sources] == [e.session_id for e in evidence]


def test_a_correction_repeated_at_the_longest_sizes_fits_its_memory_file(ws: Workspace, tmp_path: Path) -> None:
    # The same budget holds for a correction repeated in one session: its quotes are taken while they fit.
    correction = "No, use the structured logger instead of print" + " and keep every log line short and plain" * 13
    path = tmp_path / "t.jsonl"
    session = "s" + "x" * 127
    records = [
        {
            "type": "user",
            "sessionId": session,
            "uuid": f"u{i:02d}" + "y" * 157,
            "message": {"role": "user", "content": correction},
        }
        for i in range(4)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    [candidate] = ws.extract(path).proposed
    assert 1 <= len(ws.show(candidate).candidate.evidence) < 4
    ws.apply([candidate], actor="alice")
    assert len(ws.memories()) == 1


def test_the_hooks_keep_a_discard_a_model_rewords(ws: Workspace) -> None:
    # The review of session 33: the model worker re-reads a resumed session's forerunner turns, words the rule afresh,
    # and the discard (matched on the text) did not recognise it; the person's own quote does (ADR 0159).
    from memory_review.extract.finding import build_finding
    from memory_review.extraction import propose_findings

    transcript = read_transcript(DEMO)
    quote = "Never mock the database in tests, use the test container."

    def finding(body: str) -> Finding:
        return build_finding(
            body,
            memory_type="forbidden",
            scope="project",
            rationale="the model",
            evidence=[(quote, "s1", "t1")],
            signal="model",
            priority="high",
        )

    first = propose_findings(ws, [finding("Never mock the database in tests.")], transcript=transcript)
    ws.discard(first.proposed, actor="alice", reason="not a rule here")
    reworded = [finding("Do not mock the database in tests - use the test container instead.")]
    by_hook = propose_findings(ws, reworded, transcript=transcript, again_if_discarded=False)
    assert by_hook.proposed == [] and by_hook.skipped_duplicates == 1
    by_hand = propose_findings(ws, reworded, transcript=transcript)  # `extract` run by a person still shows it
    assert len(by_hand.proposed) == 1


def test_one_run_proposes_at_most_as_many_as_propose_takes_and_the_next_run_the_rest(
    ws: Workspace, tmp_path: Path
) -> None:
    """Session 37's review: a committed transcript of 20,000 distinct rules filled the queue in one run."""
    from memory_review.limits import MAX_PROPOSALS_PER_CALL

    path = tmp_path / "many.jsonl"
    rules = [f"Always use tool{i} for the build step{i}." for i in range(MAX_PROPOSALS_PER_CALL + 30)]
    path.write_text("".join(json.dumps({"role": "user", "content": rule}) + "\n" for rule in rules))
    first = ws.extract([path])
    assert len(first.proposed) == MAX_PROPOSALS_PER_CALL and first.not_proposed == 30
    second = ws.extract([path])
    assert len(second.proposed) == 30 and second.not_proposed == 0
