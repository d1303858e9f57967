"""The hook's deadline: end the process (exit 0, nothing written) when it runs too long (ADR 0011).

Standard library only: both the lean per-prompt path and the full hook run under it.
"""

from __future__ import annotations

import os
import select
import stat
import threading
import time
from collections.abc import Callable

DEADLINE_ENV = "MEMORY_REVIEW_HOOK_DEADLINE"
# An agent waits on its hook: Claude Code's own default timeout is 60 s. An hour is past any honest setting and
# still a number a timer can hold (``inf`` or 1e308 overflows it in its thread and the deadline is gone).
MAX_DEADLINE = 3600.0
PIPE_BUF = select.PIPE_BUF  # what a writable pipe, socket or terminal takes without blocking
F_GETPIPE_SZ, F_SETPIPE_SZ = 1032, 1031  # Linux's fcntl commands (the fcntl module names them on Linux only)
# The FIONREAD ioctl's number where termios (0.7 ms to import, on every prompt) is not needed to know it
_FIONREAD = {"x86_64": 0x541B, "i686": 0x541B, "aarch64": 0x541B, "armv7l": 0x541B, "riscv64": 0x541B}
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096  # a pipe's slot
EXPIRY_GRACE = 1.0
"""Seconds the expiry's own step (logging that the hook stopped) may take before the process ends without it."""


def deadline_seconds(default: float) -> float:
    """The hook's deadline in seconds: ``$MEMORY_REVIEW_HOOK_DEADLINE`` (the person's own setting; tests use a tiny
    one) when it is a number above 0 and at most :data:`MAX_DEADLINE`, else ``default``: a typo, ``inf``, ``nan`` or
    a negative number must not switch the deadline off, nor end every hook before it starts."""
    value = os.environ.get(DEADLINE_ENV)
    try:
        seconds = float(value) if value else default
    except ValueError:
        return default
    return seconds if 0 < seconds <= MAX_DEADLINE else default


class Watchdog:
    """Ends the process (exit 0, nothing written) if the hook is still running at its deadline.

    ``finish`` runs the last step (writing the answer or logging) under the same lock the
    expiry takes, so the process never dies halfway through writing its JSON.
    """

    def __init__(self, seconds: float, *, on_expiry: Callable[[], None]) -> None:
        self._lock = threading.Lock()
        self._done = False
        self._timer: threading.Timer | None = None
        self.expires_at = 0.0
        self.restart(seconds, on_expiry=on_expiry)

    def restart(self, seconds: float, *, on_expiry: Callable[[], None]) -> None:
        """Replace the deadline (measured from now)."""
        if self._timer is not None:
            self._timer.cancel()
        self.expires_at = time.monotonic() + seconds
        self._timer = threading.Timer(seconds, self._expire, args=(on_expiry,))
        self._timer.daemon = True
        self._timer.start()

    def finish(self, last_step: Callable[[], None]) -> None:
        """Run the last step unless the deadline has already ended the run."""
        with self._lock:
            if self._done:
                return
            self._done = True
            if self._timer is not None:
                self._timer.cancel()
            last_step()

    def _expire(self, on_expiry: Callable[[], None]) -> None:
        with self._lock:
            if self._done:
                return
            self._done = True
            # The expiry's step can block on what blocked the hook (a FIFO in the project's .git: session 39's
            # review F3), so it runs on a thread of its own for a bounded time; the process ends either way.
            step = threading.Thread(target=_best_effort, args=(on_expiry,), daemon=True)
            step.start()
            step.join(EXPIRY_GRACE)
            os._exit(0)  # the main thread may be blocked in I/O; the commit path is crash-safe


def _best_effort(step: Callable[[], None]) -> None:
    """Run the expiry's step; the process ends right after, so a failure has no one to tell (it was dropped by
    ``os._exit`` before, too) and must not reach stderr as a thread's traceback."""
    try:
        step()
    except Exception:  # noqa: BLE001, S110 — see the docstring: the process is ending
        pass


def write_by(fd: int, data: bytes, expires_at: float) -> None:
    """Write ``data`` to ``fd`` whole, or raise TimeoutError at ``expires_at`` (``time.monotonic``).

    The answer is written under the watchdog's lock (a half-written JSON answer is worse than none), so a write that
    blocks holds the hook past its deadline for as long as the reader waits (session 38's review). A pipe or a
    terminal is written through a non-blocking description of its own (the shared one stays blocking: another
    writer may use it), so no write outlives the deadline. Into a pipe (what an agent gives its hook) nothing is
    written until it has room for all of it, counted in the kernel's page slots (a partly read page still takes
    one, session 38's re-review): half an answer left at the deadline would be taken as plain text. A pipe that
    cannot hold the answer at all (a user past the system's pipe quota) and a terminal are written as they take
    it: a reader that reads gets it whole. A file or a socket takes a plain write."""
    mode = os.fstat(fd).st_mode
    if not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        _write_all(fd, data)
        return
    if stat.S_ISFIFO(mode) and (capacity := _pipe_room(fd, len(data))) is not None:
        _wait_for_room(fd, capacity, len(data), expires_at)
    try:
        own = os.open(f"/proc/self/fd/{fd}", os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:  # no /proc: the shared description, written as it takes it
        own = None
    try:
        view = memoryview(data)
        while view:
            _wait_writable(fd if own is None else own, expires_at)
            try:
                view = view[os.write(own, view) if own is not None else os.write(fd, view[:PIPE_BUF]) :]
            except BlockingIOError:
                continue  # room taken meanwhile: wait again
    finally:
        if own is not None:
            os.close(own)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _pipe_room(fd: int, size: int) -> int | None:
    """The capacity of the pipe ``fd``, grown to ``size`` if it can be; None for one that cannot hold ``size`` at
    once (a user past the system's pipe quota)."""
    try:
        import fcntl

        capacity = fcntl.fcntl(fd, F_GETPIPE_SZ)
        if capacity < size + _PAGE:  # a page more: a partly read one may take a slot
            capacity = fcntl.fcntl(fd, F_SETPIPE_SZ, size + _PAGE)
    except OSError:
        return None  # not Linux, or past the quota
    return capacity if capacity >= size + _PAGE else None


def _wait_for_room(fd: int, capacity: int, size: int, expires_at: float) -> None:
    import fcntl
    import struct

    number = _FIONREAD.get(os.uname().machine)
    if number is None:
        import termios

        number = termios.FIONREAD
    while True:
        unread = struct.unpack("i", fcntl.ioctl(fd, number, b"\0" * 4))[0]
        # The unread bytes take their pages and, read part-way, one more; the rest is room.
        taken = -(-unread // _PAGE) + (1 if unread else 0)
        if capacity - taken * _PAGE >= size:
            return
        left = expires_at - time.monotonic()
        if left <= 0:
            raise TimeoutError("the agent did not read the hook's answer by the deadline")
        time.sleep(min(left, 0.005))


def _wait_writable(fd: int, expires_at: float) -> None:
    left = expires_at - time.monotonic()
    if left <= 0 or not select.select([], [fd], [], left)[1]:
        raise TimeoutError("the agent did not read the hook's answer by the deadline")
