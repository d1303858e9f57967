"""The resident server runs a command as the in-process path does (docs/adr/0060): same bytes out, same
exit codes, same store; the client's stdin, cwd, environment and umask; ctrl+c; a server that dies.

Real processes and sockets throughout: the console script's code in a client process, a server started by
it in the background, a forked child per command (``resident_kit``).
"""

from __future__ import annotations

import _socket
import errno
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from resident_kit import (
    Resident,
    children_of,
    copy_world,
    store_files,
    wait_until_it_opens,
    without_clock,
)

from memory_review.locking import store_lock
from memory_review.resident import client
from memory_review.workspace import Workspace

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the resident server is Linux only")

INTERRUPTED = b"memory-review: interrupted (nothing was half done)\n"


def _proposal(memory_id: str, scope: str = "project") -> bytes:
    return json.dumps(
        {
            "op": "create",
            "scope": scope,
            "memory": {"id": memory_id, "type": "convention", "description": f"About {memory_id}", "body": "Do it."},
            "rationale": "Said twice.",
            "evidence": [{"quote": "do it", "session_id": "s1", "turn_id": "t1"}],
        }
    ).encode()


@pytest.fixture
def resident(tmp_path: Path):
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "world" / "home"), "MEMORY_REVIEW_ACTOR": "alice"}
    server = Resident(tmp_path, env)
    yield server
    server.stop()


def _repo(resident: Resident, root: Path) -> Path:
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True, timeout=60)
    done, _ = resident.run(["init"], root)
    assert done.returncode == 0, done.stderr
    return root


def _propose(resident: Resident, repo: Path, memory_id: str, scope: str = "project") -> str:
    done, _ = resident.run(["propose", "--json", "--file", "-"], repo, stdin=_proposal(memory_id, scope))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["id"]


def _scenario(resident: Resident, repo: Path, ids: list[str]) -> list[tuple[list[str], int, bytes, bytes, str]]:
    steps = [
        ["list"],
        ["list", "--json"],
        ["show", ids[0]],
        ["apply", ids[0]],
        ["discard", ids[1], "--reason", "not so"],
        ["apply", ids[2], "--json"],
        ["apply", "cand_nosuchcandidate"],
        ["list", "--bogus-flag"],
        ["memories"],
        ["memories", "--json"],
        ["context"],
        ["context", "--json", "--query", "about"],
        ["verify"],
        ["verify", "--json"],
        ["log"],
        ["log", "--json"],
    ]
    results = []
    for args in steps:
        done, way = resident.run(args, repo)
        results.append((args, done.returncode, without_clock(done.stdout), without_clock(done.stderr), way))
    return results


def test_a_scenario_through_the_server_gives_the_same_bytes_codes_and_stores_as_in_process(
    resident: Resident, tmp_path: Path
) -> None:
    world = tmp_path / "world"
    repo = _repo(resident, world / "repo")
    ids = [
        _propose(resident, repo, "first"),
        _propose(resident, repo, "second"),
        _propose(resident, repo, "third", "user"),
    ]
    copy_world(world, tmp_path / "before")
    copy_world(tmp_path / "before", world)  # restored as for the second run: the read indexes see new inodes

    here = _scenario(resident, repo, ids)
    stores_here = store_files(repo / ".memory-review"), store_files(world / "home")
    assert {way for *_, way in here} == {"in-process"}

    copy_world(tmp_path / "before", world)
    resident.on()
    resident.start(repo)
    served = _scenario(resident, repo, ids)
    assert {way for *_, way in served} == {"resident"}, resident.log()

    assert [step[:4] for step in served] == [step[:4] for step in here]
    assert {code for _, code, *_ in here} == {0, 1, 2}  # successes, an error and a usage error compared
    stores = store_files(repo / ".memory-review"), store_files(world / "home")
    for now, then in zip(stores, stores_here, strict=True):
        assert sorted(now) == sorted(then)
        assert [name for name in now if now[name] != then[name]] == []


