"""`install gemini`: our hook in Gemini CLI's settings.json (project or $GEMINI_CLI_HOME), byte-identical
uninstall, and Gemini-shaped payloads (BeforeAgent, SessionStart, AfterAgent with its session file) through
`memory-review hook gemini` as a real subprocess."""

from __future__ import annotations

import json
from pathlib import Path

from project_kit import PROPOSAL, Project

EVENTS = ["AfterAgent", "BeforeAgent", "PreCompress", "SessionStart"]
OTHER = (
    '{\n  "tools": {\n    "enableHooks": true\n  },\n  "hooks": {\n    "AfterAgent": [\n      {\n'
    '        "hooks": [\n          {\n            "name": "notify",\n            "type": "command",\n'
    '            "command": "notify-send done",\n            "timeout": 5000\n          }\n        ]\n'
    '      }\n    ]\n  },\n  "theme": "GitHub"\n}\n'
)


def _install(project: Project, *args: str) -> str:
    return project.install("gemini", *args)


def test_project_install_writes_gemini_hooks_only(project: Project) -> None:
    said = _install(project)
    data = json.loads((project.root / ".gemini" / "settings.json").read_text())
    assert list(data) == ["hooks"]  # no permissions, no auto memory switch: Gemini has neither
    assert sorted(data["hooks"]) == EVENTS
    timeouts = {}
    for event in EVENTS:
        [group] = data["hooks"][event]
        [entry] = group["hooks"]
        assert entry["name"] == "memory-review" and entry["type"] == "command"
        assert entry["command"].endswith("hook gemini")
        timeouts[event] = entry["timeout"]
    assert timeouts == {
        "AfterAgent": 30_000,
        "BeforeAgent": 10_000,
        "PreCompress": 30_000,
        "SessionStart": 10_000,
    }  # Gemini counts milliseconds
    assert "Enable Hooks System" in said and not (project.root / ".claude").exists()
    assert "gemini (project)" in project.run("doctor").stdout.decode()


def test_round_trip_is_byte_identical_and_keeps_the_persons_settings(project: Project) -> None:
    path = project.root / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text(OTHER)
    _install(project)
    data = json.loads(path.read_text())
    assert data["theme"] == "GitHub" and data["tools"] == {"enableHooks": True}
    assert len(data["hooks"]["AfterAgent"]) == 2
    _install(project)  # idempotent
    assert len(json.loads(path.read_text())["hooks"]["AfterAgent"]) == 2
    done = project.run("uninstall", "gemini")
    assert done.returncode == 0, done.stderr.decode()
    assert path.read_text() == OTHER


def test_user_install_goes_to_gemini_cli_home(project: Project, tmp_path: Path) -> None:
    home = tmp_path / "home" / "gemini-profile"
    project.env["GEMINI_CLI_HOME"] = str(home)
    _install(project, "--user")
    assert "BeforeAgent" in json.loads((home / ".gemini" / "settings.json").read_text())["hooks"]
    assert project.run("uninstall", "gemini", "--user").returncode == 0
    assert not (home / ".gemini" / "settings.json").exists()


def test_install_says_the_hooks_switch_is_not_set_and_that_the_person_must_turn_it_on(project: Project) -> None:
    said = _install(project)
    assert "hooks system: not set in your settings" in said
    assert "YOU must turn it on" in said and '"hooksConfig": {"enabled": true}' in said
    data = json.loads((project.root / ".gemini" / "settings.json").read_text())
    assert "hooksConfig" not in data and "tools" not in data  # read, never written


def test_install_reports_the_switch_it_finds_and_uninstall_leaves_it_byte_identical(project: Project) -> None:
    path = project.root / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text(OTHER)  # "tools": {"enableHooks": true}, the older name
    said = _install(project)
    assert f"hooks system: on: tools.enableHooks is true in {path}" in said and "YOU must" not in said
    project.run("uninstall", "gemini")
    assert path.read_text() == OTHER


