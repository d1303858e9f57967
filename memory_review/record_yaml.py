"""The YAML half of reading a memory file: its frontmatter composed and converted against the schema.

The one module importing yaml (``tests/test_layering.py``). :mod:`memory_review.record_io` imports it
on the first parse, so a command that only renders memory (an ``apply``) never loads PyYAML
(docs/adr/0042). The file format and the parsing rules are record_io's docstring.
"""

from __future__ import annotations

from typing import Any

import yaml

from memory_review.errors import ValidationError
from memory_review.record_io import FRONTMATTER_KEYS, MAX_FRONTMATTER_BYTES, MAX_YAML_DEPTH, SOURCE_KEYS, Where

_OPTIONAL_STR = frozenset({"applied_from", "applied_by", "session_id", "turn_id"})
_STR_TAG = "tag:yaml.org,2002:str"
_NULL_TAG = "tag:yaml.org,2002:null"


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
# record_io.parse_memory keeps what it reads only when that renders back to the very bytes it read (see there).
FAST_LOADER: type | None = getattr(yaml, "CSafeLoader", None)


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


def frontmatter_fields(
    front: str, path: Where, loader_class: type = StrictLoader
) -> tuple[dict[str, Any], dict[str, int]]:
    """The frontmatter's fields, converted against the schema, and the line each key is on."""
    items = _pairs(_compose(front, path, loader_class), "", FRONTMATTER_KEYS, path)
    fields = {key: _convert_value(key, node, path) for key, node in items.items()}
    return fields, {key: _line(node) for key, node in items.items()}