def test_stdin_cwd_environment_and_umask_are_the_clients(resident: Resident, tmp_path: Path) -> None:
    world = tmp_path / "world"
    first, second = _repo(resident, world / "first"), _repo(resident, world / "second")
    resident.on()
    resident.start(first)

    # stdin: the proposal, read by the child from the client's stdin
    done, way = resident.run(["propose", "--json", "--file", "-"], first, stdin=_proposal("from-stdin"), umask=0o077)
    assert (way, done.returncode) == ("resident", 0), done.stderr
    in_first = json.loads(done.stdout)["id"]
    # cwd: another project, from another folder, through the same server
    done, way = resident.run(["propose", "--json", "--file", "-"], second, stdin=_proposal("elsewhere"), umask=0o022)
    assert (way, done.returncode) == ("resident", 0), done.stderr
    in_second = json.loads(done.stdout)["id"]
    listed_first, _ = resident.run(["list", "--json"], first)
    listed_second, _ = resident.run(["list", "--json"], second)
    assert [c["id"] for c in json.loads(listed_first.stdout)] == [in_first]
    assert [c["id"] for c in json.loads(listed_second.stdout)] == [in_second]
    # umask: the child's files are made with the client's
    assert (first / ".memory-review" / "candidates" / f"{in_first}.json").stat().st_mode & 0o777 == 0o600
    assert (second / ".memory-review" / "candidates" / f"{in_second}.json").stat().st_mode & 0o777 == 0o644

    # environment: another person and another HOME, one server; a variable that is not UTF-8 travels as its bytes
    bob = {**resident.env, "MEMORY_REVIEW_ACTOR": "bob", "HOME": str(tmp_path / "bobs-home"), "ODD": "caf\udce9"}
    done, way = resident.run(["apply", in_first], first, env=bob)
    assert (way, done.returncode) == ("resident", 0), done.stderr
    done, way = resident.run(["apply", in_second], second)
    assert (way, done.returncode) == ("resident", 0), done.stderr
    actors = {}
    for repo in (first, second):
        log, _ = resident.run(["log", "--json", "--type", "candidate.applied"], repo)
        actors[repo.name] = [event["actor"] for event in json.loads(log.stdout)]
    assert actors == {"first": ["bob"], "second": ["alice"]}


@contextmanager
def _an_apply_waiting_for_the_lock(
    resident: Resident, tmp_path: Path
) -> Iterator[tuple[Path, str, int, int, subprocess.Popen[bytes]]]:
    """An ``apply`` handed to the server while the test holds the store lock: the repository, the candidate, the
    server's pid, the pid of the child that waits for the lock, and the client process."""
    repo = _repo(resident, tmp_path / "world" / "repo")
    candidate = _propose(resident, repo, "no-mocks")
    resident.on()
    server = resident.start(repo)
    lock = Workspace.open(repo).project.lock_path
    with store_lock(lock):
        client = resident.popen(["apply", candidate], repo)
        child = wait_until_it_opens(lambda: children_of(server), lock.resolve())
        yield repo, candidate, server, child, client


def test_ctrl_c_is_passed_to_the_command_which_stops_with_nothing_half_done(resident: Resident, tmp_path: Path) -> None:
    """As tests/memory_review/test_cli_interrupt.py, with the command in the server's child: the client
    gets the SIGINT (as the terminal's foreground process would) and passes it on."""
    with _an_apply_waiting_for_the_lock(resident, tmp_path) as (repo, candidate, _server, _child, client):
        client.send_signal(signal.SIGINT)
        out, err = client.communicate(timeout=120)
    assert client.returncode == 130, err.decode()
    assert err == INTERRUPTED
    assert out == b""
    assert resident._ways()[-1] == "resident"
    verified, _ = resident.run(["verify"], repo)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert [s.candidate.id for s in Workspace.open(repo).list_candidates()] == [candidate]  # pending


