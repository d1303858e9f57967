"""install/uninstall claude-code: merged into settings.json idempotently; a round trip is byte-identical."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from project_kit import PROPOSAL, Project

from memory_review.errors import ValidationError
from memory_review.integrations.claude_hooks import HOOK_EVENTS
from memory_review.integrations.claude_settings import is_ours
from memory_review.integrations.install import (
    Target,
    install_claude_code,
    settings_path,
    uninstall_claude_code,
)

# A settings file as Claude Code writes it (2-space JSON), with hooks of other tools on our events too.
THEIRS = {
    "permissions": {"allow": ["Bash(npm run test:*)", "WebFetch(domain:docs.anthropic.com)"], "deny": ["Read(./.env)"]},
    "env": {"DISABLE_TELEMETRY": "1"},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/.claude/guard.sh"}]}],
        "Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "afplay /System/Sounds/Glass.aiff"}]}],
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "cat .claude/today.md", "timeout": 5}]}
        ],
        "PreCompact": [],
    },
    "model": "opus",
}
COMMAND = "memory-review hook claude-code"


def _their_entries(data: dict) -> list:
    return [
        (event, group)
        for event, groups in data.get("hooks", {}).items()
        for group in groups
        if not any(is_ours(h) for h in group.get("hooks", []))
    ]


def _target(path: Path) -> Target:
    return Target(path=path, real=path.resolve(), backup=path.parent / "backups" / f"{path.name}.bak")


def _git_untracked(project: Project) -> list[str]:
    done = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=project.root,
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return sorted(line[3:] for line in done.stdout.splitlines())


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
    assert installed["permissions"]["allow"] == THEIRS["permissions"]["allow"]
    assert installed["permissions"]["deny"][0] == "Read(./.env)"  # theirs first, ours after
    assert installed["autoMemoryEnabled"] is False
    assert {k: installed[k] for k in ("env", "model")} == {k: THEIRS[k] for k in ("env", "model")}
    # The backup is in the user store, not in the repository where it would be committed.
    backup = Path(first["backup"])
    assert backup.read_bytes() == original and backup.is_relative_to(Path(project.env["MEMORY_REVIEW_HOME"]))
    assert not any(".bak" in name for name in _git_untracked(project))

    again = project.json("install", "claude-code", "--project")
    assert again["action"] == "unchanged" and json.loads(settings.read_bytes()) == installed

    removed = project.json("uninstall", "claude-code", "--project")
    assert removed["action"] == "restored" and sorted(removed["events"]) == sorted(HOOK_EVENTS)
    assert removed["auto_memory"] == "restored" and removed["deny_rules"] == first["deny_rules"] > 0
    assert settings.read_bytes() == original and not backup.exists()
    assert project.json("uninstall", "claude-code", "--project")["action"] == "not-installed"


def _user_settings(project: Project) -> Path:
    return Path(project.env["HOME"]) / ".claude" / "settings.json"


def _seed(kind: str, project: Project) -> tuple[Path, bytes | None]:
    """A user settings file of one kind; the file whose bytes must come back (None: no file)."""
    path = _user_settings(project)
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "no-file":
        return path, None
    content = {
        "empty-object": b"{}\n",
        "theirs": (json.dumps(THEIRS, indent=4) + "\n").encode(),
        "symlinked": (json.dumps(THEIRS, indent=2) + "\n").encode(),
    }[kind]
    if kind != "symlinked":
        path.write_bytes(content)
        return path, content
    real = Path(project.env["HOME"]) / "dotfiles" / "claude" / "settings.json"  # a stow-style dotfiles set-up
    real.parent.mkdir(parents=True)
    real.write_bytes(content)
    path.symlink_to(real)
    return real, content


@pytest.mark.parametrize("kind", ["no-file", "empty-object", "theirs", "symlinked"])
def test_install_then_uninstall_gives_back_the_same_bytes(project: Project, kind: str) -> None:
    edited, before = _seed(kind, project)
    link = _user_settings(project)

    done = project.run("install", "claude-code", "--user")
    assert done.returncode == 0, done.stderr
    data = json.loads(edited.read_bytes())
    assert data["autoMemoryEnabled"] is False and set(HOOK_EVENTS) <= set(data["hooks"])
    assert "Bash(memory-review apply *)" in data["permissions"]["deny"]
    assert link.is_symlink() == (kind == "symlinked")  # the dotfiles link stays a link
    if kind == "symlinked":
        assert b"edited the link's target in place" in done.stdout

    undone = project.run("uninstall", "claude-code", "--user")
    assert undone.returncode == 0, undone.stderr
    if before is None:
        assert not edited.exists()
    else:
        assert edited.read_bytes() == before
    assert link.is_symlink() == (kind == "symlinked")
    assert not list((Path(project.env["MEMORY_REVIEW_HOME"]) / "install-backups").glob("*"))


def test_install_turns_auto_memory_off_says_so_and_points_to_import(project: Project) -> None:
    home = Path(project.env["HOME"])
    # Claude Code's folder name for a project: its path with every non-alphanumeric as "-".
    memory = home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(project.root)) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Tabs](tabs.md) — the user wants tabs\n")

    done = project.run("install", "claude-code", "--local")
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode()
    assert "autoMemoryEnabled: false" in text and "--keep-auto-memory" in text
    assert f"memory-review import {memory}" in text
    settings = project.root / ".claude" / "settings.local.json"
    assert json.loads(settings.read_text())["autoMemoryEnabled"] is False
    assert (memory / "MEMORY.md").exists()  # nothing of Claude Code's own memory is touched

    kept = project.json("install", "claude-code", "--local", "--keep-auto-memory")
    assert kept["action"] == "updated" and kept["auto_memory"] == "kept"
    assert "autoMemoryEnabled" not in json.loads(settings.read_text())  # back to what it was: unset


def test_keep_auto_memory_leaves_the_setting_alone(project: Project) -> None:
    path = _user_settings(project)
    path.parent.mkdir(parents=True)
    original = b'{\n  "autoMemoryEnabled": true\n}\n'
    path.write_bytes(original)
    assert project.json("install", "claude-code", "--user", "--keep-auto-memory")["auto_memory"] == "kept"
    assert json.loads(path.read_text())["autoMemoryEnabled"] is True
    assert project.json("uninstall", "claude-code", "--user")["action"] == "restored"
    assert path.read_bytes() == original

    project.json("install", "claude-code", "--user")  # the default: off, and the person's `true` comes back
    assert json.loads(path.read_text())["autoMemoryEnabled"] is False
    project.json("uninstall", "claude-code", "--user")
    assert path.read_bytes() == original


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
    assert install_claude_code(_target(path), command=COMMAND).action == "installed"
    assert install_claude_code(_target(path), command=COMMAND).action == "unchanged"
    assert uninstall_claude_code(_target(path)).action == "restored"
    assert path.read_bytes() == text.encode()


def test_their_later_edits_survive_uninstall(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(THEIRS, indent=2) + "\n")
    install_claude_code(_target(path), command=COMMAND)
    edited = json.loads(path.read_text())
    edited["permissions"]["allow"].append("Bash(make:*)")
    edited["permissions"]["deny"].append("Bash(rm -rf *)")
    edited["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": "notify-send done"}]})
    path.write_text(json.dumps(edited, indent=2) + "\n")

    result = uninstall_claude_code(_target(path))
    assert result.action == "removed" and result.backup  # the pre-install copy is kept for the person
    left = json.loads(path.read_text())
    assert "Bash(make:*)" in left["permissions"]["allow"]
    assert left["permissions"]["deny"] == ["Read(./.env)", "Bash(rm -rf *)"]  # exactly ours went
    assert "autoMemoryEnabled" not in left
    assert not any(is_ours(h) for groups in left["hooks"].values() for g in groups for h in g["hooks"])
    assert left["hooks"]["Stop"][-1]["hooks"][0]["command"] == "notify-send done"
    assert left["hooks"]["PreCompact"] == []  # theirs, empty before we came: still there
    assert set(left["hooks"]) == set(THEIRS["hooks"])


def test_a_rule_they_had_before_install_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    theirs = {"permissions": {"deny": ["Bash(memory-review sync *)"]}}
    path.write_text(json.dumps(theirs, indent=2) + "\n")
    install_claude_code(_target(path), command=COMMAND)
    deny = json.loads(path.read_text())["permissions"]["deny"]
    assert deny.count("Bash(memory-review sync *)") == 1 and "Bash(memory-review apply *)" in deny
    edited = json.loads(path.read_text())
    edited["model"] = "sonnet"  # something else changed: no byte-for-byte restore, the strip must be exact
    path.write_text(json.dumps(edited, indent=2) + "\n")
    uninstall_claude_code(_target(path))
    assert json.loads(path.read_text()) == {**theirs, "model": "sonnet"}


def test_a_moved_install_updates_in_place(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    original = json.dumps(THEIRS, indent=2) + "\n"
    path.write_text(original)
    install_claude_code(_target(path), command=COMMAND)
    moved = install_claude_code(_target(path), command="/opt/venv/bin/memory-review hook claude-code")
    assert moved.action == "updated"
    data = json.loads(path.read_text())
    commands = [h["command"] for groups in data["hooks"].values() for g in groups for h in g["hooks"] if is_ours(h)]
    assert commands == ["/opt/venv/bin/memory-review hook claude-code"] * len(HOOK_EVENTS)
    assert "Bash(/opt/venv/bin/memory-review apply *)" in data["permissions"]["deny"]
    assert uninstall_claude_code(_target(path)).action == "restored" and path.read_text() == original


def test_a_file_install_created_is_removed_again(project: Project) -> None:
    assert project.json("install", "claude-code", "--user")["action"] == "installed"
    settings = _user_settings(project)
    assert set(json.loads(settings.read_text())["hooks"]) == set(HOOK_EVENTS)
    assert project.json("uninstall", "claude-code", "--user")["action"] == "deleted"
    assert not settings.exists()


def test_claude_config_dir_moves_the_user_settings(tmp_path: Path) -> None:
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}
    assert settings_path("user", tmp_path, env) == tmp_path / "cfg" / "settings.json"
    assert settings_path("project", tmp_path, env) == tmp_path / ".claude" / "settings.json"
    assert settings_path("local", tmp_path, env) == tmp_path / ".claude" / "settings.local.json"


@pytest.mark.parametrize(
    "content",
    [b"{not json", b"[1, 2]", b'{"hooks": []}', b'{"hooks": {"Stop": {}}}', b'{"permissions": {"deny": "Bash"}}'],
)
def test_a_settings_file_it_cannot_read_is_left_alone(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(content)
    with pytest.raises(ValidationError):
        install_claude_code(_target(path), command=COMMAND)
    assert path.read_bytes() == content
    assert not _target(path).backup.exists()


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
    for command in (
        "other-tool hook claude-code",
        "memory-review hook claude-code-extra",
        "memory-review context",
        "echo 'unbalanced",
        "memory-review hook",
    ):
        assert not is_ours({"type": "command", "command": command})
    assert not is_ours({"type": "prompt", "command": "memory-review hook claude-code"})


def test_the_installed_command_runs_the_hook(project: Project, hook_payloads) -> None:
    project.approve(PROPOSAL)
    assert project.json("install", "claude-code", "--local")["action"] == "installed"
    settings = json.loads((project.root / ".claude" / "settings.local.json").read_text())
    [group] = settings["hooks"]["SessionStart"]
    payload = {**hook_payloads["session_start.json"][0], "cwd": str(project.root)}
    # As Claude Code does it: the command line through a shell, the payload on stdin.
    done = subprocess.run(
        group["hooks"][0]["command"],
        shell=True,
        input=json.dumps(payload).encode(),
        env=project.env,
        cwd=project.root,
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "forbidden-mock-database" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
