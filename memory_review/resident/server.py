"""The resident server: one interpreter that imported the library once, forking a child per command.

The design of Mercurial's ``chg`` command server (ADR 0060). ``memory-review`` started in the background
by the client (:func:`memory_review.resident.client.start_server`), in its own session, with no terminal:

1. takes the folder's lock (one server per folder; a second one exits), and binds the socket;
2. imports what a command imports and builds the models' schemas, then freezes that heap (``gc.freeze``)
   so the children share it;
3. per connection: checks the peer is this user, that the installed code is still the code it imported
   (else it refuses, removes its socket and exits, and the client runs the command itself and starts a
   new server), and forks. The child reads and checks the request (:mod:`~memory_review.resident.child`);
   the server never parses what a client sent, so no request can crash or stall it;
4. when a child exits, tells its client the exit status and what the command cost: the child's CPU
   (``wait4``, with the git processes it waited for) and the server's own for that request;
5. exits when idle for the configured time (``resident on --idle``), when its code changed, when its
   socket is no longer its own (``resident off``), or on SIGTERM, after its running children finish.
"""

from __future__ import annotations

import fcntl
import gc
import importlib
import os
import selectors
import signal
import socket
import sys
import time
import traceback
from dataclasses import dataclass, field

from memory_review.errors import ResidentUnavailable
from memory_review.resident import place

PRELOAD = (
    "memory_review.cli",
    "memory_review.cli_render",
    "memory_review.workspace",
    "memory_review.store",
    "memory_review.history",
    "memory_review.verify",
    "memory_review.models",
    "memory_review.proposal",
    "memory_review.lean.hook",
    "memory_review.lean.command",
    "memory_review.resident.child",
    "subprocess",  # git, for an apply's history commit
    "tempfile",
    "shutil",
    "platformdirs",  # the user store's folder when MEMORY_REVIEW_HOME is not set
)
"""What the commands import on their way (their own modules lazily: ``memory_review.cli``'s imports)."""
TICK = 30.0
"""How often an idle server looks at its code, its socket and the clock (seconds)."""
MAX_CHILDREN = 64
"""With this many commands running the server accepts no more connections until one ends: the next clients
wait in the listening socket's backlog (then, when it is full, their connect fails and they run in-process)."""
DEFAULT_IDLE = 1800


def main(path: str) -> int:
    """Serve the resident folder ``path`` until idle, stale, switched off or told to stop."""
    os.chdir("/")  # never hold a repository's folder open (or on a mount) for half an hour
    try:
        fd = place.open_folder(path)
        if fd is None:
            return 0
        lock = os.open(place.LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=fd)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return 0  # another server serves this folder (or is starting)
        server = Server(path, fd, lock, idle=_idle_seconds(path))
        server.listen()
    except ResidentUnavailable as exc:
        _log(str(exc))
        return 1
    preload()
    gc.freeze()  # what the imports built stays shared with every child: no collection touches (copies) it
    return server.serve()


def preload() -> None:
    """Import what a command needs and build every model's schema, once, for all the children."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as the console script does
    from memory_review import main as console

    if os.environ["PYDANTIC_DISABLE_PLUGINS"] in ("__all__", "1", "true"):
        console._no_plugin_loader()
    for name in PRELOAD:
        importlib.import_module(name)
    _build_schemas()


def _build_schemas() -> None:
    from pydantic import BaseModel
    from pydantic.errors import PydanticUndefinedAnnotation

    ours = [m for name, m in list(sys.modules.items()) if name.split(".")[0] == "memory_review"]
    for module in ours:
        for value in list(vars(module).values()):
            model = isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == module.__name__
            if model and (not value.__pydantic_complete__ or _deferred(value)):
                try:
                    value.model_rebuild(force=True)
                except PydanticUndefinedAnnotation:  # a generic or forward reference built on first use
                    continue


def _deferred(model: type) -> bool:
    from pydantic._internal._mock_val_ser import MockValSer

    return isinstance(getattr(model, "__pydantic_validator__", None), MockValSer)


def _idle_seconds(path: str) -> float:
    from memory_review.resident.control import read_config

    try:
        return float(read_config(path).idle_seconds)
    except ResidentUnavailable as exc:
        _log(f"{exc}; idle timeout {DEFAULT_IDLE} s")
        return float(DEFAULT_IDLE)


def _log(line: str) -> None:
    """One line in the server's log (its stderr, appended to ``server.log``)."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    print(f"{stamp} [{os.getpid()}] {line}", file=sys.stderr, flush=True)


