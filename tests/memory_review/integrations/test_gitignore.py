"""`init` and `install` keep the project store out of the project's branches via .gitignore."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from project_kit import Project, make_project


def _ignored(project: Project) -> bool:
    done = subprocess.run(["git", "check-ignore", "-q", ".memory-review/"], cwd=project.root, timeout=30, check=False)
    return done.returncode == 0


def test_init_creates_gitignore_once_and_reports_it(tmp_path: Path) -> None:
    project = make_project(tmp_path, init=False)
    first = project.run("init")
    assert first.returncode == 0 and b".gitignore: created .memory-review/" in first.stdout
    assert (project.root / ".gitignore").read_bytes() == b".memory-review/\n" and _ignored(project)
    again = project.json("init")
    assert again["gitignore"] == "already ignored" and again["project"] is False
    assert (project.root / ".gitignore").read_bytes() == b".memory-review/\n"
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=project.root,
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    ).stdout
    assert ".memory-review" not in status  # the store's files never show up to be committed


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (b"node_modules/\n", b"node_modules/\n.memory-review/\n"),
        (b"dist", b"dist\n.memory-review/\n"),
        (b"build/\r\n*.log\r\n", b"build/\r\n*.log\r\n.memory-review/\r\n"),
    ],
)
def test_install_appends_in_the_files_own_style(project: Project, before: bytes, after: bytes) -> None:
    (project.root / ".gitignore").write_bytes(before)
    done = project.json("install", "claude-code", "--local")
    assert done["gitignore"] == "added"
    assert (project.root / ".gitignore").read_bytes() == after


@pytest.mark.parametrize("line", [b".memory-review", b"/.memory-review/", b"**/.memory-review", b"  .memory-review/  "])
def test_an_existing_rule_is_left_alone(project: Project, line: bytes) -> None:
    (project.root / ".gitignore").write_bytes(b"a\n" + line + b"\nb\n")
    assert project.json("init")["gitignore"] == "already ignored"
    assert (project.root / ".gitignore").read_bytes() == b"a\n" + line + b"\nb\n"


def test_outside_git_nothing_is_written(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "user-store"), "HOME": str(tmp_path / "home")}
    project = Project(folder, env)
    assert project.json("init")["gitignore"] == "not a git repository"
    assert not (folder / ".gitignore").exists()


def test_a_symlinked_gitignore_is_not_followed(project: Project, tmp_path: Path) -> None:
    secret = tmp_path / "home" / ".ssh" / "id_ed25519"
    secret.parent.mkdir(parents=True)
    secret.write_bytes(b"-----BEGIN OPENSSH PRIVATE KEY-----\nvictim\n")
    (project.root / ".gitignore").symlink_to(secret)
    done = project.json("init")
    assert done["gitignore"].startswith("skipped: .gitignore is a symbolic link")
    assert secret.read_bytes() == b"-----BEGIN OPENSSH PRIVATE KEY-----\nvictim\n"
    assert (project.root / ".gitignore").is_symlink()  # nothing of the key was copied into the repository


def test_a_fifo_gitignore_does_not_hang_init(project: Project) -> None:
    os.mkfifo(project.root / ".gitignore")
    done = project.run("init", timeout=30)
    assert done.returncode == 0 and b"skipped: .gitignore is not a regular file" in done.stdout
