"""The console script's first step when resident is on: hand the command to the server (ADR 0060).

:func:`hand_over` returns the command's exit status, or None: run it here, in-process, as when resident
is off. None is returned for every reason the command was not handed over (resident off, a command that
always runs here, no server running, a server that refused); the reasons a person should know about (a
folder or socket that is not safely theirs) are said in one line on stderr first. With no server running,
one is started in the background and this command runs here: the first command never waits for it.

Once the request is sent the command is the server's: it is never run a second time here. Should the
connection drop before the server says how the command ended, the client says the outcome is unknown and
how to check, and exits 75 (``EX_TEMPFAIL``), never 0 or 1 (which promise a store untouched).

Standard library only, and cheap: the console script imports this before the library.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # signal's C half: every interpreter loads it at start-up
import os
import sys

from memory_review.errors import ResidentUnavailable
from memory_review.resident import place

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (2-3 ms of the resident client)

if TYPE_CHECKING:
    import _socket
    from collections.abc import Mapping

IN_PROCESS = frozenset({"review", "demo", "edit", "forget", "sync", "hook", "mcp", "resident"})
"""Commands that always run in-process: the review UI and the editor need the terminal as their
controlling terminal (job control, ctrl+z), and so do what opens ``/dev/tty`` (``forget``'s hidden prompt,
through ``getpass``; the ssh and git credential prompts of ``sync``), which a child of the server, in the
server's session, does not have; the hooks and the MCP server are other programs' children with their own
start-up paths; ``resident`` switches the server itself."""
GLOBAL_OPTIONS = ("--project", "--session")
"""The top level's options that take a value (``memory_review.cli._globals``); read here without argparse."""
UNKNOWN = 75
"""The exit status when the command was handed over and its outcome never came back (EX_TEMPFAIL)."""
RELAYED = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")
"""Signals meant for the command: ctrl+c reaches the client (the terminal's foreground process group),
which passes it on to the child running the command."""
BOOT = "import sys; from memory_review.resident.server import main; sys.exit(main(sys.argv[1]))"
"""The server's command line after ``python -P -c``: ``-P`` keeps the current folder (a repository,
perhaps) off ``sys.path``."""
FLAGS = (
    "optimize",
    "dev_mode",
    "utf8_mode",
    "no_user_site",
    "ignore_environment",
    "dont_write_bytecode",
    "bytes_warning",
    "warn_default_encoding",
    "isolated",
)


def command_word(args: list[str]) -> str | None:
    """The command ``args`` name, read as :func:`memory_review.cli.chosen_command` reads it: only
    ``--project``/``--session`` before it; anything else first (``--help``, ``--version``): None."""
    words = iter(args)
    for word in words:
        if word in GLOBAL_OPTIONS:
            next(words, None)
        elif word.startswith(tuple(f"{option}=" for option in GLOBAL_OPTIONS)):
            continue
        elif word.startswith("-"):
            return None
        else:
            return word
    return None


def hand_over(args: list[str], *, cost: dict[str, float] | None = None) -> int | None:
    """The exit status of ``memory-review ARGS`` run by the resident server; None: run it in-process.

    ``cost``, when given, receives what the server reported the command cost in CPU seconds: ``child``
    (the forked child, with the processes it waited for) and ``server`` (the server's own, for this
    request). ``benchmarks/case_resident.py`` adds them to the client's own."""
    if sys.platform != "linux":
        return None
    word = command_word(args)
    if word is None or word in IN_PROCESS:
        return None
    if sys.stdin is None or sys.stdout is None or sys.stderr is None:
        # A standard stream the caller closed: its descriptor may now be one this process opened (the resident
        # folder), which must not reach the child as its stdio; the command runs here (session 37's last review)
        return None
    try:
        path = place.folder(os.environ)
        fd = place.open_folder(path)
        if fd is None:
            return None
        handover = _Handover(fd, path, cost)
        try:
            return handover.run(args)
        except OSError as exc:  # the system refused something on the way: after the request, never run twice
            if handover.sent:
                return _unknown()
            raise ResidentUnavailable(f"cannot reach the server: {exc.strerror or exc}") from exc
        finally:
            os.close(fd)
    except ResidentUnavailable as exc:
        if not exc.quiet:
            print(f"memory-review: {exc} (running it here)", file=sys.stderr)
        return None


