"""A shared settings file that already holds a teammate's hooks of ours (their install, committed): install on this
machine and uninstall give it back as it was, byte for byte; with another edit in between, the teammate's entries
still go back, as they were, and the edit stays (ADR 0170's "Left")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from project_kit import Project, make_project

from memory_review.integrations.claude_settings import is_ours
from memory_review.integrations.install import Target, install_claude_code, uninstall_claude_code

FILES = {"claude-code": ".claude/settings.json", "codex": ".codex/hooks.json", "gemini": ".gemini/settings.json"}
# What the project had before the teammate installed: another tool's hooks, on events of ours too.
OTHERS = {
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]}],
        "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "cat today.md"}]}],
    },
    "model": "opus",
}
COMMAND = "memory-review hook claude-code"


def _mates_file(tmp_path: Path, agent: str) -> bytes:
    """The settings file as the teammate committed it: their install, on their machine, with their path."""
    mate = make_project(tmp_path / "mate")
    path = mate.root / FILES[agent]
    path.parent.mkdir()
    path.write_text(json.dumps(OTHERS, indent=4) + "\n")
    mate.install(agent, "--command", f"/home/mate/.local/bin/memory-review hook {agent}")
    return path.read_bytes()


def _ours(data: dict) -> list[str]:
    return [h["command"] for groups in data["hooks"].values() for g in groups for h in g["hooks"] if is_ours(h)]


def _backups(project: Project) -> list[str]:
    folder = Path(project.env["MEMORY_REVIEW_HOME"]) / "install-backups"
    return sorted(p.name for p in folder.glob("*")) if folder.exists() else []


def _shared(project: Project, agent: str, committed: bytes, *, linked: bool = False) -> Path:
    """The teammate's file in this project (``linked``: the settings path a link to a file elsewhere in it)."""
    path = project.root / FILES[agent]
    path.parent.mkdir()
    if not linked:
        path.write_bytes(committed)
        return path
    real = project.root / "config" / "agent-settings.json"
    real.parent.mkdir()
    real.write_bytes(committed)
    path.symlink_to(Path("..") / "config" / "agent-settings.json")
    return real


@pytest.mark.parametrize(
    ("agent", "linked"), [("claude-code", False), ("claude-code", True), ("codex", False), ("gemini", False)]
)
def test_install_then_uninstall_gives_the_teammates_file_back_byte_for_byte(
    project: Project, tmp_path: Path, agent: str, linked: bool
) -> None:
    committed = _mates_file(tmp_path, agent)
    edited = _shared(project, agent, committed, linked=linked)

    installed = project.json("install", agent, "--project")
    assert installed["action"] == "updated" and installed["backup"]  # what it found is recorded
    now = json.loads(edited.read_bytes())
    assert now != json.loads(committed) and "/home/mate/" not in " ".join(_ours(now))  # this machine's hooks run
    assert project.json("install", agent, "--project")["action"] == "unchanged"  # a reinstall keeps the record

    removed = project.json("uninstall", agent, "--project")
    assert removed["action"] == "restored"
    assert edited.read_bytes() == committed and _backups(project) == []
    assert (project.root / FILES[agent]).is_symlink() == linked


@pytest.mark.parametrize("agent", ["claude-code", "codex", "gemini"])
def test_another_edit_in_between_keeps_the_edit_and_the_teammates_entries(
    project: Project, tmp_path: Path, agent: str
) -> None:
    committed = _mates_file(tmp_path, agent)
    path = _shared(project, agent, committed)
    project.install(agent)
    edited = json.loads(path.read_text())
    edited["model"] = "sonnet"  # the person's own change after install
    edited["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": "say finished"}]})
    path.write_text(json.dumps(edited, indent=2) + "\n")

    assert project.json("uninstall", agent)["action"] == "removed"
    expected = json.loads(committed)
    expected["model"] = "sonnet"
    expected["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": "say finished"}]})
    assert json.loads(path.read_text()) == expected  # the teammate's entries where they stood, as they were


def test_a_teammates_file_equal_to_this_install_is_left_as_it_was(tmp_path: Path) -> None:
    mate = tmp_path / "mate" / "settings.json"
    mate.parent.mkdir()
    mate.write_text(json.dumps(OTHERS, indent=2) + "\n")
    install_claude_code(Target(mate, mate, tmp_path / "mate-backups" / "s.bak"), command=COMMAND)
    committed = mate.read_bytes()
    path = tmp_path / "repo" / "settings.json"
    path.parent.mkdir()
    path.write_bytes(committed)
    target = Target(path, path, tmp_path / "backups" / "settings.json.bak")

    # Nothing to change (the same command, rules and switch), yet what install found is recorded
    assert install_claude_code(target, command=COMMAND).action == "unchanged"
    assert uninstall_claude_code(target).action == "restored"
    assert path.read_bytes() == committed


def test_an_entry_sharing_a_group_goes_back_into_that_group(tmp_path: Path) -> None:
    shared = {
        "matcher": "",
        "hooks": [{"type": "command", "command": "cat today.md"}, {"type": "command", "command": COMMAND}],
    }
    committed = {"hooks": {"SessionStart": [shared], "Stop": [{"hooks": [{"type": "command", "command": COMMAND}]}]}}
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(committed, indent=2) + "\n")
    target = Target(path, path, tmp_path / "backups" / "settings.json.bak")
    install_claude_code(target, command="/opt/venv/bin/memory-review hook claude-code")
    edited = json.loads(path.read_text())
    edited["env"] = {"CI": "1"}
    path.write_text(json.dumps(edited, indent=2) + "\n")

    uninstall_claude_code(target)
    assert json.loads(path.read_text()) == {**committed, "env": {"CI": "1"}}


def test_a_backup_set_aside_by_an_earlier_uninstall_is_not_taken_for_the_record(
    project: Project, tmp_path: Path
) -> None:
    path = project.root / FILES["claude-code"]
    path.parent.mkdir()
    path.write_text(json.dumps(OTHERS, indent=2) + "\n")
    project.install("claude-code")  # this person's own install, long ago
    edited = json.loads(path.read_text())
    edited["model"] = "haiku"
    path.write_text(json.dumps(edited, indent=2) + "\n")
    removed = project.json("uninstall", "claude-code")
    assert removed["action"] == "removed" and Path(removed["backup"]).read_text() == json.dumps(OTHERS, indent=2) + "\n"

    committed = _mates_file(tmp_path, "claude-code")  # then a teammate's install arrives by git
    path.write_bytes(committed)
    project.install("claude-code")
    assert project.json("uninstall", "claude-code")["action"] == "restored"
    assert path.read_bytes() == committed


def test_a_file_install_created_and_updated_is_still_deleted(project: Project) -> None:
    path = project.root / FILES["codex"]
    project.install("codex")
    project.install("codex", "--command", "/opt/venv/bin/memory-review hook codex")  # an update: ours found
    assert project.json("uninstall", "codex")["action"] == "deleted"
    assert not path.exists() and _backups(project) == []
