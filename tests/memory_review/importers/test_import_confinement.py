"""``@path`` imports and file reading stay inside the import root, within caps, and never loop."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from import_helpers import write

from memory_review.errors import UnsafePathError, ValidationError
from memory_review.importers import MAX_FILE_BYTES, MAX_IMPORT_DEPTH, imports
from memory_review.workspace import Workspace

OUTSIDE = "OUTSIDE-THE-PROJECT: never read this"


def _logged(ws: Workspace) -> bytes:
    """Everything both stores logged so far (a store that logged nothing has no log file yet)."""
    logs = (ws.project.log_path, ws.user.log_path)
    return b"".join(path.read_bytes() for path in logs if path.exists())


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A file next to the project, not in it, that no import may read."""
    return write(tmp_path / "outside.md", f"# Secret\n\n{OUTSIDE}\n")


def test_imports_are_followed_relative_to_the_importing_file(ws: Workspace) -> None:
    write(
        ws.root / "CLAUDE.md",
        "# Rules\n\nSee @docs/testing.md for tests.\n\n## Style\n\nUse ruff.\n",
    )
    write(ws.root / "docs/testing.md", "## Testing\n\nNever mock the database. More in @db.md\n")
    write(ws.root / "docs/db.md", "## Database\n\nMigrations run with alembic.\n")
    summary = ws.import_memories(ws.root / "CLAUDE.md")
    assert summary.files == ["CLAUDE.md", "docs/testing.md", "docs/db.md"]
    assert summary.notes == []
    rationales = [s.candidate.rationale for s in ws.list_candidates()]
    assert any("docs/db.md" in r and "imported by docs/testing.md (@db.md)" in r for r in rationales)


@pytest.mark.parametrize("reference", ["../outside.md", "docs/../../outside.md"])
def test_a_dotdot_escape_is_refused_and_reported(ws: Workspace, outside: Path, reference: str) -> None:
    write(ws.root / "CLAUDE.md", f"## Rules\n\nAlso read @{reference} please.\n")
    summary = ws.import_memories(ws.root / "CLAUDE.md")
    assert summary.files == ["CLAUDE.md"]
    assert any("refused" in note and "outside" in note for note in summary.notes)
    assert OUTSIDE.encode() not in _logged(ws)


@pytest.mark.parametrize("reference", ["/etc/hostname", "~/.ssh/id_rsa", "C:/Windows/win.ini"])
def test_absolute_and_home_paths_are_refused(ws: Workspace, reference: str) -> None:
    write(ws.root / "CLAUDE.md", f"## Rules\n\nImport @{reference} too.\n")
    summary = ws.import_memories(ws.root / "CLAUDE.md")
    assert summary.files == ["CLAUDE.md"]
    assert [n for n in summary.notes if "refused" in n and "absolute or home" in n]


def test_a_symlink_pointing_outside_is_refused(ws: Workspace, outside: Path) -> None:
    (ws.root / "docs").mkdir()
    (ws.root / "docs" / "notes.md").symlink_to(outside)
    write(ws.root / "CLAUDE.md", "## Rules\n\nSee @docs/notes.md\n")
    summary = ws.import_memories(ws.root / "CLAUDE.md")
    assert summary.files == ["CLAUDE.md"]
    assert any("outside" in note for note in summary.notes)
    assert OUTSIDE.encode() not in _logged(ws)


def test_naming_a_symlink_that_leaves_the_project_is_an_error(ws: Workspace, outside: Path) -> None:
    (ws.root / "CLAUDE.md").symlink_to(outside)
    before = _logged(ws)
    with pytest.raises(UnsafePathError):
        ws.import_memories(ws.root / "CLAUDE.md")
    assert _logged(ws) == before


