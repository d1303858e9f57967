"""The resident server trusts nothing it did not check (docs/adr/0060): its folder and socket, the peer, the
request, its own code; it stops when told, when idle, when its code changed; off means no server at all.

Every refusal is one line, and the command then runs in-process with the same result.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from resident_kit import WAIT, Resident

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the resident server is Linux only")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def resident(tmp_path: Path):
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home"), "MEMORY_REVIEW_ACTOR": "alice"}
    server = Resident(tmp_path, env)
    yield server
    server.stop()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True, timeout=60)
    return root


def _refused_then_in_process(resident: Resident, repo: Path, reason: str) -> None:
    done, way = resident.run(["list"], repo)
    assert (way, done.returncode, done.stdout) == ("in-process", 0, b"no pending candidates\n")
    err = done.stderr.decode()
    assert err.count("\n") == 1 and err.startswith("memory-review: resident server not used: "), err
    assert reason in err and err.endswith("(running it here)\n"), err


def test_a_folder_open_to_others_is_refused(resident: Resident, repo: Path) -> None:
    resident.on()
    resident.start(repo)
    resident.folder.chmod(0o777)
    _refused_then_in_process(resident, repo, "is open to others (mode 777, must be 700)")


def test_a_folder_that_is_a_link_is_refused(resident: Resident, repo: Path, tmp_path: Path) -> None:
    resident.on()
    real = tmp_path / "elsewhere"
    real.mkdir(mode=0o700)
    shutil.rmtree(resident.folder)
    resident.folder.symlink_to(real)
    _refused_then_in_process(resident, repo, "is not a folder of its own")
    assert list(real.iterdir()) == []  # no server was started there


def test_a_socket_that_is_not_a_socket_is_refused_and_left_alone(resident: Resident, repo: Path) -> None:
    resident.on()
    planted = resident.folder / "socket"
    planted.write_bytes(b"not a socket")
    _refused_then_in_process(resident, repo, "is not a socket")
    assert planted.read_bytes() == b"not a socket"


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_another_users_folder_or_socket_is_refused(resident: Resident, repo: Path) -> None:
    resident.on()
    resident.start(repo)
    os.chown(resident.folder / "socket", 65534, 65534)
    _refused_then_in_process(resident, repo, "socket belongs to uid 65534, not to you")
    os.chown(resident.folder / "socket", 0, 0)
    os.chown(resident.folder, 65534, 65534)
    _refused_then_in_process(resident, repo, "belongs to uid 65534, not to you")
    os.chown(resident.folder, 0, 0)


def _connect(resident: Resident) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(WAIT)
    sock.connect(str(resident.folder / "socket"))
    return sock


def _answer(sock: socket.socket) -> bytes:
    """What the server said after its ``ready`` line (sent on every connection it accepts)."""
    data = b""
    while chunk := sock.recv(4096):
        data += chunk
    assert data.startswith(b"ready\n"), data
    return data[len(b"ready\n") :]


def test_garbage_oversized_short_and_slow_requests_never_stop_the_server(resident: Resident, repo: Path) -> None:
    resident.on()
    server = resident.start(repo)
    slow = _connect(resident)
    slow.send(b"MRR1")  # and then nothing: its child gives up on it; nobody waits for it
    with _connect(resident) as garbage:
        garbage.sendall(b"GET / HTTP/1.0\r\n\r\n" * 100)
        assert _answer(garbage).startswith(b"refused 0 0 ")
    with _connect(resident) as huge:
        r, w = os.pipe()
        socket.send_fds(huge, [b"MRR1" + (1 << 31).to_bytes(4, "big")], [r, w, w, r])
        os.close(r), os.close(w)
        assert b"a request of 2147483648 bytes" in _answer(huge)
    with _connect(resident) as not_json:
        socket.send_fds(not_json, [b"MRR1" + (5).to_bytes(4, "big") + b"{{{{{"], [0, 1, 2, 0])
        assert b"malformed request" in _answer(not_json)
    with _connect(resident) as no_fds:
        no_fds.sendall(b"MRR1" + (2).to_bytes(4, "big") + b"{}")
        assert b"4 descriptors" in _answer(no_fds)
    with _connect(resident) as wrong_shape:
        socket.send_fds(wrong_shape, [b"MRR1" + (9).to_bytes(4, "big") + b'{"v": 2}\n'], [0, 1, 2, 0])
        assert b"malformed request" in _answer(wrong_shape)
    with _connect(resident):
        pass  # connected and gone
    done, way = resident.run(["list"], repo)  # while the slow one is still open
    assert (way, done.returncode, done.stdout) == ("resident", 0, b"no pending candidates\n")
    slow.close()
    assert resident.status()["pid"] == server


def _installed_copy(tmp_path: Path) -> Path:
    """The package as an installation of its own (``PYTHONPATH``), so a test can change its files."""
    site = tmp_path / "site"
    shutil.copytree(ROOT / "memory_review", site / "memory_review", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "events", site / "memory_review" / "events", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tui", site / "memory_review" / "tui", ignore=shutil.ignore_patterns("__pycache__"))
    return site


def test_changed_code_is_refused_and_the_old_server_exits_for_a_new_one(tmp_path: Path, repo: Path) -> None:
    site = _installed_copy(tmp_path)
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home"), "PYTHONPATH": str(site)}
    resident = Resident(tmp_path, env)
    try:
        resident.on()
        old = resident.start(repo)
        module = site / "memory_review" / "cli_render.py"  # a module the server imported
        module.write_text(module.read_text() + "\n# upgraded\n")
        done, way = resident.run(["list"], repo)
        assert (way, done.returncode, done.stdout, done.stderr) == ("in-process", 0, b"no pending candidates\n", b"")
        resident.wait_gone(old)
        assert "exits: the installed code changed" in resident.log()
        resident.wait_ready(repo)  # the refused command started the new one
        new = resident.status()["pid"]
        assert new != old
        (site / "memory_review" / "brand_new.py").write_text("")  # a module added: its folder changed
        done, way = resident.run(["list"], repo)
        assert way == "in-process"
        resident.wait_gone(int(new))  # type: ignore[arg-type]
    finally:
        resident.stop()


def test_another_interpreter_setting_is_refused_quietly(resident: Resident, repo: Path) -> None:
    resident.on()
    server = resident.start(repo)
    env = {**resident.env, "PYTHONWARNINGS": "ignore::DeprecationWarning"}
    done, way = resident.run(["list"], repo, env=env)
    assert (way, done.returncode, done.stderr) == ("in-process", 0, b"")
    assert resident.status()["pid"] == server  # that server still serves its own kind


def test_the_server_exits_when_idle(resident: Resident, repo: Path) -> None:
    resident.on(idle=1)
    server = resident.start(repo, ready=False)  # a second here may be all its idle time: no command waits on it
    resident.wait_gone(server)
    assert "exits: idle for 1 s" in resident.log()
    assert not (resident.folder / "socket").exists()
    assert resident.status()["running"] is False


def test_off_stops_the_server_and_removes_its_folder(resident: Resident, repo: Path) -> None:
    resident.on()
    server = resident.start(repo)
    done = resident.cli("resident", "off")
    assert done.returncode == 0, done.stderr
    assert resident.gone(server)
    assert not resident.folder.exists()
    done, way = resident.run(["list"], repo)
    assert (way, done.returncode) == ("in-process", 0)


def test_with_resident_off_no_server_ever_starts(resident: Resident, repo: Path) -> None:
    for args in (["init"], ["list"], ["memories"], ["context"], ["verify"], ["log"]):
        done, way = resident.run(args, repo)
        assert (way, done.returncode) == ("in-process", 0), done.stderr
    assert not resident.folder.exists()
    assert _servers_of(resident.folder) == []


def _servers_of(folder: Path) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if os.fsencode(folder) in argv and any(b"memory_review.resident.server" in a for a in argv):
            found.append(int(entry.name))
    return found


def test_a_sigterm_lets_the_running_commands_finish_then_the_server_exits(resident: Resident, repo: Path) -> None:
    resident.on()
    server = resident.start(repo)
    os.kill(server, signal.SIGTERM)
    resident.wait_gone(server)
    assert "exits: told to stop (SIGTERM)" in resident.log()
    assert not (resident.folder / "socket").exists()


def test_a_repository_cannot_switch_it_on(resident: Resident, repo: Path) -> None:
    """A clone that ships a resident folder (in its store, or where a user store would be under it) is
    never looked at: only the user's environment locates the folder."""
    for planted in (repo / ".memory-review" / "resident", repo / ".config" / "memory-review" / "resident"):
        planted.mkdir(parents=True, mode=0o700)
        (planted / "config.json").write_text('{"idle_seconds": 5}\n')
    env = {**resident.env, "HOME": str(repo)}  # even with HOME inside the clone, MEMORY_REVIEW_HOME decides
    done, way = resident.run(["list"], repo, env=env)
    assert (way, done.returncode, done.stderr) == ("in-process", 0, b"")
    assert not resident.folder.exists()
    assert sorted(p.name for p in (repo / ".memory-review" / "resident").iterdir()) == ["config.json"]


def test_on_with_new_settings_restarts_the_server_with_them(resident: Resident, repo: Path) -> None:
    resident.on(idle=900)
    first = resident.start(repo)
    resident.on(idle=1)  # the running server read 900: it is stopped, the next command starts one with 1
    assert resident.gone(first)
    done, _ = resident.run(["list"], repo)  # runs in-process and starts the next server
    assert done.returncode == 0, done.stderr
    # Read from its log, not by polling `status`: a loaded machine can take longer to start a status process than
    # the new server takes to sit idle for 1 s and exit.
    deadline = time.monotonic() + WAIT
    while "exits: idle for 1 s" not in resident.log():
        assert time.monotonic() < deadline, resident.log()
        time.sleep(0.02)
    [second] = [int(pid) for pid in re.findall(r"\(pid (\d+), idle timeout 1 s\)", resident.log())]
    resident.pids.add(second)
    assert second != first
    resident.wait_gone(second)
