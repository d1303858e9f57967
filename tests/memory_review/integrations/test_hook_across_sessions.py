"""The Stop hook counts repetition across a project's Claude Code sessions (ADR 0046), in the background.

Real files in a tmp "projects" folder laid out as Claude Code lays it out (``<session-id>.jsonl`` side by
side), the hook run as the process Claude Code starts, and the detached worker it leaves behind.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from project_kit import Project

from memory_review.extract.siblings import MAX_SIBLING_BYTES, codex_sibling_may_exist
from memory_review.integrations.hook_state import HookState

NAMED = "Don't touch `Spotter.Transcripts.Parser` while you fix this."  # a one-off about named code
CHATTER = "Thanks, that looks right."
WAIT = 120.0  # an upper bound for the background worker on a loaded machine, not a measured time


def _session(folder: Path, session: str, *texts: str) -> Path:
    """A Claude Code session file: one user record per text, then an assistant answer."""
    lines = []
    for number, text in enumerate(texts, 1):
        lines.append(
            {
                "type": "user",
                "uuid": f"{session}-u{number}",
                "sessionId": session,
                "timestamp": f"2026-01-0{number}T10:00:00Z",
                "message": {"role": "user", "content": text},
            }
        )
        lines.append(
            {
                "type": "assistant",
                "uuid": f"{session}-a{number}",
                "sessionId": session,
                "message": {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
            }
        )
    path = folder / f"{session}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _state(project: Project) -> HookState:
    return HookState(project.root / ".memory-review", lock_timeout=1)


def _stop(project: Project, transcript: Path, session: str) -> int | None:
    """Run the Stop hook as Claude Code does; the generation of the background job it left (None: none)."""
    payload = {"hook_event_name": "Stop", "session_id": session, "transcript_path": str(transcript)}
    done = project.hook({**payload, "cwd": str(project.root)})
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    job = _state(project).job(session)
    return job.generation if job is not None else None


def _worker_done(project: Project, session: str, generation: int | None) -> None:
    assert generation is not None, "the hook left no background job"
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        done = _state(project).done(session)
        if done is not None and done >= generation:
            return
        time.sleep(0.2)
    pytest.fail("the background worker did not finish its job")


def _candidates(project: Project) -> list:
    return [state.candidate for state in project.workspace().list_candidates()]


@pytest.fixture
def projects(tmp_path: Path) -> Path:
    folder = tmp_path / "claude" / "projects" / "-tmp-repo"
    folder.mkdir(parents=True)
    return folder


def test_a_one_off_said_in_two_sessions_reaches_the_queue_through_the_hooks(project: Project, projects: Path) -> None:
    first = _session(projects, "sess-one", NAMED)
    assert _stop(project, first, "sess-one") is None  # no sibling yet: no background process at all
    assert _candidates(project) == []  # said once, it is a task detail: kept aside
    os.utime(first, (1_700_000_000, 1_700_000_000))
    second = _session(projects, "sess-two", CHATTER, NAMED)
    _worker_done(project, "sess-two", _stop(project, second, "sess-two"))
    [candidate] = _candidates(project)
    assert len(candidate.changes) == 1
    assert candidate.priority == "high" and candidate.scope == "project"
    assert [(e.session_id, e.quote) for e in candidate.evidence] == [("sess-two", NAMED), ("sess-one", NAMED)]
    assert project.json("hook", "errors") == []

    with second.open("a", encoding="utf-8") as stream:  # the session goes on: a new turn, nothing new said
        stream.write(json.dumps({"type": "user", "uuid": "u9", "sessionId": "sess-two", "message": {"content": "ok"}}))
        stream.write("\n")
    _worker_done(project, "sess-two", _stop(project, second, "sess-two"))
    assert [c.id for c in _candidates(project)] == [candidate.id]  # the plan's dedup: proposed once
    project.workspace().discard([candidate.id], actor="alice")
    with second.open("a", encoding="utf-8") as stream:  # and goes on: the discarded one-off stays discarded
        stream.write(json.dumps({"type": "user", "uuid": "u10", "sessionId": "sess-two", "message": {"content": "go"}}))
        stream.write("\n")
    _worker_done(project, "sess-two", _stop(project, second, "sess-two"))
    assert _candidates(project) == []
    unchanged = _state(project).job("sess-two")
    assert unchanged is not None
    assert _stop(project, second, "sess-two") == unchanged.generation  # the file is as it was: no job
    with second.open("a", encoding="utf-8") as stream:  # only the agent spoke: nothing to compare, no job
        answer = {"type": "assistant", "uuid": "a11", "sessionId": "sess-two", "message": {"content": "Fine."}}
        stream.write(json.dumps(answer) + "\n")
    assert _stop(project, second, "sess-two") == unchanged.generation


def test_hostile_siblings_are_skipped_and_recorded(project: Project, projects: Path, tmp_path: Path) -> None:
    elsewhere = _session(tmp_path, "outside", NAMED)  # would make a repetition if the link were followed
    (projects / "link.jsonl").symlink_to(elsewhere)
    os.mkfifo(projects / "fifo.jsonl")  # opening it would block the worker until its watchdog
    with (projects / "huge.jsonl").open("wb") as stream:
        stream.truncate(MAX_SIBLING_BYTES + 1)  # sparse: its size is refused before a byte is read
    (projects / "garbage.jsonl").write_bytes(os.urandom(4096))
    (projects / "prose.jsonl").write_text(NAMED + "\n", encoding="utf-8")  # text, not Claude Code records
    own = _session(projects, "sess-own", NAMED)
    _worker_done(project, "sess-own", _stop(project, own, "sess-own"))
    assert _candidates(project) == []
    errors = project.json("hook", "errors")
    skipped = {Path(e["message"].split(":")[0]).name: e["message"] for e in errors}
    assert set(skipped) == {"link.jsonl", "fifo.jsonl", "huge.jsonl", "garbage.jsonl", "prose.jsonl"}, errors
    assert all("sibling session skipped" in message for message in skipped.values())
    assert "not a regular file" in skipped["link.jsonl"] and "not a regular file" in skipped["fifo.jsonl"]
    assert f"larger than {MAX_SIBLING_BYTES} bytes" in skipped["huge.jsonl"]
    assert {e["event"] for e in errors} == {"Stop"} and {e["session"] for e in errors} == {"sess-own"}

    # The next Stops skip them again and say nothing more: the log is for what changed (the review of session 32: the
    # same lines on every Stop pushed real failures out of the rotated log).
    _session(projects, "sess-own", NAMED, CHATTER)
    _worker_done(project, "sess-own", _stop(project, own, "sess-own"))
    assert len(project.json("hook", "errors")) == len(errors)
    (projects / "prose.jsonl").unlink()  # read again, then skipped again for another reason: said again
    (projects / "prose.jsonl").symlink_to(elsewhere)
    _session(projects, "sess-own", NAMED, CHATTER, "One more thing.")
    _worker_done(project, "sess-own", _stop(project, own, "sess-own"))
    [said] = project.json("hook", "errors")[len(errors) :]
    assert said["message"].startswith(str(projects / "prose.jsonl")) and "not a regular file" in said["message"]


def test_two_open_sessions_do_not_log_each_others_skips_again(project: Project, projects: Path) -> None:
    # The review of session 33: each session's pass replaced the project's record of skipped siblings with its own,
    # and a long session (over the sibling cap) is skipped by the other's pass but skips nothing itself, so every
    # Stop of the short one after one of the long one logged the long one again.
    short = _session(projects, "sess-short", NAMED)
    long = _session(projects, "sess-long", CHATTER)
    answer = {"type": "assistant", "uuid": "pad", "sessionId": "sess-long", "message": {"content": "x" * 1_000_000}}
    with long.open("a", encoding="utf-8") as stream:  # past the sibling cap in lines of 1 MB, each read on its own
        for number in range(MAX_SIBLING_BYTES // 1_000_000 + 1):
            stream.write(json.dumps({**answer, "uuid": f"pad{number}"}) + "\n")
    for round_ in range(3):
        _session(projects, "sess-short", NAMED, *[CHATTER] * (round_ + 1))
        _worker_done(project, "sess-short", _stop(project, short, "sess-short"))
        with long.open("a", encoding="utf-8") as stream:
            said = {"type": "user", "uuid": f"more{round_}", "sessionId": "sess-long", "message": {"content": CHATTER}}
            stream.write(json.dumps(said) + "\n")
        _worker_done(project, "sess-long", _stop(project, long, "sess-long"))
    skipped = [e for e in project.json("hook", "errors") if "sibling session skipped" in e["message"]]
    assert len(skipped) == 1 and "sess-long.jsonl" in skipped[0]["message"], skipped


def _real_session_saying(real: Path, folder: Path, name: str, text: str) -> tuple[Path, str]:
    """A copy of a real session with one more user turn shaped like its first user record; its session id."""
    lines = (real / name).read_text(encoding="utf-8").splitlines()
    first = next(
        r for r in map(json.loads, lines) if r.get("type") == "user" and isinstance(r["message"]["content"], str)
    )
    lines.append(json.dumps({**first, "uuid": f"added-{name}", "message": {"role": "user", "content": text}}))
    path = folder / f"{first['sessionId']}.jsonl"  # named as Claude Code names it
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, first["sessionId"]


def test_two_real_sessions_side_by_side(project: Project, projects: Path, shared_data: Path) -> None:
    real = shared_data / "transcripts" / "claude-code" / "marot-spotter"  # MIT, see the data's README
    first, first_id = _real_session_saying(real, projects, "short.jsonl", NAMED)
    assert _stop(project, first, first_id) is None and _candidates(project) == []
    os.utime(first, (1_700_000_000, 1_700_000_000))
    second, second_id = _real_session_saying(real, projects, "tool_heavy.jsonl", NAMED)
    _worker_done(project, second_id, _stop(project, second, second_id))
    [candidate] = _candidates(project)
    assert candidate.priority == "high" and {e.session_id for e in candidate.evidence} == {first_id, second_id}
    assert all(e.quote == NAMED for e in candidate.evidence) and project.json("hook", "errors") == []


RULE = "From now on, always run `make lint` before you commit in this repo."


def test_a_pending_candidate_said_again_is_raised_by_the_hooks(project: Project, projects: Path) -> None:
    """ADR 0050: the worker raises what this session proposed and an older session said; the next
    session's own Stop raises it again with its quote; a further Stop adds nothing."""
    older = _session(projects, "sess-old", RULE)  # said before the hooks were installed: never proposed
    os.utime(older, (1_700_000_000, 1_700_000_000))
    second = _session(projects, "sess-two", CHATTER, RULE)
    _worker_done(project, "sess-two", _stop(project, second, "sess-two"))
    [candidate] = _candidates(project)
    assert candidate.priority == "high"
    assert [e.session_id for e in candidate.evidence] == ["sess-two", "sess-old"]  # the worker's raise
    workspace = project.workspace()
    assert [(e.type, e.actor) for e in workspace.log(candidate=candidate.id)] == [
        ("candidate.created", "heuristic:memory-review-heuristic"),
        ("candidate.edited", "heuristic:memory-review-heuristic"),
    ]

    third = _session(projects, "sess-three", RULE)
    _worker_done(project, "sess-three", _stop(project, third, "sess-three"))
    [raised] = _candidates(project)
    assert raised.id == candidate.id and raised.priority == "high"
    assert [e.session_id for e in raised.evidence] == ["sess-two", "sess-old", "sess-three"]
    seq = workspace.log()[-1].seq
    with third.open("a", encoding="utf-8") as stream:  # the session goes on, nothing new said: no raise
        stream.write(
            json.dumps({"type": "user", "uuid": "u9", "sessionId": "sess-three", "message": {"content": "ok"}})
        )
        stream.write("\n")
    _worker_done(project, "sess-three", _stop(project, third, "sess-three"))
    assert project.workspace().log()[-1].seq == seq
    assert project.json("hook", "errors") == [] and all(r.problems == [] for r in project.workspace().verify())


