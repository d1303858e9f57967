"""Memory records as files (Markdown + YAML frontmatter) and as JSON.

Rendering and the JSON form need no YAML library; parsing a file's frontmatter is
:mod:`memory_review.record_yaml` (the one module importing yaml), imported on the first
parse, so a command that only writes memory never loads PyYAML (docs/adr/0042).

File format, byte for byte (``render_memory``)::

    ---
    id: "pref-indent-4-spaces"
    type: "preference"
    ...                          fixed key order; keys whose value is None are left out
    sources:
      - session_id: "sess_x"
        evidence: "use 4 spaces"
    related_sessions: []
    ---
    <body>

Every string is written double-quoted with JSON-style escapes, so YAML 1.1 can
never read ``no`` as False, ``1.10`` as a float or a date as a timestamp; any
character that is invisible, a control or a YAML line break is written as an
escape, so each value sits on its own line and cannot fake a closing ``---``.

Body rule (the one place this module departs from "add a newline if missing"):
a non-empty body is always followed by exactly one ``\\n`` and parsing removes
exactly one. That makes the file form injective, so
``parse_memory(render_memory(m)) == m`` holds for *every* body, including
bodies that end with a newline or with none.

Parsing is strict: size and line caps before anything else; UTF-8 without BOM;
LF line endings only (CR and CRLF are rejected with a clear message rather than
normalised, so a file's bytes and its sha256 never depend on a conversion);
no control characters except tab and newline; a YAML subset with no tags, no
anchors or aliases, no duplicate keys, bounded depth; and every value must be
of the type the model expects as YAML itself resolved it. Every failure is a
``ValidationError`` naming the file, and the field or line when known.
"""

from __future__ import annotations

import codecs
import hashlib
import re
from pathlib import Path
from typing import Any

import pydantic

from memory_review import models, safety
from memory_review.errors import ValidationError
from memory_review.ids import check_slug
from memory_review.models import Memory

MAX_FRONTMATTER_BYTES = 8192
MAX_YAML_DEPTH = 5
FENCE = "---"

FRONTMATTER_KEYS: tuple[str, ...] = (
    "id", "type", "scope", "description", "created_at", "updated_at",
    "applied_from", "applied_by", "sources", "related_sessions",
)  # fmt: skip
SOURCE_KEYS: tuple[str, ...] = ("session_id", "turn_id", "evidence")
_HEAD_KEYS = FRONTMATTER_KEYS[:-2]
_REQUIRED_STR = frozenset({"id", "type", "scope", "description", "created_at", "updated_at"})

Where = Path | str | None

# --------------------------------------------------------------------------- rendering

_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
# Characters YAML treats as line breaks or refuses in a stream, plus the BOM.
_YAML_UNSAFE = frozenset({0x85, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF})


def _escape_char(ch: str) -> str:
    if ch in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[ch]
    cp = ord(ch)
    return f"\\u{cp:04X}" if cp <= 0xFFFF else f"\\U{cp:08X}"


# Exactly the characters _escape_char changes: the short escapes, C0 and C1 controls and DEL, what YAML
# reads as a line break or refuses, and the invisible ones. One regex pass instead of a call per character.
_NEEDS_ESCAPE = re.compile(
    "["
    + re.escape("".join(_SHORT_ESCAPES))
    + r"\x00-\x1f"
    + safety.CONTROL_CLASS
    + safety.INVISIBLE_CLASS
    + "".join(re.escape(chr(cp)) for cp in sorted(_YAML_UNSAFE))
    + "]"
)


def quote(value: str) -> str:
    """``value`` as a YAML double-quoted scalar that reads back as exactly ``value``."""
    return '"' + _NEEDS_ESCAPE.sub(lambda match: _escape_char(match.group()), value) + '"'


