"""Memory files: golden bytes, round trips, and every YAML/file attack of RELIABILITY.md."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from hypothesis_kit import examples

from memory_review import models
from memory_review.errors import UnsafePathError, ValidationError
from memory_review.ids import is_windows_device_name
from memory_review.models import Memory, Source
from memory_review.record_io import (
    check_body,
    check_memory,
    memory_from_json,
    memory_sha256,
    memory_to_json,
    parse_memory,
    quote,
    render_memory,
)
from memory_review.safety import is_control_char, is_invisible_char

TS = "2026-05-18T10:30:00Z"
HEADER = f'---\nid: "a"\ntype: "fact"\nscope: "user"\ndescription: "d"\ncreated_at: "{TS}"\nupdated_at: "{TS}"\n'


def _memory(**changes: object) -> Memory:
    fields: dict[str, object] = {
        "id": "pref-indent-4-spaces", "type": "preference", "scope": "user",
        "description": "Indent with 4 spaces, never tabs", "created_at": TS, "updated_at": TS,
    }  # fmt: skip
    fields.update(changes)
    return Memory(**fields)  # type: ignore[arg-type]


def _file(extra: str = "", body: str = "") -> bytes:
    """A valid memory file with ``extra`` frontmatter lines appended, then ``body``."""
    return (HEADER + extra + "---\n" + body).encode()


def _data_dir() -> Path:
    default = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
    path = Path(os.environ.get("MEMORY_REVIEW_TEST_DATA", default)).resolve()
    if not path.is_dir():
        pytest.skip(f"real test data not found at {path} (set MEMORY_REVIEW_TEST_DATA)")
    return path


# --------------------------------------------------------------------------- golden bytes

GOLDEN_MEMORY = _memory(
    description='Indent with 4 spaces, "no" tabs',
    applied_from="cand_01JXB4Q5M8TZ3K9W2R6N0PDHVE",
    applied_by="no",
    sources=(
        Source(
            session_id="sess_x",
            turn_id="turn_y",
            evidence="user in turn y: 'use 4 spaces, not tabs'",
        ),
        Source(evidence="1.10\tcafé \u200b😀"),
    ),
    related_sessions=("2026-05-18", "yes"),
    body="User prefers 4-space indentation.\n\n---\nnot: frontmatter\n---",
)
GOLDEN_BYTES = (
    b"---\n"
    b'id: "pref-indent-4-spaces"\n'
    b'type: "preference"\n'
    b'scope: "user"\n'
    b'description: "Indent with 4 spaces, \\"no\\" tabs"\n'
    b'created_at: "2026-05-18T10:30:00Z"\n'
    b'updated_at: "2026-05-18T10:30:00Z"\n'
    b'applied_from: "cand_01JXB4Q5M8TZ3K9W2R6N0PDHVE"\n'
    b'applied_by: "no"\n'
    b"sources:\n"
    b'  - session_id: "sess_x"\n'
    b'    turn_id: "turn_y"\n'
    b"    evidence: \"user in turn y: 'use 4 spaces, not tabs'\"\n"
    b'  - evidence: "1.10\\tcaf\xc3\xa9 \\u200B\xf0\x9f\x98\x80"\n'
    b"related_sessions:\n"
    b'  - "2026-05-18"\n'
    b'  - "yes"\n'
    b"---\n"
    b"User prefers 4-space indentation.\n"
    b"\n"
    b"---\n"
    b"not: frontmatter\n"
    b"---\n"
)


def test_golden_bytes() -> None:
    assert render_memory(GOLDEN_MEMORY) == GOLDEN_BYTES
    assert parse_memory(GOLDEN_BYTES, path="golden.md") == GOLDEN_MEMORY


def test_minimal_memory_renders_empty_lists_and_no_body() -> None:
    expected = HEADER.replace('"a"', '"m"') + "sources: []\nrelated_sessions: []\n---\n"
    memory = _memory(id="m", type="fact", description="d")
    assert render_memory(memory) == expected.encode()
    assert parse_memory(expected.encode()) == memory


def test_sha256_is_of_the_rendered_bytes_and_stable() -> None:
    assert memory_sha256(GOLDEN_MEMORY) == hashlib.sha256(GOLDEN_BYTES).hexdigest()
    assert render_memory(GOLDEN_MEMORY) == render_memory(GOLDEN_MEMORY.model_copy())


# --------------------------------------------------------------------------- round trips

_ANY_CHAR = st.characters(exclude_categories=("Cs",))
_BODY_CHAR = st.characters(exclude_categories=("Cs", "Cc"), include_characters="\t\n")
_TRICKY = st.sampled_from(
    ["no", "yes", "on", "1.10", "0o17", "12:30", "2026-05-18", "2026-05-18T10:30:00Z", "~", "null", ".inf",
     "'", '"', "\\", "#x", "&a", "*a", "!!python/object", "{a: 1}", "[1]", " lead", "trail ", "- x", "---",
     "\u2028", "\u2029", "\ufeff", "\x85", "\x7f", "\x1b[31m", "\u200b", "\u202e", "\U000e0041", "😀", "%", "\t"]
)  # fmt: skip
_LINE = st.one_of(_TRICKY, st.text(_ANY_CHAR, min_size=1, max_size=30)).filter(
    lambda s: "\n" not in s and "\r" not in s and bool(s.strip())
)
# Line breaks and controls are legal inside these strings (not in description): the file escapes them.
_MULTILINE = st.sampled_from(["\n", "\r", "a\r\nb", "\x00", "\x1b", "line1\nline2\n", "\v\f"])
_OPTIONAL = st.none() | _TRICKY | _MULTILINE | st.text(_ANY_CHAR, max_size=20)
_TIMESTAMP = st.datetimes(min_value=__import__("datetime").datetime(1, 1, 1)).map(
    lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ").rjust(20, "0")
)
_BODY_LINES = st.lists(st.sampled_from(["---", "", "id: x", "text", " ---", "--- ", "...", "\t", "é ✓"]), max_size=8)
_BODY = st.one_of(
    st.text(_BODY_CHAR, max_size=200),
    st.tuples(_BODY_LINES, st.sampled_from(["", "\n", "\n\n"])).map(lambda t: "\n".join(t[0]) + t[1]),
)
_SLUG = st.from_regex(models.SLUG_RE, fullmatch=True).filter(lambda s: not is_windows_device_name(s))
_SOURCE = st.builds(
    Source,
    session_id=_OPTIONAL,
    turn_id=_OPTIONAL,
    evidence=_LINE | _MULTILINE | st.text(_ANY_CHAR, min_size=1, max_size=40),
)
MEMORIES = st.builds(
    Memory,
    id=_SLUG,
    type=st.sampled_from(models.MEMORY_TYPES),
    scope=st.sampled_from(models.SCOPES),
    description=_LINE,
    created_at=_TIMESTAMP,
    updated_at=_TIMESTAMP,
    applied_from=_OPTIONAL,
    applied_by=_OPTIONAL,
    sources=st.lists(_SOURCE, max_size=3).map(tuple),
    related_sessions=st.lists(_OPTIONAL.filter(lambda s: s is not None), max_size=3).map(tuple),
    body=_BODY,
)


def _render_or_reject(memory: Memory) -> bytes:
    try:
        return render_memory(memory)
    except ValidationError as exc:
        if "at most" not in str(exc):  # only the size caps may refuse a generated memory
            raise
        reject()
        raise  # unreachable: reject() raises


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MEMORIES)
def test_round_trip_file(memory: Memory) -> None:
    data = _render_or_reject(memory)
    assert parse_memory(data, path="rt.md") == memory
    assert render_memory(parse_memory(data)) == data


def _every_value_quoted(memory: Memory) -> list[str]:
    """The frontmatter lines as written before the unescaped fast path (docs/adr/0061): ``quote`` of each."""
    from memory_review.record_io import SOURCE_KEYS, quote  # noqa: PLC0415 - this reference alone

    keys = ("id", "type", "scope", "description", "created_at", "updated_at", "applied_from", "applied_by")
    lines = [f"{key}: {quote(getattr(memory, key))}" for key in keys if getattr(memory, key) is not None]
    lines.append("sources:" if memory.sources else "sources: []")
    for source in memory.sources:
        pairs = [(key, getattr(source, key)) for key in SOURCE_KEYS if getattr(source, key) is not None]
        lines += [("    " if i else "  - ") + f"{key}: {quote(value)}" for i, (key, value) in enumerate(pairs)]
    lines.append("related_sessions:" if memory.related_sessions else "related_sessions: []")
    return lines + [f"  - {quote(session)}" for session in memory.related_sessions]


@settings(max_examples=examples(300), deadline=None)
@given(MEMORIES)
def test_the_frontmatter_is_every_value_quoted(memory: Memory) -> None:
    from memory_review.record_io import _frontmatter_lines  # noqa: PLC0415 - the fast path under test

    assert _frontmatter_lines(memory) == _every_value_quoted(memory)


@pytest.mark.parametrize("where", ["description", "evidence", "session"])
@pytest.mark.parametrize("text", ['say "hi"', "a\\b", "tab\there", "zero\u200bwidth", "line\u2028sep"])
def test_a_value_to_escape_anywhere_quotes_the_frontmatter(where: str, text: str) -> None:
    from memory_review.record_io import _frontmatter_lines  # noqa: PLC0415 - the fast path under test

    text = text.encode().decode("unicode_escape")
    memory = _memory().model_copy(
        update={
            "description": text if where == "description" else "plain",
            "sources": (Source(evidence=text if where == "evidence" else "plain", session_id="s1"),),
            "related_sessions": (text,) if where == "session" else ("s2",),
        }
    )
    assert _frontmatter_lines(memory) == _every_value_quoted(memory)
    assert parse_memory(render_memory(memory)) == memory


@settings(max_examples=examples(200), deadline=None)
@given(MEMORIES)
def test_round_trip_json(memory: Memory) -> None:
    _render_or_reject(memory)
    as_json = orjson.loads(orjson.dumps(memory_to_json(memory)))
    assert memory_from_json(as_json, where="event 1") == memory


@pytest.mark.parametrize(
    "body", ["", "x", "x\n", "\n", "\n\n", "---", "---\nid: evil\n---", "a\n---\n", "  trailing  "]
)
def test_body_edges_round_trip(body: str) -> None:
    memory = _memory(body=body)
    assert parse_memory(render_memory(memory)) == memory


def test_body_holding_its_own_frontmatter_block_is_body_text() -> None:
    data = _file(body='Intro.\n---\nid: "evil"\ntype: "forbidden"\n---\nMore.\n')
    memory = parse_memory(data, path="m.md")
    assert memory.id == "a" and memory.type == "fact"
    assert memory.body == 'Intro.\n---\nid: "evil"\ntype: "forbidden"\n---\nMore.'


def test_hand_written_file_with_plain_scalars_and_flow_sources() -> None:
    data = (
        "---\nid: style-guide\ntype: convention\nscope: project\ndescription: Use black\n"
        f"created_at: '{TS}'\nupdated_at: \"{TS}\"\n"
        'sources:\n  - {session_id: sess_x, evidence: "we use black"}\nrelated_sessions: [sess_x]\n'
        "---\nRun black before committing."  # no final newline: accepted, not canonical
    ).encode()
    memory = parse_memory(data, path="hand.md")
    assert memory.sources == (Source(session_id="sess_x", evidence="we use black"),)
    assert memory.body == "Run black before committing."
    assert parse_memory(render_memory(memory)) == memory


def test_explicit_nulls_for_optional_fields() -> None:
    memory = parse_memory(_file('applied_from: null\napplied_by: ~\nsources:\n  - {turn_id: null, evidence: "e"}\n'))
    assert memory.applied_from is None and memory.applied_by is None and memory.sources[0].turn_id is None


# ----------------------------------------------------------------- attacks: every one a ValidationError naming the file

ALIAS_BOMB = (
    b'---\na: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
    b"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    b"e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nid: *e\n---\n"
)

ATTACKS: dict[str, tuple[bytes, str | None, str]] = {
    # name: (file bytes, field named or None, words the message must contain)
    "python-tag": (b'---\nid: !!python/object/apply:os.system ["echo pwned"]\n---\n', None, "tags"),
    "python-name": (b"---\nid: !!python/name:os.system\n---\n", None, "tags"),
    "str-tag": (_file('applied_by: !!str "x"\n'), None, "tags"),
    "local-tag": (_file('applied_by: !custom "x"\n'), None, "tags"),
    "alias-bomb": (ALIAS_BOMB, None, "anchors"),
    "alias": (_file("applied_by: *x\n"), None, "alias"),
    "merge-key": (_file('<<: {applied_by: "x"}\n'), None, "plain strings"),
    "huge-frontmatter": (_file("".join(f'x{i}: "{"y" * 60}"\n' for i in range(80))), None, "bytes"),
    "duplicate-key": (_file('id: "b"\n'), "id", "duplicate key"),
    "duplicate-nested-key": (
        _file('sources:\n  - {evidence: "a", evidence: "b"}\n'),
        "sources[0].evidence",
        "duplicate",
    ),
    "yaml11-no": (
        HEADER.replace('description: "d"', "description: no").encode() + b"---\n",
        "description",
        "bool",
    ),
    "yaml11-yes-applied-by": (_file("applied_by: yes\n"), "applied_by", "bool"),
    "yaml11-float": (
        HEADER.replace('description: "d"', "description: 1.10").encode() + b"---\n",
        "description",
        "float",
    ),
    "yaml11-int": (HEADER.replace('id: "a"', "id: 42").encode() + b"---\n", "id", "int"),
    "yaml11-sexagesimal": (_file("applied_by: 12:30\n"), "applied_by", "int"),
    "yaml11-date": (
        HEADER.replace(f'created_at: "{TS}"', "created_at: 2026-05-18").encode() + b"---\n",
        "created_at",
        "timestamp",
    ),
    "yaml11-datetime": (
        HEADER.replace(f'updated_at: "{TS}"', f"updated_at: {TS}").encode() + b"---\n",
        "updated_at",
        "timestamp",
    ),
    "null-required": (
        HEADER.replace('description: "d"', "description: ~").encode() + b"---\n",
        "description",
        "null",
    ),
    "list-for-string": (
        HEADER.replace('description: "d"', "description: [a, b]").encode() + b"---\n",
        "description",
        "list",
    ),
    "mapping-for-string": (
        HEADER.replace('description: "d"', "description: {a: b}").encode() + b"---\n",
        "description",
        "mapping",
    ),
    "string-for-list": (
        _file('related_sessions: "sess_x"\n'),
        "related_sessions",
        "expected a list",
    ),
    "int-in-source": (_file("sources:\n  - {evidence: 5}\n"), "sources[0].evidence", "int"),
    "unknown-key": (_file('evil: "x"\n'), "evil", "unknown key"),
    "unknown-source-key": (
        _file('sources:\n  - {evidence: "e", url: "u"}\n'),
        "sources[0].url",
        "unknown key",
    ),
    "body-key": (_file('body: "x"\n'), "body", "not a frontmatter key"),
    "missing-field": (b'---\nid: "a"\n---\n', "type", "required"),
    "bad-enum": (HEADER.replace('"fact"', '"opinion"').encode() + b"---\n", "type", "preference"),
    "bad-timestamp": (
        HEADER.replace(f'created_at: "{TS}"', 'created_at: "2026-05-18 10:30"').encode() + b"---\n",
        "created_at",
        "ISO-8601",
    ),
    "bad-slug": (HEADER.replace('id: "a"', 'id: "Bad Id"').encode() + b"---\n", "id", "not valid"),
    "traversal-id": (
        HEADER.replace('id: "a"', 'id: "../../x"').encode() + b"---\n",
        "id",
        "path separator",
    ),
    "device-id": (HEADER.replace('id: "a"', 'id: "con"').encode() + b"---\n", "id", "device"),
    "multiline-description": (
        HEADER.replace('description: "d"', 'description: "a\\nb"').encode() + b"---\n",
        "description",
        "one",
    ),
    "bom": (b"\xef\xbb\xbf" + _file(), None, "BOM"),
    "crlf": (_file().replace(b"\n", b"\r\n"), None, "CRLF"),
    "cr-in-body": (_file(body="a\rb\n"), None, "CR"),
    "nul-in-body": (_file(body="a\x00b\n"), None, "U+0000"),
    "escape-in-body": (_file(body="\x1b[2J\n"), None, "U+001B"),
    "missing-opening-fence": (_file()[4:], None, "must start"),
    "indented-fence": (b" " + _file(), None, "must start"),
    "missing-closing-fence": (HEADER.encode(), None, "never closed"),
    "invalid-utf8": (_file(body="ok\n") + b"\xff\xfe\n", None, "UTF-8"),
    "overlong-utf8-slash": (
        HEADER.replace('id: "a"', 'id: "\xc0\xaf"').encode("latin-1"),
        None,
        "UTF-8",
    ),
    "not-a-mapping": (b'---\n- "a"\n---\n', None, "mapping"),
    "empty-frontmatter": (b"---\n---\n", None, "empty"),
    "two-documents": (b'---\nid: "a"\n...\n--- \nid: "b"\n---\n', None, "document"),
    "deep-nesting": (_file('related_sessions: [[[[[["a"]]]]]]\n'), None, "nesting"),
    "broken-yaml": (_file('description: "unterminated\n'), None, "invalid YAML"),
    "too-big": (_file(body="x" * 4100 + "\n"), None, "bytes"),
    "too-many-lines": (_file(body="x\n" * 200), None, "lines"),
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack_is_rejected_naming_the_file(name: str, tmp_path: Path) -> None:
    data, field, words = ATTACKS[name]
    path = tmp_path / "memory" / f"{name}.md"
    with pytest.raises(ValidationError) as caught:
        parse_memory(data, path=path)
    error = caught.value
    assert error.path == str(path) and str(path) in str(error)
    assert words.lower() in str(error).lower()
    if field is not None:
        assert error.field == field and f"field {field!r}" in str(error)


def test_python_tag_never_runs(tmp_path: Path) -> None:
    target = tmp_path / "pwned"
    data = f'---\nid: !!python/object/apply:os.mkdir ["{target}"]\n---\n'.encode()
    with pytest.raises(ValidationError):
        parse_memory(data, path="evil.md")
    assert not target.exists()


def test_path_traversal_in_id_is_an_unsafe_path_error() -> None:
    data = HEADER.replace('id: "a"', 'id: "..\\u002f..\\u002fetc"').encode() + b"---\n"
    with pytest.raises(UnsafePathError, match="etc"):
        parse_memory(data, path="m.md")


def test_errors_carry_the_line_number() -> None:
    with pytest.raises(ValidationError) as caught:
        parse_memory(_file('evil: "x"\n'), path="m.md")
    assert caught.value.line == 8 and str(caught.value).startswith("m.md:8")


def test_frontmatter_cap_holds_even_if_file_caps_are_raised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(models, "MAX_MEMORY_BYTES", 1 << 20)
    monkeypatch.setattr(models, "MAX_MEMORY_LINES", 1 << 20)
    data = _file("".join(f'x{i}: "{"y" * 100}"\n' for i in range(100)))
    with pytest.raises(ValidationError, match="frontmatter is larger than"):
        parse_memory(data, path="big.md")


def test_exact_caps_are_accepted() -> None:
    base = len(render_memory(_memory(body="")))
    at_bytes = _memory(body="x" * (models.MAX_MEMORY_BYTES - base - 1))
    assert len(render_memory(at_bytes)) == models.MAX_MEMORY_BYTES
    assert parse_memory(render_memory(at_bytes)) == at_bytes
    lines = render_memory(_memory(body="")).count(b"\n")
    at_lines = _memory(body="\n" * (models.MAX_MEMORY_LINES - lines - 1))
    assert render_memory(at_lines).count(b"\n") == models.MAX_MEMORY_LINES
    assert parse_memory(render_memory(at_lines)) == at_lines


def test_canonical_form_must_fit_the_caps_too() -> None:
    # Raw zero-width characters take 3 bytes; the canonical file escapes each as 6.
    evidence = "\u200b" * 1300
    data = _file(f'sources:\n  - evidence: "{evidence}"\n')
    assert len(data) <= models.MAX_MEMORY_BYTES
    with pytest.raises(ValidationError, match="at most 4096"):
        parse_memory(data, path="m.md")


def test_non_bytes_input_is_rejected() -> None:
    with pytest.raises(ValidationError, match="bytes"):
        parse_memory(_file().decode(), path="m.md")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- render refuses what parse would refuse


@pytest.mark.parametrize(
    ("memory", "words"),
    [
        (_memory(body="x" * 5000), "bytes"),
        (_memory(body="x\n" * 250), "lines"),
        (_memory(body="windows\r\nline"), "CRLF"),
        (_memory(body="bell\x07"), "U+0007"),
        # pydantic refuses lone surrogates; model_construct skips it, render still must not write one
        (_memory().model_copy(update={"body": "lone \ud800 surrogate"}), "surrogate"),
        (_memory().model_copy(update={"id": "con"}), "device"),  # the model refuses it too
        (_memory().model_copy(update={"id": "lpt1"}), "device"),
    ],
)
def test_render_refuses_unstorable_memories(memory: Memory, words: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(words)):
        render_memory(memory)
    with pytest.raises(ValidationError, match=re.escape(words)):
        check_memory(memory, path="x.md")


# --------------------------------------------------------------------------- JSON form


def test_memory_to_json_shape() -> None:
    data = memory_to_json(GOLDEN_MEMORY)
    assert list(data) == [
        "id", "type", "scope", "description", "created_at", "updated_at",
        "applied_from", "applied_by", "sources", "related_sessions", "body",
    ]  # fmt: skip
    assert data["sources"][1] == {"evidence": "1.10\tcafé \u200b😀"}
    assert "applied_from" not in memory_to_json(_memory())
    assert orjson.loads(orjson.dumps(data)) == data


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"description": b"bytes"}, "string"),
        ({"description": 5}, "string"),
        ({"type": "opinion"}, "preference"),
        ({"extra": "x"}, "not permitted"),
        ({"id": "../x"}, "path separator"),
        ({"sources": [{"evidence": "e", "url": "u"}]}, "not permitted"),
        ({"sources": "e"}, "tuple"),
        ({"body": "a\r\nb"}, "CRLF"),
        ({"body": "x" * 5000}, "bytes"),
    ],
)
def test_memory_from_json_is_strict(change: dict[str, object], words: str) -> None:
    data = {**memory_to_json(_memory()), **change}
    with pytest.raises(ValidationError, match=words) as caught:
        memory_from_json(data, where="events.jsonl:7")
    assert caught.value.path == "events.jsonl:7"


@pytest.mark.parametrize("data", [None, [], "memory", {1: "x"}])
def test_memory_from_json_needs_an_object_with_string_keys(data: object) -> None:
    with pytest.raises(ValidationError, match="events.jsonl"):
        memory_from_json(data, where="events.jsonl")  # type: ignore[arg-type]


def test_memory_from_json_missing_field() -> None:
    data = memory_to_json(_memory())
    del data["description"]
    with pytest.raises(ValidationError, match="description") as caught:
        memory_from_json(data)
    assert caught.value.field == "description"


# --------------------------------------------------------------------------- real foreign memory files


def test_real_foreign_memory_files_fail_cleanly() -> None:
    """CLAUDE.md, AGENTS.md, Cursor rules (with their own frontmatter): a named ValidationError, nothing else."""
    files = [p for p in sorted((_data_dir() / "memory-files").rglob("*")) if p.is_file() and p.name != "LICENSE"]
    assert files
    for path in files:
        with pytest.raises(ValidationError) as caught:
            parse_memory(path.read_bytes(), path=path)
        assert caught.value.path == str(path)


# --- the regex scans agree with the character predicates they replace, on every code point


def _reference_quote(value: str) -> str:
    """The per-character definition the one-pass ``quote`` must match."""
    short = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
    yaml_unsafe = {0x85, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF}

    def escape(ch: str) -> str:
        if ch in short:
            return short[ch]
        cp = ord(ch)
        if cp < 0x20 or is_control_char(ch) or cp in yaml_unsafe or is_invisible_char(ch):
            return f"\\u{cp:04X}" if cp <= 0xFFFF else f"\\U{cp:08X}"
        return ch

    return '"' + "".join(escape(ch) for ch in value) + '"'


def test_quote_matches_the_per_character_rule_on_every_code_point() -> None:
    everything = "".join(chr(cp) for cp in range(0x110000))
    assert quote(everything) == _reference_quote(everything)


def test_control_scans_find_the_first_control_character_on_every_code_point() -> None:
    for cp in range(0x110000):
        ch = chr(cp)
        expected = is_control_char(ch) or ch == "\r"
        refused = False
        try:
            check_body(f"ok{ch}")
        except ValidationError as exc:
            refused = True
            assert f"{cp:04X}" in str(exc) or "carriage return" in str(exc)
        assert refused is expected, hex(cp)


@pytest.mark.parametrize("body", ["a\nb\x07c", "a\n\nb\x85", "x\u009f"])
def test_control_character_error_names_its_line(body: str) -> None:
    with pytest.raises(ValidationError) as caught:
        check_body(body)
    assert caught.value.line == body.count("\n") + 1