# --- Codex and Gemini CLI (ADR 0050) --------------------------------------------------------------------


def _rollout(day: Path, session: str, cwd: Path | str, *texts: str, hour: int = 10) -> Path:
    """A Codex rollout as Codex files it: session_meta first, then the person's and the agent's messages."""
    day.mkdir(parents=True, exist_ok=True)
    stamp = f"{day.parent.parent.name}-{day.parent.name}-{day.name}T{hour:02d}:00:00Z"
    meta = {"id": session, "timestamp": stamp, "cwd": str(cwd), "originator": "codex_cli_rs", "cli_version": "0.50.0"}
    lines: list[dict] = [{"timestamp": stamp, "type": "session_meta", "payload": meta}]
    for text in texts:
        for role, part in (("user", "input_text"), ("assistant", "output_text")):
            said = text if role == "user" else "Done."
            message = {"type": "message", "role": role, "content": [{"type": part, "text": said}]}
            lines.append({"timestamp": stamp, "type": "response_item", "payload": message})
    name = f"rollout-{stamp[:10]}T{hour:02d}-00-00-{session}.jsonl"
    path = day / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _codex_stop(project: Project, transcript: Path, session: str) -> int | None:
    payload = {"hook_event_name": "Stop", "session_id": session, "transcript_path": str(transcript)}
    done = project.hook({**payload, "cwd": str(project.root)}, agent="codex")
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    job = _state(project).job(session)
    return job.generation if job is not None else None