def identity() -> dict[str, object]:
    """What must be the same in the server for a command to run there as it would here: the interpreter,
    its flags and ``PYTHON*`` settings, where it imports from (``sys.path`` after its first entry, the
    entry script's own folder), and the package it imported."""
    return {
        "executable": wire(sys.executable),
        "path": [wire(entry) for entry in sys.path[1:]],
        "package": wire(sys.modules["memory_review"].__file__ or ""),
        "flags": {name: int(getattr(sys.flags, name)) for name in FLAGS},
        "xoptions": sorted(wire(f"{k}={v}") for k, v in sys._xoptions.items()),
        "warnoptions": [wire(option) for option in sys.warnoptions],
        "fs_encoding": sys.getfilesystemencoding(),
        "python_env": {wire(k): wire(v) for k, v in python_environment(os.environ).items()},
    }


def wire(text: str) -> str:
    """An argument or variable as it travels: its bytes (the file system encoding's) as Latin-1, so one
    that is not UTF-8 arrives as exactly its bytes (a JSON or pydantic string must be valid Unicode)."""
    return os.fsencode(text).decode("latin-1")


def unwire(text: str) -> str:
    """:func:`wire` undone, in an interpreter with the same file system encoding."""
    return os.fsdecode(text.encode("latin-1"))


