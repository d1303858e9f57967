"""Where the resident server of a user store lives, and the checks before anyone trusts it (ADR 0060).

The folder is ``<user store>/resident/``: only the user's own settings (``MEMORY_REVIEW_HOME``, else the
platform's config folder) locate it, never a repository. Its existence is the switch: absent, resident
is off and the console script runs every command in-process as before. It must be a real folder (not a
link), owned by this user, with no access for anyone else (0700); the socket in it must be a socket owned
by this user. Both ends check this on every connection, and the server checks the peer's uid.

The socket is reached through ``/proc/self/fd/<folder fd>/socket``: the folder that was checked is the
folder connected in (no race with a rename), and the address stays short whatever the user store's path
(a Unix socket's path is limited to 107 bytes).

Standard library only, and no ``pathlib``: the console script reads this before deciding whether to
import anything of the library (``tests/memory_review/test_resident_client_imports.py``).
"""

from __future__ import annotations

import errno
import os
import stat

from memory_review import main
from memory_review.errors import ResidentUnavailable

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (2-3 ms of the resident client)

if TYPE_CHECKING:
    import _socket
    from collections.abc import Mapping

FOLDER = "resident"
SOCKET = "socket"
LOCK = "server.lock"
"""Held (flock) by the running server for its whole life: one server per folder."""
LOG = "server.log"
"""The server's stderr: what went wrong inside it, since it has no terminal."""
CONFIG = "config.json"
"""``resident on``'s settings (the idle timeout); read by the server when it starts."""
PRIVATE = 0o700
_OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def user_store_guess(environ: Mapping[str, str]) -> str:
    """The user store's real path, as the console script finds it before loading anything
    (:func:`memory_review.main.user_store_guess`)."""
    found = main.user_store_guess(environ)
    if found is None:
        raise ResidentUnavailable("a NUL byte in the user store's path")
    return found


def folder(environ: Mapping[str, str]) -> str:
    """The resident folder of the user store ``environ`` names."""
    return os.path.join(user_store_guess(environ), FOLDER)


def open_folder(path: str) -> int | None:
    """A descriptor on the resident folder after its checks; None when it does not exist (resident off)."""
    try:
        fd = os.open(path, _OPEN_DIR)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise ResidentUnavailable(f"{path} is not a folder of its own (a link or a file)") from exc
        raise ResidentUnavailable(f"cannot open {path}: {exc.strerror}") from exc
    try:
        check_folder(fd, path)
    except ResidentUnavailable:
        os.close(fd)
        raise
    return fd


def check_folder(fd: int, path: str) -> None:
    """The folder must be this user's, and closed to everyone else."""
    info = os.fstat(fd)
    if info.st_uid != os.geteuid():
        raise ResidentUnavailable(f"{path} belongs to uid {info.st_uid}, not to you")
    if stat.S_IMODE(info.st_mode) & 0o077:
        raise ResidentUnavailable(f"{path} is open to others (mode {stat.S_IMODE(info.st_mode):o}, must be 700)")


def check_socket(fd: int, path: str) -> None:
    """The socket must be a socket of this user's; FileNotFoundError when there is none (not running)."""
    info = os.stat(SOCKET, dir_fd=fd, follow_symlinks=False)
    if not stat.S_ISSOCK(info.st_mode):
        raise ResidentUnavailable(f"{os.path.join(path, SOCKET)} is not a socket")
    if info.st_uid != os.geteuid():
        raise ResidentUnavailable(f"{os.path.join(path, SOCKET)} belongs to uid {info.st_uid}, not to you")


def address(fd: int, name: str = SOCKET) -> str:
    """The short path that reaches ``name`` in the folder open on ``fd`` (Linux's /proc)."""
    return f"/proc/self/fd/{fd}/{name}"


def peer(sock: _socket.socket) -> tuple[int, int]:
    """The pid and uid of the process at the other end of a connected Unix socket (SO_PEERCRED)."""
    import _socket

    pid, uid, _gid = memoryview(sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)).cast("i")
    return pid, uid


MAGIC = b"MRR1"
"""The first bytes of a request; then its length (4 bytes, big-endian), then that much JSON."""
MAX_REQUEST = 1 << 20
"""A request (argv, cwd, the environment) larger than this is refused unread."""
REPLY_LIMIT = 1 << 12
"""A reply line longer than this is not the server's."""
READY = b"ready\n"
"""The server's first line on every connection it accepts, before it reads a byte of the request."""
HANDOVER_SECONDS = 2.0
"""How long a client waits to be accepted before it runs the command itself. A busy server (``MAX_CHILDREN``
slow commands) leaves connections in its backlog, and a request sent there could not be taken back: the
client sends nothing until the server said ``ready``, so giving up never runs a command twice."""


# The server's replies, one line each, as plain words (the client parses them without ``json``):
#   refused QUIET RESTART REASON...   nothing was run; QUIET and RESTART are 0 or 1
#   pid PID                           the child runs the command (signals go to PID)
#   exit STATUS CHILD SERVER FAULTS   it ended: STATUS as waitstatus_to_exitcode (negative: killed by that
#                                     signal), the CPU seconds of the child and of the server, the child's
#                                     minor page faults


def refused(reason: str, *, quiet: bool = False, restart: bool = False) -> bytes:
    """The reply that sends the command back to the client, to run in-process."""
    return f"refused {int(quiet)} {int(restart)} {' '.join(reason.split())}\n".encode()


def started(pid: int) -> bytes:
    return f"pid {pid}\n".encode()


def ended(status: int, child: float, server: float, faults: int) -> bytes:
    return f"exit {status} {child:.6f} {server:.6f} {faults}\n".encode()
