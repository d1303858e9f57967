"""The libyaml fast path of ``parse_memory`` gives exactly what the strict path gives.

``parse_memory`` reads a file with libyaml first and keeps that reading only when it renders back
to the same bytes; everything else (hand-written files, attacks, errors) takes the strict
pure-Python path. These tests run every input both ways and compare results and errors.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis_kit import examples
from test_record_io import ATTACKS, MEMORIES, TS, _file, _memory, _render_or_reject

from memory_review import record_io, record_yaml
from memory_review.errors import ValidationError
from memory_review.models import Memory
from memory_review.record_io import parse_memory, render_memory

pytestmark = pytest.mark.skipif(record_yaml.FAST_LOADER is None, reason="PyYAML built without libyaml")


def _strict(data: bytes, path: str = "m.md") -> Memory:
    """``parse_memory`` with the fast path switched off: the reference."""
    saved = record_yaml.FAST_LOADER
    record_yaml.FAST_LOADER = None
    try:
        return parse_memory(data, path=path)
    finally:
        record_yaml.FAST_LOADER = saved


def _outcome(parse: Callable[[bytes, str], Memory], data: bytes) -> tuple[str, object]:
    try:
        return "ok", parse(data, "m.md")
    except ValidationError as exc:
        return type(exc).__name__, (str(exc), exc.field, exc.line)


def _fast(data: bytes, path: str = "m.md") -> Memory:
    return parse_memory(data, path=path)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MEMORIES)
def test_canonical_files_read_the_same_both_ways(memory: Memory) -> None:
    data = _render_or_reject(memory)
    assert record_io._parse_canonical(*record_io.split_frontmatter(data.decode()), data) == memory
    assert _fast(data) == _strict(data) == memory


def test_canonical_file_does_not_use_the_pure_python_composer(monkeypatch: pytest.MonkeyPatch) -> None:
    data = render_memory(_memory(body='Body.\n---\nid: "evil"\n---'))

    def refuse(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        raise AssertionError("the strict composer ran on a canonical file")

    monkeypatch.setattr(record_yaml.StrictLoader, "compose_node", refuse)
    assert parse_memory(data) == _memory(body='Body.\n---\nid: "evil"\n---')


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attacks_fail_the_same_way_both_ways(name: str) -> None:
    data = ATTACKS[name][0]
    assert _outcome(_fast, data)[0] != "ok"
    assert _outcome(_fast, data) == _outcome(_strict, data)


HAND_WRITTEN = {
    # Each is read by libyaml without complaint; none is canonical, so the strict path decides.
    "plain-scalars": (
        "---\nid: style-guide\ntype: convention\nscope: project\ndescription: Use black\n"
        f"created_at: '{TS}'\nupdated_at: \"{TS}\"\n"
        'sources:\n  - {session_id: sess_x, evidence: "we use black"}\nrelated_sessions: [sess_x]\n'
        "---\nRun black before committing."
    ).encode(),
    "comment": _file("# a comment\n"),
    "explicit-str-tag-on-canonical-value": render_memory(_memory()).replace(b'scope: "user"', b'scope: !!str "user"'),
    "anchor-on-canonical-value": render_memory(_memory()).replace(b'scope: "user"', b'scope: &s "user"'),
    "yaml11-bool": render_memory(_memory()).replace(
        b'description: "Indent with 4 spaces, never tabs"', b"description: no"
    ),
    "single-quoted": render_memory(_memory()).replace(b'scope: "user"', b"scope: 'user'"),
    "reordered-keys": render_memory(_memory()).replace(
        b'type: "preference"\nscope: "user"\n', b'scope: "user"\ntype: "preference"\n'
    ),
    "unicode-escape-for-plain-letter": render_memory(_memory()).replace(b'scope: "user"', b'scope: "\\u0075ser"'),
    "deep-flow": _file('related_sessions: [[[[[["a"]]]]]]\n'),
}


@pytest.mark.parametrize("name", sorted(HAND_WRITTEN))
def test_non_canonical_files_take_the_strict_path(name: str) -> None:
    data = HAND_WRITTEN[name]
    text = data.decode()
    assert record_io._parse_canonical(*record_io.split_frontmatter(text), data) is None
    assert _outcome(_fast, data) == _outcome(_strict, data)


def test_libyaml_accepts_what_the_strict_loader_refuses() -> None:
    """Why the fast path must check the bytes: libyaml alone would take a tagged value."""
    data = HAND_WRITTEN["explicit-str-tag-on-canonical-value"]
    front, _body = record_io.split_frontmatter(data.decode())
    assert yaml.load(front, Loader=record_yaml.FAST_LOADER)["scope"] == "user"  # noqa: S506 - CSafeLoader
    with pytest.raises(ValidationError, match="tags"):
        parse_memory(data)


def test_store_files_of_the_benchmark_shape_read_fast(tmp_path: Path) -> None:
    memory = _memory(
        sources=({"session_id": "s1", "turn_id": "t1", "evidence": "user said: always"},),
        applied_from="cand_0001",
        applied_by="bench",
        related_sessions=("s1", "s2"),
        body="line one.\nAlways do x; never do y.",
    )
    data = render_memory(memory)
    assert record_io._parse_canonical(*record_io.split_frontmatter(data.decode()), data) == memory
