"""Claude Code auto-memory folders: a MEMORY.md index linking topic files with frontmatter.

No real auto-memory folder is in the shared data, so these tests build one the way Claude
Code writes it (``~/.claude/projects/<project>/memory/``): one fact per topic file, the
index holding ``- [Title](file.md) — hook`` lines and sometimes notes of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from import_helpers import pending, source_text, write

from memory_review.workspace import Workspace

TOPICS = {
    "user_role.md": (
        "---\nname: user role\ndescription: Senior backend engineer, new to the React frontend\n"
        "type: user\n---\n\n"
        "Senior backend engineer (Go, Postgres). New to React: explain frontend idioms, "
        "skip backend basics.\n"
    ),
    "feedback_testing.md": (
        "---\nname: testing policy\n"
        "description: Integration tests hit a real database, never mocks\n"
        "type: feedback\n---\n\n"
        "Integration tests must hit the real Postgres container.\n\n"
        "**Why:** a mocked database hid a broken migration in March.\n\n"
        "**How to apply:** use the `pg_container` fixture from `tests/conftest.py`.\n"
    ),
    "project_release_freeze.md": (
        "---\nname: release freeze\n"
        "description: Merge freeze from 2026-03-05 for the mobile release\n"
        "type: project\n---\n\nNo merges to main from 2026-03-05 until the mobile release is cut.\n"
    ),
    "reference_dashboards.md": (
        "---\nname: latency dashboard\ndescription: Where API latency is watched\n"
        "type: reference\n---\n\n"
        "p95 API latency: Grafana board `api-latency` (https://grafana.example.com/d/api-latency).\n"
    ),
}
INDEX = (
    "# Memory index\n\n"
    "- [User role](user_role.md) — senior backend engineer, new to React\n"
    "- [Testing policy](feedback_testing.md) — real database in integration tests\n"
    "- [Release freeze](project_release_freeze.md) — no merges from 2026-03-05\n"
    "- [Latency dashboard](reference_dashboards.md) — Grafana api-latency\n"
    "- [Old note](deleted_note.md) — this file was removed\n\n"
    "## Notes\n\n"
    "The staging database is refreshed from production every Sunday night.\n"
)


@pytest.fixture
def memory_dir(ws: Workspace) -> Path:
    """An auto-memory folder inside the project, plus one topic file the index does not link."""
    folder = ws.root / "memory"
    write(folder / "MEMORY.md", INDEX)
    for name, text in TOPICS.items():
        write(folder / name, text)
    write(
        folder / "feedback_commits.md",
        "---\nname: commit style\ndescription: Small commits, imperative subject lines\n"
        "type: feedback\n---\n\n"
        "Commit in small steps; subject lines in the imperative mood.\n",
    )
    return folder


def test_a_whole_auto_memory_folder(ws: Workspace, memory_dir: Path) -> None:
    summary = ws.import_memories(memory_dir)
    assert summary.formats == ["claude-memory"]
    assert summary.files == [
        "memory/MEMORY.md",
        "memory/user_role.md",
        "memory/feedback_testing.md",
        "memory/project_release_freeze.md",
        "memory/reference_dashboards.md",
        "memory/feedback_commits.md",
    ]
    assert summary.notes == ["'memory/deleted_note.md' does not exist"]
    found = pending(ws)
    expected = {
        "fact-user-role": ("user", "fact"),
        "pref-feedback-testing": ("user", "preference"),
        "fact-project-release-freeze": ("project", "fact"),
        "fact-reference-dashboard": ("project", "fact"),
        "pref-feedback-commit": ("user", "preference"),
    }
    for memory_id, (scope, memory_type) in expected.items():
        state = found[memory_id]
        assert (state.candidate.scope, state.candidate.changes[0].after.type) == (
            scope,
            memory_type,
        )


def test_a_topic_file_is_one_memory_with_its_own_description(ws: Workspace, memory_dir: Path) -> None:
    ws.import_memories(memory_dir)
    state = pending(ws)["pref-feedback-testing"]
    record = state.candidate.changes[0].after
    assert record.description == "Integration tests hit a real database, never mocks"
    assert record.body.startswith("Integration tests must hit") and "**How to apply:**" in record.body
    assert "linked from memory/MEMORY.md" in state.candidate.rationale
    assert "saved it as a 'feedback' memory" in state.candidate.rationale
    [evidence] = state.candidate.evidence
    assert evidence.quote in source_text(memory_dir / "feedback_testing.md")


def test_index_links_are_no_memories_but_its_notes_are(ws: Workspace, memory_dir: Path) -> None:
    ws.import_memories(memory_dir)
    from_index = [s for s in ws.list_candidates() if s.candidate.evidence[0].turn_id.startswith("memory/MEMORY.md")]
    [notes] = from_index
    assert notes.candidate.changes[0].after.body == INDEX.split("## Notes\n\n")[1].rstrip("\n")
    assert notes.candidate.scope == "project"


def test_naming_the_index_reads_only_what_it_links(ws: Workspace, memory_dir: Path) -> None:
    summary = ws.import_memories(memory_dir / "MEMORY.md")
    assert "memory/feedback_commits.md" not in summary.files
    assert len(summary.files) == 5


def test_a_single_topic_file_is_recognised_by_its_frontmatter(ws: Workspace, memory_dir: Path) -> None:
    summary = ws.import_memories(memory_dir / "project_release_freeze.md")
    assert summary.formats == ["claude-memory"] and len(summary.proposed) == 1


def test_an_index_link_out_of_the_folder_is_confined(ws: Workspace, tmp_path: Path) -> None:
    write(tmp_path / "elsewhere" / "secret.md", "---\nname: x\ntype: user\n---\nprivate\n")
    folder = write(ws.root / "memory" / "MEMORY.md", "- [Escape](../../elsewhere/secret.md) — nope\n").parent
    summary = ws.import_memories(folder)
    assert summary.proposed == [] and summary.files == ["memory/MEMORY.md"]
    assert any("outside" in note for note in summary.notes)


def test_scope_can_be_forced(ws: Workspace, memory_dir: Path) -> None:
    ws.import_memories(memory_dir, scope="project")
    assert {s.candidate.scope for s in ws.list_candidates()} == {"project"}
