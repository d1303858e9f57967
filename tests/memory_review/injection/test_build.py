"""build_context as a whole: empty input, ages, hashes, determinism, bad requests."""

from __future__ import annotations

import hashlib
import random

import pytest
from injection_helpers import NOW, MakeMemory

from memory_review.errors import ValidationError
from memory_review.injection import ContextRequest, ContextResult, build_context
from memory_review.record_io import memory_sha256

EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()


def test_empty_input_gives_a_valid_empty_result() -> None:
    result = build_context([], ContextRequest(now=NOW, query="anything"))
    assert result == ContextResult(text="", sha256=EMPTY_SHA256, included=(), dropped=())
    assert ContextResult.model_validate_json(result.model_dump_json()) == result


AGES = [
    ("2026-07-05T11:59:59Z", 0),
    ("2026-07-04T12:00:01Z", 0),  # 23h59m59s: not yet a day
    ("2026-07-04T12:00:00Z", 1),
    ("2026-05-19T10:30:00Z", 47),
    ("2025-07-05T12:00:00Z", 365),
    ("2026-07-06T00:00:00Z", 0),  # clock skew: a memory from the future
]


@pytest.mark.parametrize(("updated_at", "days"), AGES)
def test_age_note(mem: MakeMemory, updated_at: str, days: int) -> None:
    text = build_context([mem("aged", updated_at=updated_at, body="b")], ContextRequest(now=NOW)).text
    age = f"; this memory is {days} {'day' if days == 1 else 'days'} old" if days else ""
    assert f"\n[memory:project:fact] About aged (id=aged{age})\nb\n" in text


@pytest.mark.parametrize(("updated_at", "days"), AGES)
def test_age_note_of_the_first_layout(mem: MakeMemory, updated_at: str, days: int) -> None:
    """Events recorded before ADR 0015 replay with their own layout, age note included."""
    text = build_context([mem("aged", updated_at=updated_at, body="b")], ContextRequest(now=NOW, frame=1)).text
    note = f" (This memory is {days} {'day' if days == 1 else 'days'} old.)" if days else ""
    assert f"\n[memory:project:fact] id=aged{note}\nb\n" in text


@pytest.mark.parametrize("frame", [0, 4, True, "2"])
def test_unknown_frame_layout_is_refused(frame: object) -> None:
    with pytest.raises(ValidationError, match="frame layout"):
        ContextRequest(now=NOW, frame=frame)  # type: ignore[arg-type]


def test_result_hashes_text_and_each_record(mem: MakeMemory) -> None:
    memories = [mem("one", body="first"), mem("two", "forbidden", body="second")]
    result = build_context(memories, ContextRequest(now=NOW, query="first"))
    assert result.sha256 == hashlib.sha256(result.text.encode("utf-8")).hexdigest()
    assert {m.id: m.sha256 for m in result.included} == {
        "two": memory_sha256(memories[1]),
        "one": memory_sha256(memories[0]),
    }


def test_hash_source_can_be_injected_and_is_checked(mem: MakeMemory) -> None:
    memories = [mem("one", body="first")]
    result = build_context(memories, ContextRequest(now=NOW), sha256_of=lambda m: "ab" * 32)
    assert result.included[0].sha256 == "ab" * 32
    with pytest.raises(ValidationError, match="not a hex digest"):
        build_context(memories, ContextRequest(now=NOW), sha256_of=lambda m: "nope")


def test_same_inputs_give_identical_bytes(mem: MakeMemory) -> None:
    memories = [
        mem(
            f"m{i:02d}",
            ("fact", "preference", "convention", "forbidden")[i % 4],
            ("user", "project", "session")[i % 3],
            body=f"note {i} 笔记",
            updated_at=f"2026-0{1 + i % 6}-1{i % 10}T00:00:00Z",
        )
        for i in range(40)
    ]
    request = ContextRequest(now=NOW, query="note 笔记", budget_bytes=2500)
    first = build_context(memories, request)
    for seed in range(5):
        shuffled = memories[:]
        random.Random(seed).shuffle(shuffled)
        again = build_context(shuffled, request)
        assert again.model_dump_json() == first.model_dump_json()


def test_duplicate_ids_are_rejected(mem: MakeMemory) -> None:
    with pytest.raises(ValidationError, match="merge the tiers first"):
        build_context([mem("a"), mem("a", scope="user")], ContextRequest(now=NOW))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"now": "2026-07-05 12:00:00"},
        {"now": "2026-07-05T12:00:00+00:00"},
        {"now": NOW, "budget_bytes": -1},
        {"now": NOW, "budget_lines": -5},
        {"now": NOW, "limit": -1},
        {"now": NOW, "limit": True},
        {"now": NOW, "budget_bytes": 10.5},
        {"now": NOW, "query": 42},
    ],
)
def test_bad_requests_are_validation_errors(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        ContextRequest(**kwargs)  # type: ignore[arg-type]


def test_request_requires_the_clock() -> None:
    with pytest.raises(TypeError):
        ContextRequest()  # type: ignore[call-arg]


def test_result_json_shape_matches_the_contract(mem: MakeMemory) -> None:
    result = build_context([mem("a", body="x"), mem("b", body="y")], ContextRequest(now=NOW, query="zzz"))
    data = result.model_dump(mode="json")
    assert set(data) == {"text", "sha256", "included", "dropped"}
    assert data["dropped"][0].keys() == {"id", "scope", "type", "sha256", "reason"}
    assert data["text"] == ""
