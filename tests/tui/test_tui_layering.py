"""The UI changes stores only through the library's commit path (``Workspace`` methods).

Statically: no module of ``tui/`` opens, writes, renames or removes a file, and
only ``tui/actions.py`` calls a ``Workspace`` method that changes a store. At
run time: after a session of decisions made with the keys, ``verify`` finds both
stores whole (manifest, files, hash chain) and every change has its event.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from tui_helpers import ROOT, app_for, loaded, settle, wait_until

from memory_review.workspace import Workspace

TUI = sorted((ROOT / "tui").rglob("*.py"))
WRITERS = {
    "apply",
    "discard",
    "edit",
    "revert",
    "revert_many",
    "restore",
    "delete",
    "propose",
    "promote",
    "write_session_memory",
    "init",
    "verify",
    "context",
}
FILE_METHODS = {
    "write_text",
    "write_bytes",
    "unlink",
    "rename",
    "rmdir",
    "mkdir",
    "touch",
    "symlink_to",
    "chmod",
    "hardlink_to",
    "open",
}
OS_READS = {"stat", "listdir", "environ", "pathsep", "sep", "fspath"}
FORBIDDEN_IMPORTS = {
    "shutil",
    "tempfile",
    "filelock",
    "memory_review.events.durable",
    "memory_review.store",
    "memory_review.rules",
    "memory_review.locking",
    "memory_review.manifest",
}


def _calls(tree: ast.AST) -> list[ast.Call]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)]


def _imports(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", TUI, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_tui_module_touches_files_itself(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert not _imports(tree) & FORBIDDEN_IMPORTS
    for call in _calls(tree):
        func = call.func
        assert not (isinstance(func, ast.Name) and func.id == "open"), f"{path.name}:{call.lineno} open()"
        if isinstance(func, ast.Attribute):
            assert func.attr not in FILE_METHODS, f"{path.name}:{call.lineno} .{func.attr}()"
            if isinstance(func.value, ast.Name) and func.value.id == "os":
                assert func.attr in OS_READS, f"{path.name}:{call.lineno} os.{func.attr}()"


@pytest.mark.parametrize(
    "path", [p for p in TUI if p.name != "actions.py"], ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_only_actions_calls_the_workspace_writers(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for call in _calls(tree):
        if isinstance(call.func, ast.Attribute) and call.func.attr in WRITERS:
            if call.func.attr == "context" and not call.args and not call.keywords:
                continue  # no session: context only reads (a session's context is recorded)
            receiver = ast.unparse(call.func.value)
            assert receiver not in {"ws", "self.ws", "self.workspace", "workspace"}, (
                f"{path.name}:{call.lineno} calls {receiver}.{call.func.attr}(); decisions go through tui.actions"
            )


def test_actions_change_stores_only_through_workspace_methods() -> None:
    tree = ast.parse((ROOT / "tui" / "actions.py").read_text(encoding="utf-8"))
    used = {
        call.func.attr
        for call in _calls(tree)
        if isinstance(call.func, ast.Attribute) and ast.unparse(call.func.value) == "ws"
    }
    assert used <= {"apply", "discard", "edit", "move", "revert", "restore", "delete", "propose", "show", "log"}


@pytest.mark.asyncio
async def test_stores_verify_after_a_session_of_decisions(scenario: Workspace) -> None:
    app = app_for(scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: loaded(app), what="the queue")
        screen = app.screen
        await pilot.press("home", "a")  # apply the first (unflagged) candidate
        await wait_until(pilot, lambda: len(screen.entries) == 5, what="the apply")
        await pilot.press("home", "d", "enter")
        await wait_until(pilot, lambda: len(screen.entries) == 4, what="the discard")
        await pilot.press("u")
        await wait_until(pilot, lambda: len(screen.entries) == 5, what="the undo")
        await pilot.press("2", "d", "enter")
        await wait_until(pilot, lambda: bool(scenario.log(type="memory.deleted")), what="the delete")
        await settle(pilot)
    reports = scenario.verify()
    assert all(report.ok for report in reports), [r.to_json() if hasattr(r, "to_json") else r for r in reports]
    types = [e.type for scope in ("project", "user") for e in scenario.log(scope=scope)]
    assert {"candidate.applied", "candidate.discarded", "memory.deleted"} <= set(types)