def test_a_switch_turned_off_in_the_users_settings_is_said_loudly(project: Project, tmp_path: Path) -> None:
    home = tmp_path / "gemini-home"
    user = home / ".gemini" / "settings.json"
    user.parent.mkdir(parents=True)
    original = '{"hooksConfig": {"enabled": false}}\n'
    user.write_text(original)
    project.env["GEMINI_CLI_HOME"] = str(home)
    said = _install(project)  # the project's file; the user's switch still decides
    assert f"hooks system: OFF: hooksConfig.enabled is false in {user}" in said and "YOU must turn it on" in said
    assert user.read_text() == original


def test_local_scope_is_refused_for_gemini(project: Project) -> None:
    done = project.run("install", "gemini", "--local")
    assert done.returncode == 1 and b"no local settings file" in done.stderr


def _payload(project: Project, event: str, **fields: object) -> dict[str, object]:
    return {
        "session_id": "f86f5318-gem",
        "transcript_path": "",
        "cwd": str(project.root),
        "hook_event_name": event,
        "timestamp": "2026-01-01T10:00:00.000Z",
        **fields,
    }


def test_before_agent_and_session_start_answer_with_the_context_block(project: Project) -> None:
    project.approve(PROPOSAL)
    for event, extra in (
        ("BeforeAgent", {"prompt": "how do we test the database?"}),
        ("SessionStart", {"source": "startup"}),
    ):
        done = project.hook(_payload(project, event, **extra), agent="gemini")
        assert done.returncode == 0 and done.stderr == b"", done.stderr
        answer = json.loads(done.stdout)["hookSpecificOutput"]
        assert answer["hookEventName"] == event  # Gemini's own event name back
        assert "Never mock the database in tests" in answer["additionalContext"]


def test_gemini_project_dir_names_the_project_when_the_cwd_wanders(project: Project, tmp_path: Path) -> None:
    project.approve(PROPOSAL)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    payload = {**_payload(project, "BeforeAgent", prompt="tests?"), "cwd": str(elsewhere)}
    done = project.hook(payload, agent="gemini", env={**project.env, "GEMINI_PROJECT_DIR": str(project.root)})
    assert "Never mock the database" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_after_agent_with_its_session_file_proposes(project: Project, tmp_path: Path) -> None:
    session = tmp_path / "session-2026-01-01T10-00-f86f5318.json"
    session.write_text(
        json.dumps(
            {
                "sessionId": "f86f5318-gem",
                "projectHash": "79b6fa86",
                "startTime": "2026-01-01T10:00:00.000Z",
                "messages": [
                    {
                        "id": "m1",
                        "timestamp": "2026-01-01T10:00:00.000Z",
                        "type": "user",
                        "content": "Never mock the database in tests, always use the test container.",
                    },
                    {
                        "id": "m2",
                        "timestamp": "2026-01-01T10:00:05.000Z",
                        "type": "gemini",
                        "content": "Always use tabs.",
                        "model": "gemini-2.5-pro",
                    },
                ],
            }
        )
    )
    payload = _payload(
        project, "AfterAgent", transcript_path=str(session), prompt="p", prompt_response="Done.", stop_hook_active=False
    )
    done = project.hook(payload, agent="gemini")
    assert done.returncode == 0 and done.stderr == b""
    [state] = project.workspace().list_candidates()
    quotes = " ".join(e.quote for e in state.candidate.evidence)
    assert "mock the database" in quotes and "tabs" not in quotes  # the model's words are not the user's
    assert json.loads(done.stdout)["systemMessage"].startswith("memory-review: 1 new candidate")


def test_gemini_hook_errors_are_recorded_under_gemini(project: Project, tmp_path: Path) -> None:
    payload = _payload(project, "AfterAgent", transcript_path=str(tmp_path / "gone.json"))
    done = project.hook(payload, agent="gemini")
    assert done.returncode == 0 and done.stdout == b""  # never breaks Gemini
    [entry] = project.json("hook", "errors")
    assert (entry["agent"], entry["event"]) == ("gemini", "AfterAgent")


def test_events_memory_review_does_not_act_on_are_left_alone(project: Project) -> None:
    for event in ("BeforeTool", "AfterModel", "SessionEnd", "Notification"):
        done = project.hook(_payload(project, event), agent="gemini")
        assert done.returncode == 0 and done.stdout == b"" and done.stderr == b""
    assert project.json("hook", "errors") == []
