"""``python -m memory_review.cli ARGS`` as a forked child of one interpreter that imported the library once.

Each command line a test runs is still its own process: its own cwd, environment, stdin, stdout, stderr,
exit code and timeout, its files and locks released when it exits, nothing shared with the test process or
with the other commands. What it skips is the start-up: a fresh interpreter importing pydantic and building
every model cost ~0.3 s of CPU per command line, most of the default suite's time (docs/adr/0039). A fork
of a process that imported the same modules, and did nothing else, runs the same code from there on.

Used by the test kits' ``run`` for tests about what a command does. A real fresh process is used instead
(by ``run_cli``'s ``fresh=True``, and always) when the test is about the process itself (start-up imports,
hooks' deadlines, crashes armed through ``sitecustomize``), when the environment changes how Python starts
(a ``PYTHON*`` variable or the fault plan), when the call comes from another thread (concurrency tests keep
their concurrency), and for every call when ``MEMORY_REVIEW_FULL=1``: the full run starts every command fresh.
"""

from __future__ import annotations

import atexit
import json
import locale
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path

FULL = os.environ.get("MEMORY_REVIEW_FULL") == "1"
ARGV_HEAD = [sys.executable, "-m", "memory_review.cli"]

# What ``python -m memory_review.cli`` imports on its way to a command (the CLI imports its commands
# lazily, issue #16). Importing one more than a command needs changes nothing it does.
PRELOAD = (
    "memory_review.cli",
    "memory_review.cli_render",
    "memory_review.workspace",
    "memory_review.models",
    "memory_review.proposal",
    "memory_review.lean.hook",
    "memory_review.lean.command",
    "memory_review.integrations.claude_hooks",
    "memory_review.integrations.mcp_server",
    "mcp.types",
    "mcp.server.mcpserver",
    "mcp.server.fastmcp",
    "anyio",
)

SERVER = r"""
import importlib, json, os, select, signal, socket, sys, time

LISTEN = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
LISTEN.bind(SOCKET)
LISTEN.listen(64)

for name in PRELOAD:
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:  # renamed since, or an optional extra: the child imports what it needs
        if not (name == exc.name or name.startswith(f"{exc.name}.")):
            raise
import atexit, gc, threading, traceback
import memory_review.cli as cli

gc.freeze()  # what the imports built stays shared with every child: no collection touches (copies) it
os.write(1, b"ready\n")


def read_line():
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(0, 1 << 16)
        if not chunk:
            return b""
        data += chunk
    return data


def reply(to, answer):
    data = json.dumps(answer).encode() + b"\n"
    if to is None:  # the test process, on the pipe
        os.write(1, data)
    else:  # a launcher, on its connection
        to.sendall(data)
        to.close()


def serve():
    # Children run side by side: a test may call a command line while an MCP server it started runs.
    running = {}  # pidfd -> (pid, deadline or None, who to answer)
    while True:
        deadlines = [d for _, d, _ in running.values() if d is not None]
        wait = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
        ready, _, _ = select.select([0, LISTEN, *running], [], [], wait)
        for fd in ready:
            if fd == 0:
                line = read_line()
                if not line:
                    os._exit(0)
                request, fds, to = json.loads(line), None, None
            elif fd is LISTEN:
                to, _ = LISTEN.accept()
                message, fds, _, _ = socket.recv_fds(to, 1 << 20, 3)
                request = json.loads(message)
            else:
                pid, _, to = running.pop(fd)
                os.close(fd)
                _, status = os.waitpid(pid, 0)
                reply(to, {"returncode": os.waitstatus_to_exitcode(status), "killed": False})
                continue
            pid = os.fork()
            if pid == 0:
                for other in running:
                    os.close(other)
                for _, _, other in running.values():
                    if other is not None:
                        other.close()
                LISTEN.close()
                if to is not None:
                    to.close()
                return request, fds
            for passed in fds or ():
                os.close(passed)
            timeout = request.get("timeout")
            running[os.pidfd_open(pid)] = (pid, None if timeout is None else time.monotonic() + timeout, to)
        now = time.monotonic()
        for fd, (pid, deadline, to) in list(running.items()):
            if deadline is not None and deadline <= now:
                del running[fd]
                os.close(fd)
                os.kill(pid, signal.SIGKILL)
                _, status = os.waitpid(pid, 0)
                reply(to, {"returncode": os.waitstatus_to_exitcode(status), "killed": True})


def become(request, fds):
    if fds is None:  # the test process named files
        names = ((request["stdin"], os.O_RDONLY), (request["stdout"], os.O_WRONLY), (request["stderr"], os.O_WRONLY))
        fds = [os.open(name, flags) for name, flags in names]
    for fd, opened in enumerate(fds):
        if opened != fd:
            os.dup2(opened, fd)
            os.close(opened)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        old = getattr(sys, name)
        # stderr is line-buffered, as in any Python since 3.9
        stream = open(fd, mode, buffering=1 if fd == 2 else -1, encoding=old.encoding, errors=old.errors, closefd=False)
        setattr(sys, name, stream)
        setattr(sys, "__%s__" % name, stream)
    sys.argv = [cli.__file__, *request["args"]]


def exit_code(status):
    # what the interpreter makes of sys.exit(status)
    if status is None:
        return 0
    if isinstance(status, int):
        return status & 0xFF
    print(status, file=sys.stderr)
    return 1


def finish(code):
    # The interpreter's exit (threads joined, exit functions run, output flushed), without tearing down
    # every module: the child's heap is the server's, and a teardown would copy all of it.
    threading._shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120
    os._exit(code)


request, fds = serve()
del serve, read_line
become(request, fds)
try:
    status = cli.main()
except SystemExit as exc:
    status = exc.code
except KeyboardInterrupt:
    traceback.print_exc()
    sys.stderr.flush()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)
except BaseException:
    sys.excepthook(*sys.exc_info())
    status = 1
finish(exit_code(status))
"""


