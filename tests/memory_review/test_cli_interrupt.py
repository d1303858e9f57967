"""ctrl+c in a command (SIGINT): one line and exit status 130, never a traceback; nothing half done.

The real console script, interrupted while it waits for the project store's lock (held here, as behind
another process's commit), so the signal surely lands mid-command. The wait is for something the process
does (it opens the lock file), never a sleep.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_kit import run_json

from memory_review.locking import store_lock
from memory_review.workspace import Workspace

SCRIPT = Path(sys.executable).with_name("memory-review")

pytestmark = [
    pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="watches the child's open files in /proc"),
    pytest.mark.skipif(not SCRIPT.exists(), reason="needs the installed console script next to this Python"),
]

PROPOSAL = {
    "op": "create",
    "scope": "project",
    "memory": {"id": "no-mocks", "type": "forbidden", "description": "Never mock the database", "body": "Use it."},
    "rationale": "Said twice.",
    "evidence": [{"quote": "don't mock the database", "session_id": "s1", "turn_id": "t1"}],
}


def _wait_until_it_opens(pid: int, path: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if Path(os.readlink(fd)) == path:
                    return
            except OSError:  # that descriptor closed meanwhile
                continue
        time.sleep(0.01)
    raise AssertionError(f"process {pid} never opened {path}")


def _as_a_shell_starts_it() -> None:
    """SIGINT at its default and not blocked in the command, as an interactive shell starts one: a disposition or mask
    left in this test process (a pytest worker) would be inherited, and ctrl+c would never reach the command (one CI
    run saw the command wait out the lock's 10 s instead)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_while_a_command_waits_says_so_in_one_line_and_exits_130(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home"), "MEMORY_REVIEW_ACTOR": "alice"}
    candidate = run_json(["propose", "--file", "-"], env, repo, json.dumps(PROPOSAL))["id"]
    ws = Workspace.open(repo)
    lock = ws.project.lock_path
    with store_lock(lock):
        child = subprocess.Popen(
            [str(SCRIPT), "apply", candidate],
            cwd=repo,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=_as_a_shell_starts_it,
        )
        _wait_until_it_opens(child.pid, lock.resolve())
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    assert child.returncode == 130, err.decode()
    assert err.decode() == "memory-review: interrupted (nothing was half done)\n"
    assert out == b""
    verified = subprocess.run([str(SCRIPT), "verify"], cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert [s.candidate.id for s in Workspace.open(repo).list_candidates()] == [candidate]  # pending, not applied
