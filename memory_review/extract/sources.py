"""Reading transcript files: capped line streaming, JSON records, and OS errors mapped to our tree.

This is the one module of the extract package that opens files. Lines are read with a
size cap so one enormous record (a base64 screenshot in a tool result) cannot exhaust
memory; a whole-file JSON document is read only up to its own cap.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

import orjson

from memory_review.errors import NotFoundError, StorageError, ValidationError
from memory_review.json_text import loads

MAX_LINE_BYTES = 32 * 1024 * 1024
MAX_DOCUMENT_BYTES = 256 * 1024 * 1024
MAX_DOCUMENT_NODES = 4_000_000
"""Objects, arrays and items a whole-file JSON document may hold (counted on its bytes before parsing): many small
records parse to about 17 times their bytes in Python objects, so the byte cap alone let a 256 MB file need 4 GB."""
SNIFF_BYTES = 64 * 1024
FIRST_LINE_COUNTED = 1024 * 1024
_BOM = b"\xef\xbb\xbf"
_DISCARD_CHUNK = 1024 * 1024
# Keys under which whole-session documents keep their records (simonw's exports use "loglines").
WRAPPER_KEYS = ("loglines", "messages")
LOOK_PAST_BAD_LINES = 5
"""How many lines past a first one that looks like JSON but does not parse (a file cut mid-record) are tried."""
JsonLayout = Literal["lines", "document"]
# A JSON string, escapes and all, or an unclosed one to the end: it always matches from its quote, so the scan never
# starts again inside a string (with the closing quote required, an unclosed string of escaped quotes was quadratic,
# the review of session 33)
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?')


@dataclass(frozen=True, slots=True)
class RawRecord:
    """One decoded JSON record, or the reason it could not be decoded."""

    line: int | None
    index: int
    value: Any = None
    error: str | None = None


def open_binary(path: Path, *, follow_links: bool = True) -> IO[bytes]:
    """Open a transcript for reading, turning OS errors into memory-review errors.

    A transcript path comes from the person or from a hook payload (untrusted): it is opened without
    blocking and must be a regular file, so a FIFO or a device there can never hang a command or a
    hook's worker (the check is on what was opened, so nothing can be swapped in after it). With
    ``follow_links=False`` a link is refused too (a file found in an agent's folder, not named by anyone).
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | (0 if follow_links else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError as exc:
        raise NotFoundError("transcript", str(path)) from exc
    except OSError as exc:
        raise StorageError(f"cannot read {path}: {exc.strerror}", path=path, errno=exc.errno) from exc
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise ValidationError("is a directory, not a transcript file", path=path)
        if not stat.S_ISREG(mode):
            raise ValidationError("is not a regular file (a FIFO or device), not a transcript file", path=path)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def iter_lines(path: Path, *, max_line_bytes: int | None = None) -> Iterator[tuple[int, bytes | None]]:
    """Yield ``(line_number, raw_line)``; a line over the cap yields ``None`` instead of its bytes."""
    cap = max_line_bytes if max_line_bytes is not None else MAX_LINE_BYTES
    with open_binary(path) as handle:
        try:
            yield from _numbered_lines(handle, cap)
        except OSError as exc:
            raise StorageError(f"cannot read {path}: {exc.strerror}", path=path, errno=exc.errno) from exc


def _numbered_lines(handle: IO[bytes], cap: int) -> Iterator[tuple[int, bytes | None]]:
    number = 0
    while chunk := handle.readline(cap + 1):
        number += 1
        if number == 1 and chunk.startswith(_BOM):
            chunk = chunk[len(_BOM) :]
        if len(chunk) > cap and not chunk.endswith(b"\n"):
            _discard_rest_of_line(handle)
            yield number, None
            continue
        yield number, chunk


def _discard_rest_of_line(handle: IO[bytes]) -> None:
    # Read on in bounded chunks so an over-long line never sits in memory whole.
    while chunk := handle.readline(_DISCARD_CHUNK):
        if chunk.endswith(b"\n"):
            return


def read_head(path: Path, size: int = SNIFF_BYTES) -> bytes:
    """The first ``size`` bytes of a file (BOM removed), for format detection."""
    with open_binary(path) as handle:
        try:
            head = handle.read(size)
        except OSError as exc:
            raise StorageError(f"cannot read {path}: {exc.strerror}", path=path, errno=exc.errno) from exc
    return head.removeprefix(_BOM)


def read_document(path: Path, *, max_bytes: int | None = None) -> Any:
    """Parse a whole file as one JSON document, refusing files over the caps (bytes, and nodes: see
    :data:`MAX_DOCUMENT_NODES`)."""
    raw = document_bytes(path, max_bytes=max_bytes)
    try:
        return loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ValidationError(f"not valid JSON: {exc}", path=path) from exc


def document_bytes(path: Path, *, max_bytes: int | None = None) -> bytes:
    """A whole file's bytes (BOM removed) for parsing as one document; ValidationError over either cap."""
    max_bytes = max_bytes if max_bytes is not None else MAX_DOCUMENT_BYTES
    with open_binary(path) as handle:
        try:
            raw = handle.read(max_bytes + 1)
        except OSError as exc:
            raise StorageError(f"cannot read {path}: {exc.strerror}", path=path, errno=exc.errno) from exc
    if len(raw) > max_bytes:
        raise ValidationError(f"JSON document is larger than {max_bytes} bytes", path=path)
    check_nodes(raw, path)
    return raw.removeprefix(_BOM)


def check_nodes(raw: bytes, path: Path) -> None:
    """ValidationError when a JSON document would parse to more than :data:`MAX_DOCUMENT_NODES` objects and items."""
    nodes = too_many_nodes(raw)
    if nodes is not None:
        raise ValidationError(
            f"JSON document holds too many records to read whole (about {nodes:,} items, at most"
            f" {MAX_DOCUMENT_NODES:,})",
            path=path,
            hint="split it, or write it as JSON Lines (one record a line), which is read as a stream",
        )


def too_many_nodes(raw: bytes) -> int | None:
    """How many objects and items ``raw`` would parse to, when more than :data:`MAX_DOCUMENT_NODES`; else None.

    Counted on the bytes: first every ``{``, ``[`` and ``,`` (an upper bound, one C pass); only a text over the cap by
    that count is counted again with its strings blanked (a comma-heavy tool output in an ordinary session is not
    refused, the review of session 33).
    """
    if _nodes(raw) <= MAX_DOCUMENT_NODES:
        return None
    nodes = _nodes(_STRING.sub(b'""', raw))
    return nodes if nodes > MAX_DOCUMENT_NODES else None


def _nodes(raw: bytes) -> int:
    return raw.count(b"{") + raw.count(b"[") + raw.count(b",")


class JsonSource:
    """A JSON transcript opened once: streamed line by line, or parsed whole as a document."""

    def __init__(self, path: Path, layout: JsonLayout, document: Any = None) -> None:
        self.path = path
        self.layout = layout
        self._document = document

    @property
    def document(self) -> Any:
        """The parsed document (None for JSON Lines, which are streamed)."""
        return self._document

    def records(self, unwrap: tuple[str, ...] = ()) -> Iterator[RawRecord]:
        """Every record of the lines, or of the document's array (or the array under a key)."""
        if self.layout == "lines":
            yield from _line_records(self.path)
            return
        for index, value in enumerate(_unwrap(self._document, unwrap, self.path)):
            yield RawRecord(line=None, index=index, value=value)


def open_json(path: Path) -> JsonSource | None:
    """Open a file as JSON Lines (first non-blank line is a record) or as one JSON document.

    A single-line document such as ``{"loglines": [...]}`` is a document, not one record.
    ``None`` when the file is neither: it is not JSON at all.
    """
    looked = 0
    for _number, raw in iter_lines(path):
        if raw is None or not raw.strip():
            continue
        if len(raw) > FIRST_LINE_COUNTED:  # a whole document on one line: counted before it is parsed (ADR 0161)
            check_nodes(raw, path)
        first = _loads_or_none(raw)
        if isinstance(first, dict) and not _is_wrapper(first) and not _is_session_document(first):
            return JsonSource(path, "lines")
        # A first line that opens a record but does not parse (a file cut mid-record): the next lines decide, and a
        # bad one is a skipped record with its line number, never the whole file read as the person's text
        looked += 1
        if first is not None or not raw.lstrip().startswith(b"{") or looked > LOOK_PAST_BAD_LINES:
            break
    raw = document_bytes(path)  # too big or too many records to parse whole: said as such, never read as text
    try:
        return JsonSource(path, "document", loads(raw))
    except orjson.JSONDecodeError:
        return None


def _is_session_document(value: dict[str, Any]) -> bool:
    # A whole session on one line ({"sessionId": ..., "messages": [...]}, Gemini CLI's shape written
    # compactly): no record of a JSON Lines transcript holds a list of messages.
    return isinstance(value.get("messages"), list)


def _is_wrapper(value: dict[str, Any]) -> bool:
    return len(value) <= 3 and any(isinstance(value.get(key), list) for key in WRAPPER_KEYS)


def _line_records(path: Path) -> Iterator[RawRecord]:
    index = 0
    for number, raw in iter_lines(path):
        if raw is not None and not raw.strip():
            continue
        yield _decode_line(number, index, raw)
        index += 1


def _decode_line(number: int, index: int, raw: bytes | None) -> RawRecord:
    if raw is None:
        return RawRecord(line=number, index=index, error=f"line longer than {MAX_LINE_BYTES} bytes, skipped")
    nodes = too_many_nodes(raw) if len(raw) > FIRST_LINE_COUNTED else None
    if nodes is not None:  # one record of millions of items: about 1 GB parsed, so it costs one record (ADR 0161)
        return RawRecord(line=number, index=index, error=f"a record of about {nodes:,} items, too many to read")
    try:
        return RawRecord(line=number, index=index, value=loads(raw))
    except orjson.JSONDecodeError as exc:
        return RawRecord(line=number, index=index, error=f"not valid JSON: {exc}")


def _unwrap(document: Any, keys: tuple[str, ...], path: Path) -> list[Any]:
    if isinstance(document, dict):
        for key in keys:
            if isinstance(document.get(key), list):
                return list(document[key])
        raise ValidationError(
            "JSON object without a list of records" + (f" under {'/'.join(keys)}" if keys else ""),
            path=path,
        )
    if isinstance(document, list):
        return document
    raise ValidationError("JSON document is neither an array nor an object of records", path=path)


def _loads_or_none(raw: bytes) -> Any:
    try:
        return loads(raw)
    except orjson.JSONDecodeError:
        return None


def decode_text_line(raw: bytes) -> str | None:
    """A line as text without its line ending, or ``None`` if it is not UTF-8."""
    try:
        return raw.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError:
        return None


def in_project(project: Path) -> Callable[[str], bool]:
    """A test of a directory an agent recorded (a rollout's ``cwd``, a prompt's ``project``): is it the project's root
    or a folder in it? Compared as written and as resolved, by whole path components (``/x/proj-fork`` is not in
    ``/x/proj``); the project is resolved once, however many directories are tested."""
    roots = {os.path.normpath(project), os.path.realpath(project)}

    def test(recorded: str) -> bool:
        if not recorded or "\x00" in recorded:
            return False
        written = os.path.normpath(recorded)
        return any(written == root or written.startswith(root.rstrip(os.sep) + os.sep) for root in roots)

    return test
