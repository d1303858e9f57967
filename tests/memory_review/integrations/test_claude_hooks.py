"""``memory-review hook claude-code`` fed the real payloads Claude Code sent, as a real subprocess."""

from __future__ import annotations

import hashlib
import itertools
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import orjson
import pytest
from project_kit import PROPOSAL, Project

import memory_review
from memory_review.extract import extract, read_transcript
from memory_review.integrations.claude_hooks import (
    CONTEXT_BUDGET,
    CONTEXT_EVENTS,
    EXTRACT_EVENTS,
    hook_errors,
    new_findings,
    resume_index,
)
from memory_review.integrations.hook_state import HookState, TranscriptOffset

DEMO = Path(memory_review.__file__).parent / "data" / "demo_transcript.jsonl"


def _evidence_turns(state) -> set[str]:
    return {e.turn_id for e in state.candidate.evidence if e.turn_id}


def test_every_real_payload_through_the_hook_command(
    project: Project, hook_payloads, real_transcripts, payload_for
) -> None:
    project.approve(PROPOSAL)
    transcripts = itertools.cycle(real_transcripts)
    # Each distinct payload once (the files repeat some verbatim; repeats are the incremental tests' job).
    distinct = {json.dumps(p, sort_keys=True): p for _name, ps in sorted(hook_payloads.items()) for p in ps}
    jobs = [
        payload_for(p, next(transcripts) if p["hook_event_name"] in EXTRACT_EVENTS else None) for p in distinct.values()
    ]
    assert {j["hook_event_name"] for j in jobs} >= CONTEXT_EVENTS | EXTRACT_EVENTS | {"Notification"}
    # Claude Code runs hooks of several sessions at once; so do we (the store lock sorts them out).
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(project.hook, jobs))

    for payload, done in zip(jobs, results, strict=True):
        assert done.returncode == 0 and done.stderr == b"", (payload["hook_event_name"], done.stderr)
        _check_answer(payload, done.stdout)
    assert project.json("hook", "errors") == []  # the command a person runs to see hook failures
    _check_context_recorded(project, jobs)
    _check_extraction(project, jobs)


def _check_answer(payload: dict, stdout: bytes) -> None:
    event = payload["hook_event_name"]
    if event not in CONTEXT_EVENTS:
        assert stdout == b""  # real transcripts hold no memory signals: nothing proposed, nothing said
        return
    answer = json.loads(stdout)
    assert list(answer) == ["hookSpecificOutput"]
    assert set(answer["hookSpecificOutput"]) == {"hookEventName", "additionalContext"}
    assert answer["hookSpecificOutput"]["hookEventName"] == event
    text = answer["hookSpecificOutput"]["additionalContext"]
    assert text.startswith("<memory-review-context>\n") and text.endswith("</memory-review-context>\n")
    # forbidden memories go in whatever the prompt is about
    assert "[memory:project:forbidden] Never mock the database in tests (id=forbidden-mock-database)\n" in text
    assert len(text) <= CONTEXT_BUDGET


def _check_context_recorded(project: Project, jobs: list[dict]) -> None:
    ws = project.workspace()
    built = ws.log(type="context.built")
    asked = [j for j in jobs if j["hook_event_name"] in CONTEXT_EVENTS]
    assert sorted(e.session for e in built) == sorted(j["session_id"] for j in asked)
    # docs/adr/0018: a prompt is recorded as its sha256, never as text
    queries = {e.context.get("query_sha256") for e in built}
    prompts = [j["prompt"] for j in asked if j["hook_event_name"] == "UserPromptSubmit"]
    assert queries >= {hashlib.sha256(p.encode()).hexdigest() for p in prompts}
    assert not any("query" in e.context for e in built)
    for session in {j["session_id"] for j in asked}:
        assert all(replayed.matches for replayed in ws.replay_session(session))


def _check_extraction(project: Project, jobs: list[dict]) -> None:
    ws = project.workspace()
    state = HookState(ws.project.root, lock_timeout=1)
    expected: set[str] = set()
    for job in (j for j in jobs if j["hook_event_name"] in EXTRACT_EVENTS):
        path = Path(job["transcript_path"])
        transcript = read_transcript(path, session_id=job["session_id"])
        offset = state.offsets(job["session_id"]).of(path)
        assert offset is not None and offset.turns == len(transcript.turns)
        expected |= {f.memory.id for f in extract(transcript)}
    pending = {c.memory for s in ws.list_candidates() for c in s.candidate.changes}
    assert pending == expected


def test_context_answer_is_the_recorded_block(project: Project, hook_payloads, payload_for) -> None:
    project.approve(PROPOSAL)
    start = payload_for(hook_payloads["session_start.json"][0])
    done = project.hook(start)
    text = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    ws = project.workspace()
    [event] = ws.log(type="context.built", session=start["session_id"])
    [replayed] = ws.replay_session(start["session_id"])
    assert replayed.matches and replayed.text == text and event.context["sha256"] == replayed.sha256
    assert "query_sha256" not in event.context and event.actor == f"agent:{start['session_id']}"


def test_nothing_approved_means_nothing_added(project: Project, hook_payloads, payload_for) -> None:
    done = project.hook(payload_for(hook_payloads["user_prompt_submit.json"][1]))
    assert done.returncode == 0 and done.stdout == b"" and done.stderr == b""


