"""Reading memory files for import, confined to one root folder and capped in size.

Every file an import reads — the one the person named, the ones a folder holds, the
ones a ``CLAUDE.md`` pulls in with ``@path`` — goes through :class:`FileReader`:

* the path is resolved (symlinks followed) and must stay inside the import root, so
  a cloned repository cannot make an import read ``~/.ssh/id_rsa`` through a planted
  symlink or an ``@../../`` reference;
* only regular files are read (a FIFO would block, a device would never end);
* each file is capped at :data:`MAX_FILE_BYTES` and the whole import at
  :data:`MAX_TOTAL_BYTES`;
* text is UTF-8 (a BOM is dropped) with ``\\n`` line ends, the one form a memory holds.

A file that breaks a rule found while walking (an import, a link, a folder entry) is
a *note* for the summary; the file the person named breaking one is an error.
"""

from __future__ import annotations

import os
import posixpath
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath

from memory_review.errors import StorageError, UnsafePathError, ValidationError

MAX_FILE_BYTES = 256 * 1024
MAX_TOTAL_BYTES = 4 * 1024 * 1024
MAX_FILES = 300
MAX_WALK_ENTRIES = 20_000  # names looked at when a folder is searched below its top (a project tree)


@dataclass(frozen=True)
class SourceFile:
    """One file read for import: where it is (absolute and as shown) and its text."""

    path: Path
    rel: str
    text: str
    link_to: str | None = None  # where ``rel`` points when it is a symlink inside the root

    @property
    def lines(self) -> list[str]:
        """The text split into lines, without their line ends."""
        return self.text.split("\n")


class Refused(Exception):
    """A file the import may not or cannot read; its message is the note for the summary."""


@dataclass
class FileReader:
    """Reads files under ``root``, each at most once, within the caps; keeps notes of refusals."""

    root: Path
    notes: list[str] = field(default_factory=list)
    _seen: set[Path] = field(default_factory=set)
    _total: int = 0

    def __post_init__(self) -> None:
        self.root = self.root.resolve()

    def resolve(self, rel: str) -> Path:
        """The real path of ``rel`` (relative to the root); :class:`Refused` if it leaves it."""
        problem = _reference_problem(rel)
        if problem:
            raise Refused(f"{rel!r} {problem}")
        normal = posixpath.normpath(rel)
        if normal == ".." or normal.startswith("../"):
            raise Refused(f"{rel!r} points outside {self.root}")
        try:
            target = (self.root / normal).resolve()
        except (OSError, RuntimeError) as exc:  # a symlink loop
            raise Refused(f"{rel!r} cannot be resolved: {exc}") from exc
        if target != self.root and not target.is_relative_to(self.root):
            raise Refused(f"{rel!r} resolves to {target}, outside {self.root}")
        return target

    def relative(self, path: Path) -> str:
        """``path`` (inside the root) as shown in rationales and evidence: POSIX, relative."""
        return path.relative_to(self.root).as_posix() if path != self.root else "."

    def seen(self, path: Path) -> bool:
        """Whether the real file at ``path`` was read already in this import."""
        return path in self._seen

    def read(self, rel: str) -> SourceFile:
        """Read the file at ``rel``; :class:`Refused` for anything outside the rules."""
        path = self.resolve(rel)
        if path in self._seen:
            raise Refused(f"{rel!r} was read already in this import")
        if len(self._seen) >= MAX_FILES:
            raise Refused(f"{rel!r} not read: an import reads at most {MAX_FILES} files")
        data = read_regular(path, rel)
        if self._total + len(data) > MAX_TOTAL_BYTES:
            raise Refused(f"{rel!r} not read: an import reads at most {MAX_TOTAL_BYTES} bytes in all")
        self._seen.add(path)
        self._total += len(data)
        shown = posixpath.normpath(rel)
        real = self.relative(path)
        return SourceFile(path=path, rel=shown, text=decode(data, rel), link_to=None if real == shown else real)

    def try_read(self, rel: str) -> SourceFile | None:
        """:meth:`read`, with a refusal kept as a note; a file read already is skipped quietly."""
        try:
            if self.seen(self.resolve(rel)):
                return None  # a second link or import of one file: it is imported once
            return self.read(rel)
        except Refused as exc:
            self.notes.append(str(exc))
            return None


