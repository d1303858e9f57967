"""Memory records as files (Markdown + YAML frontmatter) and as JSON; the one module importing yaml.

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
import yaml

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
_REQUIRED_STR = frozenset({"id", "type", "scope", "description", "created_at", "updated_at"})
_OPTIONAL_STR = frozenset({"applied_from", "applied_by", "session_id", "turn_id"})
_STR_TAG = "tag:yaml.org,2002:str"
_NULL_TAG = "tag:yaml.org,2002:null"

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


def _source_lines(source: models.Source) -> list[str]:
    lines: list[str] = []
    for key in SOURCE_KEYS:
        value = getattr(source, key)
        if value is not None:
            lines.append(("  - " if not lines else "    ") + f"{key}: {quote(value)}")
    return lines


def _frontmatter_lines(memory: Memory) -> list[str]:
    lines = []
    for key in FRONTMATTER_KEYS[:-2]:
        value = getattr(memory, key)
        if value is not None:
            lines.append(f"{key}: {quote(value)}")
    lines.append("sources:" if memory.sources else "sources: []")
    for source in memory.sources:
        lines.extend(_source_lines(source))
    lines.append("related_sessions:" if memory.related_sessions else "related_sessions: []")
    lines.extend(f"  - {quote(session)}" for session in memory.related_sessions)
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


# --------------------------------------------------------------------------- parsing: YAML


class StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses tags, anchors, aliases and deep nesting while composing nodes.

    Nodes are never *constructed* by YAML: ``_convert_*`` reads them against the
    schema, so nothing but plain strings, lists and mappings can come out.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise _yaml_error("aliases (*name) are not allowed", event)
        if getattr(event, "anchor", None) is not None:
            raise _yaml_error("anchors (&name) are not allowed", event)
        if getattr(event, "tag", None) is not None:
            tag = str(event.tag).replace("tag:yaml.org,2002:", "!!")
            raise _yaml_error(f"explicit YAML tags ({tag}) are not allowed", event)
        self.depth += 1
        try:
            if self.depth > MAX_YAML_DEPTH:
                raise _yaml_error(f"nesting deeper than {MAX_YAML_DEPTH} levels is not allowed", event)
            node: yaml.Node | None = super().compose_node(parent, index)
            return node
        finally:
            self.depth -= 1


def _yaml_error(problem: str, event: yaml.Event) -> yaml.MarkedYAMLError:
    return yaml.MarkedYAMLError(problem=problem, problem_mark=event.start_mark)  # type: ignore[arg-type]


def _yaml_line(exc: yaml.YAMLError) -> int | None:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    return mark.line + 2 if mark is not None else None  # +1 for 1-based, +1 for the opening ---


# libyaml's composer (C), where PyYAML was built with it. It runs none of StrictLoader's checks, so
# parse_memory keeps what it reads only when that renders back to the very bytes it read (see there).
_FAST_LOADER: type | None = getattr(yaml, "CSafeLoader", None)


def _compose(front: str, path: Where, loader_class: type = StrictLoader) -> yaml.Node:
    if len(front.encode("utf-8")) > MAX_FRONTMATTER_BYTES:
        raise ValidationError(f"frontmatter is larger than {MAX_FRONTMATTER_BYTES} bytes", path=path)
    loader = loader_class(front)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or str(exc)
        raise ValidationError(f"invalid YAML frontmatter: {problem}", path=path, line=_yaml_line(exc)) from exc
    finally:
        loader.dispose()
    if node is None:
        raise ValidationError("frontmatter is empty", path=path, line=2)
    return node


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 2


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    name = node.tag.rsplit(":", 1)[-1]
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name} ({node.value!r})"


def _convert_str(node: yaml.Node, field: str, path: Where, *, optional: bool = False) -> str | None:
    if optional and isinstance(node, yaml.ScalarNode) and node.tag == _NULL_TAG:
        return None
    if isinstance(node, yaml.ScalarNode) and node.tag == _STR_TAG:
        return str(node.value)
    hint = "; put the value in double quotes" if isinstance(node, yaml.ScalarNode) else ""
    raise ValidationError(
        f"expected a string but YAML reads {_kind(node)}{hint}",
        path=path,
        field=field,
        line=_line(node),
    )


def _convert_list(node: yaml.Node, field: str, path: Where) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    raise ValidationError(f"expected a list but YAML reads {_kind(node)}", path=path, field=field, line=_line(node))


def _pairs(node: yaml.Node, field: str, allowed: tuple[str, ...], path: Where) -> dict[str, yaml.Node]:
    """A mapping node's items by key: keys must be plain strings, known, and unique."""
    if not isinstance(node, yaml.MappingNode):
        raise ValidationError(
            f"expected a mapping but YAML reads {_kind(node)}",
            path=path,
            field=field or None,
            line=_line(node),
        )
    items: dict[str, yaml.Node] = {}
    for key_node, value_node in node.value:
        key = _key(key_node, path)
        where = f"{field}{key}"
        if key in items:
            raise ValidationError(f"duplicate key {key!r}", path=path, field=where, line=_line(key_node))
        if key not in allowed:
            raise ValidationError(_unknown_key(key, allowed), path=path, field=where, line=_line(key_node))
        items[key] = value_node
    return items


def _key(node: yaml.Node, path: Where) -> str:
    if isinstance(node, yaml.ScalarNode) and node.tag == _STR_TAG:
        return str(node.value)
    raise ValidationError(f"keys must be plain strings, but YAML reads {_kind(node)}", path=path, line=_line(node))


def _unknown_key(key: str, allowed: tuple[str, ...]) -> str:
    if key == "body":
        return "'body' is not a frontmatter key: the body is the text after the closing '---'"
    return f"unknown key {key!r} (allowed: {', '.join(allowed)})"


def _convert_source(node: yaml.Node, field: str, path: Where) -> dict[str, Any]:
    items = _pairs(node, f"{field}.", SOURCE_KEYS, path)
    return {
        key: _convert_str(value, f"{field}.{key}", path, optional=key in _OPTIONAL_STR) for key, value in items.items()
    }


def _convert_value(key: str, node: yaml.Node, path: Where) -> Any:
    if key == "sources":
        return tuple(_convert_source(n, f"sources[{i}]", path) for i, n in enumerate(_convert_list(node, key, path)))
    if key == "related_sessions":
        return tuple(_convert_str(n, f"{key}[{i}]", path) for i, n in enumerate(_convert_list(node, key, path)))
    return _convert_str(node, key, path, optional=key in _OPTIONAL_STR)


def _frontmatter_fields(
    front: str, path: Where, loader_class: type = StrictLoader
) -> tuple[dict[str, Any], dict[str, int]]:
    """The frontmatter's fields, converted against the schema, and the line each key is on."""
    items = _pairs(_compose(front, path, loader_class), "", FRONTMATTER_KEYS, path)
    fields = {key: _convert_value(key, node, path) for key, node in items.items()}
    return fields, {key: _line(node) for key, node in items.items()}


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
    fields, lines = _frontmatter_fields(front, path)
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
    if _FAST_LOADER is None:
        return None
    try:
        fields, _lines = _frontmatter_fields(front, None, _FAST_LOADER)
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
    path = where or None
    if not isinstance(data, dict):
        raise ValidationError(f"a memory must be a JSON object, not {type(data).__name__}", path=path)
    if not all(isinstance(key, str) for key in data):
        raise ValidationError("a memory's keys must be strings", path=path)
    memory = _build(_tuples(data), path)
    _render(memory, path if path is not None else f"memory {memory.id!r}")
    return memory
