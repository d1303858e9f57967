"""A folder import reads what the agents read there, and names what it leaves out (ADR 0160).

From the review of session 32: Claude Code's ``.claude/rules/**/*.md`` and Cursor's rules in subfolders of
``.cursor/rules`` were left out without a word; instruction files in subfolders (``packages/api/AGENTS.md``) too;
and ``@CHANGELOG.md`` in an AGENTS.md imported the changelog as instructions, though Codex has no imports.
"""

from __future__ import annotations

import os
from pathlib import Path

from import_helpers import write

from memory_review.workspace import Workspace


def _bodies(ws: Workspace) -> str:
    return " ".join(s.candidate.changes[0].after.body for s in ws.list_candidates())


def test_claude_code_rules_are_read_in_subfolders_too_with_the_files_they_apply_to(ws: Workspace) -> None:
    write(ws.root / "CLAUDE.md", "## Testing\n\nRun pytest -x before every commit.\n")
    write(
        ws.root / ".claude" / "rules" / "typescript.md",
        '---\npaths:\n  - "src/**/*.ts"\n---\n# TypeScript\n\nNo default exports.\n',
    )
    write(ws.root / ".claude" / "rules" / "api" / "db.md", "# Database\n\nNever write raw SQL in handlers.\n")
    summary = ws.import_memories(ws.root)
    assert summary.files == ["CLAUDE.md", ".claude/rules/typescript.md", ".claude/rules/api/db.md"]
    by_body = {s.candidate.changes[0].after.body: s.candidate for s in ws.list_candidates()}
    typescript = next(c for body, c in by_body.items() if "default exports" in body)
    assert "Claude Code rules .claude/rules/typescript.md" in typescript.rationale
    assert "only to files matching src/**/*.ts" in typescript.rationale
    assert "(for src/**/*.ts)" in typescript.changes[0].after.description
    assert any("raw SQL" in body for body in by_body)


def test_the_rules_folder_named_alone_is_read(ws: Workspace) -> None:
    write(ws.root / ".claude" / "rules" / "style.md", "# Style\n\nPrefer dataclasses to dicts for records.\n")
    summary = ws.import_memories(ws.root / ".claude" / "rules")
    assert summary.files == [".claude/rules/style.md"] and "dataclasses" in _bodies(ws)


def test_cursor_rules_in_subfolders_are_read(ws: Workspace) -> None:
    rules = ws.root / ".cursor" / "rules"
    write(rules / "core.mdc", "---\ndescription: core\nalwaysApply: true\n---\n# Core\n\nKeep diffs small.\n")
    write(
        rules / "frontend" / "react.mdc",
        "---\ndescription: react\nglobs:\n- src/**/*.tsx\n---\n# React\n\nNever use class components.\n",
    )
    for named in (ws.root, rules):
        summary = ws.import_memories(named)
        assert summary.files == [".cursor/rules/core.mdc", ".cursor/rules/frontend/react.mdc"], named
    react = next(s.candidate for s in ws.list_candidates() if "class components" in s.candidate.changes[0].after.body)
    assert "only to files matching src/**/*.tsx" in react.rationale


def test_a_linked_folder_under_the_rules_is_not_entered(ws: Workspace, tmp_path: Path) -> None:
    outside = write(tmp_path / "outside" / "secret.md", "# Keys\n\nThe deploy key is on the NAS.\n").parent
    write(ws.root / ".claude" / "rules" / "style.md", "# Style\n\nPrefer dataclasses to dicts for records.\n")
    os.symlink(outside, ws.root / ".claude" / "rules" / "linked")
    summary = ws.import_memories(ws.root)
    assert summary.files == [".claude/rules/style.md"] and "NAS" not in _bodies(ws)


