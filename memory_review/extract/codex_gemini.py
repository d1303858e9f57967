"""Codex CLI rollout files and Gemini CLI session files → turns.

**Codex** (``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``): one ``{timestamp, type,
payload}`` record a line, ``type`` one of ``session_meta`` (``payload.id`` is the session),
``response_item``, ``event_msg``, ``turn_context``, ``compacted``. Only ``response_item`` messages
become turns: ``role`` user, assistant, developer/system, with ``input_text``/``output_text`` parts;
``function_call_output``/``custom_tool_call_output`` are tool output. Codex puts the repository's
AGENTS.md (``<user_instructions>``, ``# AGENTS.md instructions for …``) and ``<environment_context>``
into *user* messages: those are system text, never the person. ``event_msg`` repeats the same words
as UI events and is bookkeeping here (reading both would count everything twice).
The older layout (before the envelope; as third-party readers such as polylogue document it) has the
session's ``{id, timestamp, instructions}`` on the first line, then the items themselves, one a line,
and ``{"record_type": "state"}`` lines: read with the same rules. A message there counts as Codex's
only with Codex's typed parts (``input_text``/``output_text``); plain ``{role, content}`` stays generic.

**Gemini** (``~/.gemini/tmp/<project hash>/chats/session-<time>-<id>.json``): one JSON document
``{sessionId, projectHash, startTime, lastUpdated, messages: [...]}``; a message is ``{id, timestamp,
type, content}`` with ``type`` ``user``, ``gemini`` (the model; its ``toolCalls[].result`` hold tool
output), ``info``, ``error`` or ``warning`` (the CLI's own notes). ``content`` is text or a list of
``{text}`` parts. Newer versions write ``session-<time>-<id>.jsonl`` instead (and move a resumed
``.json`` to ``.jsonl`` beside it), as the CLI's ``chatRecordingService`` writes and reads it: the
first line is the metadata ``{sessionId, projectHash, startTime, ...}``; then one record a line: a
message (the same shape; a message written again under the same ``id`` replaces the earlier one in
place), ``{"$set": {...}}`` (metadata; a ``messages`` list there replaces every message), or
``{"$rewindTo": <id>}`` (that message and every later one are gone). Gemini puts its own words in the
user's slot too: a first message ``<session_context>`` (the date, the OS, the project's file listing: names a
repository chooses), and what hooks add, as ``<hook_context>…</hook_context>`` — a part of its own after the
prompt (``BeforeAgent``), or inside the prompt's text (``SessionStart``) — which is where our own context
block comes back. Neither is the person (Gemini's own history view skips both, 0.61): a message that is
only those is system text, and the spans are cut out of the person's message. So is the text of the files a prompt
references with ``@path``, which Gemini appends between ``--- Content from referenced files ---`` and ``--- End of
content ---``. Codex puts a skill's ``SKILL.md`` in the user's slot as ``<skill>…</skill>``: system text too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from memory_review.extract.builder import TurnSink
from memory_review.extract.sources import RawRecord
from memory_review.extract.transcript import Role, TurnSource
from memory_review.integrations.agents import cut_outermost, without_hook_context

CODEX_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})
# The older rollout layout (Codex before the {timestamp, type, payload} envelope): the first line is
# the session's {id, timestamp, instructions}, then the response items themselves, one per line, with
# {"record_type": "state"} lines between turns.
CODEX_ITEM_TYPES = frozenset(
    {
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "local_shell_call",
        "local_shell_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "web_search_call",
    }
)
MAX_GEMINI_MESSAGES = 100_000  # kept while a JSON Lines session is folded; a file holding more is cut there
_CODEX_PART_TYPES = frozenset({"input_text", "output_text"})
_CODEX_TOOL_OUTPUT = frozenset({"function_call_output", "custom_tool_call_output", "local_shell_call_output"})
# A skill's SKILL.md, which Codex puts in the user's slot when the person names it (`$release …`): someone's
# instructions, often another repository's, not the person's words (Codex's own check is the "<skill" prefix)
_CODEX_WRAPPER = re.compile(
    r"^\s*(?:<(?:user_instructions|environment_context|turn_aborted|user_shell_command|INSTRUCTIONS|"
    # a sub-agent's report and the editor's context, which Codex also writes as user-role messages that are not the
    # person's (codex-rs contextual_user_message.rs, CONTEXTUAL_USER_FRAGMENTS; session 37's review)
    r"subagent_notification|additional_context)>"
    r"|<skill\b|# AGENTS\.md instructions for )",
    re.IGNORECASE,
)
_CODEX_ROLES: dict[str, tuple[Role, TurnSource]] = {
    "user": ("user", "user"),
    "assistant": ("assistant", "assistant"),
    "developer": ("system", "system"),
    "system": ("system", "system"),
}
GEMINI_TYPES: dict[str, tuple[Role, TurnSource]] = {
    "user": ("user", "user"),
    "gemini": ("assistant", "assistant"),
    "info": ("system", "system"),
    "error": ("system", "system"),
    "warning": ("system", "system"),
}


# --- Codex ---------------------------------------------------------------------------------------


def looks_like_codex(value: Any) -> bool:
    """True for a Codex rollout record: ``{type: session_meta|response_item|..., payload: {...}}``, or a
    record of the older layout (an item with Codex's ``input_text``/``output_text`` parts, a state line)."""
    if not isinstance(value, dict):
        return False
    if isinstance(value.get("payload"), dict):
        return _str(value.get("type")) in CODEX_TYPES
    return _older_kind(value) is not None


def _older_kind(value: dict[str, Any]) -> str | None:
    """``meta``, ``state`` or ``item`` for a line of the older layout; None for anything else."""
    if value.get("record_type") == "state":
        return "state"
    kind = _str(value.get("type"))
    if kind == "message":
        parts = value.get("content")
        typed = isinstance(parts, list) and any(
            isinstance(p, dict) and p.get("type") in _CODEX_PART_TYPES for p in parts
        )
        return "item" if typed else None  # a plain {role, content} message is generic JSONL, not Codex
    if kind in CODEX_ITEM_TYPES:
        return "item"
    if kind is None and isinstance(value.get("id"), str) and "timestamp" in value and "instructions" in value:
        return "meta"
    return None


def add_codex_record(sink: TurnSink, raw: RawRecord) -> None:
    """One rollout line → zero or one turn (or a recorded skip)."""
    if raw.error is not None:
        sink.skip(raw.error, line=raw.line, index=raw.index)
        return
    if not looks_like_codex(raw.value):
        sink.skip("not a Codex rollout record", line=raw.line, index=raw.index)
        return
    if not isinstance(raw.value.get("payload"), dict):
        _older_record(sink, raw, raw.value)
        return
    kind, payload = raw.value["type"], raw.value["payload"]
    if kind == "session_meta" and isinstance(payload.get("id"), str):
        sink.name_session(payload["id"])
    elif kind == "response_item":
        _codex_item(sink, raw, payload, _str(raw.value.get("timestamp")))


def _older_record(sink: TurnSink, raw: RawRecord, value: dict[str, Any]) -> None:
    kind = _older_kind(value)
    if kind == "meta":
        sink.name_session(value["id"])
    elif kind == "item":  # the same items as a response_item's payload, and the same rules
        _codex_item(sink, raw, value, _str(value.get("timestamp")))


def _codex_item(sink: TurnSink, raw: RawRecord, payload: dict[str, Any], timestamp: str | None) -> None:
    turn_id = _str(payload.get("id")) or f"line-{raw.line}"
    if _str(payload.get("type")) in _CODEX_TOOL_OUTPUT:
        sink.add(
            turn_id, "tool", _codex_output(payload.get("output")), "tool-output", line=raw.line, timestamp=timestamp
        )
        return
    if payload.get("type") != "message":
        return  # reasoning, function calls: the agent's working, not statements
    mapped = _CODEX_ROLES.get(str(payload.get("role")))
    if mapped is None:
        sink.skip(f"Codex message with role {payload.get('role')!r}", line=raw.line, index=raw.index)
        return
    role, source = mapped
    parts = _part_texts(payload.get("content"))
    harness = [part for part in parts if _CODEX_WRAPPER.match(part)] if source == "user" else []
    if harness and len(harness) < len(parts):  # Codex tells each part apart: the person's, and the harness's
        person = [part for part in parts if not _CODEX_WRAPPER.match(part)]
        sink.add(turn_id, role, "\n\n".join(person), source, line=raw.line, timestamp=timestamp)
        sink.add(f"{turn_id}:harness", role, "\n\n".join(harness), "system", line=raw.line, timestamp=timestamp)
        return
    text = "\n\n".join(parts)
    if source == "user" and _CODEX_WRAPPER.match(text):
        source = "system"  # the repository's AGENTS.md or the harness, in the user's slot
    sink.add(turn_id, role, text, source, line=raw.line, timestamp=timestamp)


def _codex_output(output: Any) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, dict):
        return _parts_text(output.get("content")) or str(output.get("output", ""))
    return ""