@dataclass
class _Running:
    pid: int
    conn: socket.socket
    cpu_before: float


@dataclass
class Server:
    """The listening socket, the running children, and why to stop."""

    path: str
    fd: int
    lock: int
    idle: float
    listener: socket.socket | None = None
    inode: int = 0
    running: dict[int, _Running] = field(default_factory=dict)  # pidfd -> child
    watched: tuple[str, ...] = ()
    stamp: tuple[tuple[str, int, int, int], ...] = ()
    stopping: str = ""
    wakeup: tuple[int, int] = (-1, -1)
    checked: float = 0.0

    def listen(self) -> None:
        """Bind the socket (removing one a dead server left, never anything else) and listen."""
        try:
            place.check_socket(self.fd, self.path)
            os.unlink(place.SOCKET, dir_fd=self.fd)  # ours, and the lock says nobody serves it
        except FileNotFoundError:
            pass
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
        old = os.umask(0o177)
        try:
            listener.bind(place.address(self.fd))
        finally:
            os.umask(old)
        listener.listen(64)
        self.listener = listener
        self.inode = os.stat(place.SOCKET, dir_fd=self.fd, follow_symlinks=False).st_ino

    def serve(self) -> int:
        assert self.listener is not None
        self.watched = watched_files()
        self.stamp = code_stamp(self.watched)
        self.identity = server_identity()
        read, write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self.wakeup = (read, write)
        signal.set_wakeup_fd(write)
        signal.signal(signal.SIGTERM, self._terminate)
        selector = selectors.DefaultSelector()
        selector.register(self.listener, selectors.EVENT_READ, "accept")
        selector.register(read, selectors.EVENT_READ, "signal")
        last = time.monotonic()
        _log(f"serving {self.path} (pid {os.getpid()}, idle timeout {self.idle:g} s)")
        while not (self.stopping and not self.running):
            wait = TICK if self.running else min(TICK, max(0.0, last + self.idle - time.monotonic()))
            for key, _ in selector.select(None if self.stopping else wait):
                if key.data == "accept" and not self.stopping and len(self.running) >= MAX_CHILDREN:
                    time.sleep(0.01)  # full: the connection waits in the backlog until a child ends
                elif key.data == "accept" and not self.stopping:
                    self._accept(selector)
                elif key.data == "signal":
                    os.read(read, 512)
                elif isinstance(key.data, int):
                    self._reap(selector, key.data)
                    last = time.monotonic()
            if not self.stopping:
                self._should_stop(last)
            if self.stopping and self.listener is not None:
                selector.unregister(self.listener)
                self._close_listener()
        _log(f"exits: {self.stopping}")
        return 0

    def _terminate(self, number: int, frame: object) -> None:
        self.stopping = self.stopping or "told to stop (SIGTERM)"

    def _should_stop(self, last: float) -> None:
        now = time.monotonic()
        if not self.running and now - last >= self.idle:
            self.stopping = f"idle for {self.idle:g} s"
        elif not self._socket_is_ours():
            self.stopping = "its socket was removed (resident off)"
        elif now - self.checked >= TICK:  # every connection checks it too: here, a server nobody calls
            self.checked = now
            if changed := self._changed():
                self.stopping = f"the installed code changed ({changed})"

    def _changed(self) -> str | None:
        """The first watched file whose stamp differs from the one taken at start, if any."""
        now = code_stamp(self.watched)
        if now == self.stamp:
            return None
        return next(old[0] for old, new in zip(self.stamp, now, strict=True) if old != new)

    def _socket_is_ours(self) -> bool:
        try:
            return os.stat(place.SOCKET, dir_fd=self.fd, follow_symlinks=False).st_ino == self.inode
        except OSError:
            return False

    def _close_listener(self) -> None:
        assert self.listener is not None
        if self._socket_is_ours():
            os.unlink(place.SOCKET, dir_fd=self.fd)
        self.listener.close()
        self.listener = None

    def _accept(self, selector: selectors.BaseSelector) -> None:
        assert self.listener is not None
        try:
            conn, _ = self.listener.accept()
        except OSError as exc:  # the client gave up meanwhile, or no descriptors left: serve the next
            _log(f"accept failed: {exc}")
            return
        try:
            self._take(selector, conn)
        except OSError as exc:  # the peer vanished, or no process or descriptor left: this one is dropped
            _log(f"a connection dropped: {exc}")
            conn.close()

    def _take(self, selector: selectors.BaseSelector, conn: socket.socket) -> None:
        cpu = time.process_time()
        _tell(conn, place.READY)  # the client sends its request only now (place.HANDOVER_SECONDS)
        _pid, uid = place.peer(conn)
        if uid != os.geteuid():
            _log(f"refused a connection from uid {uid}")
            _refuse(conn, place.refused("the server serves another user"))
            return
        if changed := self._changed():
            self.stopping = f"the installed code changed ({changed})"
            self._close_listener()  # before the answer: the client starts a new server
            _refuse(conn, place.refused("the installed code changed", quiet=True, restart=True))
            return
        self._fork(selector, conn, cpu)

    def _fork(self, selector: selectors.BaseSelector, conn: socket.socket, cpu: float) -> None:
        pid = os.fork()
        if pid == 0:
            selector.close()  # the child's copy of the epoll descriptor
            self._become_child(conn)  # never returns
        pidfd = os.pidfd_open(pid)
        self.running[pidfd] = _Running(pid, conn, cpu)
        selector.register(pidfd, selectors.EVENT_READ, pidfd)

    def _become_child(self, conn: socket.socket) -> None:
        code = 1
        try:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            for fd in (*self.running, *self.wakeup, self.lock, self.fd):
                os.close(fd)
            for child in self.running.values():
                child.conn.close()
            if self.listener is not None:
                self.listener.close()
            from memory_review.resident.child import serve_one

            code = serve_one(conn, self.identity, self.path)
        finally:
            os._exit(code)

    def _reap(self, selector: selectors.BaseSelector, pidfd: int) -> None:
        child = self.running.pop(pidfd)
        selector.unregister(pidfd)
        os.close(pidfd)
        _, status, usage = os.wait4(child.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        child_cpu, server_cpu = usage.ru_utime + usage.ru_stime, time.process_time() - child.cpu_before
        # the child's minor page faults: pages first touched or copied (copy-on-write) by it
        _tell(child.conn, place.ended(code, child_cpu, server_cpu, usage.ru_minflt))
        child.conn.close()


def _tell(conn: socket.socket, line: bytes) -> None:
    """One reply line; a client that went away is not the server's problem."""
    try:
        conn.sendall(line)
    except OSError:
        pass


def _refuse(conn: socket.socket, line: bytes) -> None:
    """Answer with a refusal and close, after reading what the client already sent (without waiting for
    more): a close with unread bytes is a reset, and the client could lose the refusal."""
    _tell(conn, line)
    try:
        conn.shutdown(socket.SHUT_WR)
        for _ in range(place.MAX_REQUEST >> 16):
            if not conn.recv(1 << 16, socket.MSG_DONTWAIT):
                break
    except OSError:  # nothing more there yet (BlockingIOError), or the client is gone
        pass
    conn.close()


def server_identity() -> dict[str, object]:
    """What :func:`memory_review.resident.client.identity` says in this interpreter (its ``sys.path``
    whole: started with ``-P``, it has no entry script's folder first)."""
    from memory_review.resident.client import identity, wire

    found = identity()
    found["path"] = [wire(entry) for entry in sys.path]
    return found


def code_stamp(watched: tuple[str, ...]) -> tuple[tuple[str, int, int, int], ...]:
    """Each watched file as (path, mtime, size, inode): an upgrade or an edit changes it (a file added or
    removed changes its folder's), and the server refuses to run code older than what is installed."""
    return tuple(_stat(f) for f in watched)


def watched_files() -> tuple[str, ...]:
    """Every file the server imported, and every module file and folder of our packages."""
    files = {m.__file__ for m in list(sys.modules.values()) if isinstance(getattr(m, "__file__", None), str)}
    for package in ("memory_review", "memory_review.events", "memory_review.tui"):
        module = sys.modules.get(package)
        root = os.path.dirname(module.__file__) if module is not None and module.__file__ else None
        for folder, dirs, names in os.walk(root) if root else ():
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            files.add(folder)
            files.update(os.path.join(folder, n) for n in names if n.endswith(".py"))
    return tuple(sorted(f for f in files if f))


def _stat(path: str) -> tuple[str, int, int, int]:
    try:
        info = os.stat(path)
    except OSError:
        return (path, -1, -1, -1)
    return (path, info.st_mtime_ns, info.st_size, info.st_ino)


def log_failure() -> None:
    """The traceback of what went wrong inside the server, in its log."""
    _log("failure:\n" + traceback.format_exc())
