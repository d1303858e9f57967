"""The simpler transcript formats: generic ``{role, content}`` JSON Lines, aider chat history, plain text
(Markdown chat exports are :mod:`.chat_export`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory_review.extract.builder import TurnSink
from memory_review.extract.sources import RawRecord, decode_text_line, iter_lines
from memory_review.extract.textutil import fence_after
from memory_review.extract.transcript import Role, TurnSource

_ROLES: dict[str, tuple[Role, TurnSource]] = {
    "user": ("user", "user"),
    "human": ("user", "user"),
    "assistant": ("assistant", "assistant"),
    "ai": ("assistant", "assistant"),
    "model": ("assistant", "assistant"),
    "tool": ("tool", "tool-output"),
    "function": ("tool", "tool-output"),
    "ipython": ("tool", "tool-output"),
    "system": ("system", "system"),
    "developer": ("system", "system"),
}
AIDER_HEADER = re.compile(r"^# aider chat started at (?P<when>.+?)\s*$")
# Aider's own commands (/add, /run, ...) are instructions to the tool, not statements;
# the chat-mode commands carry a real message after them.
_AIDER_MESSAGE_COMMANDS = ("/ask", "/code", "/architect", "/context")


def looks_like_message(value: Any) -> bool:
    """True for a generic chat message object: ``{"role": ..., "content": ...}``."""
    return isinstance(value, dict) and isinstance(value.get("role"), str) and "content" in value


# --- generic {role, content} JSON Lines -------------------------------------------------


def add_generic_record(sink: TurnSink, raw: RawRecord) -> None:
    """One ``{role, content}`` object → one turn; anything else is recorded as skipped."""
    if raw.error is not None:
        sink.skip(raw.error, line=raw.line, index=raw.index)
        return
    value = raw.value
    if not looks_like_message(value):
        sink.skip("not a {role, content} message", line=raw.line, index=raw.index)
        return
    mapped = _ROLES.get(value["role"].lower())
    text = _generic_text(value.get("content"))
    if mapped is None or text is None:
        sink.skip(f"unknown role {value['role']!r} or content shape", line=raw.line, index=raw.index)
        return
    turn_id = value.get("id") if isinstance(value.get("id"), str) and value.get("id") else None
    fallback = f"line-{raw.line}" if raw.line is not None else f"record-{raw.index + 1}"
    sink.add(turn_id or fallback, mapped[0], text, mapped[1], line=raw.line)


def _generic_text(content: Any) -> str | None:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        return "\n\n".join(texts)
    return None


# --- aider .aider.chat.history.md -------------------------------------------------------


@dataclass
class TurnBlock:
    """The lines of one turn of a Markdown history, as they are read (aider's, a chat export's)."""

    role: Role
    source: TurnSource
    start: int
    lines: list[str] = field(default_factory=list)


def read_aider(path: Path, sink: TurnSink) -> None:
    """Split aider's history into sessions and user / tool-output / assistant turns.

    Aider writes each line the person typed as ``#### …`` ending in two spaces, after a blank line (or another line
    of theirs), and the model's answer and a command's output as they came, where a ``####`` heading or code comment
    can stand (session 37's review). Once a session shows aider's two spaces, a ``####`` line without them, or not
    after a blank line, is not the person's; in a session whose trailing spaces were stripped, only one inside a code
    fence the agent opened is not (an answer cut off inside a fence must not take the person's later prompts where
    their form tells them apart; where it cannot, the failure keeps text from the person, never gives them the
    agent's)."""
    session: str | None = None
    block: TurnBlock | None = None
    fence: tuple[str, int] | None = None  # a code fence the agent's answer opened
    two_spaces = False  # this session keeps aider's own form of the person's lines
    after_break = True  # the line before was blank, or the person's, or a session's header
    for number, line in text_lines(path, sink):
        header = AIDER_HEADER.match(line)
        if header:
            _flush_aider(sink, block, session)
            block, session, fence = None, _aider_session(header.group("when")), None
            two_spaces, after_break = False, True
            continue
        role, source, content = _aider_line(line)
        persons_form = role == "user" and line.endswith("  ") and after_break
        two_spaces = two_spaces or persons_form
        agents_answer = block is not None and block.role in ("assistant", "tool")
        if role == "user" and not persons_form and ((fence is not None and agents_answer) or two_spaces):
            role, source, content = "assistant", "assistant", line
        if role == "assistant":
            fence = fence_after(line, fence)
        elif role == "user":
            fence = None
        after_break = not line.strip() or role == "user"
        if block is None or (block.role, block.source) != (role, source):
            _flush_aider(sink, block, session)
            block = TurnBlock(role, source, number)
        block.lines.append(content)
    _flush_aider(sink, block, session)


def _aider_line(line: str) -> tuple[Role, TurnSource, str]:
    if line.startswith("####"):
        return "user", "user", line[5:].rstrip() if line.startswith("#### ") else line[4:].rstrip()
    if line.startswith(">"):
        return "tool", "tool-output", line[2:] if line.startswith("> ") else line[1:]
    return "assistant", "assistant", line


def _flush_aider(sink: TurnSink, block: TurnBlock | None, session: str | None) -> None:
    if block is None:
        return
    text = "\n".join(block.lines).strip("\n")
    source = block.source
    if source == "user" and text.startswith("/") and not text.startswith(_AIDER_MESSAGE_COMMANDS):
        source = "system"
    sink.add(f"line-{block.start}", block.role, text, source, line=block.start, session_id=session)


def _aider_session(when: str) -> str:
    return "aider-" + re.sub(r"[^0-9A-Za-z]+", "-", when).strip("-")


# --- plain text ----------------------------------------------------------------------------


def read_text(path: Path, sink: TurnSink) -> None:
    """Plain text: each paragraph (separated by blank lines) is one user turn."""
    start: int | None = None
    lines: list[str] = []
    for number, line in text_lines(path, sink):
        if line.strip():
            start = number if start is None else start
            lines.append(line)
            continue
        _flush_paragraph(sink, start, lines)
        start, lines = None, []
    _flush_paragraph(sink, start, lines)


def _flush_paragraph(sink: TurnSink, start: int | None, lines: list[str]) -> None:
    if start is not None and lines:
        sink.add(f"line-{start}", "user", "\n".join(lines), "user", line=start)


def text_lines(path: Path, sink: TurnSink) -> Iterator[tuple[int, str]]:
    """The file's lines as text, numbered from 1; a line too long or not UTF-8 is a skipped record."""
    for number, raw in iter_lines(path):
        text = decode_text_line(raw) if raw is not None else None
        if text is None:
            sink.skip("line is too long or not UTF-8 text", line=number)
            continue
        yield number, text