def test_a_server_killed_while_it_runs_a_command_leaves_its_outcome_unknown_never_retried(
    resident: Resident, tmp_path: Path
) -> None:
    with _an_apply_waiting_for_the_lock(resident, tmp_path) as (repo, candidate, server, child, client):
        os.kill(server, signal.SIGKILL)
        client.wait(timeout=120)
        os.kill(child, signal.SIGKILL)  # the orphaned command, still waiting for the lock: as a crash
        resident.wait_gone(child)
        out, err = client.communicate(timeout=120)  # the child held the pipes too
    assert client.returncode == 75
    assert (
        err.decode().count("\n") == 1 and "outcome is unknown" in err.decode() and "memory-review log" in err.decode()
    )
    verified, _ = resident.run(["verify"], repo)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert [s.candidate.id for s in Workspace.open(repo).list_candidates()] == [candidate]  # never run twice


class _PeerDoneWithTheRequest(_socket.socket):
    """A real socket whose peer, once it has the whole request, runs the command and closes: a send after that
    fails as the kernel's does (EPIPE), whether it carries bytes or none."""

    whole = False

    def sendmsg(self, buffers, ancdata=(), flags=0, address=None):  # type: ignore[no-untyped-def]
        sent = super().sendmsg(buffers, ancdata, flags)
        self.whole = sent == sum(len(b) for b in buffers)
        return sent

    def sendall(self, data, flags=0):  # type: ignore[no-untyped-def]
        if self.whole:
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")
        return super().sendall(data, flags)


def test_a_request_sent_whole_is_not_followed_by_another_send(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Found under load: the whole request went out in one sendmsg, the child ran the command (a quick one) and its
    # connection was closed, then the client's sendall(b"") of "the rest" failed with EPIPE and the client ran the
    # command a second time in-process (1 run in 5 of the scenario above failed on it).
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    sock = _PeerDoneWithTheRequest(_socket.AF_UNIX, _socket.SOCK_STREAM, 0, left.detach())
    handover = client._Handover(-1, str(tmp_path))
    for name in ("stdin", "stdout", "stderr"):  # pytest's captured streams have no encoding, a console's do
        monkeypatch.setattr(sys, name, open(os.devnull, "r+", encoding="utf-8"))  # noqa: SIM115 - closed below
    try:
        handover._send(sock, ["list"])  # raised "the server did not take the request", then ran it here
        head, fds, _flags, _ = socket.recv_fds(right, 8, 5)
        assert head[:4] == b"MRR1" and len(fds) == 4
    finally:
        sock.close()
        right.close()
        for fd in locals().get("fds", []):
            os.close(fd)
        for name in ("stdin", "stdout", "stderr"):
            getattr(sys, name).close()
    assert handover.sent


def test_a_server_gone_before_the_connection_means_in_process_and_a_new_server(
    resident: Resident, tmp_path: Path
) -> None:
    repo = _repo(resident, tmp_path / "world" / "repo")
    resident.on()
    server = resident.start(repo)
    os.kill(server, signal.SIGKILL)
    resident.wait_gone(server)
    assert (resident.folder / "socket").exists()  # left behind by the killed server
    done, way = resident.run(["list"], repo)
    assert (way, done.returncode, done.stderr) == ("in-process", 0, b"")
    resident.wait_ready(repo)  # and that command started a new one
    assert resident.status()["pid"] != server


def test_a_server_that_does_not_accept_leaves_the_command_to_the_client_and_runs_it_once(
    resident: Resident, tmp_path: Path
) -> None:
    """ADR 0170's left item: past 64 slow commands a connection waited in the backlog with no deadline, its
    request already sent (giving up could have run it twice). Now nothing is sent before the server's ``ready``."""
    repo = _repo(resident, tmp_path / "world" / "repo")
    resident.on()
    server = resident.start(repo)
    os.kill(server, signal.SIGSTOP)  # as busy as a server can be: it accepts nothing
    try:
        done, way = resident.run(["propose", "--json", "--file", "-"], repo, stdin=_proposal("m-once", "project"))
    finally:
        os.kill(server, signal.SIGCONT)
    assert (way, done.returncode) == ("in-process", 0), done.stderr
    assert b"did not take the command within 2 s (running it here)" in done.stderr
    resident.wait_ready(repo)  # it served the abandoned connection: its child found no request, ran nothing
    listed, _ = resident.run(["list", "--json"], repo)
    assert len(json.loads(listed.stdout)) == 1 and b"m-once" in listed.stdout


def _no_new_privs() -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS, as bwrap and firejail set it
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")


@pytest.mark.parametrize("last_words", [b"", b"exit 1 0.01 0.00 0\n"], ids=["server-killed", "child-died-first"])
def test_a_server_gone_before_the_command_started_leaves_it_to_the_client(
    resident: Resident, tmp_path: Path, last_words: bytes
) -> None:
    """Session 38's re-review: a server killed between accept and fork, or a child that died before its "pid" line
    (the server then reports its exit), said "outcome unknown" (exit 75), though nothing had run. A stand-in server
    that takes the request and answers no "pid" line."""
    import threading

    repo = _repo(resident, tmp_path / "world" / "repo")
    resident.on()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(resident.folder / "socket"))
    listener.listen(1)

    def take_and_vanish() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.sendall(b"ready\n")
            conn.recv(1 << 20)  # the request, then gone: as a server killed before it forked
            conn.sendall(last_words)

    stand_in = threading.Thread(target=take_and_vanish, daemon=True)
    stand_in.start()
    try:
        done, way = resident.run(["list"], repo)
    finally:
        stand_in.join(timeout=60)
        listener.close()
    assert (way, done.returncode) == ("in-process", 0), done.stderr
    assert b"the server went away before it took the command (running it here)" in done.stderr


