"""Rewriting committed lines: the one exception to "append-only" (``memory-review forget``, ADR 0019).

A log is rewritten only to take out text that must not be kept (a secret that got in).
Two parts, kept apart:

- :func:`rechain` is pure: it reads a log's bytes (chain checked first: a damaged log is
  never laundered into a valid one), lets the caller edit each event's fields, and writes
  every line again with the same ``seq`` and a new ``prev`` chain. It reports which lines
  changed, and the old line hash -> new line hash of each, so references to a line by its
  hash (sync version ids) can be renamed by the caller's edit of later lines. Events to
  append after the rewritten ones (the record that the rewrite happened) go into the same
  bytes, so the rewrite and its record land together.
- :func:`replace_log` is durable: a temp file beside the log, written and fsynced, renamed
  over the log, the directory fsynced — the log is the old file or the new one, never a mix.
  It refuses if the log moved since the caller read it.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from . import faults
from .durable import TEMP_PREFIX, fsync_fd, sync_directory, write_all
from .errors import LogConflictError, LogIntegrityError
from .log import EventLog
from .model import GENESIS, Event, EventDraft, decode_event, encode_event, line_hash
from .report import LogHead

Edit = Callable[[dict[str, Any], Mapping[str, str]], dict[str, Any]]
"""Given an event's fields (without ``prev``) and the renames so far, the fields to write instead."""

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_FIXED = ("seq", "v", "more")


@dataclass
class Rewritten:
    """A rewritten log: its bytes, its head, and what changed."""

    data: bytes
    head: LogHead
    renamed: dict[str, str] = field(default_factory=dict)
    """Old line hash -> new line hash, for every line whose bytes changed."""
    changed: list[int] = field(default_factory=list)
    """Seqs of the lines whose fields the edit changed (later lines change only by their ``prev``)."""
    appended: list[Event] = field(default_factory=list)

    @property
    def first_changed(self) -> int | None:
        """The seq of the first line whose bytes differ (all later ones differ too)."""
        return self.changed[0] if self.changed else None


def rechain(data: bytes, edit: Edit, *, where: Path | str) -> Rewritten:
    """Rewrite every committed line of ``data`` through ``edit`` (:func:`extend` adds events after them).

    ``data`` must be a whole log whose chain holds (a torn tail is left out: never committed).
    An edit may not change ``seq``, ``v`` or ``more``; what it returns must be a valid event.
    """
    result = Rewritten(data=b"", head=LogHead.empty())
    lines: list[bytes] = []
    committed, old_prev, new_prev = 0, GENESIS, GENESIS
    for line_no, line in enumerate(data.split(b"\n")[:-1], 1):  # a last line without "\n" is torn
        line += b"\n"
        event = decode_event(line, path=where, line_no=line_no)
        if event.seq != line_no or event.prev != old_prev:
            raise LogIntegrityError(where, line_no, "the chain is broken here; a damaged log is not rewritten")
        old_prev = line_hash(line)
        new_line = _edited_line(line, new_prev, edit, result, where=where, line_no=line_no)
        lines.append(new_line)
        new_prev = line_hash(new_line)
        if new_line != line:
            result.renamed[old_prev] = new_prev
        if not event.more:  # a batch commits with its last line
            committed, result.head = line_no, LogHead(event.seq, new_prev)
    del lines[committed:]  # a batch cut short by a crash: never committed
    result.changed = [seq for seq in result.changed if seq <= committed]
    result.data = b"".join(lines)
    return result


def extend(result: Rewritten, drafts: Sequence[EventDraft], *, origin: str, ts: str | None = None) -> Rewritten:
    """``result`` with ``drafts`` committed after its lines as one batch, as an append would write them."""
    clock = (lambda: ts) if ts is not None else None
    appended, tail, head = EventLog(Path("events.jsonl"), origin=origin, clock=clock)._build(list(drafts), result.head)
    return Rewritten(
        data=result.data + tail,
        head=head,
        renamed=result.renamed,
        changed=result.changed,
        appended=result.appended + appended,
    )


def _edited_line(line: bytes, prev: str, edit: Edit, result: Rewritten, *, where: Path | str, line_no: int) -> bytes:
    fields = orjson.loads(line)
    fields.pop("prev")
    edited = edit(dict(fields), result.renamed)
    if any(edited.get(name) != fields.get(name) for name in _FIXED):
        raise ValueError(f"{where}:{line_no}: a rewrite may not change seq, v or more")
    if edited != fields:
        result.changed.append(line_no)
    try:
        event = Event.model_validate({**edited, "prev": prev})
    except ValueError as exc:  # pydantic's ValidationError is one
        raise LogIntegrityError(where, line_no, f"the rewritten event is not valid: {_first_line(exc)}") from exc
    return encode_event(event)


def _first_line(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 300 else text[:297] + "..."


def replace_log(path: Path, data: bytes, *, expect: LogHead) -> None:
    """Replace the log at ``path`` with ``data``, atomically and durably; the caller holds the store lock.

    :class:`LogConflictError` (nothing written) if the log's head is no longer ``expect``.
    Fault points ``log.rewrite.*`` sit before and after each step, like the durable primitives'.
    """
    found = EventLog(path, origin="0" * 16).head()
    if found != expect:
        raise LogConflictError(expect, found)
    temp = path.with_name(f"{TEMP_PREFIX}-{secrets.token_hex(8)}-{path.name}")
    faults.point("log.rewrite.before_open")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _O_CLOEXEC, 0o644)
    renamed = False
    try:
        try:
            write_all(fd, data, name="log.rewrite")
            fsync_fd(fd, name="log.rewrite")
        finally:
            os.close(fd)
        faults.point("log.rewrite.before_rename")
        os.replace(temp, path)
        renamed = True
        faults.point("log.rewrite.after_rename")
        sync_directory(path.parent, name="log.rewrite.dir")
    except BaseException:
        if not renamed:
            with contextlib.suppress(OSError):  # the caller must see the first error, not this one
                os.unlink(temp)
        raise
