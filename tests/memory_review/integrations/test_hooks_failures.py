"""The hook never blocks or breaks the agent: any failure exits 0 quickly, adds nothing, and is logged."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from project_kit import PROPOSAL, Project, make_project

import memory_review
from memory_review.integrations.claude_hooks import hook_errors

DEMO = Path(memory_review.__file__).parent / "data" / "demo_transcript.jsonl"
# No timed assertion (they flip on a loaded machine): the error each run records says it gave up rather
# than waited (a LockTimeoutError, the watchdog's deadline); project.hook's own timeout catches a hang.


def _errors(project: Project) -> list[dict]:
    return project.json("hook", "errors")


def test_a_broken_store_adds_nothing_and_says_why(project: Project, hook_payloads, payload_for) -> None:
    project.approve(PROPOSAL)
    (project.root / ".memory-review" / "manifest.json").write_bytes(b'{"version": 1, "memories": {')
    start = payload_for(hook_payloads["session_start.json"][0])
    done = project.hook(start)
    assert (done.returncode, done.stdout) == (0, b"")
    [error] = _errors(project)
    assert error["error"] == "IntegrityError" and error["event"] == "SessionStart"
    assert error["session"] == start["session_id"] and "manifest.json" in error["message"]
    text = project.run("hook", "errors")
    assert text.returncode == 0 and b"IntegrityError" in text.stdout


def test_a_damaged_log_stops_extraction_cleanly(project: Project, hook_payloads, payload_for, real_transcripts) -> None:
    project.approve(PROPOSAL)
    log = project.root / ".memory-review" / "events.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(lines[0] + b'{"v":1,"seq":99,"flipped":true}\n' + b"".join(lines[1:]))
    before = sorted(p.name for p in (project.root / ".memory-review" / "candidates").iterdir())
    done = project.hook(payload_for(hook_payloads["stop.json"][0], real_transcripts[0]))
    assert (done.returncode, done.stdout) == (0, b"")
    assert sorted(p.name for p in (project.root / ".memory-review" / "candidates").iterdir()) == before
    assert [e["error"] for e in _errors(project)] == ["IntegrityError"]


@pytest.mark.parametrize(
    ("content", "payloads"),
    [
        (None, "stop.json"),  # missing
        (b"", "subagent_stop.json"),  # empty
        (b"\x00\x01\x02binary\xff", "pre_compact.json"),  # not text
        (b'{"just": "a json object"}\n', "stop.json"),  # JSON, not a transcript
        ("directory", "subagent_stop.json"),  # not a file at all
    ],
    ids=["missing", "empty", "binary", "not-a-transcript", "directory"],
)
def test_a_broken_transcript_adds_nothing(
    project: Project, hook_payloads, payload_for, tmp_path: Path, content: bytes | str | None, payloads: str
) -> None:
    path = tmp_path / "transcript.jsonl"
    if content == "directory":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    payload = payload_for(hook_payloads[payloads][0], path)
    done = project.hook(payload)
    assert (done.returncode, done.stdout) == (0, b"")
    ws = project.workspace()
    assert ws.list_candidates() == []
    [error] = hook_errors(ws)
    assert error.event == payload["hook_event_name"] and error.session == payload["session_id"]
    assert error.error == "ValidationError" and str(path) in error.message


def test_a_half_written_last_line_is_read_when_complete(
    project: Project, hook_payloads, payload_for, tmp_path: Path
) -> None:
    demo = DEMO.read_bytes()
    cut = demo.index(b"We use uv") + 4  # Claude Code is mid-way through writing this user turn
    live = tmp_path / "session.jsonl"
    live.write_bytes(demo[:cut])
    stop = payload_for(hook_payloads["stop.json"][0], live)
    done = project.hook(stop)
    assert (done.returncode, done.stdout) == (0, b"")
    ws = project.workspace()
    assert ws.list_candidates() == [] and hook_errors(ws) == []

    live.write_bytes(demo)
    done = project.hook(stop)
    assert done.returncode == 0 and json.loads(done.stdout)["systemMessage"]
    memories = {c.memory for s in ws.list_candidates() for c in s.candidate.changes}
    assert any("uv" in m for m in memories)


def test_a_payload_that_is_not_json_is_logged(project: Project) -> None:
    done = project.run("hook", "claude-code", stdin=b"this is not a hook payload")
    assert (done.returncode, done.stdout) == (0, b"")
    [error] = hook_errors(project.workspace())
    assert error.error == "ValidationError" and error.event is None


def test_a_huge_session_id_cannot_make_the_error_log_unreadable(project: Project) -> None:
    """Session 37's last review: a rejected 1 MB session id was logged whole, past what the log's reader takes."""
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "x" * 1_000_000, "prompt": "hi"}
    for _ in range(2):
        done = project.run("hook", "claude-code", stdin=json.dumps(payload).encode())
        assert done.returncode == 0
    errors = project.run("hook", "errors")
    assert errors.returncode == 0, errors.stderr
    assert all(len(error.session or "") <= 200 for error in hook_errors(project.workspace()))


SECRET_SESSION = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"


@pytest.mark.parametrize("event", ["Stop", "SessionStart", "UserPromptSubmit"])
def test_a_session_id_shaped_like_a_key_is_refused_not_written(
    project: Project, payload_for, hook_payloads, real_transcripts, event: str
) -> None:
    """Session 38's review: it named the hook's state files and went into context.built events."""
    name = {"Stop": "stop.json", "SessionStart": "session_start.json", "UserPromptSubmit": "user_prompt_submit.json"}
    payload = {
        **payload_for(hook_payloads[name[event]][0]),
        "session_id": SECRET_SESSION,
        "transcript_path": str(real_transcripts[0]),
    }
    done = project.hook(payload)
    assert (done.returncode, done.stdout) == (0, b"")
    [error] = hook_errors(project.workspace())
    assert error.error == "ValidationError" and "looks like a secret (github-token)" in error.message
    stores = [project.root / ".memory-review", Path(project.env["MEMORY_REVIEW_HOME"])]
    written = [path for store in stores for path in store.rglob("*")]
    assert [p for p in written if "aB3dE5fG" in p.name or (p.is_file() and b"aB3dE5fG" in p.read_bytes())] == []


def test_a_long_session_id_that_is_no_uuid_is_judged_by_the_full_path(project: Project) -> None:
    from memory_review.lean.hook import plain_session_id

    assert plain_session_id("0f6c2a1e-9b7d-4c3e-8a5f-1d2e3f4a5b6c") and plain_session_id("sess-cli")
    assert not plain_session_id(SECRET_SESSION) and not plain_session_id("a-plain-but-long-session-id")
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "a-plain-but-long-session-id", "prompt": "hi"}
    done = project.hook({**payload, "cwd": str(project.root)})
    assert done.returncode == 0 and hook_errors(project.workspace()) == []


def test_a_held_store_lock_is_not_waited_for(
    project: Project, hook_payloads, payload_for, lock_holder: subprocess.Popen
) -> None:
    prompt = payload_for(hook_payloads["user_prompt_submit.json"][0])
    done = project.hook(prompt)
    assert (done.returncode, done.stdout) == (0, b"")
    [error] = hook_errors(project.workspace())
    assert error.error == "LockTimeoutError" and error.event == "UserPromptSubmit"


def test_the_deadline_ends_the_hook(
    project: Project, hook_payloads, payload_for, lock_holder: subprocess.Popen
) -> None:
    # A deadline shorter than the lock wait: the watchdog, not the lock timeout, ends this run.
    env = {**project.env, "MEMORY_REVIEW_HOOK_DEADLINE": "0.3"}
    done = project.hook(payload_for(hook_payloads["session_start.json"][0]), env=env)
    assert (done.returncode, done.stdout) == (0, b"")
    [error] = hook_errors(project.workspace())
    assert error.error == "TimeoutError" and "deadline" in error.message
    lock_holder.send_signal(signal.SIGKILL)
    lock_holder.wait()
    ws = project.workspace()
    assert ws.log(type="context.built") == []
    assert all(report.ok for report in ws.verify())  # stopped mid-way, the store is whole


def test_a_project_without_a_store_is_left_alone(tmp_path: Path, hook_payloads, real_transcripts) -> None:
    bare = make_project(tmp_path, init=False)
    for name in ("session_start.json", "user_prompt_submit.json", "stop.json"):
        payload = {**hook_payloads[name][0], "cwd": str(bare.root), "transcript_path": str(real_transcripts[0])}
        done = bare.hook(payload)
        assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert not (bare.root / ".memory-review").exists()
    assert not Path(bare.env["MEMORY_REVIEW_HOME"]).exists()


def test_a_missing_cwd_is_an_error_not_a_guess(project: Project, hook_payloads) -> None:
    payload = dict(hook_payloads["session_start.json"][0])  # cwd: the original /Users/... path
    assert not os.path.isdir(payload["cwd"])
    done = project.hook(payload)
    assert (done.returncode, done.stdout) == (0, b"")
    [error] = hook_errors(project.workspace())  # logged in the store of the directory it ran in
    assert error.error == "ValidationError" and "cwd" in error.message
    assert json.loads(project.run("hook", "errors", "--json").stdout)[0]["log"].endswith("errors.jsonl")


def test_inside_our_own_extractor_session_the_hook_does_nothing(project, payload_for, tmp_path) -> None:
    # extract.agent_cli runs `claude -p` with MEMORY_REVIEW_NESTED=1; a user-wide install must not act there.
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        json.dumps(
            {
                "type": "user",
                "uuid": "u1",
                "sessionId": "s-nested",
                "message": {
                    "role": "user",
                    "content": "Never mock the database in tests, always use the test container.",
                },
            }
        )
        + "\n"
    )
    payload = payload_for({"hook_event_name": "Stop", "session_id": "s-nested"}, transcript)
    done = project.hook(payload, env={**project.env, "MEMORY_REVIEW_NESTED": "1"})
    assert done.returncode == 0 and done.stdout == b""
    assert project.workspace().list_candidates() == []
    done = project.hook(payload)
    assert project.workspace().list_candidates() != []  # the same payload outside it proposes


@pytest.mark.parametrize(
    "plan",
    [
        '{"action": "kill"}',  # would die at the first fault point
        '{"action": "raise", "mode": "from"}',  # would fail every write
        '{"action": "partial", "point": "log.append.before_write"}',
        "{not a plan",  # a malformed one used to stop the import
    ],
    ids=["kill", "raise", "partial", "malformed"],
)
def test_a_fault_plan_in_the_environment_is_not_read_by_the_hook(
    project: Project, hook_payloads, payload_for, plan: str
) -> None:
    """Only the test harness arms fault points (ADR 0025): the variable alone changes nothing."""
    project.approve(PROPOSAL)
    env = {**project.env, "MEMORY_REVIEW_FAULT": plan}
    start = payload_for(hook_payloads["session_start.json"][0])
    done = project.hook(start, env=env)
    assert (done.returncode, done.stderr) == (0, b"")
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "forbidden-mock-database" in context or PROPOSAL["memory"]["body"] in context
    assert [e.type for e in project.workspace().log(type="context.built")] == ["context.built"]
    assert _errors(project) == []


def test_the_harness_can_still_arm_a_hook_process(project: Project, hook_payloads, payload_for) -> None:
    """The control for the test above: the same plan, armed by the harness, does kill the process."""
    from tools.reliability.arming import fault_env

    project.approve(PROPOSAL)
    env = {**project.env, **fault_env('{"action": "kill", "point": "log.append.before_write"}')}
    done = project.hook(payload_for(hook_payloads["session_start.json"][0]), env=env)
    assert done.returncode == 137, done.stderr


@pytest.mark.parametrize(
    ("agent", "setting"),
    [
        ("claude-code", "1"),
        ("codex", "1"),
        # Session 37's review: a timer cannot hold these; its thread failed and the deadline was gone. The default
        # (5 s before a prompt) holds instead.
        ("claude-code", "inf"),
        ("codex", "1e308"),
    ],
)
def test_a_payload_whose_pipe_stays_open_does_not_hang_the_hook(project: Project, agent: str, setting: str) -> None:
    # The review of session 32: the Claude Code hook read stdin before its watchdog started, so a writer that left
    # the pipe open held it until the agent's own timeout. An upper bound on a stuck process, not a measured time.
    env = {**project.env, "MEMORY_REVIEW_HOOK_DEADLINE": setting}
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": str(project.root), "prompt": "hi"}
    child = subprocess.Popen(
        [sys.executable, "-m", "memory_review.cli", "hook", agent],
        cwd=project.root,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdin is not None
    child.stdin.write(json.dumps(payload).encode())
    child.stdin.flush()  # and left open
    try:
        child.wait(timeout=60)  # not communicate(): it would close stdin and end the read itself
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        pytest.fail(f"hook {agent} still ran a minute after its deadline ({setting})")
    finally:
        child.stdin.close()
    assert child.stdout is not None and child.stderr is not None
    assert child.returncode == 0 and child.stdout.read() == b""
    assert child.stderr.read() == b""
    [error] = hook_errors(project.workspace())
    assert error.error == "TimeoutError"
    child.stdout.close()
    child.stderr.close()


@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_a_prompt_past_a_megabyte_still_gets_its_context(project: Project, agent: str) -> None:
    """Session 38's review: a payload past 1 MB was refused whole, so a pasted log cost the turn every memory,
    the forbidden ones too."""
    from memory_review.proposal import parse_proposal

    ws = project.workspace()
    rule = {"id": "no-force-push", "type": "forbidden", "description": "Never force-push to main", "body": "Ask."}
    [state] = ws.propose([parse_proposal({"op": "create", "scope": "project", "memory": rule, "rationale": "r"})])
    ws.apply([state.candidate.id], actor="alice")
    prompt = "Why does this build fail? " + "ERROR at line 12: module not found\n" * 60_000  # about 2 MB
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": str(project.root), "prompt": prompt}
    done = project.hook(payload, agent=agent)
    assert done.returncode == 0 and hook_errors(project.workspace()) == []
    assert "Never force-push to main" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    # Its first 64 KB is the query, on either path: sorting megabytes of words held the hook past its deadline.
    [built] = project.workspace().log(type="context.built")
    assert built.context["query_chars"] == 65_536


@pytest.mark.parametrize("agent", ["claude-code", "codex"])
def test_a_prompt_cut_inside_an_emoji_still_gets_its_context(project: Project, agent: str) -> None:
    """ADR 0171: a lone escaped surrogate (a prompt cut between an emoji's two halves) is valid JSON that orjson
    refuses: the payload was "not JSON" and that turn got no memory, the forbidden ones too."""
    project.approve(
        {
            "op": "create",
            "scope": "project",
            "memory": {"id": "no-force-push", "type": "forbidden", "description": "Never force-push", "body": "Ask."},
            "rationale": "r",
        }
    )
    prompt = "push the fix \ud83d and tell me"  # json.dumps writes the lone half as the escape \\ud83d
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": str(project.root), "prompt": prompt}
    done = project.hook(payload, agent=agent)
    assert done.returncode == 0 and hook_errors(project.workspace()) == []
    assert "Never force-push" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert project.workspace().log(type="context.built")


F_SETPIPE_SZ = 1031  # Linux's fcntl command; fcntl.F_SETPIPE_SZ from Python 3.10 on Linux only


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sizes a pipe with F_SETPIPE_SZ (Linux)")
@pytest.mark.parametrize(("agent", "event"), [("claude-code", "SessionStart"), ("codex", "SessionStart")])
@pytest.mark.parametrize("drained", [4096, 12287], ids=["a-page-read", "pages-read-part-way"])
def test_an_answer_nobody_reads_does_not_hold_the_hook_past_its_deadline(
    project: Project, agent: str, event: str, drained: int
) -> None:
    """Session 38's review: the answer was written under the watchdog's lock, so a full pipe its reader never drained
    held the hook as long as the reader waited; its re-review: half an answer left there is taken as plain text."""
    import fcntl

    from memory_review.proposal import parse_proposal

    ws = project.workspace()
    body = "Body text explaining the rule in detail. " * 10
    proposals = [
        {
            "op": "create",
            "scope": "project",
            "memory": {"id": f"rule-{i}", "type": "forbidden", "description": f"Never do thing {i}", "body": body},
            "rationale": "r",
        }
        for i in range(30)
    ]
    ws.apply([state.candidate.id for state in ws.propose([parse_proposal(p) for p in proposals])], actor="alice")
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, F_SETPIPE_SZ, 65536)  # room for the answer, once read: the hook does not grow it
    os.set_blocking(write_end, False)
    filled = 0
    with contextlib.suppress(BlockingIOError):
        while True:  # full before the hook starts: as a reader that stopped reading
            filled += os.write(write_end, b"f" * 4096)
    os.set_blocking(write_end, True)
    while drained:  # room for part of the answer, not all of it (a page read part-way still takes its slot)
        taken = len(os.read(read_end, drained))
        filled, drained = filled - taken, drained - taken
    payload = {"hook_event_name": event, "session_id": "s1", "cwd": str(project.root)}
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "memory_review.cli", "hook", agent],
            cwd=project.root,
            env={**project.env, "MEMORY_REVIEW_HOOK_DEADLINE": "1"},
            stdin=subprocess.PIPE,
            stdout=write_end,
            stderr=subprocess.PIPE,
        )
        os.close(write_end)
        assert child.stdin is not None and child.stderr is not None
        child.stdin.write(json.dumps(payload).encode())
        child.stdin.close()
        try:
            child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            pytest.fail(f"hook {agent} still ran a minute after its 1 s deadline, its answer unread")
        assert child.returncode == 0 and child.stderr.read() == b""
        child.stderr.close()
        os.set_blocking(read_end, False)
        assert os.read(read_end, 1 << 20) == b"f" * filled  # and never half an answer after it
        assert os.read(read_end, 1) == b""  # the hook is gone, and wrote nothing more
    finally:
        os.close(read_end)


@pytest.mark.parametrize("agent", ["claude-code", "codex"])
@pytest.mark.parametrize("closed", ["<&-", ">&-"])
def test_a_closed_stdin_or_stdout_still_exits_0(project: Project, agent: str, closed: str) -> None:
    """Session 37's last review: a closed stream was None, and the hook ended in a traceback with status 1."""
    program = Path(sys.executable).parent / "memory-review"
    payload = json.dumps({"hook_event_name": "SessionStart", "session_id": "s1", "cwd": str(project.root)})
    done = subprocess.run(
        ["bash", "-c", f"printf '%s' \"$0\" | {shlex.quote(str(program))} hook {agent} {closed}", payload],
        cwd=project.root,
        env=project.env,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