def test_a_caller_confined_otherwise_runs_its_command_itself(resident: Resident, tmp_path: Path) -> None:
    """ADR 0170's left item: a fork of the server has the server's confinement, not a sandboxed caller's. A
    caller with no_new_privs set (what a sandbox sets) is not served; it runs the command itself, quietly."""
    repo = _repo(resident, tmp_path / "world" / "repo")
    resident.on()
    resident.start(repo)
    done, way = resident.run(["list"], repo, preexec_fn=_no_new_privs)
    assert (way, done.returncode, done.stderr) == ("in-process", 0, b"")
    done, way = resident.run(["list"], repo)
    assert (way, done.returncode) == ("resident", 0)  # an unconfined caller still is


def test_a_callers_lower_resource_limits_hold_for_its_command(resident: Resident, tmp_path: Path) -> None:
    """A file size limit (``ulimit -f``) the caller runs under holds in the server's child as it would here."""
    import resource

    repo = _repo(resident, tmp_path / "world" / "repo")
    resident.on()
    resident.start(repo)
    small = 2048

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (small, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))

    big = json.dumps(
        {
            "op": "create",
            "scope": "project",
            "memory": {"id": "big-one", "type": "fact", "description": "d", "body": "words " * 600},
            "rationale": "r",
        }
    ).encode()
    done, way = resident.run(["propose", "--file", "-"], repo, stdin=big, preexec_fn=limited)
    assert way == "resident" and done.returncode != 0, done.stderr
    assert b"File too large" in done.stderr
    listed, _ = resident.run(["list", "--json"], repo)
    assert json.loads(listed.stdout) == []


