"""The event schema and its byte encoding: golden line, round trips, and what a line may not be."""

from __future__ import annotations

import hashlib
import math
from datetime import datetime
from typing import Any

import pytest
from event_strategies import events
from events_testkit import HISTORY, ORIGIN, TS, chain, raw_line
from hypothesis import given, settings
from hypothesis_kit import examples
from pydantic import ValidationError

from memory_review.events import (
    CHANGE_TYPES,
    GENESIS,
    MEMORY_TYPES,
    PERSON_TYPES,
    TERMINAL_TYPES,
    Change,
    Event,
    EventDraft,
    LogIntegrityError,
    decode_event,
    encode_event,
    line_hash,
)

GOLDEN = (
    b'{"actor":"user","candidate":"cand_1","changes":[{"after":'
    b'{"body":"Use 4 spaces \xe2\x80\x94 never tabs.",'
    b'"id":"pref-indent","type":"preference"},"before":null,"memory":"pref-indent"}],'
    b'"origin":"0123456789abcdef","prev":"abababababababababababababababababababababababababababababababab",'
    b'"seq":12,"session":"sess_1","ts":"2026-11-30T19:55:00.123456Z","type":"candidate.applied","v":1}\n'
)


def _golden_event() -> Event:
    after = {"type": "preference", "id": "pref-indent", "body": "Use 4 spaces \u2014 never tabs."}
    return Event(
        type="candidate.applied",
        actor="user",
        session="sess_1",
        candidate="cand_1",
        changes=(Change(memory="pref-indent", before=None, after=after),),
        seq=12,
        prev="ab" * 32,
        ts=TS,
        origin=ORIGIN,
    )


def test_golden_line_bytes() -> None:
    # The line format is a contract in bytes (prev hashes it): sorted keys, no spaces, raw UTF-8,
    # None-valued event fields omitted, but a change's null "before" kept.
    assert encode_event(_golden_event()) == GOLDEN


def test_golden_line_decodes_to_the_same_event() -> None:
    assert decode_event(GOLDEN, path="events.jsonl", line_no=12) == _golden_event()


def test_line_hash_is_sha256_of_the_exact_bytes_including_newline() -> None:
    assert line_hash(b"{}\n") == "ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356"
    assert line_hash(GOLDEN) == hashlib.sha256(GOLDEN).hexdigest()
    assert line_hash(GOLDEN) != line_hash(GOLDEN[:-1])


def test_every_history_event_round_trips() -> None:
    for number, line in enumerate(chain(HISTORY), 1):
        event = decode_event(line, path="p", line_no=number)
        assert encode_event(event) == line
        assert event.seq == number


# --- what a stored line may not be ---------------------------------------------------------

