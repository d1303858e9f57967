"""install/uninstall claude-code: merged into settings.json idempotently; a round trip is byte-identical."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import PROPOSAL, Project

from memory_review.errors import ValidationError
from memory_review.integrations.claude_hooks import HOOK_EVENTS
from memory_review.integrations.install import (
    BACKUP_SUFFIX,
    install_claude_code,
    is_ours,
    settings_path,
    uninstall_claude_code,
)

# A settings file as Claude Code writes it (2-space JSON), with hooks of other tools on our events too.
THEIRS = {
    "permissions": {"allow": ["Bash(npm run test:*)", "WebFetch(domain:docs.anthropic.com)"], "deny": []},
    "env": {"DISABLE_TELEMETRY": "1"},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/.claude/guard.sh"}]}],
        "Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "afplay /System/Sounds/Glass.aiff"}]}],
        "SessionStart": [{"matcher": "startup", "hooks": [
            {"type": "command", "command": "cat .claude/today.md", "timeout": 5}]}],
        "PreCompact": [],
    },
    "model": "opus",
}
COMMAND = "memory-review hook claude-code"


def _their_entries(data: dict) -> list:
    return [(event, group) for event, groups in data.get("hooks", {}).items() for group in groups
            if not any(is_ours(h) for h in group.get("hooks", []))]


def test_cli_round_trip_is_byte_identical(project: Project) -> None:
    settings = project.root / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = (json.dumps(THEIRS, indent=2) + "\n").encode()
    settings.write_bytes(original)

    first = project.json("install", "claude-code", "--project")
    assert first["action"] == "installed" and first["settings"] == str(settings)
    installed = json.loads(settings.read_bytes())
    assert _their_entries(installed) == _their_entries(THEIRS)  # every existing hook kept, in place
    for event in HOOK_EVENTS:
        ours = [h for g in installed["hooks"][event] for h in g["hooks"] if is_ours(h)]
        assert len(ours) == 1 and ours[0]["type"] == "command" and ours[0]["timeout"] > 0
    assert {k: v for k, v in installed.items() if k != "hooks"} == {k: v for k, v in THEIRS.items() if k != "hooks"}
    assert Path(first["backup"]).read_bytes() == original

    again = project.json("install", "claude-code", "--project")
    assert again["action"] == "unchanged" and json.loads(settings.read_bytes()) == installed

    removed = project.json("uninstall", "claude-code", "--project")
    assert removed["action"] == "restored" and sorted(removed["events"]) == sorted(HOOK_EVENTS)
    assert settings.read_bytes() == original
    assert not settings.with_name(settings.name + BACKUP_SUFFIX).exists()
    assert project.json("uninstall", "claude-code", "--project")["action"] == "not-installed"


@pytest.mark.parametrize("style", ["indent4", "tabs", "one-line", "crlf", "no-final-newline", "unicode"])
def test_round_trip_keeps_any_formatting(tmp_path: Path, style: str) -> None:
    text = {
        "indent4": json.dumps(THEIRS, indent=4) + "\n",
        "tabs": json.dumps(THEIRS, indent="\t") + "\n",
        "one-line": json.dumps(THEIRS),
        "crlf": json.dumps(THEIRS, indent=2).replace("\n", "\r\n") + "\r\n",
        "no-final-newline": json.dumps(THEIRS, indent=2),
        "unicode": json.dumps({**THEIRS, "statusLine": {"text": "記憶 ✓"}}, indent=2, ensure_ascii=False) + "\n",
    }[style]
    path = tmp_path / "settings.json"
    path.write_bytes(text.encode())
    assert install_claude_code(path, command=COMMAND).action == "installed"
    assert install_claude_code(path, command=COMMAND).action == "unchanged"
    assert uninstall_claude_code(path).action == "restored"
    assert path.read_bytes() == text.encode()


def test_their_later_edits_survive_uninstall(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(THEIRS, indent=2) + "\n")
    install_claude_code(path, command=COMMAND)
    edited = json.loads(path.read_text())
    edited["permissions"]["allow"].append("Bash(make:*)")
    edited["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": "notify-send done"}]})
    path.write_text(json.dumps(edited, indent=2) + "\n")

    result = uninstall_claude_code(path)
    assert result.action == "removed" and result.backup  # the pre-install copy is kept for the person
    left = json.loads(path.read_text())
    assert "Bash(make:*)" in left["permissions"]["allow"]
    assert not any(is_ours(h) for groups in left["hooks"].values() for g in groups for h in g["hooks"])
    assert left["hooks"]["Stop"][-1]["hooks"][0]["command"] == "notify-send done"
    assert left["hooks"]["PreCompact"] == []  # theirs, empty before we came: still there
    assert set(left["hooks"]) == set(THEIRS["hooks"])


def test_a_moved_install_updates_in_place(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    original = json.dumps(THEIRS, indent=2) + "\n"
    path.write_text(original)
    install_claude_code(path, command=COMMAND)
    moved = install_claude_code(path, command="/opt/venv/bin/memory-review hook claude-code")
    assert moved.action == "updated"
    data = json.loads(path.read_text())
    commands = [h["command"] for groups in data["hooks"].values() for g in groups for h in g["hooks"] if is_ours(h)]
    assert commands == ["/opt/venv/bin/memory-review hook claude-code"] * len(HOOK_EVENTS)
    assert uninstall_claude_code(path).action == "restored" and path.read_text() == original


def test_a_file_install_created_is_removed_again(project: Project) -> None:
    home = Path(project.env["HOME"])
    assert project.json("install", "claude-code", "--user")["action"] == "installed"
    settings = home / ".claude" / "settings.json"
    assert set(json.loads(settings.read_text())["hooks"]) == set(HOOK_EVENTS)
    assert not settings.with_name(settings.name + BACKUP_SUFFIX).exists()  # nothing to back up
    assert project.json("uninstall", "claude-code", "--user")["action"] == "deleted"
    assert not settings.exists()


def test_claude_config_dir_moves_the_user_settings(tmp_path: Path) -> None:
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}
    assert settings_path("user", tmp_path, env) == tmp_path / "cfg" / "settings.json"
    assert settings_path("project", tmp_path, env) == tmp_path / ".claude" / "settings.json"
    assert settings_path("local", tmp_path, env) == tmp_path / ".claude" / "settings.local.json"


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2]", b'{"hooks": []}', b'{"hooks": {"Stop": {}}}'])
def test_a_settings_file_it_cannot_read_is_left_alone(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(content)
    with pytest.raises(ValidationError):
        install_claude_code(path, command=COMMAND)
    assert path.read_bytes() == content
    assert not path.with_name(path.name + BACKUP_SUFFIX).exists()


def test_the_cli_reports_a_broken_settings_file(project: Project) -> None:
    settings = project.root / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    settings.write_bytes(b"{oops")
    done = project.run("install", "claude-code", "--local")
    assert done.returncode == 1 and b"not valid JSON" in done.stderr and settings.read_bytes() == b"{oops"


def test_only_our_own_command_is_ours() -> None:
    assert is_ours({"type": "command", "command": "memory-review hook claude-code"})
    assert is_ours({"type": "command", "command": "'/home/a b/.venv/bin/memory-review' hook claude-code"})
    assert is_ours({"type": "command", "command": "/usr/bin/python3 -m memory_review.cli hook claude-code"})
    for command in ("other-tool hook claude-code", "memory-review hook claude-code-extra",
                    "memory-review context", "echo 'unbalanced", "memory-review hook"):
        assert not is_ours({"type": "command", "command": command})
    assert not is_ours({"type": "prompt", "command": "memory-review hook claude-code"})


def test_the_installed_command_runs_the_hook(project: Project, hook_payloads) -> None:
    project.approve(PROPOSAL)
    assert project.json("install", "claude-code", "--local")["action"] == "installed"
    settings = json.loads((project.root / ".claude" / "settings.local.json").read_text())
    [group] = settings["hooks"]["SessionStart"]
    payload = {**hook_payloads["session_start.json"][0], "cwd": str(project.root)}
    # As Claude Code does it: the command line through a shell, the payload on stdin.
    done = subprocess.run(group["hooks"][0]["command"], shell=True, input=json.dumps(payload).encode(),
                          env=project.env, cwd=project.root, capture_output=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    assert "forbidden-mock-database" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