def test_codex_rollouts_of_this_project_are_siblings_and_no_other_projects(project: Project, tmp_path: Path) -> None:
    sessions = tmp_path / "codex" / "sessions"
    first_day, second_day = sessions / "2026" / "12" / "01", sessions / "2026" / "12" / "02"
    _rollout(first_day, "codex-old", project.root, NAMED)
    _rollout(first_day, "codex-elsewhere", tmp_path / "another-repo", NAMED, hour=11)  # another project's
    _rollout(second_day, "codex-sub", project.root / "src", CHATTER, hour=9)  # this project, a subfolder
    outside = _rollout(tmp_path / "loose" / "2026" / "12" / "02", "codex-linked", project.root, NAMED)
    (second_day / "rollout-2026-12-02T08-00-00-link.jsonl").symlink_to(outside)
    os.mkfifo(second_day / "rollout-2026-12-02T07-00-00-fifo.jsonl")
    long_meta = {
        "type": "session_meta",
        "payload": {"id": "x", "cwd": str(project.root), "instructions": "y" * 300_000},
    }
    (second_day / "rollout-2026-12-02T06-00-00-long.jsonl").write_text(json.dumps(long_meta) + "\n", encoding="utf-8")
    hidden = _rollout(tmp_path / "hidden" / "03", "codex-hidden", project.root, NAMED)  # a linked day folder
    (sessions / "2026" / "12" / "03").symlink_to(hidden.parent, target_is_directory=True)

    now = _rollout(second_day, "codex-now", project.root, CHATTER, NAMED, hour=12)
    _worker_done(project, "codex-now", _codex_stop(project, now, "codex-now"))
    [candidate] = _candidates(project)
    assert candidate.priority == "high" and candidate.scope == "project"
    assert [(e.session_id, e.quote) for e in candidate.evidence] == [("codex-now", NAMED), ("codex-old", NAMED)]
    errors = project.json("hook", "errors")
    skipped = {Path(e["message"].split(":")[0]).name: e["message"] for e in errors}
    assert set(skipped) == {
        "rollout-2026-12-02T08-00-00-link.jsonl",
        "rollout-2026-12-02T07-00-00-fifo.jsonl",
        "rollout-2026-12-02T06-00-00-long.jsonl",
    }, errors
    assert all("sibling session skipped" in message for message in skipped.values())
    assert {e["agent"] for e in errors} == {"codex"}


