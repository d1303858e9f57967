"""Claude Code's native session records → turns.

A session file mixes message records (``type`` user/assistant) with bookkeeping:
progress, hook and system lines, file-history snapshots, queue operations and
compaction summaries. Only message records become turns, and inside them only the
person's own words get ``source="user"``:

* ``tool_result`` parts are recorded under role "user" but are tool output;
* ``isMeta`` records (skill bodies, caveats) and ``isCompactSummary`` records are system text;
* slash-command, hook and ``<system-reminder>`` wrappers are system text;
* a sidechain's "user" prompt was written by the parent agent, so its source is "assistant";
* a prompt typed while the agent worked is logged only as a ``queued_command`` attachment: the person's words.

The same records are accepted as JSON Lines, as one JSON array, or as simonw's
``{"loglines": [...]}`` document (see :data:`~memory_review.extract.sources.WRAPPER_KEYS`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from memory_review.extract.builder import TurnSink
from memory_review.extract.sources import RawRecord
from memory_review.extract.transcript import Role, TurnSource

MESSAGE_TYPES = frozenset({"user", "assistant"})
BOOKKEEPING_TYPES = frozenset(
    {"system", "summary", "progress", "file-history-snapshot", "queue-operation", "result", "attachment", "last-prompt"}
)
"""Records that hold no one's words. Claude Code 2.1 writes what hooks added (``attachment``:
``hook_additional_context``, where our own context block comes back; ``hook_success``), tool and skill
listings (``attachment``) and ``last-prompt`` (a copy of the prompt already in its ``user`` record); seen
in a real 2.1.197 session run here with our hooks (docs/adr/0051)."""
_ID_KEYS = ("message", "uuid", "sessionId", "summary", "snapshot", "data", "leafUuid", "parentUuid")

_WRAPPER = re.compile(
    r"^\s*(?:<(?:command-name|command-message|command-args|command-contents|local-command-stdout|"
    r"local-command-stderr|local-command-caveat|system-reminder|bash-input|bash-stdout|bash-stderr|"
    r"user-prompt-submit-hook|task-notification)>"
    r"|Caveat: The messages below were generated"
    r"|\[Request interrupted by user)"
)
_REMINDER = ("<system-reminder>", "</system-reminder>")
# A custom or built-in command the person ran: its name, its message and the words typed after it, in any order
_COMMAND = re.compile(r"^\s*<(?:command-name|command-message|command-args)>")
_COMMAND_ARGS = ("<command-args>", "</command-args>")


def looks_like_record(value: Any) -> bool:
    """True for an object shaped like a Claude Code session record."""
    if not isinstance(value, dict):
        return False
    kind = value.get("type")
    known = isinstance(kind, str) and (kind in MESSAGE_TYPES or kind in BOOKKEEPING_TYPES)
    return known and any(key in value for key in _ID_KEYS)


@dataclass(frozen=True, slots=True)
class _Where:
    base_id: str
    line: int | None
    index: int
    sidechain: bool
    session: str | None
    timestamp: str | None


def add_record(sink: TurnSink, raw: RawRecord) -> None:
    """Turn one decoded record into zero or more turns (or a recorded skip)."""
    if raw.error is not None:
        sink.skip(raw.error, line=raw.line, index=raw.index)
        return
    record = raw.value
    if not isinstance(record, dict):
        sink.skip("record is not a JSON object", line=raw.line, index=raw.index)
        return
    kind = record.get("type")
    if not isinstance(kind, str):
        sink.skip("record without a string 'type'", line=raw.line, index=raw.index)
    elif kind in MESSAGE_TYPES:
        _add_message(sink, record, raw)
    elif kind == "attachment" and (typed := _typed_while_busy(record)) is not None:
        _add_content(sink, record, raw, typed)
    elif kind not in BOOKKEEPING_TYPES:
        sink.skip(f"not a Claude Code record (type {kind!r})", line=raw.line, index=raw.index)


def _typed_while_busy(record: dict[str, Any]) -> str | list[Any] | None:
    """A prompt the person typed while the agent worked: Claude Code 2.x logs it only as a ``queued_command``
    attachment, never as a ``user`` record (another session's message or a task notification is not the person)."""
    attachment = record.get("attachment")
    if not isinstance(attachment, dict) or attachment.get("type") != "queued_command" or attachment.get("isMeta"):
        return None
    origin = attachment.get("origin")
    human = not isinstance(origin, dict) or origin.get("kind", "human") == "human"
    prompt = attachment.get("prompt")
    if attachment.get("commandMode") != "prompt" or not human or not isinstance(prompt, (str, list)):
        return None
    return prompt


def _add_message(sink: TurnSink, record: dict[str, Any], raw: RawRecord) -> None:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, (str, list)):
        sink.skip("message without string or list content", line=raw.line, index=raw.index)
        return
    _add_content(sink, record, raw, content)


