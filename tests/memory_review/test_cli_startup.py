"""``memory-review --help`` (and a command's ``--help``) builds the parser without importing the commands
(issue #16): the library behind them is imported by the command that runs. Every command is declared in a
``cli_*`` module that ``--help`` imports (ADR 0043), so this holds for every command's help at once."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = (
    "pydantic",
    "yaml",
    "git",
    "textual",
    "rich",
    "filelock",
    "memory_review.events",
    "memory_review.workspace",
    "memory_review.cli_render",
    "memory_review.models",
    "memory_review.proposal",
    "memory_review.record_io",
    "memory_review.integrations",
    "memory_review.extract",
    "memory_review.importers",
    "memory_review.doctor",
    "memory_review.demo",
    "memory_review.tui",
)


def _help(argvs: list[list[str]]) -> dict:
    """Each command line's help, and every module loaded after printing them all, from one fresh process."""
    code = (
        "import contextlib, io, json, sys\n"
        "from memory_review.main import main\n"
        "helps = []\n"
        f"for argv in {argvs!r}:\n"
        "    sys.argv = ['memory-review', *argv]\n"
        "    out = io.StringIO()\n"
        "    try:\n        with contextlib.redirect_stdout(out):\n            main()\n"
        "    except SystemExit:\n        pass\n"
        "    helps.append(out.getvalue())\n"
        "print(json.dumps({'help': helps, 'modules': sorted(sys.modules)}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, timeout=60)
    return json.loads(done.stdout)


def _heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY)]


@pytest.mark.parametrize("argv", [["--help"], ["apply", "--help"], ["context", "--help"]])
def test_help_imports_none_of_the_commands(argv: list[str]) -> None:
    report = _help([argv])
    assert "usage: memory-review" in report["help"][0]
    assert _heavy(report["modules"]) == []


def test_every_commands_help_imports_none_of_the_commands() -> None:
    from memory_review.cli import commands

    report = _help([[declared.name, "--help"] for declared in commands()])
    for declared, text in zip(commands(), report["help"], strict=True):
        assert f"usage: memory-review {declared.name}" in text and "example:" in text, declared.name
    assert _heavy(report["modules"]) == []