def python_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The settings that change how an interpreter starts, or how pydantic loads (its plugin scan, off
    unless set: :func:`memory_review.main._command`)."""
    found = {k: v for k, v in environ.items() if k.startswith("PYTHON")}
    found["PYDANTIC_DISABLE_PLUGINS"] = environ.get("PYDANTIC_DISABLE_PLUGINS", "__all__")
    return found


class _Handover:
    """One command handed to the server over a new connection."""

    def __init__(self, fd: int, path: str, cost: dict[str, float] | None = None) -> None:
        self.fd = fd
        self.path = path
        self.cost = cost
        self.pidfd: int | None = None
        self.pending: list[int] = []
        self.sent = False

    def run(self, args: list[str]) -> int | None:
        # _socket, not socket: the module's wrapper class and its imports (selectors, ...) cost the client
        # ~2.5 ms, and it needs a connect, one sendmsg, recv and a socket option
        import _socket

        try:
            place.check_socket(self.fd, self.path)
        except FileNotFoundError:
            start_server(self.path)
            raise ResidentUnavailable("not running; started it", quiet=True) from None
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM | _socket.SOCK_CLOEXEC)
        try:
            return self._over(sock, args)
        finally:
            sock.close()

    def _over(self, sock: _socket.socket, args: list[str]) -> int | None:
        sock.settimeout(place.HANDOVER_SECONDS)  # a full backlog refuses at once, and the wait below is bounded
        try:
            sock.connect(place.address(self.fd))
        except (ConnectionRefusedError, FileNotFoundError):  # a socket its server left behind
            start_server(self.path)
            raise ResidentUnavailable("not running; started it", quiet=True) from None
        except BlockingIOError:
            raise ResidentUnavailable("the server is busy (its queue is full)") from None
        except OSError as exc:
            raise ResidentUnavailable(f"cannot connect: {exc.strerror or exc}") from exc
        _pid, uid = place.peer(sock)
        if uid != os.geteuid():
            raise ResidentUnavailable(f"the server at {self.path} runs as uid {uid}, not as you")
        replies = _Lines(sock)
        ready = _reply(replies)  # nothing is sent before it: giving up here runs nothing twice
        sock.settimeout(None)
        if ready != [place.READY.decode().strip()]:
            raise ResidentUnavailable(f"the server did not take the command within {place.HANDOVER_SECONDS:g} s")
        previous = {number: _signal.signal(number, self._signalled) for number in _signals(_signal)}
        try:
            self._send(sock, args)
            try:
                return self._outcome(replies)
            except _GaveUp:
                return _unknown()
        finally:
            for number, handler in previous.items():
                _signal.signal(number, handler)
            if self.pidfd is not None:
                os.close(self.pidfd)

    def _send(self, sock: _socket.socket, args: list[str]) -> None:
        import _socket

        mask = os.umask(0o077)
        os.umask(mask)
        streams = (sys.stdin, sys.stdout, sys.stderr)
        body = to_json(
            {
                "v": 1,
                "argv": [wire(arg) for arg in args],
                "argv0": wire(sys.argv[0]),
                "env": {wire(k): wire(v) for k, v in os.environ.items()},
                "umask": mask,
                "stdio": [{"encoding": s.encoding, "errors": s.errors} for s in streams],
                "identity": identity(),
            }
        ).encode("ascii")
        message = place.MAGIC + len(body).to_bytes(4, "big") + body
        try:
            cwd = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:  # the current folder was removed: in-process says what that means
            raise ResidentUnavailable(f"no current folder: {exc.strerror}", quiet=True) from exc
        self.sent = True  # from here a signal waits for the child (or, if the send fails, is this process's)
        try:
            fds = b"".join(fd.to_bytes(4, sys.byteorder, signed=True) for fd in (0, 1, 2, cwd))
            sent = sock.sendmsg([message], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fds)])
            if sent < len(message):
                # Only what is left: sendall(b"") still calls send() once, and once the whole request is out the
                # command may already have run and its connection closed, so that empty send fails (EPIPE) and
                # the command would run a second time here.
                sock.sendall(message[sent:])
        except OSError as exc:  # the server never had the whole request (a child refuses a cut one): nothing ran
            self._unsent_signal()
            raise ResidentUnavailable(f"the server did not take the request: {exc.strerror}", quiet=True) from exc
        finally:
            os.close(cwd)

    def _outcome(self, replies: _Lines) -> int | None:
        first = _reply(replies)
        if not first or first[:1] == ["exit"]:
            # No "pid" line first: the child runs the command only after that line is sent whole, so the server went
            # away before it (killed between accept and fork), or the child ended before it (the server then says
            # how): nothing ran, and it runs here
            self._unsent_signal()
            raise ResidentUnavailable("the server went away before it took the command")
        if first[:1] == ["refused"] and len(first) == 4:
            self._unsent_signal()
            if first[2] == "1":
                start_server(self.path)
            raise ResidentUnavailable(first[3], quiet=first[1] == "1")
        if first[:1] == ["pid"] and len(first) == 2 and first[1].isdigit():
            self._relay_to(int(first[1]))
            last = _reply(replies)
            if last[:1] == ["exit"] and len(last) == 5:
                if self.cost is not None:
                    self.cost.update(child=float(last[2]), server=float(last[3]), child_minor_faults=float(last[4]))
                return _exit_status(int(last[1]))
        return _unknown()

    def _signalled(self, number: int, frame: object) -> None:
        if self.pidfd is not None:
            self._pass_on(number)
        else:
            self.pending.append(number)
            if self.sent and self.pending.count(_signal.SIGINT) > 1:
                raise _GaveUp  # ctrl+c twice, and the server never said it started the command

    def _relay_to(self, pid: int) -> None:
        try:
            self.pidfd = os.pidfd_open(pid)
        except OSError:  # it already ended (or no pidfds here): nothing to pass signals on to
            self.pending.clear()
            return
        for number in self.pending:
            self._pass_on(number)
        self.pending.clear()

    def _pass_on(self, number: int) -> None:
        assert self.pidfd is not None
        try:
            _signal.pidfd_send_signal(self.pidfd, number)
        except OSError:  # the child has just ended: its exit status is on its way
            pass

    def _unsent_signal(self) -> None:
        """A signal that came while the server had not started the command: it is this process's."""
        if _signal.SIGINT in self.pending:
            raise KeyboardInterrupt
        if self.pending:
            _die_of(self.pending[0])