def test_a_lone_codex_rollout_starts_no_worker(project: Project, tmp_path: Path) -> None:
    day = tmp_path / "codex" / "sessions" / "2026" / "12" / "02"
    only = _rollout(day, "codex-only", project.root, NAMED)
    assert _codex_stop(project, only, "codex-only") is None and _candidates(project) == []
    loose = _rollout(tmp_path / "not-dated" / "x", "codex-loose", project.root, NAMED)  # not sessions/YYYY/MM/DD
    _rollout(loose.parent, "codex-beside", project.root, NAMED, hour=9)
    assert _codex_stop(project, loose, "codex-loose") is None


def test_codex_rollouts_of_other_projects_only_start_no_worker(project: Project, tmp_path: Path) -> None:
    """The hook reads the first lines the worker would: none of them this project's, no process is started."""
    day = tmp_path / "codex" / "sessions" / "2026" / "12" / "02"
    for hour in range(1, 6):
        _rollout(day, f"codex-other-{hour}", tmp_path / f"repo-{hour}", NAMED, hour=hour)
    _rollout(day.parent / "01", "codex-sibling-name", Path(f"{project.root}-not-it"), NAMED)  # a prefix, not inside
    now = _rollout(day, "codex-now", project.root, NAMED, hour=12)
    assert _codex_stop(project, now, "codex-now") is None  # the hook read the turn: a one-off, said once
    assert _candidates(project) == [] and project.json("hook", "errors") == []

    _rollout(day.parent / "01", "codex-old", project.root / "src", NAMED, hour=3)  # the oldest: looked at last
    _worker_done(project, "codex-now", _codex_stop(project, _append(now, NAMED), "codex-now"))
    [candidate] = _candidates(project)
    assert candidate.priority == "high" and {e.session_id for e in candidate.evidence} == {"codex-now", "codex-old"}


