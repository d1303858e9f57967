"""``memory-review --help`` (and a command's ``--help``) builds the parser without importing the commands
(issue #16): the library behind them is imported by the command that runs."""

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
)


@pytest.mark.parametrize("argv", [["--help"], ["apply", "--help"], ["context", "--help"]])
def test_help_imports_none_of_the_commands(argv: list[str]) -> None:
    code = (
        "import contextlib, io, json, sys\n"
        f"sys.argv = ['memory-review', *{argv!r}]\n"
        "from memory_review.main import main\n"
        "out = io.StringIO()\n"
        "try:\n    with contextlib.redirect_stdout(out):\n        main()\nexcept SystemExit:\n    pass\n"
        "print(json.dumps({'help': out.getvalue(), 'modules': sorted(sys.modules)}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, timeout=60)
    report = json.loads(done.stdout)
    assert "usage: memory-review" in report["help"]
    assert [m for m in report["modules"] if m.split(".")[0] in HEAVY or m.startswith(HEAVY)] == []
