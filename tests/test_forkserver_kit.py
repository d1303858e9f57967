"""The kit that runs the CLI forked past the interpreter's start-up gives what a new interpreter gives."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from forkserver_kit import _SERVER, FULL, as_text, command_line, run_cli


def _both(args: list[str], env: dict[str, str], cwd: Path, stdin: bytes | None = None):
    forked = run_cli(args, env=env, cwd=cwd, stdin=stdin)
    fresh = run_cli(args, env=env, cwd=cwd, stdin=stdin, fresh=True)
    return forked, fresh


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home"), "MEMORY_REVIEW_ACTOR": "alice"}


@pytest.mark.skipif(FULL, reason="MEMORY_REVIEW_FULL=1 starts every command line afresh")
def test_the_forked_child_answers_as_a_new_interpreter(tmp_path: Path, env: dict[str, str]) -> None:
    project = tmp_path / "p"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True, timeout=60)
    assert run_cli(["init"], env=env, cwd=project).returncode == 0
    for args in (["init"], ["verify"], ["list", "--json"], ["no-such-command"], ["show", "cand_nope"]):
        forked, fresh = _both(args, env, project)
        assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert _SERVER.forks(), "the kit fell back to new interpreters: the suite is paying every start-up"
    piped = as_text(run_cli(["propose", "--file", "-", "--json"], env=env, cwd=project, stdin=b"not json"))
    assert piped.returncode == 1 and "Traceback" not in piped.stderr


def test_a_hang_is_killed_at_the_timeout(tmp_path: Path, env: dict[str, str]) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # nobody writes: reading it blocks until the kill
    with pytest.raises(subprocess.TimeoutExpired):
        run_cli(["propose", "--file", str(fifo)], env=env, cwd=tmp_path, timeout=2)
    assert run_cli(["--help"], env=env, cwd=tmp_path).returncode == 0  # the server goes on


@pytest.mark.skipif(FULL, reason="MEMORY_REVIEW_FULL=1 starts every command line afresh")
def test_a_command_line_for_a_library_to_start_hands_its_pipes_to_a_forked_child(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """What the MCP tests give the SDK's client: its stdin, stdout, stderr and exit code are the child's."""
    for args in (["--help"], ["no-such-command"], ["list", "--json"]):
        launched = subprocess.run(command_line(args), env=env, cwd=tmp_path, capture_output=True, timeout=60)
        fresh = run_cli(args, env=env, cwd=tmp_path, fresh=True)
        assert (launched.returncode, launched.stdout, launched.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert command_line(["mcp"])[:2] == [sys.executable, "-S"]