DAMAGED = {
    "not json": b'{"seq":1,\n',
    "invalid utf-8": GOLDEN.replace(b"\xe2\x80\x94", b"\xe2\x28\xa1"),
    "seq as a string": GOLDEN.replace(b'"seq":12', b'"seq":"12"'),
    "seq zero": GOLDEN.replace(b'"seq":12', b'"seq":0'),
    "unknown field": GOLDEN.replace(b'"v":1}', b'"v":1,"x":1}'),
    "version 2": GOLDEN.replace(b'"v":1}', b'"v":2}'),
    "unknown type": GOLDEN.replace(b"candidate.applied", b"candidate.exploded"),
    "short prev": GOLDEN.replace(b"ab" * 32, b"ab" * 31),
    "bad timestamp": GOLDEN.replace(b"19:55:00.123456Z", b"19:55:00Z"),
    "a JSON array": b"[1,2,3]\n",
    "spaces after colons": GOLDEN.replace(b'"seq":12', b'"seq": 12'),
    "keys out of order": GOLDEN.replace(
        b'{"actor":"user","candidate":"cand_1",', b'{"candidate":"cand_1","actor":"user",'
    ),
    "duplicate key": GOLDEN.replace(b'"seq":12', b'"seq":11,"seq":12'),
    "explicit null field": GOLDEN.replace(b'"v":1}', b'"reason":null,"v":1}'),
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_damaged_line_is_an_integrity_error_naming_path_and_line(case: str) -> None:
    with pytest.raises(LogIntegrityError) as caught:
        decode_event(DAMAGED[case], path="/s/events.jsonl", line_no=7)
    assert caught.value.path == "/s/events.jsonl"
    assert caught.value.line == 7
    assert str(caught.value).startswith("/s/events.jsonl:7: ")


def test_a_line_without_its_newline_still_decodes() -> None:
    # Callers may strip the newline; the canonical check compares with it added back.
    assert decode_event(GOLDEN[:-1], path="p", line_no=1) == _golden_event()


def test_rule_breaking_line_reports_the_rule() -> None:
    line = raw_line(
        seq=1,
        prev=GENESIS,
        type="context.built",
        context={"q": 1},
        changes=[{"memory": "m", "before": None, "after": {"body": "x"}}],
    )
    with pytest.raises(LogIntegrityError, match=r"changes is not allowed on context\.built"):
        decode_event(line, path="p", line_no=1)


# --- the rules one event must meet ---------------------------------------------------------

CHANGE = Change(memory="m1", before=None, after={"id": "m1", "body": "x"})

BAD_DRAFTS: dict[str, dict[str, Any]] = {
    "applied without changes": dict(type="candidate.applied", actor="user", candidate="c"),
    "applied with empty changes": dict(type="candidate.applied", actor="user", candidate="c", changes=()),
    "applied without candidate": dict(type="candidate.applied", actor="user", changes=(CHANGE,)),
    "applied by an agent": dict(type="candidate.applied", actor="agent:claude", candidate="c", changes=(CHANGE,)),
    "discarded by an agent": dict(type="candidate.discarded", actor="agent:x", candidate="c"),
    "created without record": dict(type="candidate.created", actor="agent:x", candidate="c"),
    "edited without record": dict(type="candidate.edited", actor="user", candidate="c"),
    "record of another candidate": dict(type="candidate.created", actor="user", candidate="c", record={"id": "d"}),
    "changes on created": dict(type="candidate.created", actor="user", candidate="c", record={}, changes=(CHANGE,)),
    "changes on discarded": dict(type="candidate.discarded", actor="user", candidate="c", changes=(CHANGE,)),
    "changes on context": dict(type="context.built", actor="system", context={}, changes=(CHANGE,)),
    "changes on recovered": dict(type="store.recovered", actor="system", changes=(CHANGE,)),
    "context without context": dict(type="context.built", actor="system"),
    "revert without reverts": dict(type="memory.reverted", actor="user", changes=(CHANGE,)),
    "reverts on applied": dict(type="candidate.applied", actor="user", candidate="c", changes=(CHANGE,), reverts=1),
    "forced on deleted": dict(
        type="memory.deleted",
        actor="user",
        forced=True,
        changes=(Change(memory="m1", before={"body": "x"}, after=None),),
    ),
    "deleted with an after": dict(type="memory.deleted", actor="user", changes=(CHANGE,)),
    "same memory twice": dict(type="candidate.applied", actor="user", candidate="c", changes=(CHANGE, CHANGE)),
    "empty actor": dict(type="store.recovered", actor=""),
    "reverts zero": dict(type="memory.reverted", actor="user", reverts=0, changes=(CHANGE,)),
    "unknown field": dict(type="store.recovered", actor="system", note="x"),
}


@pytest.mark.parametrize("case", sorted(BAD_DRAFTS))
def test_draft_breaking_a_rule_is_refused(case: str) -> None:
    with pytest.raises(ValidationError):
        EventDraft(**BAD_DRAFTS[case])


def test_type_sets_are_consistent() -> None:
    assert TERMINAL_TYPES <= PERSON_TYPES
    assert MEMORY_TYPES < CHANGE_TYPES
    assert "session.written" in CHANGE_TYPES and "session.written" not in MEMORY_TYPES


@pytest.mark.parametrize("sides", [(None, None), ({"id": "other"}, None), (None, {"id": "other"})])
def test_change_needs_a_side_and_matching_ids(sides: tuple[Any, Any]) -> None:
    with pytest.raises(ValidationError):
        Change(memory="m1", before=sides[0], after=sides[1])


@pytest.mark.parametrize(
    "value",
    [
        math.nan,
        math.inf,
        2**64,
        -(2**63) - 1,
        {1: "x"},
        {"a": {1, 2}},
        b"bytes",
        datetime(2026, 1, 1),
        "\ud800",
    ],
)
def test_snapshot_values_must_round_trip_as_json(value: Any) -> None:
    with pytest.raises(ValidationError):
        Change(memory="m1", before=None, after={"field": value})


def test_snapshot_nested_too_deep_is_refused() -> None:
    deep: dict[str, Any] = {}
    cursor = deep
    for _ in range(100):
        cursor["x"] = {}
        cursor = cursor["x"]
    with pytest.raises(ValidationError, match="nested deeper"):
        EventDraft(type="context.built", actor="system", context=deep)


def test_snapshots_are_private_copies_with_tuples_as_lists() -> None:
    after = {"id": "m1", "tags": ("a", "b"), "nested": {"k": [1]}}
    change = Change(memory="m1", before=None, after=after)
    after["nested"]["k"].append(2)  # the caller edits its dict after building the change
    assert change.after == {"id": "m1", "tags": ["a", "b"], "nested": {"k": [1]}}


def test_events_are_frozen() -> None:
    with pytest.raises(ValidationError):
        _golden_event().seq = 13  # type: ignore[misc]


# --- property: any valid event round-trips through its line --------------------------------


@settings(max_examples=examples(300), deadline=None)
@given(events())
def test_any_event_round_trips_through_its_line(event: Event) -> None:
    line = encode_event(event)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    decoded = decode_event(line, path="p", line_no=1)
    assert decoded == event
    assert encode_event(decoded) == line
