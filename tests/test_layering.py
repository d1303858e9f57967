"""The layers hold: events imports nothing of ours; the core never loads Textual or rich."""

from __future__ import annotations

import ast
import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


INSTALLED_AS = {"events": "memory_review.events", "memory_review": "memory_review", "tui": "memory_review.tui"}
"""Each source folder and the package name it installs as (pyproject's package-dir, docs/adr/0031)."""


def _modules(package: str) -> list[str]:
    names = []
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT / package).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        names.append(".".join((INSTALLED_AS[package], *parts)))
    return names


UI = "m.split('.')[0] in ('textual', 'rich') or m.startswith('memory_review.tui')"


CORE = [m for m in _modules("events") + _modules("memory_review") if m != "memory_review.cli"]


# One interpreter imports the third-party libraries the core uses (none of them loads textual or rich: it
# checks), then forks a child per core module that imports that module alone, as a new interpreter would
# from there: the same check as a process per module, without paying each one's start-up and pydantic
# import (126 processes, ~28 s of CPU). A module that fails to import alone is reported as its error.
_FORKING_IMPORTER = f"""
import importlib, json, os, sys
for name in ("pydantic", "pydantic_core", "yaml", "orjson"):
    try:
        importlib.import_module(name)
    except ImportError:
        pass
def ui():
    return sorted(m for m in sys.modules if {UI})
assert ui() == [], ui()
report = {{}}
for module in json.loads(sys.argv[1]):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            importlib.import_module(module)
            found = {{"ui": ui()}}
        except BaseException as exc:
            found = {{"error": repr(exc)}}
        os.write(write, json.dumps(found).encode())
        os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 1 << 16):
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    report[module] = json.loads(data)
print(json.dumps(report))
"""


@pytest.fixture(scope="session")
def ui_loaded_by_core(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    """Per core module, the UI modules importing it alone loaded (or the error importing it raised).

    Made once per run: under pytest-xdist the workers share the run's temp folder, and the first to get
    there writes the report the others read."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    report = shared / "ui-loaded-by-core.json"
    with open(shared / "ui-loaded-by-core.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not report.exists():
            argv = [sys.executable, "-c", _FORKING_IMPORTER, json.dumps(CORE)]
            done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
            assert done.returncode == 0, done.stderr
            report.write_text(done.stdout)
    return json.loads(report.read_text())


@pytest.mark.parametrize("module", CORE)
def test_core_module_never_loads_textual_or_rich(module: str, ui_loaded_by_core: dict[str, dict[str, object]]) -> None:
    assert ui_loaded_by_core[module] == {"ui": []}


def test_cli_imports_the_ui_only_lazily() -> None:
    code = f"import json, sys, memory_review.cli; print(json.dumps(sorted(m for m in sys.modules if {UI})))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def _imported_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", sorted((ROOT / "events").rglob("*.py")), ids=lambda p: p.name)
def test_events_imports_nothing_of_ours(path: Path) -> None:
    ours = {name for name in _imported_names(path) if name.split(".")[0] == "memory_review"}
    assert {name for name in ours if not name.startswith("memory_review.events")} == set()


@pytest.mark.parametrize(
    "path",
    sorted(p for folder in INSTALLED_AS for p in (ROOT / folder).rglob("*.py"))
    + sorted(p for folder in ("tests", "tools", "benchmarks", "scripts") for p in (ROOT / folder).rglob("*.py")),
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_nothing_imports_events_or_tui_by_their_folder_names(path: Path) -> None:
    """Installed, they are ``memory_review.events`` and ``memory_review.tui``; the bare names belong to
    unrelated packages (docs/adr/0031), and importing them from a source tree would load a second copy."""
    assert {name for name in _imported_names(path) if name.split(".")[0] in ("events", "tui")} == set()


@pytest.mark.parametrize("path", sorted((ROOT / "tui").rglob("*.py")), ids=lambda p: p.name)
def test_tui_never_writes_store_files_itself(path: Path) -> None:
    """The UI changes stores only through the library: no durable-write primitives, no store internals."""
    roots = _imported_roots(path)
    source = path.read_text(encoding="utf-8")
    assert "events.durable" not in source and "filelock" not in roots
    assert "memory_review.store" not in source and "memory_review.rules" not in source


def test_only_one_module_imports_git_and_one_filelock() -> None:
    users: dict[str, list[str]] = {"git": [], "filelock": [], "yaml": []}
    for package in ("events", "memory_review", "tui"):
        for path in (ROOT / package).rglob("*.py"):
            for root in _imported_roots(path) & set(users):
                users[root].append(path.relative_to(ROOT).as_posix())
    assert users["git"] == ["memory_review/gitrepo.py"]
    assert users["filelock"] == ["memory_review/locking.py"]
    assert users["yaml"] == ["memory_review/record_yaml.py"]


# --- Workspace is the only door (issue #15 §8) ------------------------------------------------------------

CLIENTS = sorted(
    list((ROOT / "memory_review").glob("cli*.py"))
    + [ROOT / "memory_review" / "doctor.py"]
    + list((ROOT / "memory_review" / "integrations").rglob("*.py"))
    + list((ROOT / "tui").rglob("*.py"))
)
STORE_INTERNALS = {
    "memory_review.store",
    "memory_review.store_view",
    "memory_review.storage",
    "memory_review.manifest",
    "memory_review.sessions",
    "memory_review.deltas",
    "memory_review.history_log",
    "memory_review.trust",
}
WORKSPACE_NAMES = {"ws", "workspace"}
STORES_OF_A_WORKSPACE = {"store", "project", "user", "_stores", "trust_records", "history"}


def _workspace_of(node: ast.expr) -> bool:
    """Whether ``node`` names a Workspace by the names the code gives one (``ws``, ``self.ws``, ...)."""
    if isinstance(node, ast.Name):
        return node.id in WORKSPACE_NAMES
    return isinstance(node, ast.Attribute) and node.attr in WORKSPACE_NAMES


def _reach_through(path: Path, attributes: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.name}:{node.lineno}: .{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in attributes and _workspace_of(node.value)
    ]


@pytest.mark.parametrize("path", CLIENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_clients_reach_the_stores_only_through_workspace_methods(path: Path) -> None:
    """The CLI, the TUI, the hooks and the MCP server call Workspace methods; never a Store behind it."""
    assert _reach_through(path, STORES_OF_A_WORKSPACE) == []
    assert not {m for m in _imported_names(path) if m.rsplit(".", 1)[0] in STORE_INTERNALS or m in STORE_INTERNALS}


CORE_FILES = sorted(p for p in (ROOT / "memory_review").rglob("*.py") if p.name != "workspace.py")


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_library_names_a_workspace_store_only_by_scope(path: Path) -> None:
    """Inside the library a Workspace's stores are reached by ``ws.store(scope)``, the one accessor that
    checks the scope; never the ``project``/``user`` attributes it happens to keep them in."""
    assert _reach_through(path, {"project", "user"}) == []


def test_the_reach_through_check_sees_what_it_must(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(ws, self):\n    ws.project.root\n    self.ws.store('user')\n    ws.store_dir('x')\n    other.project\n"
    )
    assert _reach_through(sample, {"store", "project"}) == ["sample.py:2: .project", "sample.py:3: .store"]