def test_the_hooks_look_for_a_codex_sibling_is_bounded_in_time(project: Project, tmp_path: Path) -> None:
    day = tmp_path / "codex" / "sessions" / "2026" / "12" / "02"
    others = [_rollout(day, f"codex-other-{hour}", tmp_path / f"repo-{hour}", NAMED, hour=hour) for hour in (1, 2)]
    now = _rollout(day, "codex-now", project.root, NAMED, hour=12)
    assert not codex_sibling_may_exist(now, project.root)
    ticks = iter(range(100))  # a clock that moves a second per look: past the budget, the worker decides
    assert codex_sibling_may_exist(now, project.root, clock=lambda: float(next(ticks)))
    others[0].unlink()
    os.mkfifo(others[0])  # never opened, by the hook or the worker: no sibling it could read
    (day / "rollout-2026-12-02T03-00-00-link.jsonl").symlink_to(now)  # never followed
    assert not codex_sibling_may_exist(now, project.root)
    _rollout(day.parent / "01", "codex-old", project.root, NAMED)
    assert codex_sibling_may_exist(now, project.root)


def _append(rollout: Path, text: str) -> Path:
    """The person says one more thing in the rollout (a new turn: the hook reads again)."""
    message = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}
    with rollout.open("a", encoding="utf-8") as stream:
        stream.write(json.dumps({"timestamp": "2026-12-02T12:30:00Z", "type": "response_item", "payload": message}))
        stream.write("\n")
    return rollout


def _gemini_document(chats: Path, session: str, *texts: str) -> Path:
    """A Gemini CLI chat as one JSON document (``session-*.json``)."""
    messages = []
    for number, text in enumerate(texts, 1):
        messages.append(
            {"id": f"{session}-u{number}", "timestamp": "2026-12-01T10:00:00Z", "type": "user", "content": text}
        )
        messages.append(
            {"id": f"{session}-g{number}", "timestamp": "2026-12-01T10:00:01Z", "type": "gemini", "content": "Done."}
        )
    document = {
        "sessionId": session,
        "projectHash": "h" * 64,
        "startTime": "2026-12-01T10:00:00Z",
        "messages": messages,
    }
    path = chats / f"session-2026-12-01T10-00-{session[:8]}.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def _gemini_lines(chats: Path, session: str, *texts: str) -> Path:
    """A Gemini CLI chat as newer versions write it (``session-*.jsonl``): metadata, messages, updates."""
    lines: list[dict] = [{"sessionId": session, "projectHash": "h" * 64, "startTime": "2026-12-02T10:00:00Z"}]
    for number, text in enumerate(texts, 1):
        lines.append(
            {
                "id": f"{session}-u{number}",
                "timestamp": "2026-12-02T10:00:00Z",
                "type": "user",
                "content": [{"text": text}],
            }
        )
        lines.append(
            {"id": f"{session}-g{number}", "timestamp": "2026-12-02T10:00:01Z", "type": "gemini", "content": ""}
        )
        lines.append({"$set": {"lastUpdated": "2026-12-02T10:00:02Z"}})
    path = chats / f"session-2026-12-02T10-00-{session[:8]}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_gemini_chats_of_the_project_folder_are_siblings(project: Project, tmp_path: Path) -> None:
    chats = tmp_path / "gemini" / "tmp" / ("h" * 64) / "chats"
    chats.mkdir(parents=True)
    old = _gemini_document(chats, "gem-old1", NAMED)
    os.utime(old, (1_700_000_000, 1_700_000_000))
    (chats / "notes.jsonl").write_text(json.dumps({"role": "user", "content": NAMED}) + "\n", encoding="utf-8")
    (chats / "gem-now1").mkdir()  # a subagent's chats live in a subfolder: not a sibling session
    _gemini_lines(chats / "gem-now1", "gem-subagent", NAMED)
    os.mkfifo(chats / "session-2026-12-02T09-00-fifofifo.jsonl")

    now = _gemini_lines(chats, "gem-now1", CHATTER, NAMED)
    copied_from = _gemini_document(chats, "gem-now1-before-resume", NAMED)  # what a resume copied into `now`
    copied_from.rename(now.with_suffix(".json"))
    payload = {"hook_event_name": "AfterAgent", "session_id": "gem-now1", "transcript_path": str(now)}
    done = project.hook({**payload, "cwd": str(project.root)}, agent="gemini")
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    job = _state(project).job("gem-now1")
    _worker_done(project, "gem-now1", job.generation if job else None)
    [candidate] = _candidates(project)
    assert candidate.priority == "high"
    assert [(e.session_id, e.quote) for e in candidate.evidence] == [("gem-now1", NAMED), ("gem-old1", NAMED)]
    errors = project.json("hook", "errors")
    assert [Path(e["message"].split(":")[0]).name for e in errors] == ["session-2026-12-02T09-00-fifofifo.jsonl"]
    assert {e["agent"] for e in errors} == {"gemini"}


