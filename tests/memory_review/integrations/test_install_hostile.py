"""install claude-code against a hostile checkout: a repository's `.claude/` never aims our read or write
outside the project, nothing outside is copied in, and a FIFO does not hang the command."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest
from project_kit import Project

SECRET = b'{"env": {"ANTHROPIC_API_KEY": "sk-ant-api03-victim"}}\n'


def _tree_digest(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (links as their target text) -> a hash of its bytes."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            found[str(path)] = "link:" + os.readlink(path)
        elif path.is_file():
            found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _victim_settings(project: Project) -> Path:
    path = Path(project.env["HOME"]) / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(SECRET)
    return path


def _commit_all(project: Project) -> None:
    subprocess.run(["git", "add", "-A"], cwd=project.root, check=True, timeout=30)
    subprocess.run(
        ["git", "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "hostile"],
        cwd=project.root,
        check=True,
        timeout=30,
    )


@pytest.mark.parametrize("scope", ["--project", "--local"])
def test_a_settings_link_out_of_the_project_is_refused(project: Project, scope: str) -> None:
    victim = _victim_settings(project)
    claude = project.root / ".claude"
    claude.mkdir()
    name = "settings.json" if scope == "--project" else "settings.local.json"
    (claude / name).symlink_to(victim)
    _commit_all(project)
    home_before = _tree_digest(Path(project.env["HOME"]))

    for command in ("install", "uninstall"):
        done = project.run(command, "claude-code", scope)
        assert done.returncode == 1 and b"resolves outside the project" in done.stderr, done.stderr
        assert b"Traceback" not in done.stderr
    assert _tree_digest(Path(project.env["HOME"])) == home_before  # the victim's file is untouched
    assert (claude / name).is_symlink() and os.readlink(claude / name) == str(victim)
    # Nothing of the victim's file was copied into the repository, nor into the user store's backups.
    for folder in (project.root, Path(project.env["MEMORY_REVIEW_HOME"])):
        for path in folder.rglob("*"):
            assert not (path.is_file() and not path.is_symlink() and b"sk-ant-api03-victim" in path.read_bytes())


def test_a_claude_folder_linked_out_of_the_project_is_refused(project: Project) -> None:
    victim = _victim_settings(project)
    (project.root / ".claude").symlink_to(victim.parent)
    done = project.run("install", "claude-code", "--project")
    assert done.returncode == 1 and b"resolves outside the project" in done.stderr
    assert victim.read_bytes() == SECRET


def test_a_link_into_dot_git_is_refused(project: Project) -> None:
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").symlink_to(project.root / ".git" / "hooks" / "post-checkout")
    done = project.run("install", "claude-code", "--project")
    assert done.returncode == 1 and b".git" in done.stderr
    assert not (project.root / ".git" / "hooks" / "post-checkout").exists()


def test_a_link_inside_the_project_is_edited_at_its_target(project: Project) -> None:
    shared = project.root / "config" / "claude.json"
    shared.parent.mkdir()
    shared.write_text('{"model": "opus"}\n')
    (project.root / ".claude").mkdir()
    link = project.root / ".claude" / "settings.json"
    link.symlink_to(Path("..") / "config" / "claude.json")
    assert project.json("install", "claude-code", "--project")["edited"] == str(shared)
    assert link.is_symlink() and "hooks" in json.loads(shared.read_text())
    assert project.json("uninstall", "claude-code", "--project")["action"] == "restored"
    assert shared.read_text() == '{"model": "opus"}\n' and link.is_symlink()


def test_a_user_settings_link_to_someone_elses_place_is_refused(project: Project, tmp_path: Path) -> None:
    elsewhere = tmp_path / "not-home" / "settings.json"  # outside HOME and the config dir
    elsewhere.parent.mkdir()
    elsewhere.write_bytes(b"{}\n")
    user = Path(project.env["HOME"]) / ".claude" / "settings.json"
    user.parent.mkdir(parents=True)
    user.symlink_to(elsewhere)
    done = project.run("install", "claude-code", "--user")
    assert done.returncode == 1 and b"outside your config dir and home" in done.stderr
    assert elsewhere.read_bytes() == b"{}\n"


def test_a_fifo_in_place_of_the_settings_file_does_not_hang(project: Project) -> None:
    (project.root / ".claude").mkdir()
    os.mkfifo(project.root / ".claude" / "settings.json")
    done = project.run("install", "claude-code", "--project", timeout=30)
    assert done.returncode == 1 and b"not a regular file" in done.stderr and b"Traceback" not in done.stderr
