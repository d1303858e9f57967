"""The Stop hook with a model extractor: it returns at once, a detached worker asks a stand-in CLI, one per session."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from project_kit import Project

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "extract"))
from agent_cli_kit import StandIn, make_stand_in  # noqa: E402

from memory_review.integrations.hook_state import HookState  # noqa: E402

SESSION = "sess-model-1"
FIRST = "Never mock the database in tests, use the test container."
SECOND = "Always use pnpm, not npm."
ITEMS = [
    {
        "name": "forbidden-mock-database",
        "type": "forbidden",
        "scope": "project",
        "description": "Never mock the database in tests",
        "body": "Never mock the database in tests; use the test container.",
    },
    {
        "name": "pref-pnpm",
        "type": "preference",
        "scope": "user",
        "description": "Use pnpm rather than npm",
        "body": "Always use pnpm, not npm.",
    },
]
WAIT = 120.0  # an upper bound for the background worker on a loaded machine, not a measured time


def _record(number: int, text: str) -> str:
    return json.dumps(
        {
            "type": "user",
            "uuid": f"u{number}",
            "sessionId": SESSION,
            "timestamp": f"2026-01-01T10:00:0{number}Z",
            "message": {"role": "user", "content": text},
        }
    )


def _until(condition, what: str):
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"the background worker did not get there: {what}")


@pytest.fixture
def setup(project: Project, tmp_path: Path) -> tuple[Project, StandIn, Path]:
    stand_in = make_stand_in(tmp_path / "bin", "claude")
    project.env["MEMORY_REVIEW_CLAUDE_CLI"] = str(stand_in.program)
    done = project.run("install", "claude-code", "--extractor", "claude")  # the one command in the README
    assert done.returncode == 0, done.stderr.decode()
    assert "in the background" in done.stdout.decode()
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(_record(1, FIRST) + "\n", encoding="utf-8")
    return project, stand_in, transcript


def _stop(project: Project, transcript: Path) -> bytes:
    payload = {
        "hook_event_name": "Stop",
        "session_id": SESSION,
        "transcript_path": str(transcript),
        "cwd": str(project.root),
    }
    done = project.hook(payload)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    return done.stdout


def test_stop_hands_the_turns_to_the_model_in_the_background(setup) -> None:
    project, stand_in, transcript = setup
    stand_in.act(answer=json.dumps(ITEMS), model="claude-sonnet-test")
    assert _stop(project, transcript) == b""  # nothing to say yet: the model answers later
    [state] = _until(lambda: project.workspace().list_candidates(), "a candidate")
    assert state.candidate.proposer.kind == "llm" and state.candidate.proposer.model == "claude-sonnet-test"
    assert [c.after.id for c in state.candidate.changes] == ["forbidden-mock-database"]  # pnpm: nobody said it
    [call] = stand_in.calls()
    assert FIRST in call["stdin"] and call["nested"] == "1"
    assert project.json("hook", "errors") == []


def test_one_worker_per_session_and_a_request_made_meanwhile_is_not_lost(setup) -> None:
    project, stand_in, transcript = setup
    stand_in.act(answer=json.dumps(ITEMS), delay=3)
    _stop(project, transcript)
    _until(lambda: stand_in.calls(), "the first call")  # the first worker is now inside the model call
    with transcript.open("a", encoding="utf-8") as stream:
        stream.write(_record(2, SECOND) + "\n")
    _stop(project, transcript)
    _stop(project, transcript)  # a third Stop while one works: still one worker at a time

    def both():
        states = project.workspace().list_candidates()
        return states if len(states) == 2 else None

    states = _until(both, "two candidates")
    assert {s.candidate.changes[0].after.id for s in states} == {"forbidden-mock-database", "pref-pnpm"}
    calls = stand_in.calls()
    assert not any(call["overlap"] for call in calls)
    assert FIRST in calls[0]["stdin"] and SECOND not in calls[0]["stdin"]
    assert SECOND in calls[1]["stdin"] and FIRST not in calls[1]["stdin"]  # only the turns not read before
    state = HookState(project.root / ".memory-review", lock_timeout=1)
    # The offsets are saved just after the proposals (same lock): wait for that step too.
    _until(
        lambda: (
            (state.offsets(SESSION).of(transcript.absolute()) or None)
            and state.offsets(SESSION).of(transcript.absolute()).turns == 2
        ),
        "the offsets past both turns",
    )


def test_a_cli_that_hangs_never_delays_the_hook_and_its_failure_is_recorded(setup) -> None:
    project, stand_in, transcript = setup
    project.env["MEMORY_REVIEW_AGENT_CLI_TIMEOUT"] = "2"
    stand_in.act(sleep=600)
    _stop(project, transcript)  # returns while the CLI sleeps (project.hook's own timeout would fail otherwise)
    [entry] = _until(lambda: project.json("hook", "errors"), "the failure in hook errors")
    assert entry["event"] == "model-extractor" and "timeout" in entry["message"]
    assert entry["agent"] == "claude-code"
    offsets = HookState(project.root / ".memory-review", lock_timeout=1).offsets(SESSION)
    assert offsets.of(transcript.absolute()) is None  # not read: the next Stop asks again
    assert project.workspace().list_candidates() == []


def test_without_the_choice_the_hook_stays_offline(project: Project, tmp_path: Path) -> None:
    stand_in = make_stand_in(tmp_path / "bin", "claude")
    project.env["MEMORY_REVIEW_CLAUDE_CLI"] = str(stand_in.program)
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(_record(1, FIRST) + "\n", encoding="utf-8")
    assert b"1 new candidate" in _stop(project, transcript)
    [state] = project.workspace().list_candidates()  # proposed before the hook returned, by the heuristic
    assert state.candidate.proposer.kind == "heuristic" and stand_in.calls() == []


def test_gemini_hooks_extract_with_the_model_chosen_for_gemini(project: Project, tmp_path: Path) -> None:
    stand_in = make_stand_in(tmp_path / "bin", "gemini")
    project.env["MEMORY_REVIEW_GEMINI_CLI"] = str(stand_in.program)
    done = project.run("install", "gemini", "--extractor", "gemini")
    assert done.returncode == 0, done.stderr.decode()
    config = json.loads((Path(project.env["MEMORY_REVIEW_HOME"]) / "config.json").read_text())
    assert config["hooks"] == {"gemini": {"extractor": "gemini"}}  # Claude Code's hooks keep their own choice
    session = tmp_path / "session-2026-01-01T10-00-gem.json"
    session.write_text(
        json.dumps(
            {
                "sessionId": "gem-1",
                "projectHash": "h",
                "messages": [{"id": "m1", "timestamp": "2026-01-01T10:00:00.000Z", "type": "user", "content": FIRST}],
            },
            indent=2,
        )
    )
    stand_in.act(answer=json.dumps(ITEMS), model="gemini-2.5-pro")
    payload = {
        "hook_event_name": "AfterAgent",
        "session_id": "gem-1",
        "transcript_path": str(session),
        "cwd": str(project.root),
        "prompt": FIRST,
        "prompt_response": "ok",
        "stop_hook_active": False,
    }
    done = project.hook(payload, agent="gemini")
    assert done.returncode == 0 and done.stdout == b"" and done.stderr == b""  # the model answers later
    [state] = _until(lambda: project.workspace().list_candidates(), "a candidate")
    proposer = state.candidate.proposer
    assert (proposer.kind, proposer.name, proposer.model) == ("llm", "memory-review-gemini-cli", "gemini-2.5-pro")
    project.env["MEMORY_REVIEW_AGENT_CLI_TIMEOUT"] = "2"
    stand_in.act(sleep=600)
    with session.open("w", encoding="utf-8") as stream:  # a new turn, so the worker asks again
        json.dump(
            {
                "sessionId": "gem-1",
                "projectHash": "h",
                "messages": [
                    {"id": "m1", "timestamp": "2026-01-01T10:00:00.000Z", "type": "user", "content": FIRST},
                    {"id": "m2", "timestamp": "2026-01-01T10:00:09.000Z", "type": "user", "content": SECOND},
                ],
            },
            stream,
        )
    project.hook(payload, agent="gemini")
    [entry] = _until(lambda: project.json("hook", "errors"), "the failure in hook errors")
    assert (entry["agent"], entry["event"]) == ("gemini", "model-extractor")


def test_a_worker_round_that_fails_is_logged_under_its_jobs_agent_and_event(project: Project, tmp_path: Path) -> None:
    """Session 38's review: a round that raised was logged as claude-code's ``worker`` whatever agent had asked."""
    stand_in = make_stand_in(tmp_path / "bin", "gemini")
    project.env["MEMORY_REVIEW_GEMINI_CLI"] = str(stand_in.program)
    assert project.run("install", "gemini", "--extractor", "gemini").returncode == 0
    payload = {
        "hook_event_name": "AfterAgent",
        "session_id": "gem-gone",
        "transcript_path": str(tmp_path / "gone" / "session-2026-01-01T10-00-gem.json"),
        "cwd": str(project.root),
    }
    done = project.hook(payload, agent="gemini")
    assert done.returncode == 0 and done.stderr == b""
    [entry] = _until(lambda: project.json("hook", "errors"), "the failure in hook errors")
    assert (entry["agent"], entry["event"]) == ("gemini", "AfterAgent"), entry


def test_a_long_stretch_takes_several_calls_and_a_failed_one_is_asked_again_alone(setup) -> None:
    """ADR 0155: before, statements past the prompt budget were left out and the offsets moved past them."""
    project, stand_in, transcript = setup
    tasks = [
        f"Look at module m{n} and tell me what it does. " + " ".join(f"w{n}k{k}" for k in range(200)) for n in range(60)
    ]
    with transcript.open("a", encoding="utf-8") as stream:  # turn 1 (FIRST) is there; 60 long ones, then SECOND
        stream.writelines(_record(2 + n, text) + "\n" for n, text in enumerate([*tasks, SECOND]))
    stand_in.act(per_call=[{"answer": json.dumps(ITEMS[:1])}, {"error": True}])
    _stop(project, transcript)
    [entry] = _until(lambda: project.json("hook", "errors"), "the second call's failure in hook errors")
    assert "batch 2 of 2" in entry["message"] and "what batch 1 found is kept" in entry["message"]
    [state] = _until(lambda: project.workspace().list_candidates(), "batch 1's candidate")
    assert state.candidate.changes[0].after.id == "forbidden-mock-database"
    first, second = stand_in.calls()
    assert FIRST in first["stdin"] and SECOND in second["stdin"]

    hook_state = HookState(project.root / ".memory-review", lock_timeout=1)
    read = _until(lambda: hook_state.offsets(SESSION).of(transcript.absolute()), "the offset where batch 1 ended")
    assert 1 < read.turns < 62 and read.size == 0  # past batch 1 only; size 0: the next Stop reads the file again

    stand_in.act(answer=json.dumps(ITEMS[1:]))
    (stand_in.folder / "calls.jsonl").unlink()
    _stop(project, transcript)  # the file is unchanged: only the statements not answered are asked about
    _until(lambda: len(project.workspace().list_candidates()) == 2, "the second batch's candidate")
    [again] = stand_in.calls()
    assert SECOND in again["stdin"] and FIRST not in again["stdin"]
    assert again["stdin"].count("[turn ") == 62 - read.turns


def test_a_statement_the_model_always_answers_off_schema_does_not_stall_the_session(setup) -> None:
    """The review of session 32: the batch was rejected on every Stop, the offset never moved, and nothing the session
    said after it was proposed. Now it is asked about alone, passed over, named in hook errors (ADR 0159)."""
    project, stand_in, transcript = setup
    poison = "Write the whole deploy runbook down as one rule."
    with transcript.open("a", encoding="utf-8") as stream:
        stream.writelines(_record(n, text) + "\n" for n, text in ((2, poison), (3, SECOND)))
    too_long = {**ITEMS[0], "name": "deploy-runbook", "body": "step " * 300}
    stand_in.act(
        when=[[poison, {"answer": json.dumps([too_long])}], [SECOND, {"answer": json.dumps(ITEMS[1:])}]],
        otherwise={"answer": json.dumps(ITEMS[:1])},
    )
    _stop(project, transcript)
    _until(lambda: len(project.workspace().list_candidates()) == 2, "both rules, around the statement passed over")
    [entry] = _until(lambda: project.json("hook", "errors"), "the statement passed over in hook errors")
    assert "passed over 1 statement" in entry["message"] and "turn u2 (schema)" in entry["message"]
    hook_state = HookState(project.root / ".memory-review", lock_timeout=1)
    read = _until(lambda: hook_state.offsets(SESSION).of(transcript.absolute()), "the offset")
    assert read.turns == 3 and read.size == transcript.stat().st_size  # read to the end: the next Stop asks nothing

    calls = len(stand_in.calls())
    _stop(project, transcript)
    job = hook_state.job(SESSION)
    assert job is not None
    _until(lambda: (hook_state.done(SESSION) or 0) >= job.generation, "the next Stop's worker")
    assert len(stand_in.calls()) == calls  # nothing left to ask about
