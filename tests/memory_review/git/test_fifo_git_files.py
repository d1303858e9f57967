"""A FIFO where git opens a file by name ends every command in one line instead of hanging it (session 39, F3).

git, gitpython and our own walk ``open`` a repository's HEAD, config, commondir (and packed-refs, alternates,
included configs, our refs) blocking; a copied project (a tarball, a shared folder) can hold a FIFO under any of
those names. Each case runs the real command in a real process under a generous timeout: before the fix it never
ended (the hook's watchdog blocked on the same file, so even its deadline did not end it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from forkserver_kit import run_cli
from git_helpers import git

GENEROUS = 60.0  # seconds: a hang, not a slow machine, is what runs into it


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    git("init", "-q", "-b", "main", str(root), cwd=tmp_path)
    assert run_cli(["init"], env=None, cwd=root, fresh=True).returncode == 0
    return root


def _replace_by_fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    os.mkfifo(path)
    return path


def _config(root: Path) -> Path:
    return _replace_by_fifo(root / ".git" / "config")


def _head(root: Path) -> Path:
    return _replace_by_fifo(root / ".git" / "HEAD")


def _commondir(root: Path) -> Path:
    return _replace_by_fifo(root / ".git" / "commondir")


def _packed_refs(root: Path) -> Path:
    return _replace_by_fifo(root / ".git" / "packed-refs")


def _alternates(root: Path) -> Path:
    return _replace_by_fifo(root / ".git" / "objects" / "info" / "alternates")


def _our_ref(root: Path) -> Path:
    return _replace_by_fifo(root / ".git" / "refs" / "memory-review" / "history" / "project")


def _pack_index(root: Path) -> Path:
    return _replace_by_fifo(root / ".git" / "objects" / "pack" / f"pack-{'0' * 40}.idx")


def _included_config(root: Path) -> Path:
    git("config", "include.path", "../included.cfg", cwd=root)
    return _replace_by_fifo(root / "included.cfg")


def _gitfile_target(root: Path) -> Path:
    """``.git`` as a file (a submodule's, a linked worktree's) naming a git dir whose config is a FIFO."""
    (root / ".git").rename(root.parent / "real.git")
    (root / ".git").write_text("gitdir: ../real.git\n")
    return _replace_by_fifo(root.parent / "real.git" / "config")


PLANTS: dict[str, Callable[[Path], Path]] = {
    "config": _config,
    "HEAD": _head,
    "commondir": _commondir,
    "packed-refs": _packed_refs,
    "alternates": _alternates,
    "our ref": _our_ref,
    "pack index": _pack_index,
    "included config": _included_config,
    "gitfile target": _gitfile_target,
    # session 39's re-review: git reads these too on every object read or history write
    **{
        name: (lambda root, parts=parts: _replace_by_fifo(root.joinpath(".git", *parts)))
        for name, parts in {
            "shallow": ("shallow",),
            "grafts": ("info", "grafts"),
            "attributes": ("info", "attributes"),
            "config.worktree": ("config.worktree",),
            "replace ref": ("refs", "replace", "0" * 40),
            "our ref's reflog": ("logs", "refs", "memory-review", "project"),
        }.items()
    },
}


def _one_line_naming(stderr: bytes, fifo: Path) -> None:
    lines = stderr.decode().splitlines()
    assert len(lines) == 1 and str(fifo) in lines[0] and "not a regular file" in lines[0], stderr


@pytest.mark.parametrize("where", list(PLANTS))
def test_context_ends_in_one_line_naming_the_fifo(tmp_path: Path, where: str) -> None:
    root = _project(tmp_path)
    fifo = PLANTS[where](root)
    done = run_cli(["context"], env=None, cwd=root, fresh=True, timeout=GENEROUS)
    assert done.returncode == 1
    _one_line_naming(done.stderr, fifo)


@pytest.mark.parametrize("command", [["list"], ["trust", "list"], ["log"], ["verify"], ["init"], ["memories"]])
def test_every_command_ends_in_one_line(tmp_path: Path, command: list[str]) -> None:
    root = _project(tmp_path)
    fifo = _config(root)
    done = run_cli(command, env=None, cwd=root, fresh=True, timeout=GENEROUS)
    assert done.returncode != 0
    _one_line_naming(done.stderr, fifo)


@pytest.mark.parametrize("event", ["SessionStart", "UserPromptSubmit"])
def test_the_hook_exits_and_says_why(tmp_path: Path, event: str) -> None:
    root = _project(tmp_path)
    fifo = _config(root)
    payload = {"hook_event_name": event, "session_id": "0f8fa1d2-1111-2222-3333-444455556666", "cwd": str(root)}
    if event == "UserPromptSubmit":
        payload["prompt"] = "how do we test?"
    done = run_cli(
        ["hook", "claude-code"], env=None, cwd=root, stdin=json.dumps(payload).encode(), fresh=True, timeout=GENEROUS
    )
    assert done.returncode == 0 and done.stdout == b""
    assert str(fifo) in done.stderr.decode()


def test_the_library_refuses_only_what_blocks(tmp_path: Path) -> None:
    """``gitrepo.toplevel`` and ``GitRepo.open`` (a process of its own: before the fix it never returned) accept our
    refs, an include of a plain file and a hard-linked config, and refuse the same repository once its included
    config is a FIFO."""
    root = _project(tmp_path)
    (root / ".git" / "refs" / "memory-review" / "history").mkdir(parents=True)
    git("config", "include.path", "../included.cfg", cwd=root)
    (root / "included.cfg").write_text("[user]\n\tname = x\n")
    os.link(root / ".git" / "config", tmp_path / "second-name")
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from memory_review import gitrepo
        from memory_review.errors import StorageError
        root = Path({str(root)!r})
        assert gitrepo.toplevel(root) == root and gitrepo.GitRepo.open(root).git_dir == root / ".git"
        Path({str(root / "included.cfg")!r}).unlink()
        import os; os.mkfifo({str(root / "included.cfg")!r})
        for call in (gitrepo.toplevel, gitrepo.GitRepo.open):
            try:
                call(root)
            except StorageError as exc:
                assert "included.cfg is not a regular file" in str(exc), exc
            else:
                raise AssertionError("not refused")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=GENEROUS, check=False)
    assert (done.returncode, done.stderr) == (0, b"")


def test_the_watchdog_ends_the_process_when_its_expiry_step_blocks(tmp_path: Path) -> None:
    """Both the hook's work and the expiry's logging step block on a FIFO: the deadline still ends the process,
    and an expiry step that does not block still runs before the end."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    marker = tmp_path / "expired"
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from memory_review.lean.watchdog import Watchdog

        def blocked():
            open({str(fifo)!r}, "rb").read()

        def first_marks_then_blocks():
            Path({str(marker)!r}).write_text("expired")
            blocked()

        Watchdog(0.05, on_expiry=first_marks_then_blocks)
        blocked()
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=GENEROUS, check=False)
    assert (done.returncode, done.stderr) == (0, b"")
    assert marker.read_text() == "expired"
