"""The suite runs in any combination of folders: no test imports a ``conftest`` module by name.

Every test folder has its own ``conftest.py``; pytest loads each as a plugin, but ``from conftest import X``
resolves to whichever one was imported first under that name, so running two folders in one session
failed with collection errors. Shared helpers live in ``*_kit.py``/``*_helpers.py`` modules with unique names.
"""

from __future__ import annotations

import ast
import os
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEST_FILES = sorted((ROOT / "tests").rglob("*.py"))


def _imports_conftest(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.split(".")[-1] == "conftest"
            or isinstance(node, ast.Import)
            and any(a.name.split(".")[-1] == "conftest" for a in node.names)
        ):
            lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("path", TEST_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_test_imports_a_conftest_by_name(path: Path) -> None:
    assert _imports_conftest(path) == []


def test_helper_module_names_are_unique_across_test_folders() -> None:
    """A helper imported by bare name must be the only module of that name in the suite."""
    names: dict[str, list[str]] = {}
    for path in TEST_FILES:
        if path.name != "conftest.py" and not path.name.startswith("test_") and path.name != "__init__.py":
            names.setdefault(path.stem, []).append(path.relative_to(ROOT).as_posix())
    assert {name: paths for name, paths in names.items() if len(paths) > 1} == {}


def test_the_suite_never_uses_the_real_user_store() -> None:
    # tests/conftest.py gives every test process a user store of its own: a developer's real pending candidates must
    # not show up in a test that opens a Workspace in process
    own = Path(os.environ["MEMORY_REVIEW_HOME"]).parent
    assert own.name.startswith("memory-review-tests-") and own.parent == Path(tempfile.gettempdir())
