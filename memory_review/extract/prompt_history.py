"""Claude Code's prompt history (``~/.claude/history.jsonl``): every prompt the person typed, in every project.

One JSON object a line, ``{"display": <the typed text>, "pastedContents": {…}, "timestamp": <ms>, "project":
<the directory Claude Code ran in>, "sessionId": <uuid, in newer versions>}`` (ADR 0072). Nothing else is in it:
no reply, no tool output, so every record is the person's own words, and one small file holds all their sessions,
which is where a rule said in two sessions shows. What was pasted is kept apart in ``pastedContents`` and is not
read; the typed text keeps its ``[Pasted text #1 +12 lines]`` placeholder.

The file holds every project's prompts. Read for a project, only the records whose ``project`` is that project's
root or a folder inside it are turns; the others are skipped, counted, never read as text.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memory_review.extract.builder import TurnSink
from memory_review.extract.sources import RawRecord, in_project

_COMMAND = re.compile(r"/[\w:.-]+")  # "/clear", "/model", "/mcp": Claude Code's own commands, no words of the person
OTHER_PROJECT = "another project's prompt (not read)"


def looks_like_claude_history(value: Any) -> bool:
    """True for one record of Claude Code's prompt history."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("display"), str)
        and isinstance(value.get("project"), str)
        and "type" not in value
        and "role" not in value
    )


def looks_like_codex_history(value: Any) -> bool:
    """True for one record of Codex's prompt history (``~/.codex/history.jsonl``: ``session_id``, ``ts``, ``text``)."""
    return isinstance(value, dict) and isinstance(value.get("text"), str) and "session_id" in value and "ts" in value


def add_claude_history_records(sink: TurnSink, records: Iterable[RawRecord], project: Path | None) -> None:
    """Each of the project's prompts → one user turn; with no ``project``, every record is read."""
    inside = in_project(project) if project is not None else None
    for raw in records:
        value = raw.value
        if raw.error is not None:
            sink.skip(raw.error, line=raw.line, index=raw.index)
        elif not looks_like_claude_history(value):
            sink.skip("not a prompt-history record {display, project}", line=raw.line, index=raw.index)
        elif inside is not None and not inside(value["project"]):
            sink.skip(OTHER_PROJECT, line=raw.line, index=raw.index)
        elif not _COMMAND.fullmatch(value["display"].strip()):
            session = value.get("sessionId")
            sink.add(
                f"line-{raw.line}" if raw.line is not None else f"record-{raw.index + 1}",
                "user",
                value["display"],
                "user",
                line=raw.line,
                session_id=session if isinstance(session, str) and session else None,
                timestamp=_when(value.get("timestamp")),
            )


def _when(value: Any) -> str | None:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 10**14:
        return None
    return dt.datetime.fromtimestamp(value / 1000, tz=dt.UTC).isoformat().replace("+00:00", "Z")