def _frontmatter_lines(memory: Memory) -> list[str]:
    fields = memory.__dict__  # a pydantic model keeps its fields there: no getattr per key
    head = [(key, fields[key]) for key in _HEAD_KEYS if fields[key] is not None]
    sources = [[(key, s.__dict__[key]) for key in SOURCE_KEYS if s.__dict__[key] is not None] for s in memory.sources]
    related = memory.related_sessions
    texts = [value for _key, value in head]
    for source in sources:
        texts += [value for _key, value in source]
    texts += related
    # One scan of every value (the class is of single characters, so a match in the whole is a match in one
    # value): most memories have nothing to escape, and a substitution per value cost more than the rest.
    if _NEEDS_ESCAPE.search("".join(texts)):
        return _quoted_lines(head, sources, related)
    # Nothing to escape: each value is written between quotes as it is (what ``quote`` would give).
    lines = [f'{key}: "{value}"' for key, value in head]
    lines.append("sources:" if sources else "sources: []")
    for source in sources:
        lines += [f'{"    " if i else "  - "}{key}: "{value}"' for i, (key, value) in enumerate(source)]
    lines.append("related_sessions:" if related else "related_sessions: []")
    lines += [f'  - "{session}"' for session in related]
    return lines


def _quoted_lines(
    head: list[tuple[str, str]], sources: list[list[tuple[str, str]]], related: tuple[str, ...]
) -> list[str]:
    """:func:`_frontmatter_lines` when some value holds a character to escape: every value through ``quote``."""
    lines = [f"{key}: {quote(value)}" for key, value in head]
    lines.append("sources:" if sources else "sources: []")
    for source in sources:
        lines += [("    " if i else "  - ") + f"{key}: {quote(value)}" for i, (key, value) in enumerate(source)]
    lines.append("related_sessions:" if related else "related_sessions: []")
    lines += [f"  - {quote(session)}" for session in related]
    return lines


def check_body(body: str, *, path: Where = None) -> str:
    """Return ``body`` if a file can hold it: no CR, no control characters but tab and newline."""
    bad = _BODY_REFUSED.search(body)
    if bad is None:
        return body
    ch, index = bad.group(), bad.start()
    what = (
        "contains a carriage return (CR/CRLF line endings); use LF ('\\n') only"
        if ch == "\r"
        else f"contains the control character U+{ord(ch):04X}"
    )
    raise ValidationError(what, path=path, field="body", line=body.count("\n", 0, index) + 1)


_BODY_REFUSED = re.compile(f"[\r{safety.CONTROL_CLASS}]")


def _encode(text: str, path: Where) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValidationError(
            f"contains a lone surrogate U+{ord(exc.object[exc.start]):04X}, not encodable in UTF-8",
            path=path,
        ) from exc


def _render(memory: Memory, path: Where) -> bytes:
    check_slug(memory.id, path=path)
    check_body(memory.body, path=path)
    text = "\n".join([FENCE, *_frontmatter_lines(memory), FENCE, ""])
    if memory.body:
        text += memory.body + "\n"
    data = _encode(text, path)
    check_size(data, path=path)
    return data


def render_memory(memory: Memory) -> bytes:
    """The canonical file bytes of ``memory`` (deterministic; see the module docstring).

    Raises ValidationError when the id or body cannot be stored, or when the file
    would exceed MAX_MEMORY_BYTES or MAX_MEMORY_LINES.
    """
    return _render(memory, f"memory {memory.id!r}")


def memory_sha256(memory: Memory) -> str:
    """The sha256 (hex) of ``render_memory(memory)``: the identity of this version of the memory."""
    return hashlib.sha256(render_memory(memory)).hexdigest()


def check_memory(memory: Memory, *, path: Where = None) -> Memory:
    """Return ``memory`` if it can be written as a file (safe id, storable body, within caps)."""
    _render(memory, path if path is not None else f"memory {memory.id!r}")
    return memory


# --------------------------------------------------------------------------- size caps


def _line_count(data: bytes) -> int:
    return data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)


