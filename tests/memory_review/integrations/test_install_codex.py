"""`install codex`: our hook in Codex's hooks.json (project or $CODEX_HOME), byte-identical uninstall, and a
Codex-shaped hook payload with a rollout transcript through the same hook command."""

from __future__ import annotations

import json
from pathlib import Path

from project_kit import Project

OTHER = '{\n    "hooks": {\n        "Stop": [\n            {"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]}\n        ]\n    },\n    "note": "mine"\n}\n'  # noqa: E501 - the file's bytes


def _install(project: Project, *args: str) -> str:
    return project.install("codex", *args)


def test_project_install_writes_codex_hooks_and_nothing_of_claude_codes(project: Project) -> None:
    said = _install(project)
    data = json.loads((project.root / ".codex" / "hooks.json").read_text())
    assert list(data) == ["hooks"]  # no permissions, no autoMemoryEnabled: Codex has neither
    assert sorted(data["hooks"]) == ["SessionStart", "Stop", "UserPromptSubmit"]
    [group] = data["hooks"]["Stop"]
    [entry] = group["hooks"]
    assert entry["type"] == "command" and entry["command"].endswith("hook codex") and entry["timeout"] == 30
    assert "trust" in said and not (project.root / ".claude").exists()


def test_round_trip_is_byte_identical_and_keeps_other_hooks(project: Project) -> None:
    path = project.root / ".codex" / "hooks.json"
    path.parent.mkdir()
    path.write_text(OTHER)
    _install(project)
    data = json.loads(path.read_text())
    assert data["note"] == "mine" and len(data["hooks"]["Stop"]) == 2
    _install(project)  # idempotent
    assert len(json.loads(path.read_text())["hooks"]["Stop"]) == 2
    done = project.run("uninstall", "codex")
    assert done.returncode == 0, done.stderr.decode()
    assert path.read_text() == OTHER


def test_a_file_install_created_is_removed_again(project: Project) -> None:
    _install(project)
    assert project.run("uninstall", "codex").returncode == 0
    assert not (project.root / ".codex" / "hooks.json").exists()


def test_user_install_goes_to_codex_home(project: Project, tmp_path: Path) -> None:
    home = tmp_path / "home" / "codex-home"
    project.env["CODEX_HOME"] = str(home)
    _install(project, "--user")
    assert "Stop" in json.loads((home / "hooks.json").read_text())["hooks"]
    assert project.run("uninstall", "codex", "--user").returncode == 0
    assert not (home / "hooks.json").exists()


def test_local_scope_is_refused_for_codex(project: Project) -> None:
    done = project.run("install", "codex", "--local")
    assert done.returncode == 1 and b"no local hooks file" in done.stderr


def test_a_codex_stop_payload_with_its_rollout_proposes_through_the_same_hook(project: Project, tmp_path: Path) -> None:
    rollout = tmp_path / "rollout-2026-01-01T10-00-00-abc.jsonl"
    records = [
        {
            "timestamp": "2026-01-01T10:00:00Z",
            "type": "session_meta",
            "payload": {"id": "0199-abc", "cwd": str(project.root)},
        },
        {
            "timestamp": "2026-01-01T10:00:01Z",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "# AGENTS.md instructions for /repo\n\nAlways use tabs."}],
            },
        },
        {
            "timestamp": "2026-01-01T10:00:02Z",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Never mock the database in tests, always use the test container."}
                ],
            },
        },
    ]
    rollout.write_text("".join(json.dumps(r) + "\n" for r in records))
    payload = {
        "session_id": "0199-abc",
        "transcript_path": str(rollout),
        "cwd": str(project.root),
        "hook_event_name": "Stop",
        "model": "gpt-5-codex",
        "permission_mode": "default",
        "turn_id": "t1",
        "stop_hook_active": False,
        "last_assistant_message": "Done.",
    }
    done = project.hook(payload, agent="codex")
    assert done.returncode == 0 and done.stderr == b""
    [state] = project.workspace().list_candidates()
    quotes = " ".join(e.quote for e in state.candidate.evidence)
    assert "mock the database" in quotes and "tabs" not in quotes


def test_an_install_from_before_codex_had_its_own_hook_command_is_updated_in_place(project: Project) -> None:
    path = project.root / ".codex" / "hooks.json"
    path.parent.mkdir()
    old = {"type": "command", "command": "memory-review hook claude-code", "timeout": 30}
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [old]}]}}))
    _install(project)
    [group] = json.loads(path.read_text())["hooks"]["Stop"]
    [entry] = group["hooks"]  # ours, updated: not a second hook beside the old one
    assert entry["command"].endswith("hook codex")


def test_codex_hook_errors_are_recorded_under_codex(project: Project, tmp_path: Path) -> None:
    payload = {
        "session_id": "0199-err",
        "transcript_path": str(tmp_path / "gone.jsonl"),
        "cwd": str(project.root),
        "hook_event_name": "Stop",
    }
    done = project.hook(payload, agent="codex")
    assert done.returncode == 0 and done.stdout == b""  # never breaks Codex
    [entry] = project.json("hook", "errors")
    assert (entry["agent"], entry["event"], entry["session"]) == ("codex", "Stop", "0199-err")
    assert "codex" in project.run("hook", "errors").stdout.decode()
