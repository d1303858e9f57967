"""Labelling lanes' briefs and merges (`tools.labelled_lanes`, ADR 0153), on real git repositories in tmp_path."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tools.labelled_lanes import (
    BRIEF,
    JUDGED,
    README_PATH,
    LaneError,
    apply_change,
    fill_brief,
    lane_change,
    merge_lane,
)

BASE = "\n".join(
    [
        "# Labelled",
        '`heldout1.json` ("Held-out 1") is the first split.',
        "Lead(s) for a later split: more pages.",
        JUDGED + ", ADR 0066) is the first judged split.",
        "",
        "| repository | what | licence |",
        "|---|---|---|",
        "| [a/one](https://github.com/a/one) | held-out 1: prompts | MIT |",
        "| [b/two](https://github.com/b/two) | held-out 1: more | MIT |",
        "",
    ]
)


def _lane(number: int, row: str, added: str, text: str) -> str:
    lines = BASE.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(JUDGED))
    lines[at:at] = [f'`heldout{number}.json` ("Held-out {number}") {text}', f"Lead(s) for a later split: {text} on."]
    index = next(i for i, line in enumerate(lines) if line.startswith(f"| [{row}]"))
    what, licence = lines[index].rsplit(" | ", 1)
    lines[index] = f"{what}{added} | {licence}"
    return "\n".join(lines)


def test_two_lanes_from_one_base_keep_both_sections_and_both_cells() -> None:
    first = lane_change(BASE, _lane(2, "a/one", "; held-out 2: page two", "reads page two"), 2)
    second = lane_change(BASE, _lane(3, "a/one", "; held-out 3: page three", "reads page three"), 3)
    merged = apply_change(apply_change(BASE, first), second)
    assert merged.index("Held-out 2") < merged.index("Held-out 3") < merged.index(JUDGED)
    assert "| held-out 1: prompts; held-out 2: page two; held-out 3: page three | MIT |" in merged
    assert merged.count("Lead(s) for a later split") == 3


def test_a_lane_appending_to_the_first_of_two_rows_of_one_repository_is_merged() -> None:
    # Session 32: held-out 384 and 386 each gave go-go-golems/geppetto a row; a later lane appended to the first one and
    # was refused, the rows being keyed by their link alone (the second row hid the first).
    two = "| [b/two](https://github.com/b/two) | held-out 1: more | MIT |"
    second_row = "| [a/one](https://github.com/a/one) | held-out 9: later | MIT |"
    base = BASE.replace(two, f"{two}\n{second_row}")
    lane = _lane(4, "a/one", "; held-out 4: page four", "reads page four").replace(two, f"{two}\n{second_row}")
    change = lane_change(base, lane, 4)
    assert apply_change(base, change) == lane
    assert "| [a/one](https://github.com/a/one) | held-out 1: prompts; held-out 4: page four | MIT |" in lane


def test_a_lane_that_edits_another_section_is_refused() -> None:
    lane = _lane(2, "b/two", "; held-out 2: x", "reads x").replace("is the first split", "was the first split")
    with pytest.raises(LaneError, match="beyond its section"):
        lane_change(BASE, lane, 2)


def test_a_lane_that_rewrites_a_cell_is_refused() -> None:
    lane = _lane(2, "b/two", "", "reads x").replace("held-out 1: more", "held-out 2: other")
    with pytest.raises(LaneError, match="changed, not appended"):
        lane_change(BASE, lane, 2)


def test_the_brief_is_the_labelling_guide_with_the_lane_filled_in() -> None:
    brief = fill_brief(
        BRIEF.read_text(encoding="utf-8"), 7, lane="Read X.", worktree="/w/h7", deadline="12:00", budget=9, venv="/v"
    )
    assert "heldout7.json" in brief and "/w/h7" in brief and "AT MOST 9 look-ups" in brief
    assert brief.rstrip().endswith("Read X.")
    assert "<N>" not in brief and "<budget>" not in brief and not brief.startswith("<!--")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def _commit_lane(repo: Path, number: int, row: str) -> None:
    _git(repo, "checkout", "-q", "-b", f"heldout{number}", "main")
    (repo / README_PATH).write_text(
        _lane(number, row, f"; held-out {number}: pages", f"split {number}"), encoding="utf-8"
    )
    (repo / README_PATH).with_name(f"heldout{number}.json").write_text("{}\n", encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", f"labelled: held-out {number}")
    _git(repo, "checkout", "-q", "main")


def test_merging_two_lanes_that_conflict_in_git_keeps_both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    (repo / README_PATH).parent.mkdir(parents=True)
    _git(tmp_path, "init", "-q", "-b", "main", str(repo))
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "T")
    (repo / README_PATH).write_text(BASE, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _commit_lane(repo, 2, "a/one")
    _commit_lane(repo, 3, "a/one")
    monkeypatch.chdir(repo)
    assert [merge_lane("heldout2"), merge_lane("heldout3")] == ["Merge held-out 2", "Merge held-out 3"]
    readme = (repo / README_PATH).read_text(encoding="utf-8")
    assert "split 2" in readme and "split 3" in readme
    assert "held-out 1: prompts; held-out 2: pages; held-out 3: pages | MIT |" in readme
    assert (repo / README_PATH).with_name("heldout3.json").exists()
    assert _git(repo, "status", "--porcelain") == ""
    assert _git(repo, "log", "--format=%s", "-2").split("\n")[:2] == ["Merge held-out 3", "Merge held-out 2"]


def test_a_branch_that_is_not_a_lane_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(LaneError, match="named heldoutN"):
        merge_lane("feature")
