"""Import of the real memory files (``$MEMORY_REVIEW_TEST_DATA/memory-files``): every format."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from import_helpers import Place, pending, source_text

from memory_review.candidate import Candidate
from memory_review.record_io import render_memory
from memory_review.workspace import Workspace

CLAUDE_MD = [
    "GetStream-Vision-Agents_CLAUDE.md",
    "kesslerio-attio-mcp-server_CLAUDE.md",
    "kesslerio-attio-mcp-server_CLAUDE.HEAD.md",
    "marot-spotter_CLAUDE.md",
    "modelcontextprotocol-python-sdk_AGENTS.md",
    "simonw-claude-code-transcripts_AGENTS.md",
]


def _check_candidates(ws: Workspace, files: dict[str, Path]) -> list[Candidate]:
    """Each candidate: an import, evidence quoted exactly at the lines it names, storable."""
    candidates = [state.candidate for state in ws.list_candidates()]
    for candidate in candidates:
        assert candidate.op == "create" and candidate.proposer.kind == "import"
        for evidence in candidate.evidence:  # two pieces that say the same are merged: both quoted
            rel, lines = evidence.turn_id.rsplit(":", 1)
            first, last = (int(n) for n in lines.split("-"))
            text = source_text(files[rel])
            if "secret" not in candidate.flags:
                assert evidence.quote == "\n".join(text.split("\n")[first - 1 : last])
        rel = candidate.evidence[0].turn_id.rsplit(":", 1)[0]
        assert rel in candidate.rationale
        record = candidate.changes[0].after
        assert record is not None and record.body and record.body in source_text(files[rel])
        render_memory(record)  # within 4 KiB / 200 lines
    return candidates


@pytest.mark.parametrize("name", CLAUDE_MD)
def test_each_real_instruction_file_imports_with_exact_evidence(ws: Workspace, memory_files: Path, name: str) -> None:
    path = memory_files / "claude_md_agents_md" / name
    summary = ws.import_memories(path)
    assert summary.formats == ["claude-md"] and summary.files == [name]
    assert summary.found >= 1 and summary.proposed
    candidates = _check_candidates(ws, {name: path})
    assert {c.scope for c in candidates} == {"project"}
    assert ws.memories() == []


def test_classification_of_a_real_claude_md(ws: Workspace, memory_files: Path) -> None:
    ws.import_memories(memory_files / "claude_md_agents_md" / "GetStream-Vision-Agents_CLAUDE.md")
    by_section = {s.candidate.changes[0].after.description.split(":")[0]: s.candidate for s in ws.list_candidates()}
    assert by_section["Python rules"].changes[0].after.type == "forbidden"
    assert by_section["Python rules"].priority == "high"
    assert by_section["Project overview"].changes[0].after.type == "fact"
    assert by_section["Testing"].changes[0].after.type == "convention"
    assert by_section["Code style \u203a Imports"].changes[0].after.body.startswith("- ordered as")
    assert 'section "Testing"' in by_section["Testing"].rationale


def test_a_claude_md_that_only_imports_agents_md(ws: Workspace, memory_files: Path, place: Place) -> None:
    folder = memory_files / "claude_md_agents_md"
    claude = place(folder / "simonw-claude-code-transcripts_CLAUDE.md", "CLAUDE.md")
    agents = place(folder / "simonw-claude-code-transcripts_AGENTS.md", "AGENTS.md")
    summary = ws.import_memories(claude)
    assert summary.files == ["CLAUDE.md", "AGENTS.md"] and summary.notes == []
    candidates = _check_candidates(ws, {"CLAUDE.md": claude, "AGENTS.md": agents})
    assert candidates and all("AGENTS.md" in c.evidence[0].turn_id for c in candidates)
    assert all("imported by CLAUDE.md (@AGENTS.md)" in c.rationale for c in candidates)


def test_the_unresolved_import_of_the_file_as_stored_is_a_note(ws: Workspace, memory_files: Path) -> None:
    summary = ws.import_memories(memory_files / "claude_md_agents_md" / "modelcontextprotocol-python-sdk_CLAUDE.md")
    assert summary.found == 0 and summary.proposed == []
    assert summary.notes == ["modelcontextprotocol-python-sdk_CLAUDE.md: import @AGENTS.md not found"]


def test_a_newer_version_of_a_file_skips_what_the_older_one_said(ws: Workspace, memory_files: Path) -> None:
    folder = memory_files / "claude_md_agents_md"
    first = ws.import_memories(folder / "kesslerio-attio-mcp-server_CLAUDE.md")
    second = ws.import_memories(folder / "kesslerio-attio-mcp-server_CLAUDE.HEAD.md")
    assert first.proposed and second.proposed and second.skipped_duplicates >= 1
    assert {d["reason"] for d in second.duplicates} <= {
        "already pending review",
        "near-duplicate of a pending candidate",
    }


def _nftbk_project(ws: Workspace, memory_files: Path, place: Place) -> dict[str, Path]:
    """The nftbk layout as in its repository: three rules and AGENTS.md linked to general.mdc."""
    rules = memory_files / "cursor_rules" / "0xmichalis-nftbk"
    placed = {
        f".cursor/rules/{n}": place(rules / n, f".cursor/rules/{n}")
        for n in ("general.mdc", "markdown.mdc", "rust.mdc")
    }
    link_target = (rules / "AGENTS.md.symlink-target.txt").read_text().strip()
    os.symlink(link_target, ws.root / "AGENTS.md")
    placed["AGENTS.md"] = ws.root / "AGENTS.md"
    return placed


def test_cursor_rules_with_a_symlinked_agents_md(ws: Workspace, memory_files: Path, place: Place) -> None:
    placed = _nftbk_project(ws, memory_files, place)
    summary = ws.import_memories(ws.root)
    assert summary.formats == ["claude-md", "cursor"]
    assert summary.files == ["AGENTS.md", ".cursor/rules/markdown.mdc", ".cursor/rules/rust.mdc"]
    candidates = _check_candidates(ws, placed)
    from_agents = [c for c in candidates if c.evidence[0].turn_id.startswith("AGENTS.md:")]
    assert from_agents and all("a link to .cursor/rules/general.mdc" in c.rationale for c in from_agents)
    assert not any("alwaysApply" in c.changes[0].after.body for c in candidates)
    rust = [c for c in candidates if "rust.mdc" in c.evidence[0].turn_id]
    assert rust and all("(for *.rs)" in c.changes[0].after.description for c in rust)
    assert all("only to files matching *.rs" in c.rationale for c in rust)


def test_cursor_rules_folder_imports_each_rule_file(ws: Workspace, memory_files: Path, place: Place) -> None:
    placed = _nftbk_project(ws, memory_files, place)
    summary = ws.import_memories(ws.root / ".cursor" / "rules")
    assert summary.formats == ["cursor"]
    assert summary.files == [
        ".cursor/rules/general.mdc",
        ".cursor/rules/markdown.mdc",
        ".cursor/rules/rust.mdc",
    ]
    _check_candidates(ws, placed)
    again = ws.import_memories(ws.root / "AGENTS.md")  # the same text under its other name
    assert again.proposed == [] and again.skipped_duplicates == again.found


def test_python_mdc_with_two_frontmatter_blocks_is_two_rules(ws: Workspace, memory_files: Path) -> None:
    path = memory_files / "cursor_rules" / "GetStream-Vision-Agents" / "python.mdc"
    summary = ws.import_memories(path)
    assert summary.found == 2
    candidates = _check_candidates(ws, {"python.mdc": path})
    descriptions = sorted(c.changes[0].after.description for c in candidates)
    assert descriptions[0].startswith("when running python or tests: we use uv")
    assert descriptions[1].startswith("when writing python: never mock")
    assert all("every request" in c.rationale for c in candidates)
    assert not any("---" in c.changes[0].after.body for c in candidates)


def test_cline_memory_bank(ws: Workspace, memory_files: Path) -> None:
    bank = memory_files / "cline_memory_bank" / "0xmichalis-nftbk"
    summary = ws.import_memories(bank)
    assert summary.formats == ["cline"]
    assert summary.files == [
        "projectbrief.md",
        "productContext.md",
        "activeContext.md",
        "systemPatterns.md",
        "techContext.md",
        "progress.md",
    ]
    candidates = _check_candidates(ws, {name: bank / name for name in summary.files})
    types = {c.evidence[0].turn_id.split(":")[0]: c.changes[0].after.type for c in candidates}
    assert types["systemPatterns.md"] == "convention" and types["techContext.md"] == "fact"
    assert all(c.scope == "project" for c in candidates)
    assert not any("LICENSE" in c.rationale for c in candidates)


@pytest.mark.parametrize(
    "relative",
    [
        "claude_md_agents_md/GetStream-Vision-Agents_CLAUDE.md",
        "cursor_rules/0xmichalis-nftbk/rust.mdc",
        "cline_memory_bank/0xmichalis-nftbk",
    ],
)
def test_reimport_proposes_nothing_new(ws: Workspace, memory_files: Path, relative: str) -> None:
    first = ws.import_memories(memory_files / relative)
    again = ws.import_memories(memory_files / relative)
    assert again.proposed == []
    assert again.skipped_duplicates == first.found - first.merged
    ws.apply([cid for cid in first.proposed], actor="alice")
    after_apply = ws.import_memories(memory_files / relative)
    assert after_apply.proposed == [] and {d["reason"] for d in after_apply.duplicates} == {"already remembered"}


def test_every_real_memory_file_at_once(ws: Workspace, memory_files: Path) -> None:
    """All real files, each imported as found: flags only where earned, every memory storable."""
    total = 0
    for path in sorted(memory_files.rglob("*")):
        if path.is_file() and path.suffix in (".md", ".mdc") and "symlink" not in path.name:
            total += len(ws.import_memories(path).proposed)
    states = ws.list_candidates()
    assert total == len(states) > 100
    for state in states:
        render_memory(state.candidate.changes[0].after)
    assert len(pending(ws)) == len(states)  # every candidate names a distinct memory