# --- Gemini ---------------------------------------------------------------------------------------


def looks_like_gemini(document: Any) -> bool:
    """True for a Gemini CLI session document."""
    if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
        return False
    if "sessionId" not in document and "projectHash" not in document:
        return False
    return any(isinstance(m, dict) and _str(m.get("type")) in GEMINI_TYPES for m in document["messages"][:50])


def add_gemini_session(sink: TurnSink, document: dict[str, Any]) -> None:
    """Every message of a session document → turns (tool results of a model message as tool output)."""
    if isinstance(document.get("sessionId"), str):
        sink.name_session(document["sessionId"])
    for index, message in enumerate(document["messages"]):
        _gemini_message(sink, index, message)


def looks_like_gemini_lines(first: Any) -> bool:
    """True when the first record of a JSON Lines file is a Gemini CLI session's metadata line."""
    return (
        isinstance(first, dict)
        and isinstance(first.get("sessionId"), str)
        and isinstance(first.get("projectHash"), str)
        and "type" not in first
        and "messages" not in first
    )


def add_gemini_records(sink: TurnSink, records: Iterable[RawRecord]) -> None:
    """A Gemini CLI JSON Lines session → turns, the messages as they stand after every update and rewind."""
    messages: dict[str, tuple[int | None, dict[str, Any]]] = {}
    for raw in records:
        value = raw.value if raw.error is None else None
        if not isinstance(value, dict):
            sink.skip(raw.error or "not a Gemini CLI session record", line=raw.line, index=raw.index)
        elif isinstance(value.get("$rewindTo"), str):
            _rewind(messages, value["$rewindTo"])
        elif isinstance(value.get("$set"), dict):
            replaced = value["$set"].get("messages")
            if isinstance(replaced, list):
                messages = {m["id"]: (raw.line, m) for m in replaced if isinstance(m, dict) and _str(m.get("id"))}
        elif looks_like_gemini_lines(value):
            sink.name_session(value["sessionId"])
        elif _str(value.get("id")) and len(messages) < MAX_GEMINI_MESSAGES:
            messages[value["id"]] = (raw.line, value)  # written again: replaced where it first stood
        else:
            sink.skip("not a Gemini CLI message", line=raw.line, index=raw.index)
    for index, (line, message) in enumerate(messages.values()):
        _gemini_message(sink, index, message, line=line)


