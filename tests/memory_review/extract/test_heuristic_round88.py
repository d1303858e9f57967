"""The eighty-eighth round of the heuristic (ADR 0152): a rule's scope is read from the rule as quoted.

"As you develop, run" over a fenced ``uv venv; hatch test`` is read alone and quoted with its command (ADR 0071); its
scope was read from the sentence alone, so a command of this project's tools was filed as the person's preference.
"""

from __future__ import annotations

import pytest
from rounds_kit import user_transcript

from memory_review.extract.heuristic import extract
from memory_review.extract.signals import classify


def _findings(text: str) -> list[tuple[str, str, str]]:
    transcript = user_transcript(text, text, sessions=("a", "b"))
    return [(f.scope, f.memory.type, f.memory.description) for f in extract(transcript)]


@pytest.mark.parametrize(
    ("text", "description"),
    [
        ("Periodically do:\n\n```\nuv venv; hatch fmt\n```\n", "Periodically do: `uv venv; hatch fmt`"),
        ("As you develop, run\n\n~~~\nuv sync && just check\n~~~\n", "As you develop, run `uv sync && just check`"),
    ],
)
def test_a_rule_with_its_fenced_command_is_the_projects_convention(text: str, description: str) -> None:
    assert set(_findings(text)) == {("project", "convention", description)}


def test_a_rule_with_a_tail_naming_nothing_of_the_project_stays_the_persons() -> None:
    assert {scope for scope, _, _ in _findings("Never use print. Use the logger instead.")} == {"user"}


@pytest.mark.parametrize(
    "sentence",
    [
        "Make sure there is no mention of faceiq at all, no comments nothing",
        "Do not include any mention of FACEIQ anywhere.",
    ],
)
def test_a_name_kept_out_of_the_work_is_the_projects(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and found.scope == "project"