class _GaveUp(Exception):  # noqa: N818 - a signal to stop waiting, not an error
    """The person pressed ctrl+c again while the server had not yet said it started the command."""


def _unknown() -> int:
    print(
        "memory-review: the resident server went away while it ran this command: its outcome is unknown "
        "(check with `memory-review log` or `memory-review list`)",
        file=sys.stderr,
    )
    return UNKNOWN


class _Lines:
    """The server's reply lines, read from the connection (no file object: ``socket.makefile``'s module)."""

    def __init__(self, sock: _socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    def readline(self, limit: int) -> bytes:
        while b"\n" not in self.buffer and len(self.buffer) < limit:
            chunk = self.sock.recv(limit)
            if not chunk:
                break
            self.buffer += chunk
        end = self.buffer.find(b"\n") + 1 or len(self.buffer)
        line, self.buffer = self.buffer[:end], self.buffer[end:]
        return line


def _reply(replies: _Lines) -> list[str]:
    """The words of the server's next reply line (``place.refused``, ``started``, ``ended``); [] for
    none, a line cut short, or one that is not the server's."""
    try:
        line = replies.readline(place.REPLY_LIMIT)
    except OSError:
        return []
    if not line.endswith(b"\n"):
        return []
    text = line[:-1].decode("utf-8", "replace")
    words = text.split(" ", 3) if text.startswith("refused ") else text.split(" ")
    numbers = words[1:] if words[0] == "exit" else []
    try:
        [float(n) for n in numbers]
    except ValueError:
        return []
    return words


_ESCAPES = {c: f"\\u{c:04x}" for c in (*range(0x20), *range(0x7F, 0x100))} | {0x22: '\\"', 0x5C: "\\\\"}


def to_json(value: object) -> str:
    """``value`` as ASCII JSON, for what a request holds: strings of code points below 256 (:func:`wire`),
    ints, lists and dicts. The ``json`` module costs the client ~3 ms to import."""
    if isinstance(value, str):
        if max(value, default="\0") > "\xff":
            raise ValueError("a request's strings are wired (code points below 256)")
        return '"' + value.translate(_ESCAPES) + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ",".join(map(to_json, value)) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{to_json(k)}:{to_json(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"not in a request: {type(value).__name__}")


def _exit_status(code: int) -> int:
    """The child's exit status as this process's: killed by a signal, this process dies of it too."""
    if code < 0:
        _die_of(-code)
        return 128 - code
    return code


def _die_of(number: int) -> None:
    sys.stdout.flush()
    _signal.signal(number, _signal.SIG_DFL)
    os.kill(os.getpid(), number)


def start_server(path: str) -> None:
    """Start the server for the folder ``path`` in the background: its own session, no terminal, stdin and
    stdout on /dev/null, stderr appended to its log. Not waited for; a second one started meanwhile finds
    the first holding the lock and exits."""
    log = os.path.join(path, place.LOG)
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, log, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600),
        # nothing else of the command that starts it: a pipe or a lock it inherited was held for the server's life
        # (`{ memory-review list 7>&1; } | cat` never ended; session 37's last review)
        *((os.POSIX_SPAWN_CLOSE, fd) for fd in _inherited_descriptors()),
    ]
    argv = [sys.executable, "-P", "-c", BOOT, path]
    try:
        os.posix_spawn(sys.executable, argv, os.environ, file_actions=actions, setsid=True)
    except OSError as exc:
        raise ResidentUnavailable(f"cannot start the server: {exc.strerror}") from exc


def _inherited_descriptors() -> list[int]:
    """This process's descriptors past stdio that a child would inherit (Linux: ``/proc/self/fd``)."""
    try:
        numbers = [int(name) for name in os.listdir("/proc/self/fd")]
    except (OSError, ValueError):
        return []
    inherited = []
    for number in numbers:
        try:
            if number > 2 and os.get_inheritable(number):
                inherited.append(number)
        except OSError:  # the listing's own descriptor, closed by now
            continue
    return inherited


def _signals(signal: object) -> list[int]:
    return [getattr(signal, name) for name in RELAYED]