def _rewind(messages: dict[str, tuple[int | None, dict[str, Any]]], message_id: str) -> None:
    """Drop ``message_id`` and every later message; all of them when it is not there (as Gemini does).

    From the end, one message at a time: copying and searching every id for each rewind made a file of re-adds and
    rewinds quadratic (7 MB hung ``extract``, session 37's review)."""
    if message_id not in messages:
        messages.clear()
        return
    while messages and messages.popitem()[0] != message_id:
        pass


def _gemini_message(sink: TurnSink, index: int, message: Any, *, line: int | None = None) -> None:
    mapped = GEMINI_TYPES.get(_str(message.get("type")) or "") if isinstance(message, dict) else None
    if mapped is None:
        sink.skip("not a Gemini CLI message", line=line, index=index)
        return
    turn_id = _str(message.get("id")) or f"message-{index + 1}"
    timestamp = _str(message.get("timestamp"))
    role, source = mapped
    text = _parts_text(message.get("content"))
    if source == "user":
        text, source = _gemini_user_text(text)
    sink.add(turn_id, role, text, source, line=line, timestamp=timestamp)
    for number, call in enumerate(_list(message.get("toolCalls"))):
        if isinstance(call, dict):
            output = _gemini_tool_output(call)
            sink.add(f"{turn_id}.tool{number}", "tool", output, "tool-output", line=line, timestamp=timestamp)


def _gemini_user_text(text: str) -> tuple[str, TurnSource]:
    """A Gemini ``user`` message's text without what Gemini and hooks put there; ``system`` when nothing of
    the person's is left (see the module's docstring)."""
    if text.lstrip().startswith("<session_context>"):
        return text, "system"
    own = _without_referenced_files(without_hook_context(text))
    return (own, "user") if own.strip() else (text, "system")


# "@CONTRIBUTING.md fix the test": Gemini records the prompt with each referenced file's text appended between these
# markers (its own history view strips them); the file is whoever wrote it, not the person
_REFERENCED_OPEN = "--- Content from referenced files ---"
_REFERENCED_CLOSE = "--- End of content ---"


def _without_referenced_files(text: str) -> str:
    if _REFERENCED_OPEN not in text:
        return text
    pieces = cut_outermost(text, _REFERENCED_OPEN, _REFERENCED_CLOSE, whole_lines=True)
    return "\n\n".join(part.strip() for part in pieces if part.strip())


def _gemini_tool_output(call: dict[str, Any]) -> str:
    texts: list[str] = []
    for result in _list(call.get("result")):
        function = result.get("functionResponse") if isinstance(result, dict) else None
        response = function.get("response") if isinstance(function, dict) else None
        if isinstance(response, dict):
            texts.extend(str(v) for v in response.values() if isinstance(v, str))
    display = call.get("resultDisplay")
    return "\n\n".join(texts) or (display if isinstance(display, str) else "")


# --- shared ---------------------------------------------------------------------------------------


def _parts_text(content: Any) -> str:
    return "\n\n".join(_part_texts(content))


def _part_texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
    return []


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
