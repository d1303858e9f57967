"""ctrl+c while a decision is still running: the real ``memory-review review`` in a pseudo-terminal.

Pilot cannot send SIGINT (inside the app ctrl+c is a key; once the app has given the terminal back it is
the terminal's SIGINT, sent here with ``kill`` so that it surely lands while the decision still waits), so
this runs the real command in a pty. The decision is made long for real: this test holds
the project store's lock, so the apply waits for it, as behind another process's commit. Every wait is
for something the process writes, never a sleep; nothing here measures time.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import termios
import time
from pathlib import Path

import pytest
from tui_helpers import PYTHON, candidate_for, cli_env, events_of

from memory_review.locking import store_lock
from memory_review.workspace import Workspace

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pseudo-terminal (POSIX)")

LEFT_THE_SCREEN = b"\x1b[?1049l"  # Textual leaves the alternate screen when it gives the terminal back
CTRL_C = b"\x03"


class Terminal:
    """A child process on a pty, 100x30, with everything it wrote kept."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the command
            os.execve(argv[0], argv, env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.output = bytearray()

    def wait_for(self, marker: bytes, *, after: int = 0, timeout: float = 60.0) -> None:
        """Read until ``marker`` appears past offset ``after``; fail (with what was seen) if it never does."""
        deadline = time.monotonic() + timeout
        while marker not in self.output[after:]:
            if time.monotonic() > deadline or not self._read(0.2):
                raise AssertionError(f"never saw {marker!r}; the terminal showed:\n{self.text()[-3000:]}")

    def _read(self, wait: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], wait)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        self.output.extend(chunk)
        return bool(chunk)

    def send(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def finish(self) -> int:
        """Drain the terminal until the child closes it, then its exit code."""
        while self._read(0.2):
            pass
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)

    def text(self) -> str:
        return self.output.decode("utf-8", "replace")


def _review(ws: Workspace) -> Terminal:
    env = {**cli_env(ws), "TERM": "xterm-256color"}
    return Terminal([PYTHON, "-m", "memory_review.cli", "--project", str(ws.root), "review"], env)


def _verify(ws: Workspace) -> subprocess.CompletedProcess:
    argv = [PYTHON, "-m", "memory_review.cli", "--project", str(ws.root), "verify"]
    return subprocess.run(argv, env=cli_env(ws), capture_output=True, text=True, timeout=120)


def test_ctrl_c_during_a_long_apply_quits_without_a_traceback_and_the_store_holds(scenario: Workspace) -> None:
    first = candidate_for(scenario, "forbidden-mock-database")  # the queue's first row: the cursor is on it
    terminal = _review(scenario)
    terminal.wait_for(b"forbidden-mock-database")
    with store_lock(scenario.project.lock_path):  # the apply now waits for this lock: a long operation
        terminal.send(b"a")
        terminal.wait_for(b"working: apply 1 candidate")
        mark = len(terminal.output)
        terminal.send(CTRL_C)  # inside the app ctrl+c is a key: it says how to quit and quits nothing
        terminal.wait_for(b"to quit", after=mark)
        terminal.send(b"q")
        terminal.wait_for(LEFT_THE_SCREEN)
        for _ in range(10):  # out of the app ctrl+c is SIGINT: again and again, while the apply still waits
            os.kill(terminal.pid, signal.SIGINT)
    code = terminal.finish()
    text = terminal.text()
    assert "Traceback" not in text and "Exception ignored" not in text, text[-3000:]
    assert code == 0, text[-3000:]
    verified = _verify(scenario)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    # The apply had started when q came (it was waiting for the lock): it is atomic, and it finished.
    assert events_of(scenario, first) == ["candidate.created", "candidate.applied"]


def test_review_exits_cleanly_on_q(scenario: Workspace) -> None:
    """The plain case: `memory-review review`, then q (this printed a TypeError traceback once)."""
    terminal = _review(scenario)
    terminal.wait_for(b"forbidden-mock-database")
    terminal.send(b"q")
    code = terminal.finish()
    assert code == 0 and "Traceback" not in terminal.text(), terminal.text()[-3000:]
    assert Path(scenario.project.root, "events.jsonl").exists()


def test_sigint_while_the_ui_runs_quits_like_q_and_later_ones_never_print_a_traceback(scenario: Workspace) -> None:
    """``kill -INT`` while the UI is up (not a key: a signal), repeated, while a decision waits for the lock.

    The first SIGINT quits as ``q`` does; the rest only say why the process is still there. Before, asyncio's
    own handler raised KeyboardInterrupt on the second one wherever the wind-down was, and printed a traceback.
    """
    first = candidate_for(scenario, "forbidden-mock-database")
    terminal = _review(scenario)
    terminal.wait_for(b"forbidden-mock-database")
    with store_lock(scenario.project.lock_path):
        terminal.send(b"a")
        terminal.wait_for(b"working: apply 1 candidate")
        os.kill(terminal.pid, signal.SIGINT)
        terminal.wait_for(LEFT_THE_SCREEN)
        for _ in range(10):
            os.kill(terminal.pid, signal.SIGINT)
        terminal.wait_for(b"finishing the decision under way")
    code = terminal.finish()
    text = terminal.text()
    assert "Traceback" not in text and "Exception ignored" not in text, text[-3000:]
    assert code == 0, text[-3000:]
    assert _verify(scenario).returncode == 0
    assert events_of(scenario, first) == ["candidate.created", "candidate.applied"]


def test_sigint_with_nothing_under_way_quits_cleanly(scenario: Workspace) -> None:
    terminal = _review(scenario)
    terminal.wait_for(b"forbidden-mock-database")
    os.kill(terminal.pid, signal.SIGINT)
    code = terminal.finish()
    assert code == 0 and "Traceback" not in terminal.text(), terminal.text()[-3000:]
    assert "finishing the decision" not in terminal.text()
