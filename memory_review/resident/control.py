"""``memory-review resident on|off|status``: the person's switch for the resident server (ADR 0060).

The setting is the folder ``<user store>/resident/`` itself (0700, this user's) and its ``config.json``:
on this machine, for this user store, never in a repository. ``on`` creates them; ``off`` stops the
server (SIGTERM to the pid its socket reports; it finishes the commands it runs first) and removes them.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import signal
import socket
import sys
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from memory_review.errors import ResidentUnavailable
from memory_review.events import safe_fs
from memory_review.events.durable import atomic_replace
from memory_review.resident import place

STOP_SECONDS = 30.0
"""How long ``off`` waits for a server finishing its running commands."""
KNOWN = (place.SOCKET, place.CONFIG, place.LOCK, place.LOG)


class ResidentConfig(BaseModel):
    """``config.json``: what ``resident on`` was told."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    idle_seconds: int = Field(default=1800, ge=1, le=7 * 86400)


class ResidentStatus(BaseModel):
    """Whether resident is on for this user store, and whether its server runs."""

    model_config = ConfigDict(frozen=True)

    on: bool
    folder: str
    running: bool = False
    pid: int | None = None
    idle_seconds: int | None = None


def turn_on(*, idle_seconds: int | None = None, environ: Mapping[str, str] | None = None) -> ResidentStatus:
    """Create the resident folder (and its config); the next command starts the server."""
    env = os.environ if environ is None else environ
    if sys.platform != "linux":
        raise ResidentUnavailable("the resident server needs Linux (SCM_RIGHTS, SO_PEERCRED, /proc)")
    path = _folder(env)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, place.PRIVATE)
    _closed(place.open_folder(path))
    config = ResidentConfig() if idle_seconds is None else ResidentConfig(idle_seconds=idle_seconds)
    if not os.path.lexists(os.path.join(path, place.CONFIG)) or read_config(path) != config:
        atomic_replace(Path(path, place.CONFIG), config.model_dump_json().encode() + b"\n")
        _stop(path)  # a running server read the old settings: the next command starts one with these
    return status(environ=env)


def turn_off(*, environ: Mapping[str, str] | None = None) -> ResidentStatus:
    """Stop the server (after the commands it runs) and remove the resident folder."""
    env = os.environ if environ is None else environ
    path = _folder(env)
    fd = place.open_folder(path)
    if fd is None:
        return ResidentStatus(on=False, folder=path)
    try:
        _stop(path, fd)
        for name in KNOWN:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name, dir_fd=fd)
    finally:
        os.close(fd)
    try:
        os.rmdir(path)
    except OSError as exc:
        if exc.errno != errno.ENOTEMPTY:
            raise
        raise ResidentUnavailable(f"{path} holds files that are not ours; left in place (remove it yourself)") from exc
    return ResidentStatus(on=False, folder=path)


def status(*, environ: Mapping[str, str] | None = None) -> ResidentStatus:
    """On or off; the server's pid when one runs."""
    env = os.environ if environ is None else environ
    path = _folder(env)
    fd = place.open_folder(path)
    if fd is None:
        return ResidentStatus(on=False, folder=path)
    try:
        pid = server_pid(fd, path)
    finally:
        os.close(fd)
    idle = read_config(path).idle_seconds
    return ResidentStatus(on=True, folder=path, running=pid is not None, pid=pid, idle_seconds=idle)


def read_config(path: str) -> ResidentConfig:
    """The folder's config (the defaults when it has none)."""
    try:
        data = safe_fs.read_file(os.path.join(path, place.CONFIG), limit=4096)
    except FileNotFoundError:
        return ResidentConfig()
    except OSError as exc:
        raise ResidentUnavailable(f"cannot read {path}/{place.CONFIG}: {exc.strerror}") from exc
    try:
        return ResidentConfig.model_validate_json(data)
    except ValueError as exc:
        raise ResidentUnavailable(f"{path}/{place.CONFIG} is not a resident config") from exc


def _stop(path: str, fd: int | None = None) -> None:
    """Stop the folder's server, if one listens, after the commands it runs."""
    opened = place.open_folder(path) if fd is None else fd
    if opened is None:
        return
    try:
        try:
            pid = server_pid(opened, path)
        except ResidentUnavailable:  # a name in the person's own folder that is not a server's: nothing to stop
            pid = None
        if pid is not None:
            _terminate(pid)
    finally:
        if fd is None:
            os.close(opened)


def server_pid(fd: int, path: str) -> int | None:
    """The pid of the server listening in the folder open on ``fd`` (None: none listens)."""
    try:
        place.check_socket(fd, path)
    except FileNotFoundError:
        return None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC) as sock:
        try:
            sock.connect(place.address(fd))
        except (ConnectionRefusedError, FileNotFoundError):
            return None
        pid, uid = place.peer(sock)
    if uid != os.geteuid():
        raise ResidentUnavailable(f"the server at {path} runs as uid {uid}, not as you")
    return pid


def _terminate(pid: int) -> None:
    """SIGTERM to the server, and wait until it has exited, through a pidfd: the pid cannot be another
    process's by the time it is signalled or waited for (pids are reused, and the server is not our child)."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        signal.pidfd_send_signal(pidfd, signal.SIGTERM)
        ready, _, _ = select.select([pidfd], [], [], STOP_SECONDS)
    except ProcessLookupError:
        return
    finally:
        os.close(pidfd)
    if not ready:
        raise ResidentUnavailable(f"the server (pid {pid}) is still finishing commands; run `resident off` again")


def _folder(env: Mapping[str, str]) -> str:
    """The resident folder, where the client will look: refused where the client's guess of the user
    store is not where the library puts it (then set ``MEMORY_REVIEW_HOME``)."""
    from memory_review.paths import user_store_dir

    real = os.path.realpath(user_store_dir(dict(env)))
    if place.user_store_guess(env) != real:
        raise ResidentUnavailable(f"the user store {real} is not where the client looks; set MEMORY_REVIEW_HOME")
    return os.path.join(real, place.FOLDER)


def _closed(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)
