"""Read a transcript file in any supported format, detecting the format when not given.

Formats: ``claude-code`` (native session JSONL, a JSON array of its records, or
``{"loglines": [...]}``), ``claude-history`` (Claude Code's prompt history, ``~/.claude/history.jsonl``: only the
given project's prompts are read), ``codex`` (Codex CLI rollout JSONL), ``gemini`` (a Gemini CLI session
document, or its newer JSON Lines), ``jsonl`` (generic ``{role, content}`` per line or in an array),
``aider`` (``.aider.chat.history.md``), ``chat-export`` (Markdown chat exports: SpecStory, Cursor, Windsurf,
Antigravity) and ``text`` (one user turn per paragraph).
A file that is none of these is a :class:`~memory_review.errors.ValidationError`.
"""

from __future__ import annotations

import codecs
import itertools
import re
from pathlib import Path
from typing import cast

from memory_review.errors import ValidationError
from memory_review.extract import chat_export, claude_code, codex_gemini, formats, prompt_history
from memory_review.extract.builder import TurnSink
from memory_review.extract.sources import WRAPPER_KEYS, JsonSource, open_json, read_head
from memory_review.extract.transcript import FORMATS, Transcript, TranscriptFormat

SNIFF_RECORDS = 50


def read_transcript(
    path: Path | str, *, format: str | None = None, session_id: str | None = None, project: Path | None = None
) -> Transcript:
    """Parse a transcript; ``format`` forces a reader, ``session_id`` overrides the file's own id, and ``project``
    keeps a prompt history (which holds every project's prompts) to that project's."""
    path = Path(path)
    if format is None:
        detected, source = _detect(path)
    else:
        detected, source = _check_format(format, path), None
    return _read(path, detected, source, session_id, project)


def detect_format(path: Path | str) -> TranscriptFormat:
    """The format of a transcript file, judged from its content (never from its name)."""
    return _detect(Path(path))[0]


def _check_format(name: str, path: Path) -> TranscriptFormat:
    if name not in FORMATS:
        raise ValidationError(f"unknown transcript format {name!r}; use one of {', '.join(FORMATS)}", path=path)
    return cast(TranscriptFormat, name)


def _read(
    path: Path, fmt: TranscriptFormat, source: JsonSource | None, session: str | None, project: Path | None
) -> Transcript:
    sink = TurnSink()
    if fmt == "aider":
        formats.read_aider(path, sink)
    elif fmt == "chat-export":
        chat_export.read_chat_export(path, sink)
    elif fmt == "text":
        formats.read_text(path, sink)
    elif fmt == "claude-history":
        prompt_history.add_claude_history_records(sink, (source or _json_or_fail(path)).records(), project)
    else:
        _read_json(path, fmt, source or _json_or_fail(path), sink)
    return sink.build(path, fmt, session)


def _read_json(path: Path, fmt: TranscriptFormat, source: JsonSource, sink: TurnSink) -> None:
    if fmt == "claude-code":
        for raw in source.records(WRAPPER_KEYS):
            claude_code.add_record(sink, raw)
    elif fmt == "gemini" and source.layout == "lines":
        first = next(iter(source.records()), None)
        if first is None or not codex_gemini.looks_like_gemini_lines(first.value):
            raise ValidationError("not a Gemini CLI session: its first line is not {sessionId, projectHash}", path=path)
        codex_gemini.add_gemini_records(sink, source.records())
    elif fmt == "gemini":
        if not codex_gemini.looks_like_gemini(source.document):
            raise ValidationError("not a Gemini CLI session document ({sessionId, messages: [...]})", path=path)
        codex_gemini.add_gemini_session(sink, source.document)
    elif fmt == "codex":
        for raw in source.records(WRAPPER_KEYS):
            codex_gemini.add_codex_record(sink, raw)
    else:
        for raw in source.records(WRAPPER_KEYS):
            formats.add_generic_record(sink, raw)


def _json_or_fail(path: Path) -> JsonSource:
    source = open_json(path)
    if source is None:
        raise ValidationError("not JSON Lines or a JSON document", path=path)
    return source


_JSON_OPENING = re.compile(r'\{|\[\s*[\[{"]')


def _detect(path: Path) -> tuple[TranscriptFormat, JsonSource | None]:
    text = _head_text(path)
    if text.lstrip()[:1] in ("[", "{"):
        source = open_json(path)
        if source is not None:
            return _json_format(path, source), source
        # Read as text, a session's every record would be one turn of the person's: an object, or an array of
        # objects, arrays or strings (a session saved as one array and cut short; session 37's review); "[1] …" or
        # "[TODO] …" is still text.
        if _JSON_OPENING.match(text.lstrip()):
            raise ValidationError("looks like JSON but does not parse (cut short, or nested too deep)", path=path)
    lines = text.splitlines()
    if any(formats.AIDER_HEADER.match(line) for line in lines):
        return "aider", None
    if chat_export.looks_like_chat_export(lines):
        return "chat-export", None
    unsplit = chat_export.unsplit_export(lines)
    if unsplit is not None:  # read as text, its answers would be "the person's" (ADR 0162)
        name, instead = unsplit
        raise ValidationError(
            f"looks like {name}, which cannot be split into the person's turns and the agent's", path=path, hint=instead
        )
    return "text", None


def _head_text(path: Path) -> str:
    head = read_head(path)
    if not head.strip():
        raise ValidationError("empty file: not a transcript", path=path)
    if b"\x00" in head:
        raise ValidationError("binary file (NUL bytes): not a transcript", path=path)
    try:
        # Incremental decoding tolerates a character cut at the end of the sniffed bytes.
        return codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError as exc:
        raise ValidationError("not UTF-8 text: not a transcript", path=path) from exc


def _json_format(path: Path, source: JsonSource) -> TranscriptFormat:
    if codex_gemini.looks_like_gemini(source.document):
        return "gemini"
    try:
        sample = [raw.value for raw in itertools.islice(source.records(WRAPPER_KEYS), SNIFF_RECORDS)]
    except ValidationError as exc:
        raise ValidationError("JSON, but not a transcript: no array of records in it", path=path) from exc
    if any(claude_code.looks_like_record(value) for value in sample):
        return "claude-code"
    if source.layout == "lines" and any(prompt_history.looks_like_claude_history(value) for value in sample):
        return "claude-history"
    if any(codex_gemini.looks_like_codex(value) for value in sample):
        return "codex"
    if source.layout == "lines" and sample and codex_gemini.looks_like_gemini_lines(sample[0]):
        return "gemini"  # Gemini CLI's JSON Lines session: its metadata line comes first
    if any(formats.looks_like_message(value) for value in sample):
        return "jsonl"
    if any(prompt_history.looks_like_codex_history(value) for value in sample):
        raise ValidationError(
            "Codex's prompt history names no project, so other projects' prompts could not be kept out: give the "
            "session rollouts (~/.codex/sessions/...) instead",
            path=path,
        )
    raise ValidationError(
        "JSON, but not a transcript: expected Claude Code session records "
        "(type user/assistant/...), Claude Code's prompt history, Codex rollout records, a Gemini CLI session "
        "or {role, content} messages",
        path=path,
    )