LAUNCHER = r"""
import json, os, signal, socket, sys

path, *args = sys.argv[1:]
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.connect(path)
request = {"args": args, "env": dict(os.environ), "cwd": os.getcwd()}
socket.send_fds(server, [json.dumps(request).encode()], [0, 1, 2])
for fd in (0, 1, 2):  # the child holds them now: the other end sees EOF when the child closes them
    os.close(fd)
data = b""
while chunk := server.recv(1 << 16):
    data += chunk
code = json.loads(data)["returncode"] if data else 1
if code < 0:
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
os._exit(code)
"""
"""A stand-in for ``python -m memory_review.cli ARGS`` that a library starts itself (the MCP SDK's client):
it hands its stdin, stdout and stderr to a forked child and exits with the child's exit code."""


class _Server:
    """One forking interpreter per test process, started at the first call, stopped at exit."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.lock = threading.Lock()
        self.socket = ""
        self.broken = False

    def start(self) -> subprocess.Popen[bytes] | None:
        """The running server, started if need be; None when it cannot start (the kit starts afresh)."""
        if self.broken:
            return None
        if self.process is None or self.process.poll() is not None:
            self.socket = str(Path(tempfile.mkdtemp(prefix="cli-fork-")) / "socket")
            code = f"PRELOAD = {PRELOAD!r}\nSOCKET = {self.socket!r}\n{SERVER}"
            self.process = subprocess.Popen(
                [sys.executable, "-c", code],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                cwd=tempfile.gettempdir(),
            )
            assert self.process.stdout is not None
            if self.process.stdout.readline() != b"ready\n":
                self.broken = True
                return None
        return self.process

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(timeout=30)
        if self.socket:  # the folder start() made for the socket
            shutil.rmtree(Path(self.socket).parent, ignore_errors=True)

    def forks(self) -> bool:
        """Whether the server is up (the kit's own test checks the suite is not silently starting afresh)."""
        return self.process is not None and self.process.poll() is None

    def call(self, request: dict[str, object]) -> dict[str, object] | None:
        """The child's exit, or None when the server itself is gone (the caller starts a fresh process)."""
        process = self.start()
        if process is None:
            return None
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps(request).encode() + b"\n")
            process.stdin.flush()
        except BrokenPipeError:
            return None
        line = process.stdout.readline()
        return json.loads(line) if line else None


