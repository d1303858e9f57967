"""The fast decode of a canonical line against the full one: same event, same error, for any line.

``decode_event`` first tries ``_decode_canonical`` (orjson parse, byte comparison with orjson's
own encoding, strict validation without copying the snapshots) and falls back to
``_decode_checked`` (strict JSON validation, copies, canonical re-encode), which names what is
wrong. The fast path may only take a shortcut: for every line, valid or damaged, the outcome
must be exactly the full path's.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from event_strategies import events, values
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples

from memory_review.events import Event, LogIntegrityError, decode_event, encode_event
from memory_review.events.model import _decode_canonical, _decode_checked

_FIELDS = sorted(Event.model_fields) + ["x"]
_CHANGE_FIELDS = ["memory", "before", "after", "x"]
_ODD_VALUES = st.sampled_from(
    [None, True, False, 0, -1, 1, 1.0, 2**64 - 1, "", "x", "agent:x", [], {}, [{}], {"id": "m1"}]
)


def _outcome(decode: Any, line: bytes) -> tuple[Any, ...]:
    try:
        event = decode(line, path="/s/events.jsonl", line_no=5)
    except LogIntegrityError as exc:
        return ("error", str(exc))
    return ("event", event, encode_event(event), event.model_fields_set, type(event.changes))


def _assert_same(line: bytes) -> None:
    assert _outcome(decode_event, line) == _outcome(_decode_checked, line)


def _mutate(draw: st.DrawFn, raw: dict[str, Any]) -> None:
    kind = draw(st.sampled_from(["set", "drop", "change", "none"]))
    if kind == "set":
        raw[draw(st.sampled_from(_FIELDS))] = draw(_ODD_VALUES | values)
    elif kind == "drop" and raw:
        raw.pop(draw(st.sampled_from(sorted(raw))))
    elif kind == "change" and raw.get("changes") and type(raw["changes"]) is list:
        change = draw(st.sampled_from(raw["changes"]))
        if type(change) is not dict:
            return
        change[draw(st.sampled_from(_CHANGE_FIELDS))] = draw(_ODD_VALUES | values)


def _encode(draw: st.DrawFn, raw: dict[str, Any]) -> bytes:
    how = draw(st.sampled_from(["sorted", "unsorted", "json", "json-spaced"]))
    if how == "json":  # the stdlib writes other escapes and float forms
        return json.dumps(raw, sort_keys=True, separators=(",", ":")).encode() + b"\n"
    if how == "json-spaced":
        return json.dumps(raw, sort_keys=True, ensure_ascii=False).encode() + b"\n"
    option = orjson.OPT_SORT_KEYS if how == "sorted" else 0
    return orjson.dumps(raw, option=option) + b"\n"


@st.composite
def lines(draw: st.DrawFn) -> bytes:
    """A stored line, maybe altered: fields set, dropped or retyped, re-encoded, a byte hit."""
    line = encode_event(draw(events()))
    if draw(st.booleans()):
        raw = orjson.loads(line)
        for _ in range(draw(st.integers(1, 3))):
            _mutate(draw, raw)
        line = _encode(draw, raw)
    if draw(st.integers(0, 4)) == 0:
        at = draw(st.integers(0, len(line) - 1))
        line = line[:at] + bytes([draw(st.integers(0, 255))]) + line[at + 1 :]
    return line if draw(st.integers(0, 5)) else line.rstrip(b"\n")


@settings(max_examples=examples(600), deadline=None)
@given(lines())
def test_any_line_decodes_as_the_full_check_does(line: bytes) -> None:
    _assert_same(line)


def _context_line(context: Any, **extra: Any) -> bytes:
    fields = {"v": 1, "seq": 1, "prev": "0" * 64, "ts": "2026-11-30T19:55:00.123456Z"}
    fields |= {"origin": "o", "type": "context.built", "actor": "system", "context": context}
    fields |= extra
    return orjson.dumps(fields, option=orjson.OPT_SORT_KEYS) + b"\n"


@pytest.mark.parametrize("depth", [1, 60, 62, 63, 64, 65, 66, 70, 300, 2000])
def test_nesting_near_the_limit_decodes_as_the_full_check_does(depth: int) -> None:
    nested = b'{"k":' * depth + b"{}" + b"}" * depth  # orjson writes no more than 255 levels
    _assert_same(_context_line({"n": 1}).replace(b'{"n":1}', nested))


def test_a_shallow_line_with_many_brackets_takes_the_fast_path() -> None:
    line = _context_line({"items": [[{}] for _ in range(100)], "text": "{[" * 50})
    fast = _decode_canonical(line)
    assert fast is not None and fast == _decode_checked(line, path="p", line_no=1)


@pytest.mark.parametrize(
    "line",
    [
        _context_line({"n": 1}).replace(b'"n":1', b'"n":18446744073709551616'),
        _context_line({"n": 1}).replace(b'"n":1', b'"n":-0'),
        _context_line({"n": 1}).replace(b'"n":1', b'"n":1e2'),
        _context_line({"s": "A"}).replace(b'"A"', b'"\\u0041"'),
        _context_line({"s": "A"}).replace(b'"A"', b'"\\ud800"'),
        _context_line({"n": 1}).replace(b'"v":1', b'"v":true'),
        _context_line({"n": 1}).replace(b'"v":1', b'"v":1.0'),
        _context_line({"n": 1}, more=True).replace(b'"more":true', b'"more":1'),
        _context_line({"n": 1}, more=True).replace(b'"more":true', b'"more":1.0'),
        _context_line({"n": 1}, type="candidate.created"),
        _context_line({"n": 1}).replace(b',"v":1', b""),
        _context_line({"n": 1}, reason=None),
        _context_line({"n": 1}) + b"\n",
        b"\n",
        b"",
    ],
)
def test_lines_orjson_reads_otherwise_decode_as_the_full_check_does(line: bytes) -> None:
    _assert_same(line)


def test_a_canonical_line_takes_the_fast_path_and_shares_nothing() -> None:
    line = _context_line({"nested": {"k": [1]}})
    first, second = _decode_canonical(line), _decode_canonical(line)
    assert first is not None and second is not None and first == second
    assert first.context is not second.context
    assert first.context["nested"] is not second.context["nested"]


def test_a_built_event_still_copies_its_snapshots() -> None:
    context = {"nested": {"k": [1]}}
    event = Event.model_validate_json(_context_line(context), strict=True)
    built = Event(**{name: getattr(event, name) for name in Event.model_fields})
    assert built.context == context and built.context is not event.context
