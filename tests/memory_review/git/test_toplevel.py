"""Finding the project root without gitpython gives gitpython's answer, or defers to it.

``gitrepo.toplevel`` walks up looking at files and hands anything unusual to gitpython
(docs/adr/0013). Each case here compares the two on a real repository layout made by git.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from git_helpers import git

from memory_review import gitrepo
from memory_review.lean import gitwalk

ROOT = Path(__file__).resolve().parents[3]


def _repo(path: Path, *, commit: bool = False) -> Path:
    git("init", "-q", "-b", "main", str(path), cwd=path.parent)
    if commit:
        (path / "README.md").write_text("# a project\n")
        git("add", "README.md", cwd=path)
        git("commit", "-q", "-m", "first", cwd=path)
    return path


def _same_as_gitpython(path: Path) -> Path | None:
    found = gitrepo.toplevel(path)
    assert found == gitrepo._toplevel_by_gitpython(path)
    return found


def test_plain_repository_is_decided_by_the_walk(tmp_path: Path) -> None:
    root = _repo(tmp_path / "project")
    deep = root / "src" / "pkg"
    deep.mkdir(parents=True)
    for where in (root, root / "src", deep):
        assert gitwalk._walk_up(where) == gitwalk._Found(root)
        assert _same_as_gitpython(where) == root


def test_nested_repository_wins_over_the_outer_one(tmp_path: Path) -> None:
    outer = _repo(tmp_path / "outer")
    (outer / "vendor").mkdir()
    inner = _repo(outer / "vendor" / "inner")
    assert _same_as_gitpython(inner) == inner
    assert _same_as_gitpython(outer / "vendor") == outer


def test_outside_any_repository(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    if gitrepo._toplevel_by_gitpython(plain) is None:  # tmp_path itself could sit inside a repository
        assert gitwalk._walk_up(plain) == gitwalk._Found(None)
    _same_as_gitpython(plain)


def test_linked_worktree_is_left_to_gitpython(tmp_path: Path) -> None:
    main = _repo(tmp_path / "main", commit=True)
    linked = tmp_path / "linked"
    git("worktree", "add", "-q", str(linked), "-b", "side", cwd=main)
    assert gitrepo._walk_up(linked) is None  # .git is a file
    assert _same_as_gitpython(linked) == linked


def test_git_file_of_a_submodule_is_left_to_gitpython(tmp_path: Path) -> None:
    real = _repo(tmp_path / "real")
    moved = tmp_path / "work"
    moved.mkdir()
    (moved / ".git").write_text(f"gitdir: {real / '.git'}\n")
    assert gitrepo._walk_up(moved) is None
    _same_as_gitpython(moved)


@pytest.mark.parametrize("setting", [("core.bare", "true"), ("core.worktree", "/elsewhere")])
def test_config_that_can_move_the_work_tree_is_left_to_gitpython(tmp_path: Path, setting) -> None:
    root = _repo(tmp_path / "project")
    git("config", *setting, cwd=root)
    assert gitrepo._walk_up(root) is None
    _same_as_gitpython(root)


def test_config_include_is_left_to_gitpython(tmp_path: Path) -> None:
    root = _repo(tmp_path / "project")
    extra = tmp_path / "extra.cfg"
    extra.write_text("[core]\n\tbare = true\n")
    git("config", "include.path", str(extra), cwd=root)
    assert gitrepo._walk_up(root) is None
    _same_as_gitpython(root)


def test_bare_repository_and_inside_dot_git_are_left_to_gitpython(tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git("init", "-q", "--bare", str(bare), cwd=tmp_path)
    root = _repo(tmp_path / "project")
    for where in (bare, root / ".git", root / ".git" / "refs"):
        assert gitrepo._walk_up(where) is None
        _same_as_gitpython(where)


def test_dot_git_that_is_not_a_repository(tmp_path: Path) -> None:
    fake = tmp_path / "fake"
    (fake / ".git").mkdir(parents=True)
    assert gitrepo._walk_up(fake) is None
    _same_as_gitpython(fake)


def test_head_naming_no_ref_is_left_to_gitpython(tmp_path: Path) -> None:
    root = _repo(tmp_path / "project")
    (root / ".git" / "HEAD").write_text("garbage\n")
    assert gitrepo._walk_up(root) is None
    _same_as_gitpython(root)


@pytest.mark.parametrize("variable", ["GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY"])
def test_git_environment_is_left_to_gitpython(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str) -> None:
    root = _repo(tmp_path / "project")
    monkeypatch.setenv(variable, str(root / ".git"))
    assert gitrepo._walk_up(root) is None


def test_missing_path_is_left_to_gitpython(tmp_path: Path) -> None:
    assert gitrepo._walk_up(tmp_path / "nowhere") is None
    assert gitrepo.toplevel(tmp_path / "nowhere") is None


def test_finding_the_root_does_not_import_gitpython(tmp_path: Path) -> None:
    root = _repo(tmp_path / "project")
    code = (
        "import json, sys; from pathlib import Path; from memory_review.paths import project_root; "
        f"top = project_root(cwd=Path({str(root / '.')!r})); "
        "print(json.dumps([str(top), 'git' in sys.modules]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert json.loads(done.stdout) == [str(root), False]