def test_a_cycle_is_reported_and_each_file_read_once(ws: Workspace) -> None:
    write(ws.root / "CLAUDE.md", "## Main\n\nMain rules. @a.md\n")
    write(ws.root / "a.md", "## A\n\nRule a. @b.md\n")
    write(ws.root / "b.md", "## B\n\nRule b. @a.md\n")
    summary = ws.import_memories(ws.root / "CLAUDE.md")
    assert summary.files == ["CLAUDE.md", "a.md", "b.md"]
    [cycle] = [n for n in summary.notes if "cycle" in n]
    assert "a.md -> b.md -> a.md" in cycle


def test_a_file_imported_twice_is_read_once_without_a_note(ws: Workspace) -> None:
    write(ws.root / "CLAUDE.md", "## Main\n\nSee @a.md and @b.md\n")
    write(ws.root / "a.md", "## A\n\nRule a. @shared.md\n")
    write(ws.root / "b.md", "## B\n\nRule b. @shared.md\n")
    write(ws.root / "shared.md", "## Shared\n\nShared rule.\n")
    summary = ws.import_memories(ws.root / "CLAUDE.md")
    assert summary.files == ["CLAUDE.md", "a.md", "shared.md", "b.md"]
    assert summary.notes == []


def test_imports_stop_after_the_depth_cap(ws: Workspace) -> None:
    names = [f"f{i}.md" for i in range(MAX_IMPORT_DEPTH + 3)]
    write(ws.root / "CLAUDE.md", f"## Start\n\nGo @{names[0]}\n")
    for i, name in enumerate(names):
        following = f" @{names[i + 1]}" if i + 1 < len(names) else ""
        write(ws.root / name, f"## Level {i}\n\nRule at level {i}.{following}\n")
    summary = ws.import_memories(ws.root / "CLAUDE.md")
    assert summary.files == ["CLAUDE.md", *names[:MAX_IMPORT_DEPTH]]
    assert any(f"more than {MAX_IMPORT_DEPTH} hops" in n for n in summary.notes)


def test_references_in_code_mentions_and_emails_are_not_imports() -> None:
    lines = [
        "Use `@secret.md` as written, and ``@also/not.md`` too.",
        "```",
        "@in/fence.md",
        "```",
        "Mail me@example.com or ping @alice; decorators like @pytest.mark.slow are prose here.",
        "Real: @docs/a.md, and (@b.md) is not; trailing dot @c.md.",
    ]
    assert list(imports(lines)) == ["pytest.mark.slow", "docs/a.md", "c.md"]


def test_code_spans_are_commonmarks_and_a_line_of_backticks_costs_one_pass() -> None:
    # a run of backticks closes only on a run of the same length; one of 100,000 backticks took minutes with a
    # back-referencing pattern (a cloned repository's CLAUDE.md is untrusted)
    lines = ["`` @in/span.md `` and ``` @x.md `` @open.md", "see " + "`" * 100_000 + " @after.md", "``@a.md`@b.md`` ok"]
    assert list(imports(lines)) == ["x.md", "open.md", "after.md"]  # ``` and `` close nothing: both are text


def test_caps_and_bad_files_become_notes(ws: Workspace) -> None:
    write(ws.root / "CLAUDE.md", "## Main\n\nSee @big.md @latin1.md @pipe.md @missing.md\n")
    write(ws.root / "big.md", "x" * (MAX_FILE_BYTES + 1))
    (ws.root / "latin1.md").write_bytes("## Café\n\ncaf\xe9".encode("latin-1"))
    os.mkfifo(ws.root / "pipe.md")
    summary = ws.import_memories(ws.root / "CLAUDE.md")
    assert summary.files == ["CLAUDE.md"]
    joined = "\n".join(summary.notes)
    assert f"more than {MAX_FILE_BYTES}" in joined and "not UTF-8" in joined
    assert "not a regular file" in joined and "@missing.md not found" in joined


def test_a_named_file_that_cannot_be_read_is_an_error(ws: Workspace) -> None:
    write(ws.root / "CLAUDE.md", "x" * (MAX_FILE_BYTES + 1))
    with pytest.raises(ValidationError, match="more than"):
        ws.import_memories(ws.root / "CLAUDE.md")


