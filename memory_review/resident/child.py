"""What a forked child of the resident server does with one connection (ADR 0060).

It reads the request within :data:`REQUEST_SECONDS` and at most :data:`~memory_review.resident.place.MAX_REQUEST`
bytes, validates it (:class:`ResidentRequest`), and checks that this interpreter would run the command as
the client's would (same interpreter, flags, ``sys.path``, package, ``PYTHON*`` settings, user store).
Anything wrong is refused in one line, and the client runs the command itself: nothing has run yet.

Then it becomes the client's process: its stdin, stdout and stderr (passed as descriptors), current folder
(a descriptor too, so a renamed folder is still the same folder), umask, environment, time zone, locale
and the text encodings of its standard streams. It tells the client its pid (so ctrl+c can be passed on)
and runs the same :func:`memory_review.main.run` the console script runs in-process.
"""

from __future__ import annotations

import atexit
import io
import json
import locale
import os
import socket
import stat
import sys
import threading
import time
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator
from pydantic import ValidationError as PydanticValidationError

from memory_review.errors import MemoryReviewError, ResidentUnavailable
from memory_review.resident import confinement, place
from memory_review.resident.client import unwire

REQUEST_SECONDS = 5.0
"""A client sends its whole request at once; one slower than this is dropped."""
DESCRIPTORS = 4
"""stdin, stdout, stderr and the current folder."""

