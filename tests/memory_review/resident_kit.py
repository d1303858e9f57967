"""A user store with the resident server on, driven through real processes (docs/adr/0060).

Every command line runs as ``python <tmp>/memory_review_client.py ARGS``: the console script's own two lines
(``from memory_review.main import main``; exit with its status), plus one line appended to a report file
after it: ``resident`` when the process imported none of the library but the client (the command was
handed over), else ``in-process``. So each test says which way each command went, from the process itself. The wrapper's
folder is its ``sys.path[0]``, as the console script's ``bin/`` is, so the server takes it as the same
installation.

:class:`Resident` records every server pid it sees; the fixture stops them all at teardown and checks no
process is left.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

WRAPPER = """import sys
from memory_review.main import main
try:
    code = main()
finally:  # argparse's usage errors leave through SystemExit
    with open({report!r}, "a") as report:
        client = {{"memory_review", "memory_review.errors", "memory_review.main", "memory_review.resident",
                  "memory_review.resident.client", "memory_review.resident.place"}}
        ours = {{m for m in sys.modules if m.split(".")[0] == "memory_review"}}
        report.write(("resident" if ours <= client else "in-process") + "\\n")
sys.exit(code)
"""
WAIT = 120.0
"""The longest any wait here lasts before it fails (never an assertion about how long something took)."""


class Resident:
    """The resident server of the user store ``env`` names, and the command lines run against it."""

    def __init__(self, tmp_path: Path, env: dict[str, str]) -> None:
        self.env = env
        self.home = Path(env["MEMORY_REVIEW_HOME"])
        self.folder = self.home / "resident"
        self.report = tmp_path / "ways.txt"
        self.wrapper = tmp_path / "client" / "memory_review_client.py"
        self.wrapper.parent.mkdir(exist_ok=True)
        self.wrapper.write_text(WRAPPER.format(report=str(self.report)))
        self.pids: set[int] = set()

    def run(
        self,
        args: list[str],
        cwd: Path,
        *,
        stdin: bytes | None = None,
        env: dict[str, str] | None = None,
        umask: int = -1,
        preexec_fn: Callable[[], object] | None = None,
    ) -> tuple[subprocess.CompletedProcess[bytes], str]:
        """The command line's result, and the way it went (``resident`` or ``in-process``)."""
        before = self._ways()
        done = subprocess.run(
            [sys.executable, str(self.wrapper), *args],
            cwd=cwd,
            env=self.env if env is None else env,
            input=stdin,
            capture_output=True,
            timeout=WAIT,
            umask=umask,
            preexec_fn=preexec_fn,
            check=False,
        )
        ways = self._ways()[len(before) :]
        return done, ways[-1] if ways else "none"

    def popen(self, args: list[str], cwd: Path) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, str(self.wrapper), *args],
            cwd=cwd,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def _ways(self) -> list[str]:
        return self.report.read_text().split() if self.report.exists() else []

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``memory-review ARGS`` as a person runs it (``resident ...`` always runs in-process)."""
        return subprocess.run(
            [sys.executable, str(self.wrapper), *args],
            env=self.env,
            cwd=self.home.parent,
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=False,
        )

    def on(self, idle: int = 900) -> None:
        done = self.cli("resident", "on", "--idle", str(idle))
        assert done.returncode == 0, done.stderr

    def status(self) -> dict[str, object]:
        done = self.cli("resident", "status", "--json")
        assert done.returncode == 0, done.stderr
        found = json.loads(done.stdout)
        if found.get("pid"):
            self.pids.add(int(found["pid"]))
        return found

    def start(self, cwd: Path, *, ready: bool = True) -> int:
        """The running server's pid, started by a first command (which itself runs in-process); with
        ``ready``, once it has served a command."""
        done, way = self.run(["list"], cwd)
        assert done.returncode == 0, done.stderr
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            found = self.status()
            if found["running"]:
                pid = int(found["pid"])  # type: ignore[arg-type]
                if ready:
                    self.wait_ready(cwd)
                return pid
            time.sleep(0.02)
        raise AssertionError(f"no server started: {self.log()}")

    def wait_ready(self, cwd: Path) -> None:
        """Until a command goes to the server (it binds its socket before it has imported the library)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            done, way = self.run(["list"], cwd)
            assert done.returncode == 0, done.stderr
            if way == "resident":
                return
            time.sleep(0.02)
        raise AssertionError(f"the server never took a command: {self.log()}")

    def log(self) -> str:
        path = self.folder / "server.log"
        return path.read_text() if path.exists() else "(no server log)"

    def stop(self) -> None:
        """Teardown: the server off, every server and child seen gone."""
        if self.folder.is_dir() and not self.folder.is_symlink():
            self.folder.chmod(0o700)
            if self.cli("resident", "status").returncode == 0:
                self.status()
            done = self.cli("resident", "off")
            assert done.returncode == 0, done.stderr
        for pid in self.pids:
            if not self.gone(pid):
                os.kill(pid, signal.SIGKILL)
        for pid in self.pids:
            self.wait_gone(pid)

    def gone(self, pid: int) -> bool:
        """Whether the server (or a child of it) that had ``pid`` has exited: pids are reused within seconds
        on this machine (pid_max 32768 and a suite of git processes), so a live ``pid`` that is not running
        this folder's server is another process, never to be waited for or killed."""
        return gone(pid) or not _serves(pid, self.folder)

    def wait_gone(self, pid: int) -> None:
        deadline = time.monotonic() + WAIT
        while not self.gone(pid):
            if time.monotonic() > deadline:
                raise AssertionError(f"process {pid} is still running")
            time.sleep(0.02)


def _serves(pid: int, folder: Path) -> bool:
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return os.fsencode(folder) in argv and any(b"memory_review.resident.server" in a for a in argv)


def gone(pid: int) -> bool:
    """Whether ``pid`` has exited (a zombie waiting for its parent counts as exited)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def wait_gone(pid: int) -> None:
    """Until ``pid`` exits: only for a process this test still holds (its own child), never a pid seen once."""
    deadline = time.monotonic() + WAIT
    while not gone(pid):
        if time.monotonic() > deadline:
            raise AssertionError(f"process {pid} is still running")
        time.sleep(0.02)


def children_of(pid: int) -> list[int]:
    """The live processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def wait_until_it_opens(pid_of: object, path: Path) -> int:
    """The pid (among ``pid_of()``'s) that has ``path`` open, once one has."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert callable(pid_of)
        for pid in pid_of():
            try:
                for fd in Path(f"/proc/{pid}/fd").iterdir():
                    try:
                        if Path(os.readlink(fd)) == path:
                            return pid
                    except OSError:
                        continue
            except OSError:
                continue
        time.sleep(0.01)
    raise AssertionError(f"no process opened {path}")


_TIMES = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")
_HASHES = re.compile(rb"\b[0-9a-f]{32,64}\b")
_REVS = re.compile(rb"-[0-9a-f]{12}\.md")
_STATS = re.compile(rb"\b\d{7,}\b")


def without_clock(data: bytes) -> bytes:
    """``data`` with the clock's traces replaced: timestamps, the hashes and revisions of what holds them,
    and the inode numbers and nanosecond mtimes the read indexes keep of the files they describe (two runs
    of one scenario differ only there)."""
    data = _REVS.sub(b"-<rev>.md", _HASHES.sub(b"<hash>", _TIMES.sub(b"<time>", data)))
    return _STATS.sub(b"<n>", data)


def store_files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` but the resident folder and git's, by path without the clock, contents
    likewise."""
    found = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        git = any(part.endswith(".git") for part in relative.parts)  # compressed, dated objects: `log` compares
        if relative.parts[:1] == ("resident",) or not path.is_file() or git:
            continue
        found[_REVS.sub(b"-<rev>.md", str(relative).encode()).decode()] = without_clock(path.read_bytes())
    return found


def copy_world(source: Path, target: Path) -> None:
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, symlinks=True)