def check_size(data: bytes, *, path: Where = None) -> None:
    """Raise ValidationError if ``data`` exceeds MAX_MEMORY_BYTES or MAX_MEMORY_LINES."""
    if len(data) > models.MAX_MEMORY_BYTES:
        raise ValidationError(
            f"memory file is {len(data)} bytes; at most {models.MAX_MEMORY_BYTES} are allowed",
            path=path,
        )
    lines = _line_count(data)
    if lines > models.MAX_MEMORY_LINES:
        raise ValidationError(
            f"memory file has {lines} lines; at most {models.MAX_MEMORY_LINES} are allowed",
            path=path,
        )


# --------------------------------------------------------------------------- parsing: text


def _decode(data: bytes, path: Where) -> str:
    if data.startswith(codecs.BOM_UTF8):
        raise ValidationError("starts with a UTF-8 byte order mark (BOM); save it as UTF-8 without BOM", path=path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError(f"is not valid UTF-8 (bad byte at offset {exc.start})", path=path) from exc


def _check_chars(text: str, path: Where) -> None:
    """No CR and no control characters anywhere in the file (the frontmatter escapes them)."""
    if "\r" in text:
        raise ValidationError(
            "uses CR or CRLF line endings; memory files must use LF ('\\n') only",
            path=path, line=text.count("\n", 0, text.index("\r")) + 1,
        )  # fmt: skip
    bad = safety.CONTROL_CHARS.search(text)
    if bad is not None:
        raise ValidationError(
            f"contains the control character U+{ord(bad.group()):04X}",
            path=path, line=text.count("\n", 0, bad.start()) + 1,
        )  # fmt: skip


def split_frontmatter(text: str, *, path: Where = None) -> tuple[str, str]:
    """Split a memory file's text into (frontmatter YAML, body).

    The frontmatter ends at the first line that is exactly ``---``; later
    ``---`` lines belong to the body. One trailing newline of the body is the
    file's, not the body's (see the module docstring).
    """
    lines = text.split("\n")
    if lines[0] != FENCE:
        raise ValidationError("must start with a '---' line opening the YAML frontmatter", path=path, line=1)
    try:
        close = lines.index(FENCE, 1)
    except ValueError:
        raise ValidationError("frontmatter is never closed: no '---' line after the opening one", path=path) from None
    rest = "\n".join(lines[close + 1 :])
    return "\n".join(lines[1:close]) + "\n", rest.removesuffix("\n")


# --------------------------------------------------------------------------- building the model


def _field_name(loc: tuple[int | str, ...]) -> str:
    name = ""
    for part in loc:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return name


def _build(fields: dict[str, Any], path: Where, lines: dict[str, int] | None = None) -> Memory:
    if isinstance(fields.get("id"), str):
        check_slug(fields["id"], path=path)  # before pydantic, so path attacks get UnsafePathError
    try:
        return Memory.model_validate(fields, strict=True)
    except pydantic.ValidationError as exc:
        errors = exc.errors(include_url=False)
        field = _field_name(errors[0]["loc"]) or None
        line = (lines or {}).get(str(errors[0]["loc"][0])) if errors[0]["loc"] else None
        raise ValidationError(_pydantic_message(errors), path=path, field=field, line=line) from exc


def _pydantic_message(errors: list[Any]) -> str:
    """The first problem, then the names of all other fields with problems."""
    message = str(errors[0]["msg"]).removeprefix("Value error, ")
    others = [_field_name(e["loc"]) for e in errors[1:]]
    return message + (f"; also wrong: {', '.join(others)}" if others else "")


def parse_memory(data: bytes, *, path: Path | str | None = None) -> Memory:
    """Read a memory file strictly; ValidationError (naming ``path``) on any problem.

    The result always renders again (``render_memory``) within the caps, and
    ``parse_memory(render_memory(m)) == m`` for every memory ``render_memory`` accepts.
    """
    if not isinstance(data, bytes):
        raise ValidationError(f"expected the file's bytes, got {type(data).__name__}", path=path)
    check_size(data, path=path)
    text = _decode(data, path)
    _check_chars(text, path)
    front, body = split_frontmatter(text, path=path)
    canonical = _parse_canonical(front, body, data)
    if canonical is not None:
        return canonical
    from memory_review import record_yaml  # noqa: PLC0415 - yaml only where a file is parsed (docs/adr/0042)

    fields, lines = record_yaml.frontmatter_fields(front, path)
    memory = _build({**fields, "body": body}, path, lines)
    _render(memory, path)  # slug safety, and the canonical form must fit the caps too
    return memory


def _parse_canonical(front: str, body: str, data: bytes) -> Memory | None:
    """The memory ``data`` holds if it is exactly what ``render_memory`` writes, read by libyaml; else None.

    libyaml is ~10× faster than the pure-Python composer StrictLoader extends, but it does
    not refuse tags, anchors or aliases. So its reading is kept only when the memory it
    gives renders back to ``data`` byte for byte: then ``data`` is a canonical file, and
    the strict path would read it as the same memory (``parse_memory(render_memory(m)) == m``).
    Anything else — a hand-edited file, an attack, an error — goes the strict way, which
    gives exactly its own result or error.
    """
    from memory_review import record_yaml  # noqa: PLC0415 - see parse_memory

    if record_yaml.FAST_LOADER is None:
        return None
    try:
        fields, _lines = record_yaml.frontmatter_fields(front, None, record_yaml.FAST_LOADER)
        memory = _build({**fields, "body": body}, None)
        same = _render(memory, None) == data
    except ValidationError:
        return None
    return memory if same else None


# --------------------------------------------------------------------------- JSON form


def memory_to_json(memory: Memory) -> dict[str, Any]:
    """The memory as a JSON-able dict: frontmatter fields in file order (no None), then ``body``."""
    out: dict[str, Any] = {}
    for key in FRONTMATTER_KEYS[:-2]:
        value = getattr(memory, key)
        if value is not None:
            out[key] = value
    out["sources"] = [
        {key: getattr(s, key) for key in SOURCE_KEYS if getattr(s, key) is not None} for s in memory.sources
    ]
    out["related_sessions"] = list(memory.related_sessions)
    out["body"] = memory.body
    return out


def _tuples(data: dict[str, Any]) -> dict[str, Any]:
    """JSON arrays arrive as lists; the model's sequence fields are tuples (strict mode)."""
    fixed = dict(data)
    for key in ("sources", "related_sessions"):
        if isinstance(fixed.get(key), list):
            fixed[key] = tuple(fixed[key])
    return fixed


def memory_from_json(data: dict[str, Any], *, where: str = "") -> Memory:
    """A Memory from ``memory_to_json``'s shape; strict types, ValidationError naming ``where``.

    The result is also checked to be storable as a file (safe id, body, caps).
    """
    return _checked_from_json(data, where)[0]


def hashed_memory_from_json(data: dict[str, Any], *, where: str = "") -> tuple[Memory, str]:
    """:func:`memory_from_json`, with the sha256 of the file the memory renders to (``memory_sha256``),
    taken from the rendering that checked it: ``verify`` needs both, and need not render it twice."""
    memory, rendered = _checked_from_json(data, where)
    return memory, hashlib.sha256(rendered).hexdigest()


def _checked_from_json(data: dict[str, Any], where: str) -> tuple[Memory, bytes]:
    path = where or None
    if not isinstance(data, dict):
        raise ValidationError(f"a memory must be a JSON object, not {type(data).__name__}", path=path)
    if not all(isinstance(key, str) for key in data):
        raise ValidationError("a memory's keys must be strings", path=path)
    memory = _build(_tuples(data), path)
    return memory, _render(memory, path if path is not None else f"memory {memory.id!r}")