def test_instruction_files_in_subfolders_are_named_not_read(ws: Workspace) -> None:
    write(ws.root / "AGENTS.md", "## Testing\n\nRun pytest -x before every commit.\n")
    for package in ("api", "web"):
        write(ws.root / "packages" / package / "AGENTS.md", f"## {package}\n\nThe {package} package logs JSON lines.\n")
    write(ws.root / "node_modules" / "lib" / "AGENTS.md", "## lib\n\nSomeone else's.\n")  # never searched
    summary = ws.import_memories(ws.root)
    assert summary.files == ["AGENTS.md"] and "JSON lines" not in _bodies(ws)
    [note] = summary.notes
    assert note.startswith(
        "2 instruction files in subfolders not read (packages/api/AGENTS.md, packages/web/AGENTS.md)"
    )
    assert "--codex-chain" in note


def test_an_at_mention_in_agents_md_is_not_an_import(ws: Workspace) -> None:
    write(ws.root / "AGENTS.md", "## Releases\n\nAlways add an entry to @CHANGELOG.md for user-visible changes.\n")
    write(ws.root / "CHANGELOG.md", "# Changelog\n\n## 1.2.0\n\n- Never again ship without the migration guide.\n")
    for codex_chain in (False, True):
        summary = ws.import_memories(ws.root, codex_chain=codex_chain)
        assert summary.files == ["AGENTS.md"], codex_chain
        assert any("@CHANGELOG.md not followed" in note for note in summary.notes)
    assert "migration guide" not in _bodies(ws)


def test_claude_md_still_imports_agents_md_and_what_it_names(ws: Workspace) -> None:
    # Claude Code follows @ in every file a CLAUDE.md imports, an AGENTS.md among them.
    write(ws.root / "CLAUDE.md", "See @AGENTS.md\n")
    write(ws.root / "AGENTS.md", "## Style\n\nFollow @docs/style.md for naming.\n")
    write(ws.root / "docs" / "style.md", "## Naming\n\nModules are snake_case.\n")
    for named in (ws.root / "CLAUDE.md", ws.root):  # the folder too (the review of session 33: it read AGENTS.md first)
        summary = ws.import_memories(named)
        assert summary.files == ["CLAUDE.md", "AGENTS.md", "docs/style.md"], named
        assert not any("not followed" in note for note in summary.notes), summary.notes
    assert "snake_case" in _bodies(ws)


def test_a_markdown_section_in_a_cursor_rule_is_not_taken_for_front_matter(ws: Workspace) -> None:
    # The review of session 33: "---" / "Rules:" / "- Never …" / "---" in a rule's body became metadata, its rules lost.
    body = "---\ndescription: git\nalwaysApply: true\n---\n# Git\n\nWork on a feature branch.\n\n---\nRules:\n"
    write(
        ws.root / ".cursor" / "rules" / "git.mdc",
        body + "- Never force-push to main.\n- Never commit .env files.\n---\n",
    )
    ws.import_memories(ws.root)
    assert "force-push" in _bodies(ws) and ".env" in _bodies(ws)


def test_rules_in_any_subfolder_but_a_hidden_one_are_read(ws: Workspace) -> None:
    for folder in ("build", "vendor", "target"):  # names a project tree's search skips, not the rules folder's
        write(
            ws.root / ".claude" / "rules" / folder / "r.md", f"# {folder}\n\nThe {folder} rules say: keep it small.\n"
        )
    write(ws.root / ".claude" / "rules" / ".drafts" / "r.md", "# draft\n\nNot yet a rule.\n")
    summary = ws.import_memories(ws.root)
    assert summary.files == [f".claude/rules/{folder}/r.md" for folder in ("build", "target", "vendor")]


def test_a_claude_folder_named_alone_gives_its_rules_too(ws: Workspace) -> None:
    write(ws.root / ".claude" / "CLAUDE.md", "## Testing\n\nRun pytest -x before every commit.\n")
    write(ws.root / ".claude" / "rules" / "style.md", "# Style\n\nPrefer dataclasses to dicts for records.\n")
    summary = ws.import_memories(ws.root / ".claude")
    assert summary.files == [".claude/CLAUDE.md", ".claude/rules/style.md"]