Short = Annotated[str, StringConstraints(max_length=256)]
Long = Annotated[str, StringConstraints(max_length=1 << 17)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Stdio(_Strict):
    """How the client's interpreter decodes or encodes one standard stream."""

    encoding: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    errors: Annotated[str, StringConstraints(min_length=1, max_length=32)]


class Identity(_Strict):
    """What makes the server's interpreter the client's (:func:`memory_review.resident.client.identity`)."""

    executable: Long
    path: list[Long] = Field(max_length=1024)
    package: Long
    flags: dict[Short, int] = Field(max_length=64)
    xoptions: list[Short] = Field(max_length=64)
    warnoptions: list[Short] = Field(max_length=64)
    fs_encoding: Short
    python_env: dict[Short, Long] = Field(max_length=256)


class ResidentRequest(_Strict):
    """One command line, and the process state it runs with. ``argv``, ``argv0`` and ``env`` hold each
    string's bytes as Latin-1 (:func:`~memory_review.resident.client.wire`): they need not be UTF-8."""

    v: Literal[1]
    argv: list[Long] = Field(max_length=4096)
    argv0: Long
    env: dict[Long, Long] = Field(max_length=8192)
    umask: int = Field(ge=0, le=0o777)
    stdio: list[Stdio] = Field(min_length=3, max_length=3)
    identity: Identity

    @field_validator("argv", "argv0", "env")
    @classmethod
    def _no_nul(cls, value: object) -> object:
        words = [value] if isinstance(value, str) else [*value, *value.values()] if isinstance(value, dict) else value
        assert isinstance(words, list)
        if any("\x00" in word for word in words):
            raise ValueError("a NUL byte")
        if isinstance(value, dict) and any(not k or "=" in k for k in value):
            raise ValueError("an environment variable named '' or with '='")
        return value


def serve_one(conn: socket.socket, identity: dict[str, object], path: str) -> int:
    """Run the command ``conn`` sends; the exit status (0 after a refusal: the server ran nothing)."""
    fds: list[int] = []
    try:
        request, fds = read_request(conn)
        try:
            caller, _uid = place.peer(conn)  # as the kernel reports it: the request could say anything
            confinement.check_caller(caller)
            confinement.take_limits(caller)
            become(request, fds)  # first: the check below reads the user store as the client's environment names it
            check(request, identity, path)
        except ResidentUnavailable:
            raise
        except (MemoryReviewError, OSError) as exc:  # e.g. a user store path the library refuses: in-process
            raise ResidentUnavailable(f"cannot take the command here ({exc})", quiet=True) from exc
    except ResidentUnavailable as exc:
        for fd in fds:
            _close(fd)
        _answer(conn, place.refused(exc.reason, quiet=exc.quiet))
        _drain(conn)
        return 0
    if not _answer(conn, place.started(os.getpid())):
        return 0  # the client is gone: nobody to run it for, and it will not count on it
    conn.close()
    return run(request)


def read_request(conn: socket.socket) -> tuple[ResidentRequest, list[int]]:
    """The request and its descriptors; ResidentUnavailable for anything late, large, short or malformed."""
    deadline = time.monotonic() + REQUEST_SECONDS
    fds: list[int] = []
    try:
        conn.settimeout(REQUEST_SECONDS)
        head, fds, flags, _ = socket.recv_fds(conn, 8, DESCRIPTORS + 1)
        if flags & socket.MSG_CTRUNC or len(fds) != DESCRIPTORS:
            raise ResidentUnavailable(f"a request comes with {DESCRIPTORS} descriptors")
        head += _read(conn, 8 - len(head), deadline)
        if head[:4] != place.MAGIC:
            raise ResidentUnavailable("not a request")
        size = int.from_bytes(head[4:8], "big")
        if size > place.MAX_REQUEST:
            raise ResidentUnavailable(f"a request of {size} bytes (at most {place.MAX_REQUEST})")
        body = _read(conn, size, deadline)
        return ResidentRequest.model_validate(json.loads(body)), fds
    except (OSError, ValueError, PydanticValidationError) as exc:  # late, cut short, not JSON, not a request
        for fd in fds:
            _close(fd)
        raise ResidentUnavailable(f"a malformed request ({type(exc).__name__})") from exc
    except ResidentUnavailable:
        for fd in fds:
            _close(fd)
        raise


def _read(conn: socket.socket, size: int, deadline: float) -> bytes:
    data = b""
    while len(data) < size:
        conn.settimeout(max(0.001, deadline - time.monotonic()))
        chunk = conn.recv(min(size - len(data), 1 << 16))
        if not chunk:
            raise ResidentUnavailable("a request cut short")
        data += chunk
    return data


def check(request: ResidentRequest, identity: dict[str, object], path: str) -> None:
    """Refuse (quietly: another installation sharing the user store is normal) a client whose interpreter
    would run the command differently, and (loudly) one whose environment names another user store."""
    theirs = request.identity.model_dump()
    for key, ours in identity.items():
        if theirs.get(key) != ours:
            raise ResidentUnavailable(f"the server runs another interpreter or installation ({key})", quiet=True)
    from memory_review.paths import user_store_dir

    try:
        store = os.path.realpath(user_store_dir(_environment(request)))
    except ValueError as exc:
        raise ResidentUnavailable(f"no user store: {exc}", quiet=True) from exc
    if os.path.join(store, place.FOLDER) != path:
        raise ResidentUnavailable(f"the server at {path} is not the one of the user store {store}")


def become(request: ResidentRequest, fds: list[int]) -> None:
    """Take on the client's descriptors, folder, umask, environment, time zone, locale and streams."""
    cwd = fds[3]
    if not stat.S_ISDIR(os.fstat(cwd).st_mode):
        raise ResidentUnavailable("the current folder passed is not a folder")
    for number, fd in enumerate(fds[:3]):
        os.dup2(fd, number)
    for fd in fds:
        if fd > 2 and fd != cwd:
            _close(fd)
    os.fchdir(cwd)
    _close(cwd)
    os.umask(request.umask)
    os.environ.clear()
    os.environ.update(_environment(request))
    time.tzset()
    try:
        locale.setlocale(locale.LC_CTYPE, "")
    except locale.Error:
        locale.setlocale(locale.LC_CTYPE, "C")  # what the interpreter's start-up is left with
    _streams(request.stdio)
    sys.argv = [unwire(request.argv0), *map(unwire, request.argv)]


def _environment(request: ResidentRequest) -> dict[str, str]:
    return {unwire(k): unwire(v) for k, v in request.env.items()}


def _streams(stdio: list[Stdio]) -> None:
    """New ``sys.stdin``/``stdout``/``stderr`` as the interpreter makes them at start-up: ``\\n`` newlines,
    stdout line-buffered on a terminal, stderr always (Python 3.9+), the client's encodings."""
    for fd, (name, mode) in enumerate((("stdin", "rb"), ("stdout", "wb"), ("stderr", "wb"))):
        binary = io.open(fd, mode, closefd=False)  # noqa: SIM115, UP020 - a standard stream, kept open
        lines = fd == 2 or (fd == 1 and os.isatty(fd))
        text = io.TextIOWrapper(
            binary, encoding=stdio[fd].encoding, errors=stdio[fd].errors, newline="\n", line_buffering=lines
        )
        setattr(sys, name, text)
        setattr(sys, f"__{name}__", text)


def run(request: ResidentRequest) -> int:
    """:func:`memory_review.main.run` (the console script's in-process path), and the interpreter's exit
    after it (without its teardown)."""
    from memory_review.main import run as run_here

    try:
        code = _status(run_here())
    except SystemExit as exc:
        code = _status(exc.code)
    except BaseException:  # noqa: BLE001 - what the interpreter does with an uncaught exception
        sys.excepthook(*sys.exc_info())
        code = 1
    return finish(code)


def _status(code: object) -> int:
    """What the interpreter makes of ``sys.exit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def finish(code: int) -> int:
    """Threads joined, exit functions run, output flushed; the module teardown is skipped (the heap is the
    server's: tearing it down would copy all of it)."""
    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120  # the interpreter's status when flushing at exit fails
    return code


def _answer(conn: socket.socket, line: bytes) -> bool:
    try:
        conn.settimeout(REQUEST_SECONDS)
        conn.sendall(line)
    except OSError:
        return False
    return True


def _drain(conn: socket.socket) -> None:
    """Read what the client sent beyond what was read (bounded, briefly) before closing: unread bytes would
    make the close a reset, and the client would lose the refusal it was sent."""
    deadline = time.monotonic() + 1.0
    total = 0
    try:
        conn.shutdown(socket.SHUT_WR)
        while total <= place.MAX_REQUEST and (left := deadline - time.monotonic()) > 0:
            conn.settimeout(left)
            chunk = conn.recv(1 << 16)
            if not chunk:
                return
            total += len(chunk)
    except OSError:
        return


def _close(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass
