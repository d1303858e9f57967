"""The fresh record by signal (`tools.fresh_record`, ADR 0110): each held-out split run by the extractor it was first
measured with, in a real worktree of that commit."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from rounds_kit import user_transcript

from memory_review.extract.heuristic import extract
from tools.extraction_eval import REPO
from tools.fresh_record import first_proposals, kind_of, measuring_commit, table


def _full_history() -> bool:
    shallow = subprocess.run(
        ["git", "rev-parse", "--is-shallow-repository"], cwd=REPO, capture_output=True, text=True, check=False
    )
    return shallow.returncode == 0 and shallow.stdout.strip() == "false"


needs_history = pytest.mark.skipif(not _full_history(), reason="needs the repository's whole git history")


@pytest.mark.parametrize(
    "text", ["Always run the tests with uv.", "Never push to main.", "From now on, answer in French."]
)
def test_the_kind_is_the_signal_the_rationale_names(text: str) -> None:
    (finding,) = extract(user_transcript(text))
    assert kind_of(finding.rationale) == finding.signal


def test_a_note_typed_with_the_memory_shortcut_is_its_own_kind() -> None:
    (finding,) = extract(user_transcript("# ONE SCENARIO AT A TIME!"))
    assert kind_of(finding.rationale) == finding.signal == "# memory note"


def test_a_rule_said_in_two_sessions_is_counted_as_repeated() -> None:
    text = "We use Go for the backend."
    (finding,) = extract(user_transcript(text, text, sessions=("s1", "s2")))
    assert kind_of(finding.rationale) == "repeated across sessions"


def test_the_table_counts_each_kind_and_all() -> None:
    rows = [
        {"rationale": 'signal "we use"', "kept": False, "label": "one-off"},
        {"rationale": 'signal "we use"', "kept": True, "label": "maybe"},
        {"rationale": 'signal "always"', "kept": True, "label": "durable"},
        {"row": "durable", "quoted": True, "text": "Always use uv.", "passages": [], "rules": ["Always use uv."]},
        # said again: the kept quote is in it word for word (ADR 0113)
        {"row": "durable", "quoted": False, "text": "ok. ALWAYS use\nuv.", "passages": [], "rules": ["Always use uv."]},
        {"row": "durable", "quoted": False, "text": "Never push to main.", "passages": [], "rules": ["Always use uv."]},
    ]
    assert table(rows).splitlines()[2:] == [
        "| we use | 2 | 1 (50%) | 0 |",
        "| always | 1 | 1 (100%) | 1 |",
        "| **all** | 3 | 2 (67%) | |",
        "",
        "Durable prompts found when first measured: 1 quoted, 1 said again, of 3 (67%).",
    ]


@needs_history
def test_a_split_is_measured_by_the_extractor_before_it_landed(tmp_path: Path) -> None:
    # held-out 146 landed after round 49 (d9e78fa) and before round 50, which tuned on its mistake (ADR 0111)
    assert measuring_commit("heldout146").startswith("d9e78fa")
    rows = first_proposals(["heldout146"], tmp_path)
    proposals = [row for row in rows if row["row"] == "proposal"]
    assert [row["quoted"] for row in rows if row["row"] == "durable"] == [True]  # its one durable rule, found
    assert sorted((kind_of(str(row["rationale"])), row["kept"]) for row in proposals) == [
        ("always", True),
        ("in this project", False),
    ]
    assert not any(tmp_path.iterdir())  # the worktree is gone
