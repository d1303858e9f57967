"""The one error tree of memory-review.

Every failure the library reports is one of these, so the CLI and the TUI —
the only two places that catch — can turn it into a message and an exit code::

    MemoryReviewError
     ├── ValidationError          bad input: a field, a file, a line, an id
     │    └── UnsafePathError     a path or key that would leave the store
     ├── NotFoundError            no such candidate, memory, event or session
     ├── ConflictError            the memory changed since the candidate was proposed
     ├── PermissionDeniedError    an agent tried a person's action (apply, discard, ...)
     ├── LockTimeoutError         (also TimeoutError) another process holds the store lock
     ├── IntegrityError           the log, manifest or a memory file is damaged
     │    └── UnsafeFileError     a store path that is a symlink, FIFO, hard link or oversize file
     ├── FormatTooNewError        a store written by a newer memory-review: refused, never rewritten
     ├── ResidentUnavailable      the resident server cannot take this command (it runs in-process)
     └── StorageError             (also OSError) the disk refused a read or write

Each error carries its context as attributes (``path``, ``line``, ``field`` ...)
so callers never parse messages.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (2-3 ms of the resident client)

if TYPE_CHECKING:  # only in annotations: the resident client imports this module without pathlib
    from pathlib import Path


class MemoryReviewError(Exception):
    """Root of every error memory-review raises on purpose."""

    hint: str = ""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        if hint:
            self.hint = hint

    def __str__(self) -> str:
        return self.message


class ValidationError(MemoryReviewError):
    """Input that does not meet the rules: names the file, field or line."""

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None = None,
        field: str | None = None,
        line: int | None = None,
        hint: str = "",
    ) -> None:
        where = _where(path, line, field)
        super().__init__(f"{where}{message}" if where else message, hint=hint)
        self.path = str(path) if path is not None else None
        self.field = field
        self.line = line


class UnsafePathError(ValidationError):
    """A path or key that could resolve outside its store."""


class NotFoundError(MemoryReviewError):
    """The named candidate, memory, event or session does not exist."""

    def __init__(self, kind: str, key: str, *, hint: str = "") -> None:
        super().__init__(f"no {kind} {key!r}", hint=hint)
        self.kind = kind
        self.key = key


class ConflictError(MemoryReviewError):
    """The memory changed since the change was proposed; nothing was written."""

    def __init__(self, message: str, *, memory_id: str | None = None, hint: str = "") -> None:
        super().__init__(message, hint=hint)
        self.memory_id = memory_id


class PermissionDeniedError(MemoryReviewError):
    """An agent-facing path tried an action only a person may take."""


class LockTimeoutError(MemoryReviewError, TimeoutError):
    """The store is locked by another process for longer than the timeout."""

    def __init__(self, lock_file: Path | str, timeout: float) -> None:
        super().__init__(
            f"store is locked by another process ({lock_file}); gave up after {timeout:g}s",
            hint="wait for the other memory-review command to finish, then retry",
        )
        self.lock_file = str(lock_file)
        self.timeout = timeout


class FormatTooNewError(MemoryReviewError):
    """A store in a format newer than this tool reads (docs/upgrading.md): never repaired or rewritten.

    Not an IntegrityError on purpose: nothing that repairs damage may treat it as damage.
    """

    def __init__(self, path: Path | str, found: int, supported: int) -> None:
        super().__init__(
            f"{path}: store format {found} was written by a newer memory-review; this one "
            f"({_tool_version()}) reads format {supported} and changes nothing",
            hint="upgrade memory-review (see docs/upgrading.md)",
        )
        self.path = str(path)
        self.found = found
        self.supported = supported


def _tool_version() -> str:
    from memory_review.version import tool_version  # noqa: PLC0415 - only on this rare error

    return tool_version()


class IntegrityError(MemoryReviewError):
    """Stored state is damaged: a bad log line, manifest or memory file."""

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None = None,
        line: int | None = None,
        hint: str = "",
    ) -> None:
        where = _where(path, line, None)
        super().__init__(f"{where}{message}" if where else message, hint=hint)
        self.path = str(path) if path is not None else None
        self.line = line


class UnsafeFileError(IntegrityError):
    """A store path refused before use: a symlink, not a regular file or folder, hard-linked, oversize.

    A project store can arrive by ``git clone``: such a name is never followed, read or written through.
    """

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(
            reason,
            path=path,
            hint="remove or replace it (a store holds only plain files and folders), "
            "then run `memory-review verify --repair --apply`",
        )
        self.reason = reason


class ResidentUnavailable(MemoryReviewError):
    """The resident server (docs/adr/0060) cannot take a command: its folder or socket is not safely ours,
    or it refused. Never fatal: the command runs in-process instead; ``reason`` is the one line said."""

    def __init__(self, reason: str, *, quiet: bool = False) -> None:
        super().__init__(f"resident server not used: {reason}")
        self.reason = reason
        self.quiet = quiet
        """An ordinary miss (not running, another install's server, stale code): nothing to tell anyone."""


class StorageError(MemoryReviewError, OSError):
    """The operating system refused a read, write, fsync or rename."""

    def __init__(self, message: str, *, path: Path | str | None = None, errno: int | None = None) -> None:
        MemoryReviewError.__init__(self, message)
        self.path = str(path) if path is not None else None
        self.errno = errno

    def __str__(self) -> str:
        return self.message


def one_line_os_error(exc: OSError) -> str:
    """An OSError the library did not translate, as one line naming the file (the boundaries' last resort)."""
    where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
    return f"{where}{exc.strerror or exc}"


def _where(path: Path | str | None, line: int | None, field: str | None) -> str:
    parts = []
    if path is not None:
        parts.append(f"{path}" + (f":{line}" if line is not None else ""))
    elif line is not None:
        parts.append(f"line {line}")
    if field:
        parts.append(f"field {field!r}")
    return (", ".join(parts) + ": ") if parts else ""