_SERVER = _Server()
atexit.register(_SERVER.stop)


def _starts_differently(env: Mapping[str, str]) -> bool:
    """Whether ``env`` changes what a fresh interpreter would do before our code runs."""
    names = {k for k in (*env, *os.environ) if k.startswith("PYTHON") or k == "MEMORY_REVIEW_FAULT"}
    return any(env.get(k) != os.environ.get(k) for k in names) or "MEMORY_REVIEW_FAULT" in env


def run_cli(
    args: list[str],
    *,
    env: Mapping[str, str] | None,
    cwd: Path,
    stdin: bytes | None = None,
    timeout: float = 60,
    fresh: bool = False,
) -> subprocess.CompletedProcess[bytes]:
    """``python -m memory_review.cli ARGS`` in ``cwd`` with ``env``: its exit code, stdout and stderr bytes."""
    env = dict(os.environ if env is None else env)
    argv = [*ARGV_HEAD, *args]
    if fresh or FULL or _starts_differently(env) or threading.current_thread() is not threading.main_thread():
        return _fresh(argv, env, cwd, stdin, timeout)
    if not _SERVER.lock.acquire(blocking=False):
        return _fresh(argv, env, cwd, stdin, timeout)
    try:
        return _forked(argv, env, cwd, stdin, timeout)
    finally:
        _SERVER.lock.release()


def command_line(args: list[str]) -> list[str]:
    """A command line that runs ``memory-review ARGS`` as a forked child, for a library that starts the
    process itself (the MCP SDK's stdio client); a new interpreter's when the kit starts afresh."""
    if FULL or _SERVER.start() is None:
        return [*ARGV_HEAD, *args]
    return [sys.executable, "-S", "-c", LAUNCHER, _SERVER.socket, *args]


def _fresh(
    argv: list[str], env: dict[str, str], cwd: Path, stdin: bytes | None, timeout: float
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(argv, input=stdin, env=env, cwd=cwd, capture_output=True, timeout=timeout, check=False)


def _forked(
    argv: list[str], env: dict[str, str], cwd: Path, stdin: bytes | None, timeout: float
) -> subprocess.CompletedProcess[bytes]:
    with tempfile.TemporaryDirectory(prefix="cli-fork-") as folder:
        files = {name: Path(folder) / name for name in ("stdin", "stdout", "stderr")}
        files["stdin"].write_bytes(stdin or b"")
        files["stdout"].touch()
        files["stderr"].touch()
        request = {"args": argv[3:], "env": env, "cwd": str(cwd), "timeout": timeout}
        request |= {name: str(path) for name, path in files.items()}
        if stdin is None:
            request["stdin"] = os.devnull
        done = _SERVER.call(request)
        if done is None:
            return _fresh(argv, env, cwd, stdin, timeout)
        out, err = files["stdout"].read_bytes(), files["stderr"].read_bytes()
    if done["killed"]:
        raise subprocess.TimeoutExpired(argv, timeout, out, err)
    returncode = done["returncode"]
    assert isinstance(returncode, int)
    return subprocess.CompletedProcess(argv, returncode, out, err)


def as_text(done: subprocess.CompletedProcess[bytes]) -> subprocess.CompletedProcess[str]:
    """What ``subprocess.run(..., text=True)`` would have returned: decoded, newlines translated."""

    def decode(data: bytes) -> str:
        return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")

    return subprocess.CompletedProcess(done.args, done.returncode, decode(done.stdout), decode(done.stderr))


def text_input(stdin: str | None) -> bytes | None:
    """The bytes ``subprocess.run(..., text=True, input=stdin)`` would have written."""
    return None if stdin is None else stdin.encode(locale.getpreferredencoding(False))
