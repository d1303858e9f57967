"""``DroppedMemory`` is a checked dataclass (ADR 0013): it refuses what the pydantic model refused."""

from __future__ import annotations

import orjson
import pytest
from pydantic import ValidationError as PydanticValidationError

from memory_review.errors import ValidationError
from memory_review.injection import ContextResult, DroppedMemory

SHA = "0123456789abcdef" * 4
GOOD = {"id": "a", "scope": "project", "type": "fact", "sha256": SHA, "reason": "budget"}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("id", 7),
        ("scope", "team"),
        ("type", "rule"),
        ("sha256", SHA.upper()),
        ("sha256", SHA[:-1]),
        ("sha256", SHA + "\n"),
        ("sha256", None),
        ("reason", "too old"),
    ],
)
def test_bad_values_are_refused_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ValidationError) as caught:
        DroppedMemory(**{**GOOD, field: value})  # type: ignore[arg-type]
    assert caught.value.field == field


def test_is_immutable() -> None:
    dropped = DroppedMemory(**GOOD)  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        dropped.reason = "not selected"  # type: ignore[misc]


def test_result_keeps_instances_and_validates_dicts() -> None:
    dropped = DroppedMemory(**GOOD)  # type: ignore[arg-type]
    empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    result = ContextResult(text="", sha256=empty, included=(), dropped=(dropped, dict(GOOD)))
    assert result.dropped == (dropped, dropped) and result.dropped[0] is dropped
    assert orjson.loads(orjson.dumps(result.model_dump(mode="json")))["dropped"] == [GOOD, GOOD]
    with pytest.raises((PydanticValidationError, ValidationError)):
        ContextResult(text="", sha256=empty, included=(), dropped=({**GOOD, "scope": "team"},))
