"""What ships: the built wheel holds the product packages and none of the test machinery (ADR 0025)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = {"memory_review"}
"""The one top-level name the wheel installs (events/ and tui/ go in under it, docs/adr/0031)."""
SOURCE_FOLDERS = ("memory_review", "events", "tui")


def _source_copy(dest: Path) -> Path:
    """The files git would put in a clone (tracked, plus new ones not ignored), copied to ``dest``."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel pip builds from a copy of the source tree (so nothing but the listed files goes in)."""
    if shutil.which("git") is None:
        pytest.skip("git is needed to list the source files")
    base = tmp_path_factory.mktemp("wheel")
    source = _source_copy(base / "src")
    argv = [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(base / "out")]
    built = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    assert built.returncode == 0, built.stderr[-2000:]
    shutil.rmtree(source)  # the install test below must not find the source anywhere
    [found] = (base / "out").glob("memory_review-*.whl")
    return found


@pytest.fixture(scope="module")
def wheel_names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_the_wheel_holds_no_reliability_harness_or_tests(wheel_names: list[str]) -> None:
    tops = {name.split("/")[0] for name in wheel_names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == SHIPPED
    assert not [n for n in wheel_names if "reliability" in n or "sitecustomize" in n or "faults_plan" in n]


def test_the_wheel_still_holds_the_product(wheel_names: list[str]) -> None:
    for needed in (
        "memory_review/cli.py",
        "memory_review/events/faults.py",
        "memory_review/events/log.py",
        "memory_review/tui/__init__.py",
        "memory_review/tui/app.tcss",
        "memory_review/data/demo_transcript.jsonl",
    ):
        assert needed in wheel_names


def test_no_shipped_module_reads_a_fault_plan_or_imports_the_harness() -> None:
    for package in SOURCE_FOLDERS:
        for path in (ROOT / package).rglob("*.py"):
            source = path.read_text(encoding="utf-8")
            assert "MEMORY_REVIEW_FAULT" not in source, path
            assert "from tools" not in source and "import tools" not in source, path


# --- installed from the wheel, as a user would (README: Install it as a tool) -------------------------------

NOTE = {
    "op": "create",
    "scope": "project",
    "rationale": "said so",
    "memory": {
        "id": "db-tests",
        "type": "forbidden",
        "description": "Never mock the database in tests",
        "body": "Integration tests run against the Postgres test container.",
    },
}


def _user_env(home: Path) -> dict[str, str]:
    keep = (
        "PATH",
        "LANG",
        "LC_ALL",
        "TMPDIR",
        "PIP_INDEX_URL",
        "PIP_EXTRA_INDEX_URL",
        "PIP_FIND_LINKS",
        "PIP_CONFIG_FILE",
        "PIP_CACHE_DIR",
        "XDG_CACHE_HOME",
        "SSL_CERT_FILE",
        "REQUESTS_CA_BUNDLE",
    )
    env = {k: v for k, v in os.environ.items() if k in keep}
    return {
        **env,
        "HOME": str(home),
        "MEMORY_REVIEW_HOME": str(home / "memory-review"),
        "MEMORY_REVIEW_ACTOR": "alice",
        "GIT_CONFIG_NOSYSTEM": "1",
        "TMPDIR": str(home),  # `demo` keeps its throwaway workspace for the person to open again: not in /tmp
    }


def test_the_wheel_installs_and_runs_outside_the_source_tree(wheel: Path, tmp_path: Path) -> None:
    venv, home, project = tmp_path / "venv", tmp_path / "home", tmp_path / "project"
    home.mkdir()
    env = _user_env(home)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    installed = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", f"{wheel}[mcp]"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    tool = str(venv / "bin" / "memory-review")

    def run(*args: str, cwd: Path = tmp_path, stdin: str | None = None) -> str:
        done = subprocess.run(
            [tool, *args], env=env, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=120, check=False
        )
        assert done.returncode == 0, (args, done.stderr[-2000:])
        return done.stdout

    where = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import memory_review.events, memory_review.tui; "
            "print(memory_review.events.__file__, memory_review.tui.__file__)",
        ],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert all(str(venv) in path for path in where.split()), where
    _install_strangers(venv, env)  # the unrelated `events` and `tui` packages, installed beside us
    assert run("--version") == f"memory-review {version('memory-review')}\n"
    assert "demo workspace" in run("demo", "--no-tui")
    subprocess.run(["git", "init", "-q", str(project)], env=env, check=True, timeout=60)
    run("init", cwd=project)
    made = json.loads(run("propose", "--file", "-", "--json", cwd=project, stdin=json.dumps(NOTE)))
    run("apply", made["id"], cwd=project)
    assert "Never mock the database in tests" in run("context", cwd=project)
    assert json.loads(run("doctor", "--json", cwd=project))["version"] == version("memory-review")
    assert {"propose_memory", "get_context", "candidate_status"} <= _mcp_tools(tool, project, env)


STRANGERS = ("events", "tui")


def _install_strangers(venv: Path, env: dict[str, str]) -> None:
    """Top-level packages named ``events`` and ``tui``, as unrelated published packages install them; ours
    must neither shadow them nor be shadowed by them (docs/adr/0031)."""
    site = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.strip()
    for name in STRANGERS:
        (Path(site) / name).mkdir()
        (Path(site) / name / "__init__.py").write_text(f"STRANGER = {name!r}\n", encoding="utf-8")
    probe = "import events, tui; print(events.STRANGER, tui.STRANGER)"
    seen = subprocess.run(
        [str(venv / "bin" / "python"), "-c", probe],
        env=env,
        cwd=venv,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    assert seen == list(STRANGERS)


def _mcp_tools(tool: str, project: Path, env: dict[str, str]) -> set[str]:
    """The tools a real MCP client lists from the installed ``memory-review mcp``."""
    anyio = pytest.importorskip("anyio")
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def listed() -> set[str]:
        params = StdioServerParameters(command=tool, args=["--project", str(project), "mcp"], env=env, cwd=str(project))
        with anyio.fail_after(120):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                return {t.name for t in (await session.list_tools()).tools}

    return anyio.run(listed)


def test_the_package_list_names_every_package_folder_under_our_one_name() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = {folder: name for name, folder in config["package-dir"].items()}
    found = set()
    for folder, name in folders.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((name, *parts)))
    assert sorted(config["packages"]) == sorted(found)
    assert all(name.split(".")[0] == "memory_review" for name in found)
