"""How ``memory-review mcp`` ends: never in a traceback (the common rules count one as a crash).

A client that went away ends it quietly (status 0); a closed stdin or stdout is one line (status 1); ctrl+c
(SIGINT) ends it at once with the one line every command says (status 130), even while stdin stays open —
the SDK reads stdin in a thread nothing stops short of EOF. Real processes, as a client or shell starts them.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest
from project_kit import Project

from memory_review.main import INTERRUPTED

pytest.importorskip("mcp", reason="the optional 'mcp' extra is not installed (pip install '.[mcp]')")

INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
)


def _command(project: Project) -> list[str]:
    # The console script's module: ctrl+c and errors are said as the installed command says them.
    return [sys.executable, "-m", "memory_review.main", "--project", str(project.root), "mcp"]


def _in_shell(project: Project, redirect: str) -> subprocess.CompletedProcess:
    """The server started by a shell with ``redirect`` (``>&-``: stdout closed), the handshake on stdin."""
    return subprocess.run(
        ["sh", "-c", f'exec "$@" {redirect}', "sh", *_command(project)],
        input=(INITIALIZE + "\n").encode(),
        stderr=subprocess.PIPE,
        env=project.env,
        cwd=project.root,
        timeout=60,
    )


def _one_error_line(stderr: bytes) -> str:
    text = stderr.decode()
    assert "Traceback" not in text, text
    assert text.startswith("memory-review: error: ") and text.count("\n") == 1, text
    return text


def test_a_closed_stdout_is_one_line_not_a_traceback(project: Project) -> None:
    done = _in_shell(project, ">&-")
    assert done.returncode == 1
    assert "stdout" in _one_error_line(done.stderr)


def test_a_closed_stdin_is_one_line_not_a_traceback(project: Project) -> None:
    done = _in_shell(project, "<&-")
    assert done.returncode == 1
    assert "stdin" in _one_error_line(done.stderr)


def test_a_client_that_stops_reading_ends_the_server_quietly(project: Project) -> None:
    server = subprocess.Popen(
        _command(project),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=project.env,
        cwd=project.root,
    )
    assert server.stdin is not None and server.stdout is not None and server.stderr is not None
    server.stdout.close()  # the client went away: the answer it asked for meets a broken pipe
    server.stdin.write((INITIALIZE + "\n").encode())
    server.stdin.close()
    try:
        assert server.wait(timeout=60) == 0
        assert server.stderr.read() == b""
    finally:
        server.kill()
        server.wait()


def _as_a_shell_starts_it() -> None:
    """SIGINT at its default and unblocked, as an interactive shell starts a command (a pytest worker's
    disposition or mask would be inherited, and the signal would never reach the server)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def running_server(project: Project) -> Iterator[subprocess.Popen]:
    """A server past the handshake (so it surely serves), its stdin held open as a client holds it."""
    server = subprocess.Popen(
        _command(project),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=project.env,
        cwd=project.root,
        preexec_fn=_as_a_shell_starts_it,
    )
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write((INITIALIZE + "\n").encode())
    server.stdin.flush()
    assert json.loads(server.stdout.readline())["id"] == 0
    yield server
    server.kill()
    server.wait()
    server.stdin.close()


def test_ctrl_c_ends_the_server_while_stdin_stays_open(running_server: subprocess.Popen) -> None:
    running_server.send_signal(signal.SIGINT)
    assert running_server.wait(timeout=60) == 130  # a safety bound: before, it waited for EOF on stdin
    assert running_server.stderr is not None
    assert running_server.stderr.read().decode() == INTERRUPTED + "\n"