def test_stop_reads_only_the_turns_claude_code_appended(
    project: Project, hook_payloads, real_transcripts, payload_for, tmp_path: Path
) -> None:
    real = next(p for p in real_transcripts if p.suffix == ".jsonl")
    live = tmp_path / "session.jsonl"
    live.write_bytes(real.read_bytes())
    stop = payload_for(hook_payloads["stop.json"][0], live)
    first = project.hook(stop)
    assert (first.returncode, first.stdout) == (0, b"")
    before = read_transcript(live, session_id=stop["session_id"])
    ws = project.workspace()
    assert ws.list_candidates() == []

    live.write_bytes(live.read_bytes() + DEMO.read_bytes())  # the session goes on
    second = project.hook(stop)
    notice = json.loads(second.stdout)
    after = read_transcript(live, session_id=stop["session_id"])
    old = {t.turn_id for t in before.turns}
    new = {t.turn_id for t in after.turns} - old
    pending = ws.list_candidates()
    assert pending and notice["systemMessage"].startswith(f"memory-review: {len(pending)} new candidate(s)")
    assert all(_evidence_turns(s) and _evidence_turns(s) <= new for s in pending)
    assert {c.memory for s in pending for c in s.candidate.changes} == {f.memory.id for f in extract(after)}

    for event in ("Stop", "SubagentStop", "PreCompact"):  # nothing new since: nothing proposed, nothing said
        again = project.hook({**stop, "hook_event_name": event})
        assert (again.returncode, again.stdout) == (0, b"")
    assert len(ws.list_candidates()) == len(pending)


def test_turns_already_read_are_not_proposed_again(
    project: Project, hook_payloads, payload_for, tmp_path: Path
) -> None:
    lines = DEMO.read_bytes().splitlines(keepends=True)
    live = tmp_path / "session.jsonl"
    live.write_bytes(b"".join(lines[:24]))
    stop = payload_for(hook_payloads["stop.json"][0], live)
    assert project.hook(stop).returncode == 0
    ws = project.workspace()
    early = ws.list_candidates()
    assert early
    ws.discard([s.candidate.id for s in early], actor="alice", reason="not now")

    live.write_bytes(b"".join(lines))
    assert project.hook(stop).returncode == 0
    later = ws.list_candidates()
    # Re-reading the early turns would re-propose what was discarded (flagged previously-discarded).
    memories = {c.memory for s in early for c in s.candidate.changes}
    assert later and not {c.memory for s in later for c in s.candidate.changes} & memories
    assert all("previously-discarded" not in s.flags for s in later)


def test_a_resumed_session_does_not_bring_back_what_was_discarded(
    project: Project, hook_payloads, payload_for, tmp_path: Path
) -> None:
    """Claude Code resumes a session in a new file that holds its forerunner's records: the hook reads them as new
    turns. What the person discarded from them stays discarded; what the resumed session says is proposed."""
    first = payload_for(hook_payloads["stop.json"][0], DEMO)
    assert project.hook(first).returncode == 0
    ws = project.workspace()
    discarded = ws.list_candidates()
    assert discarded
    ws.discard([s.candidate.id for s in discarded], actor="alice", reason="not for this project")

    said = orjson.loads(DEMO.read_bytes().splitlines()[2])
    said["uuid"] = "00005eed-0000-0000-0000-0000000fffff"
    said["message"]["content"] = "From now on, always run the linter before you commit."
    resumed = tmp_path / "resumed.jsonl"
    resumed.write_bytes(DEMO.read_bytes() + orjson.dumps(said) + b"\n")
    done = project.hook({**payload_for(hook_payloads["stop.json"][0], resumed), "session_id": "resumed-session"})
    assert done.returncode == 0, done.stderr
    [pending] = ws.list_candidates()
    assert [c.after.body for c in pending.candidate.changes if c.after] == [
        "From now on, always run the linter before you commit."
    ]
    assert "previously-discarded" not in pending.flags
    assert project.json("hook", "errors") == []


def test_a_replaced_transcript_is_read_from_the_start(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(DEMO.read_bytes())
    transcript = read_transcript(path)
    seen = TranscriptOffset(turns=5, last_turn=transcript.turns[4].turn_id, size=1, mtime_ns=1)
    assert resume_index(transcript, seen) == 5
    assert resume_index(transcript, seen.model_copy(update={"last_turn": "someone-else"})) == 0
    assert resume_index(transcript, seen.model_copy(update={"turns": len(transcript.turns) + 1})) == 0
    assert resume_index(transcript, None) == 0
    everything = extract(transcript)
    assert new_findings(everything, transcript, 0) == everything
    assert new_findings(everything, transcript, len(transcript.turns)) == []


def test_offsets_survive_a_damaged_state_file(project: Project, hook_payloads, payload_for, tmp_path: Path) -> None:
    live = tmp_path / "session.jsonl"
    live.write_bytes(DEMO.read_bytes())
    stop = payload_for(hook_payloads["stop.json"][0], live)
    assert project.hook(stop).returncode == 0
    ws = project.workspace()
    proposed = len(ws.list_candidates())
    state_file = project.root / ".memory-review" / "hooks" / "sessions" / f"{stop['session_id']}.json"
    assert orjson.loads(state_file.read_bytes())["transcripts"][str(live)]["turns"] > 0
    state_file.write_bytes(b"{not json")
    live.write_bytes(live.read_bytes() + b"\n")  # touched: the hook reads it again
    done = project.hook(stop)
    assert (done.returncode, done.stdout) == (0, b"")  # started over; dedup: nothing new
    assert len(ws.list_candidates()) == proposed
    [error] = hook_errors(ws)
    assert error.error == "IntegrityError" and error.session == stop["session_id"]
    assert orjson.loads(state_file.read_bytes())["session"] == stop["session_id"]


@pytest.mark.parametrize("event", ["Notification", "SessionEnd", "PreToolUse"])
def test_events_it_does_not_act_on_add_nothing(project: Project, hook_payloads, payload_for, event) -> None:
    project.approve(PROPOSAL)
    payload = payload_for({**hook_payloads["notification.json"][0], "hook_event_name": event})
    done = project.hook(payload)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert project.workspace().log(type="context.built") == []
