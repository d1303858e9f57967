"""``memory-review context`` on the per-prompt path (issue #16 point 2): the same bytes as the full command.

Each case runs the console script's ``main`` (which takes the lean path) and the full CLI
(``python -m memory_review.cli``, which never does) as real processes on the same store, and compares
stdout and stderr byte for byte; with ``--session`` both record one ``context.built`` line, equal but for
its time, and ``replay --session`` rebuilds both exactly.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from project_kit import Project
from test_lean_hook import HEAVY, MEMORIES, _approve_all

from memory_review.lean import command

MAIN = "import sys\nfrom memory_review.main import main\nsys.argv[0] = 'memory-review'\nsys.exit(main())\n"


@pytest.fixture
def stocked(project: Project) -> Project:
    _approve_all(project, MEMORIES)
    return project


def _lean(project: Project, argv: list[str], code: str = MAIN) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        env=project.env,
        cwd=project.root,
        capture_output=True,
        timeout=60,
    )


def _full(project: Project, argv: list[str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "memory_review.cli", *argv],
        env=project.env,
        cwd=project.root,
        capture_output=True,
        timeout=60,
    )


CASES = [
    ["context"],
    ["context", "--json"],
    ["context", "--query", "how do the tests use the database?"],
    ["context", "--query=数据库 测试", "--json"],
    ["context", "--query", "nothing matches zzqqxx"],
    ["context", "--query", ""],
    ["context", "--budget", "3000"],
    ["context", "--budget", "3000", "--query", "deployment pipeline", "--json"],
    ["context", "--budget", "0"],
]


@pytest.mark.parametrize("argv", CASES)
def test_the_lean_command_prints_what_the_full_command_prints(
    stocked: Project, argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lean, full = _lean(stocked, argv), _full(stocked, argv)
    assert (lean.returncode, lean.stdout, lean.stderr) == (full.returncode, full.stdout, full.stderr)
    assert lean.returncode == 0
    # ... and it was the lean path that answered, not the full command it may hand over to
    for name in ("MEMORY_REVIEW_HOME", "HOME"):
        monkeypatch.setenv(name, stocked.env[name])
    monkeypatch.chdir(stocked.root)
    out, err = io.TextIOWrapper(io.BytesIO()), io.StringIO()
    assert command.run(argv, stdout=out, stderr=err) == 0
    out.flush()
    assert out.buffer.getvalue() == full.stdout and err.getvalue().encode() == full.stderr


def test_a_session_is_recorded_once_and_replays_exactly(stocked: Project) -> None:
    log = stocked.root / ".memory-review" / "events.jsonl"
    manifest = (stocked.root / ".memory-review" / "manifest.json").read_bytes()
    argv = ["--session", "sess-cli", "context", "--query", "database tests", "--json"]
    lines = log.read_bytes().count(b"\n")
    lean = _lean(stocked, argv)
    assert log.read_bytes().count(b"\n") == lines + 1  # one log append, nothing else
    assert (stocked.root / ".memory-review" / "manifest.json").read_bytes() == manifest
    full = _full(stocked, ["context", "--session", "sess-cli", "--query", "database tests", "--json"])
    assert lean.stdout == full.stdout and lean.stderr == full.stderr
    ws = stocked.workspace()
    fast, slow = ws.log(type="context.built")[-2:]
    assert fast.context | {"now": ""} == slow.context | {"now": ""}
    assert (fast.actor, fast.session) == (slow.actor, slow.session) == ("agent:sess-cli", "sess-cli")
    assert [r.matches for r in ws.replay_session("sess-cli")] == [True, True]
    assert json.loads(lean.stdout)["sha256"] == fast.context["sha256"]


def test_the_context_process_imports_almost_nothing(stocked: Project) -> None:
    code = (
        "import json, sys\nfrom memory_review.main import main\nrc = main()\nsys.stdout.flush()\n"
        "sys.stderr.write('\\n' + json.dumps(sorted(sys.modules)))\nsys.exit(rc)\n"
    )
    done = _lean(stocked, ["context", "--query", "database tests"], code)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stderr.decode().rsplit("\n", 1)[1])
    assert [m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(HEAVY)] == []
    assert "Never mock the database" in done.stdout.decode()


@pytest.mark.parametrize(
    "argv",
    [
        ["context", "--q", "database"],  # an abbreviation argparse accepts
        ["context", "-h"],
        ["context", "--query", "a", "--query", "b"],  # argparse keeps the last
        ["context", "--budget", "lots"],
        ["context", "--budget", "-5"],
        ["context", "--budget", str(2**63)],  # past what a recorded count holds
        ["context", "--query", "-x"],  # argparse: expected one argument
        ["context", "--query"],
        ["--json", "context"],  # not a global option
        ["--query", "x", "context"],
        ["context", "extra"],
        ["context", "--project", ""],
        ["list"],
        ["context", "context"],
    ],
)
def test_other_command_lines_are_left_to_the_full_command(argv: list[str]) -> None:
    assert command.parse(argv) is None


def test_it_steps_aside_when_the_index_cannot_be_believed(stocked: Project, tmp_path: Path) -> None:
    index = Path(stocked.env["MEMORY_REVIEW_HOME"]) / "index"
    for path in index.glob("*.jsonl"):
        path.unlink()
    lean, full = _lean(stocked, ["context", "--json"]), _full(stocked, ["context", "--json"])
    assert (lean.returncode, lean.stdout, lean.stderr) == (full.returncode, full.stdout, full.stderr)
    assert json.loads(lean.stdout)["included"]  # the full path answered, from the store itself


def test_the_lean_bound_on_a_budget_is_the_full_commands() -> None:
    from memory_review.injection.result import MAX_COUNT

    assert command.MAX_BUDGET == MAX_COUNT
    assert command.parse(["context", "--budget", str(MAX_COUNT)]) is not None


def test_a_budget_past_64_bits_is_a_one_line_refusal(stocked: Project) -> None:
    done = _full(stocked, ["--session", "s-big", "context", "--budget", str(2**64)])
    assert done.returncode == 1
    assert done.stderr.decode().splitlines() == [
        "memory-review: error: field 'budget_bytes': must be at most 9223372036854775807 (2^63 - 1)"
    ]
    assert stocked.workspace().log(type="context.built") == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here (a Linux device)")
@pytest.mark.parametrize("argv", [["context"], ["context", "--json"], ["log"], ["list", "--json"]])
def test_a_full_disk_under_stdout_is_one_line_and_status_1(stocked: Project, argv: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        for code in ([sys.executable, "-c", MAIN], [sys.executable, "-m", "memory_review.cli"]):
            done = subprocess.run(
                [*code, *argv], env=stocked.env, cwd=stocked.root, stdout=full, stderr=subprocess.PIPE, timeout=60
            )
            assert done.returncode == 1
            assert done.stderr.decode().splitlines()[-1] == (
                "memory-review: error: the output could not be written: No space left on device"
            )
            assert "Traceback" not in done.stderr.decode()


def test_an_unrecognized_argument_shows_its_controls() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "memory_review.cli", "list", "\x1b[2J\x1b]0;owned\x07"], capture_output=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.decode().splitlines()[-1] == (
        "memory-review: error: unrecognized arguments: \\x1b[2J\\x1b]0;owned\\x07"
    )