def test_missing_paths_unknown_formats_and_the_store_itself_are_errors(ws: Workspace) -> None:
    with pytest.raises(ValidationError, match="no such file"):
        ws.import_memories(ws.root / "nope.md")
    write(ws.root / "notes.txt", "hello")
    with pytest.raises(ValidationError, match="cannot tell") as caught:
        ws.import_memories(ws.root / "notes.txt")
    assert "--format" in caught.value.hint
    with pytest.raises(UnsafePathError):
        ws.import_memories(ws.project.root / "MEMORY.md")
    with pytest.raises(ValidationError, match="unknown import format"):
        ws.import_memories(ws.root / "notes.txt", format="word")


def test_crlf_and_bom_are_read_as_plain_lines(ws: Workspace) -> None:
    (ws.root / "AGENTS.md").write_bytes(b"\xef\xbb\xbf## Rules\r\n\r\nAlways run make check.\r\n")
    ws.import_memories(ws.root / "AGENTS.md")
    [state] = ws.list_candidates()
    assert state.candidate.changes[0].after.body == "Always run make check."
    assert state.candidate.evidence[0].quote == "## Rules\n\nAlways run make check."


def test_a_fifo_named_with_no_telling_name_is_refused_at_once(ws: Workspace) -> None:
    # The review of session 32: the format was sniffed with Path.read_text, which blocks on a FIFO forever (a cloned
    # repository can hold one); it goes through the importer's own non-blocking, capped read now.
    os.mkfifo(ws.root / "notes.md")
    done = subprocess.run(
        [sys.executable, "-m", "memory_review.cli", "--project", str(ws.root), "import", "notes.md"],
        cwd=ws.root,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "MEMORY_REVIEW_HOME": str(ws.root.parent / "home")},
    )
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.startswith("memory-review: error: notes.md: cannot tell which memory-file format")


@pytest.mark.parametrize("folder", [".claude", ".claude/rules", ".cursor/rules", "memory-bank"])
@pytest.mark.parametrize("dangling", [False, True], ids=["to-a-folder-outside", "dangling"])
def test_a_committed_folder_link_out_of_the_project_is_a_note_and_the_rest_is_imported(
    ws: Workspace, tmp_path: Path, folder: str, dangling: bool
) -> None:
    write(ws.root / "CLAUDE.md", "# P\n\n- Keep commits small and focused.\n")
    target = tmp_path / "elsewhere" / "rules"
    if not dangling:
        write(target / "secret.md", f"# Secret\n\n{OUTSIDE}\n")
        write(target / "secret.mdc", f"# Secret\n\n{OUTSIDE}\n")
    link = ws.root / folder
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target)
    summary = ws.import_memories(ws.root)  # `import .`: review of session 37 found it ended in a traceback
    assert summary.files == ["CLAUDE.md"]
    assert any("outside" in note for note in summary.notes), summary.notes
    assert any("Keep commits small" in s.candidate.diff for s in ws.list_candidates())
    assert OUTSIDE.encode() not in _logged(ws)


def test_an_import_name_too_long_for_the_system_is_a_note(ws: Workspace) -> None:
    write(ws.root / "CLAUDE.md", f"# R\n\n- Always run the linter before commit.\n\nSee @{'a' * 256}.md\n")
    summary = ws.import_memories(ws.root / "CLAUDE.md")
    assert summary.files == ["CLAUDE.md"]
    (note,) = [n for n in summary.notes if "cannot be read" in n]
    assert len(note) < 400
    assert any("linter" in s.candidate.diff for s in ws.list_candidates())


def test_a_rule_file_whose_name_is_no_utf8_is_passed_over(ws: Workspace) -> None:
    write(ws.root / ".cursor/rules/style.mdc", "---\ndescription: style\n---\n- Always use tabs.\n")
    (ws.root / ".cursor/rules").joinpath(os.fsdecode(b"bad-\xff.mdc")).write_text("- Never use spaces.\n")
    summary = ws.import_memories(ws.root)  # the last check of session 37: a pydantic traceback
    assert summary.files == [".cursor/rules/style.mdc"]