def open_named(path: Path, root: Path) -> tuple[FileReader, str]:
    """A reader for importing ``path`` (a file or folder) under ``root``, and ``path`` in it.

    The path the person named must exist and stay inside ``root``: anything else is an error.
    """
    if "\x00" in str(path):
        raise ValidationError("path contains a NUL byte", field="path")
    if not path.exists():
        raise ValidationError("no such file or folder", path=path)
    reader = FileReader(root)
    absolute = path.absolute()
    try:
        rel = absolute.relative_to(reader.root).as_posix()
    except ValueError:
        rel = _relative_real(absolute, reader.root)
    try:
        reader.resolve(rel)
    except Refused as exc:
        raise UnsafePathError(str(exc), path=path) from None
    return reader, rel


def _relative_real(path: Path, root: Path) -> str:
    real = path.resolve()
    if real != root and not real.is_relative_to(root):
        raise UnsafePathError(f"resolves to {real}, outside the import root {root}", path=path)
    return real.relative_to(root).as_posix() if real != root else "."


def decode(data: bytes, rel: str) -> str:
    """UTF-8 text with a BOM dropped and CRLF/CR turned into LF; :class:`Refused` otherwise."""
    if b"\x00" in data:
        raise Refused(f"{rel!r} not read: a binary file (NUL bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused(f"{rel!r} not read: not UTF-8 (bad byte at offset {exc.start})") from exc
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _reference_problem(rel: str) -> str | None:
    if not rel or "\x00" in rel:
        return "is empty or holds a NUL byte"
    if "\\" in rel:
        return "contains a backslash"
    if rel.startswith("~") or PurePosixPath(rel).is_absolute() or PureWindowsPath(rel).drive:
        return "is an absolute or home path (imports stay inside the project)"
    return None


def read_regular(path: Path, rel: str) -> bytes:
    """The bytes of the regular file at ``path``, capped; :class:`Refused` for anything else (a FIFO never blocks)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise Refused(f"{rel!r} does not exist") from None
    except OSError as exc:
        raise Refused(f"{rel!r} cannot be read: {exc.strerror}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise Refused(f"{rel!r} is not a regular file")
    if info.st_size > MAX_FILE_BYTES:
        raise Refused(f"{rel!r} not read: {info.st_size} bytes, more than {MAX_FILE_BYTES}")
    return _read_capped(path, rel)


def _read_capped(path: Path, rel: str) -> bytes:
    try:
        # Without blocking, and checked on what was opened: a FIFO swapped in after the stat never hangs us.
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise Refused(f"{rel!r} is not a regular file")
            os.set_blocking(handle.fileno(), True)
            data = handle.read(MAX_FILE_BYTES + 1)
    except PermissionError as exc:
        raise Refused(f"{rel!r} cannot be read: {exc.strerror}") from exc
    except OSError as exc:
        raise StorageError(f"cannot read {path}: {exc.strerror}", path=path, errno=exc.errno) from exc
    if len(data) > MAX_FILE_BYTES:  # grew between stat and read
        raise Refused(f"{rel!r} not read: more than {MAX_FILE_BYTES} bytes")
    return data


def walk_names(path: Path, wanted: Callable[[str], bool], *, depth: int, skip: Callable[[str], bool]) -> list[str]:
    """The files below ``path`` whose name is ``wanted``, as POSIX paths relative to it, sorted, folder by folder.

    Bounded: at most ``depth`` folders down and :data:`MAX_WALK_ENTRIES` entries looked at; a linked folder is never
    entered (a file that is a link is listed: the reader refuses it if it points outside), nor a folder ``skip`` names.
    """
    found: list[str] = []
    budget = [MAX_WALK_ENTRIES]
    _walk_names(path, "", wanted, depth, skip, found, budget)
    return found


def _walk_names(
    folder: Path,
    prefix: str,
    wanted: Callable[[str], bool],
    depth: int,
    skip: Callable[[str], bool],
    found: list[str],
    budget: list[int],
) -> None:
    try:
        entries = sorted((e for e in os.scandir(folder) if _is_utf8(e.name)), key=lambda entry: entry.name)
    except OSError:
        return
    budget[0] -= len(entries)
    if budget[0] < 0:
        return
    for entry in entries:
        if wanted(entry.name) and not _is_dir(entry):
            found.append(prefix + entry.name)
    for entry in entries:
        if depth > 0 and _is_dir(entry) and not skip(entry.name):
            _walk_names(Path(entry.path), f"{prefix}{entry.name}/", wanted, depth - 1, skip, found, budget)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def list_dir(path: Path) -> list[str]:
    """The names in a folder, sorted (so an import is deterministic); empty if unreadable."""
    try:
        return sorted(entry.name for entry in os.scandir(path) if _is_utf8(entry.name))
    except OSError:
        return []


def _is_utf8(name: str) -> bool:
    # A name that is no UTF-8 cannot be named in a candidate's evidence: such a file is not read (its bytes came back
    # as surrogates, which the models refuse with a traceback; session 37's last check)
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