def test_the_client_imports_no_library_when_it_hands_a_command_over(resident: Resident, tmp_path: Path) -> None:
    repo = _repo(resident, tmp_path / "world" / "repo")
    resident.on()
    resident.start(repo)
    probe = tmp_path / "client" / "probe.py"
    probe.write_text(
        "import sys\nfrom memory_review.main import main\ncode = main()\n"
        "sys.stderr.write(' '.join(sorted(m for m in sys.modules if m.startswith(('memory_review', 'pydantic')))))\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, str(probe), "list"], cwd=repo, env=resident.env, capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 0
    loaded = done.stderr.decode().split()
    assert loaded == [
        "memory_review",
        "memory_review.errors",
        "memory_review.main",
        "memory_review.resident",
        "memory_review.resident.client",
        "memory_review.resident.place",
    ]


def test_with_resident_off_the_check_loads_nothing_and_starts_nothing(tmp_path: Path) -> None:
    """What the console script (which has imported ``memory_review.main``) adds to every command when
    resident is off: a path computed and one ``lstat``, no module."""
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home")}
    code = (
        "import sys, memory_review.main as m\nbefore = set(sys.modules)\nsys.argv = ['memory-review', 'list']\n"
        "print(m._handed_over(), sorted(set(sys.modules) - before))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout == "None []\n"
    assert not (tmp_path / "home" / "resident").exists()


@pytest.mark.parametrize(
    "settings",
    [
        {"MEMORY_REVIEW_HOME": "/srv/../srv/store"},
        {"MEMORY_REVIEW_HOME": "~/mr"},
        {"XDG_CONFIG_HOME": "/cfg"},
        {"XDG_CONFIG_HOME": "relative/is/ignored"},
        {},
    ],
)
def test_the_console_script_and_the_client_look_in_one_folder(settings: dict[str, str]) -> None:
    from memory_review import main
    from memory_review.resident import place

    environ = {"HOME": "/home/someone", **settings}
    guess = main.user_store_guess(environ)
    assert guess is not None
    assert place.folder(environ) == os.path.join(guess, "resident")
    assert place.FOLDER == "resident"  # the name main.py looks for


def test_commands_that_need_the_terminal_or_are_another_programs_run_in_process(
    resident: Resident, tmp_path: Path
) -> None:
    repo = _repo(resident, tmp_path / "world" / "repo")
    resident.on()
    server = resident.start(repo)
    lines = [["edit", "--help"], ["demo", "--help"], ["forget", "--help"], ["sync", "--help"], ["review", "--help"]]
    lines += [["mcp", "--help"], ["hook", "errors"], ["resident", "status"], ["--help"], ["--version"]]
    for args in lines:
        done, way = resident.run(args, repo)
        assert (args, way, done.returncode) == (args, "in-process", 0), done.stderr
    done, way = resident.run(["--project", str(repo), "list"], repo)  # a global option first: still handed over
    assert (way, done.returncode) == ("resident", 0)
    assert resident.status()["pid"] == server


def test_a_command_with_a_closed_standard_stream_runs_in_process(resident: Resident, tmp_path: Path) -> None:
    """Session 37's last review: the client read a closed stream's encoding and ended in a traceback."""
    repo = _repo(resident, tmp_path / "world" / "repo")
    resident.on()
    resident.start(repo)
    done = subprocess.run(
        ["bash", "-c", f"{shlex.quote(sys.executable)} {shlex.quote(str(resident.wrapper))} list <&-"],
        cwd=repo,
        env=resident.env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert resident.report.read_text().split()[-1] == "in-process"


def test_the_server_keeps_no_descriptor_of_the_command_that_started_it(resident: Resident, tmp_path: Path) -> None:
    """Session 37's last review: the server held a pipe the starting command inherited, and its reader never ended."""
    repo = _repo(resident, tmp_path / "world" / "repo")
    resident.on()
    client = f"{shlex.quote(sys.executable)} {shlex.quote(str(resident.wrapper))}"
    done = subprocess.run(
        ["bash", "-c", f"{{ {client} list 7>&1 >/dev/null; }} | cat"],
        cwd=repo,
        env=resident.env,
        capture_output=True,
        timeout=120,  # the pipe's reader ends when the command does, not when the server does
        check=False,
    )
    assert done.returncode == 0, done.stderr
    resident.start(repo)  # the server this started is the fixture's to stop