def _add_content(sink: TurnSink, record: dict[str, Any], raw: RawRecord, content: str | list[Any]) -> None:
    """A message's content, or a queued prompt's (an ``attachment`` record: the person's, as a user message is)."""
    if record["type"] == "assistant":
        pieces = _assistant_pieces(content)
    else:
        pieces = _user_pieces(record, content)
    if pieces is None:
        sink.skip("content part is not an object", line=raw.line, index=raw.index)
        return
    _emit(sink, pieces, _where(record, raw))


def _where(record: dict[str, Any], raw: RawRecord) -> _Where:
    uuid = record.get("uuid")
    fallback = f"line-{raw.line}" if raw.line is not None else f"record-{raw.index + 1}"
    return _Where(
        base_id=uuid if isinstance(uuid, str) and uuid else fallback,
        line=raw.line,
        index=raw.index,
        sidechain=record.get("isSidechain") is True,
        session=_str_or_none(record.get("sessionId")),
        timestamp=_str_or_none(record.get("timestamp")),
    )


Piece = tuple[Role, TurnSource, str]


def _assistant_pieces(content: str | list[Any]) -> list[Piece] | None:
    # Thinking and tool calls are the agent's working, not statements; only text parts count.
    if isinstance(content, str):
        return [("assistant", "assistant", content)]
    if not all(isinstance(part, dict) for part in content):
        return None
    texts = [part["text"] for part in content if part.get("type") == "text" and isinstance(part.get("text"), str)]
    return [("assistant", "assistant", "\n\n".join(texts))]


def _user_pieces(record: dict[str, Any], content: str | list[Any]) -> list[Piece] | None:
    if isinstance(content, str):
        return [_user_text(record, content)]
    if not all(isinstance(part, dict) for part in content):
        return None
    pieces: list[Piece] = []
    for part in content:
        piece = _user_part(record, part)
        if piece is not None:
            pieces.append(piece)
    return _merge_adjacent(pieces)


def _user_part(record: dict[str, Any], part: dict[str, Any]) -> Piece | None:
    kind = part.get("type")
    if kind == "tool_result":
        return ("tool", "tool-output", _without_reminders(_tool_result_text(part.get("content"))))
    if kind == "text" and isinstance(part.get("text"), str):
        return _user_text(record, part["text"])
    return None  # images and unknown part types carry no text we can quote


def _user_text(record: dict[str, Any], text: str) -> Piece:
    if record.get("isSidechain") is True:
        return ("user", "assistant", text)  # the parent agent wrote the subagent's prompt
    if record.get("isMeta") is True or record.get("isCompactSummary") is True:
        return ("user", "system", text)
    if _WRAPPER.match(text):
        # "/review From now on, squash-merge": the words after a command went to the model as the person typed them
        typed = next(iter(_tag_spans(text, *_COMMAND_ARGS)), None) if _COMMAND.match(text) else None
        if typed is not None and text[typed[0] : typed[1]].strip():
            return ("user", "user", text[typed[0] : typed[1]].strip())
        return ("user", "system", text)
    return ("user", "user", _without_reminders(text))


def _without_reminders(text: str) -> str:
    # The harness appends reminders to user text and tool results; they are neither.
    # Cut them out and join what is left by a blank line, so every
    # remaining line is still verbatim from the file.
    if _REMINDER[0] not in text:
        return text
    kept, segments = 0, []
    for start, end in _tag_spans(text, *_REMINDER):
        segments.append(text[kept : start - len(_REMINDER[0])].strip())
        kept = end + len(_REMINDER[1])
    segments.append(text[kept:].strip())
    return "\n\n".join(segment for segment in segments if segment)


def _tag_spans(text: str, opening: str, closing: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of what each ``opening``…``closing`` pair holds, each opening closed by the first closing after
    it, as a lazy ``.*?`` would pair them, in one pass: a pattern rescanned to the end of the text for every opening
    left unclosed, and tool output can hold a megabyte of them (session 37's review: 1 MB took minutes)."""
    position = 0
    while (start := text.find(opening, position)) >= 0:
        end = text.find(closing, start + len(opening))
        if end < 0:
            return  # no closing after this opening: none after any later one either
        yield start + len(opening), end
        position = end + len(closing)


def _tool_result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        return "\n\n".join(texts)
    return ""


def _merge_adjacent(pieces: list[Piece]) -> list[Piece]:
    merged: list[Piece] = []
    for role, source, text in pieces:
        if merged and merged[-1][:2] == (role, source):
            merged[-1] = (role, source, merged[-1][2] + "\n\n" + text)
        else:
            merged.append((role, source, text))
    return merged


def _emit(sink: TurnSink, pieces: list[Piece], where: _Where) -> None:
    for number, (role, source, text) in enumerate(pieces):
        turn_id = where.base_id if number == 0 else f"{where.base_id}.{number}"
        sink.add(
            turn_id,
            role,
            text,
            source,
            line=where.line,
            is_sidechain=where.sidechain,
            session_id=where.session,
            timestamp=where.timestamp,
        )


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
