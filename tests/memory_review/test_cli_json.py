"""What every command prints with ``--json``, pinned (issue 19): the structure of each document — its keys
in their order and the JSON type of every value — as ``fixtures/cli_json_shapes.json`` records it, and
one top-level type per command whatever its input looks like.

The fixture was written from the hand-written ``to_json`` methods, before the results became models
serialized by pydantic; a change to it is a change of the JSON contract scripts rely on. Regenerate it
only on purpose: ``MEMORY_REVIEW_WRITE_SHAPES=1 pytest tests/memory_review/test_cli_json.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from cli_scenario import run_scenario, shape

SHAPES = Path(__file__).parent / "fixtures" / "cli_json_shapes.json"

TOP_LEVEL = {
    "init": "object",
    "propose": "object or array",  # the document's kind decides: one object, or an array / JSON Lines
    "list": "array",
    "show": "object",
    "edit": "object",
    "apply": "array",
    "discard": "array",
    "restore": "array",
    "revert": "object or array",  # one target: its event; several: the batch
    "delete": "object",
    "memories": "array",
    "log": "array",
    "sync": "array",
    "trust": "array",
    "context": "object",
    "extract": "object",
    "import": "object",
    "consolidate": "object",
    "sessions": "array",
    "replay": "object or array",  # --at: the memories by id; --session: the contexts
    "verify": "object",
    "doctor": "object",
    "forget": "object",
    "promote": "object",
    "hook": "array",
    "install": "object",
    "uninstall": "object",
    "export": "object",
    "demo": "object",
}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_scenario(tmp_path_factory.mktemp("scenario"))


def test_every_command_prints_the_json_it_printed_before(outputs: dict[str, Any]) -> None:
    shapes = {label: shape(document) for label, document in outputs.items()}
    if os.environ.get("MEMORY_REVIEW_WRITE_SHAPES") == "1":
        SHAPES.write_text(json.dumps(shapes, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    pinned = json.loads(SHAPES.read_text(encoding="utf-8"))
    assert list(shapes) == list(pinned)
    for label, expected in pinned.items():
        assert shapes[label] == expected, label
        # dict equality ignores order; the bytes a script reads do not
        assert json.dumps(shapes[label]) == json.dumps(expected), label


def test_each_command_has_one_top_level_type(outputs: dict[str, Any]) -> None:
    seen: dict[str, set[str]] = {}
    for label, document in outputs.items():
        seen.setdefault(label.split()[0], set()).add("array" if isinstance(document, list) else "object")
    assert set(seen) == set(TOP_LEVEL)
    for name, kinds in seen.items():
        assert kinds == set(TOP_LEVEL[name].split(" or ")), name
    # the two whose type follows their input are told apart by what was given, never by its layout:
    assert isinstance(outputs["propose object"], dict) and isinstance(outputs["propose array"], list)
    assert isinstance(outputs["revert one"], dict) and isinstance(outputs["revert several"], list)