def _plant_repository_code(project: Project, marker: Path) -> None:
    """What a cloned repository can hold at its root: modules named as the standard library's and ours."""
    code = f"open({str(marker)!r}, 'a').write(__name__ + '\\n')\n"
    (project.root / "secrets.py").write_text(code)
    (project.root / "platform.py").write_text(code)
    (project.root / "memory_review").mkdir()
    (project.root / "memory_review" / "__init__.py").write_text(code)


def _stop_as_installed(project: Project, transcript: Path, session: str) -> int | None:
    """The Stop hook as ``install`` writes it (the console script; the kit's ``python -m`` would itself import the
    planted modules, as the fallback command did before ``-P``)."""
    payload = {"hook_event_name": "Stop", "session_id": session, "transcript_path": str(transcript)}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "memory-review"), "hook", "claude-code"],
        input=json.dumps({**payload, "cwd": str(project.root)}).encode(),
        cwd=project.root,
        env=project.env,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    job = _state(project).job(session)
    return job.generation if job is not None else None


def test_the_worker_never_imports_the_repositorys_own_modules(project: Project, projects: Path, tmp_path: Path) -> None:
    """Review of session 37: the worker ran ``python -m`` in the project, so a repository's ``secrets.py`` ran."""
    marker = tmp_path / "repository-code-ran"
    _plant_repository_code(project, marker)
    first = _session(projects, "sess-one", NAMED)
    assert _stop_as_installed(project, first, "sess-one") is None
    os.utime(first, (1_700_000_000, 1_700_000_000))
    second = _session(projects, "sess-two", CHATTER, NAMED)
    _worker_done(project, "sess-two", _stop_as_installed(project, second, "sess-two"))
    assert not marker.exists(), marker.read_text()
    shutil.rmtree(project.root / "memory_review")  # the kit's own `python -m` (a fresh one under FULL) would run it
    assert project.json("hook", "errors") == []
    assert len(_candidates(project)) == 1


def test_the_python_m_hook_command_install_writes_never_imports_the_repositorys_modules(
    project: Project, tmp_path: Path
) -> None:
    from memory_review.integrations import install

    marker = tmp_path / "repository-code-ran"
    _plant_repository_code(project, marker)
    with pytest.MonkeyPatch.context() as patch:  # no memory-review on PATH and none beside this interpreter
        patch.setattr(install, "_this_executable", lambda: None)
        patch.setattr(install.shutil, "which", lambda name: None)
        command = install.hook_command("claude-code")
    payload = {"hook_event_name": "SessionStart", "session_id": "s1", "cwd": str(project.root), "source": "startup"}
    done = subprocess.run(
        shlex.split(command),
        input=json.dumps(payload).encode(),
        cwd=project.root,  # as the agent runs its hooks
        env=project.env,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert not marker.exists(), marker.read_text()
