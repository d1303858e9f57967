"""Hostile clones, paths: a repository's links, hard links, FIFOs and crafted names never make
memory-review read or write outside the clone, hang, or print a traceback (issue 14, ADR 0020).

Each attack is committed to a real attacker repository (or planted after the clone, where git
cannot carry it), cloned, and then every entry point a victim runs is run as a real subprocess:
each Claude Code hook event with a real payload, ``list``, ``context``, ``verify``,
``verify --repair``, and ``memory-review mcp`` driven by the MCP SDK's client calling each tool.
The victim's fake HOME is hashed before and after: nothing in it may change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import anyio
import pytest
from forkserver_kit import command_line
from paths_kit import (
    BAD_NAME,
    CALL_TIMEOUT,
    ESCAPE_NAME,
    SESSION,
    Attack,
    Victim,
    build_template,
    clone_and_plant,
    commit_attack,
    fill_home,
    hook_payloads,
    one_line_error,
    tree_digest,
)

mcp = pytest.importorskip("mcp", reason="the optional 'mcp' extra is not installed (pip install '.[mcp]')")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

OUT_OF_SCOPE = (
    "A process of the same user racing between a folder check and an open: the checks are `lstat`, not a "
    "`dir_fd` walk, and such a process can edit the store directly anyway.",
    "A FIFO or link inside the project's `.git`: git does not check those out.",
    "Device nodes: a clone cannot create them.",
)

MEMORY_FILE = "memory/<the memory>.md"
CANDIDATE_FILE = "candidates/<the pending>.json"
SESSION_FILE = f"sessions/{SESSION}.json"
OFFSETS_FILE = f"hooks/sessions/{SESSION}.json"

_LINKED_FILES = (
    "events.jsonl",
    "manifest.json",
    MEMORY_FILE,
    CANDIDATE_FILE,
    SESSION_FILE,
    "MEMORY.md",
    ".lock",
    "hooks/errors.jsonl",
    OFFSETS_FILE,
)
_LINKED_FOLDERS = (".", "memory", "candidates", "sessions", "hooks", "hooks/sessions")
# What `verify` must name: the log and manifest are read by every check, the folders are checked.
_VERIFY_NAMES = {"events.jsonl", "manifest.json", MEMORY_FILE, CANDIDATE_FILE, *_LINKED_FOLDERS} - {
    "hooks",
    "hooks/sessions",
}
# Written in place (appended or locked): a hard link must be refused. The others are replaced by rename.
_WRITTEN_IN_PLACE = {"events.jsonl", ".lock", "hooks/errors.jsonl"}

# Each link aims where following it would do the most harm: an empty file an append would fill, the
# shell's start-up file an error line would reach, a token file without a final newline (a torn tail to cut).
_TARGETS = {"events.jsonl": ".hushlogin", "hooks/errors.jsonl": ".bashrc"}

ATTACKS = [
    *(
        Attack(f"symlink:{p}", p, "symlink", target=_TARGETS.get(p, "token"), flagged=p in _VERIFY_NAMES)
        for p in _LINKED_FILES
    ),
    *(Attack(f"dirlink:{p}", p, "symlink", target="outside", flagged=p in _VERIFY_NAMES) for p in _LINKED_FOLDERS),
    *(
        Attack(
            f"hardlink:{p}",
            p,
            "hardlink",
            target=_TARGETS.get(p, "token"),
            flagged=p in _WRITTEN_IN_PLACE & _VERIFY_NAMES,
        )
        for p in _LINKED_FILES
    ),
    *(Attack(f"fifo:{p}", p, "fifo", flagged=p in _VERIFY_NAMES) for p in _LINKED_FILES),
    Attack("name:shell", "candidates", "name", target=BAD_NAME),
    Attack("name:terminal-escape", "candidates", "name", target=ESCAPE_NAME),
    Attack("candidate:oversize", "candidates", "oversize"),
    Attack("candidate:malformed", "candidates", "malformed"),
]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_template(tmp_path_factory.mktemp("attacker-template"))


@pytest.fixture
def transcript() -> Path:
    default = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
    data = Path(os.environ.get("MEMORY_REVIEW_TEST_DATA", default)).resolve()
    path = data / "transcripts" / "claude-code" / "daaain-claude-code-log" / "session_b.jsonl"
    if not path.is_file():
        pytest.skip(f"real test data not found at {data} (set MEMORY_REVIEW_TEST_DATA)")
    return path


def _victim_of(attack: Attack, template: Path, tmp_path: Path) -> Victim:
    victim = Victim(home=tmp_path / "home", user_store=tmp_path / "victim-user", clone=tmp_path / "clone")
    fill_home(victim.home)
    commit_attack(template, tmp_path / "attacker", attack, victim.home)
    clone_and_plant(tmp_path / "attacker", victim.clone, attack, victim.home)
    return victim


async def _mcp_calls(victim: Victim) -> dict[str, object]:
    """Every tool of the MCP server once, through the SDK's stdio client; each result or error, by tool."""
    command, *args = command_line(["--project", str(victim.clone), "mcp"])  # forked past the start-up
    params = StdioServerParameters(
        command=command,
        args=args,
        env={k: v for k, v in victim.env.items() if k in ("HOME", "MEMORY_REVIEW_HOME", "PATH", "PYTHONPATH")},
        cwd=str(victim.clone),
    )
    calls = {
        "propose_memory": {
            "memory_id": "conv-hostile-probe",
            "type": "convention",
            "description": "A probe",
            "rationale": "testing",
            "body": "probe",
        },
        "get_context": {"query": "tabs"},
        "list_memories": {},
        "search_memories": {"query": "tabs"},
        "candidate_status": {"candidate_id": "cand_00000000000000000000000000"},
    }
    seen: dict[str, object] = {}
    with anyio.fail_after(CALL_TIMEOUT):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            for tool, arguments in calls.items():
                seen[tool] = await session.call_tool(tool, arguments)
    return seen


def _tool_text(result: object) -> str:
    return "".join(getattr(block, "text", "") for block in getattr(result, "content", []))


@pytest.mark.parametrize("attack", ATTACKS, ids=str)
def test_a_hostile_clone_changes_nothing_outside_it(
    attack: Attack, template: Path, tmp_path: Path, transcript: Path
) -> None:
    victim = _victim_of(attack, template, tmp_path)
    before = tree_digest(victim.home)
    data = transcript.parents[3]

    for event, payload in hook_payloads(data, victim, transcript).items():
        done = victim.hook(payload)
        assert done.returncode == 0, (event, done.stderr)
        assert b"Traceback" not in done.stderr, (event, done.stderr)
    errors = {}
    for args in (["list"], ["context"], ["verify"], ["verify", "--repair"]):
        done = victim.run(*args)
        errors[" ".join(args)] = one_line_error(done)
    for tool, result in anyio.run(_mcp_calls, victim).items():
        text = _tool_text(result)
        assert "Traceback" not in text, (tool, text)
        assert "\n" not in text.strip() or not getattr(result, "isError", False), (tool, text)

    assert tree_digest(victim.home) == before, "a file outside the clone changed"
    assert not any(path.name == "PWNED" for path in tmp_path.rglob("PWNED")), "a file name ran as a command"
    if attack.flagged:
        assert errors["verify"], f"verify passed a store with {attack}"
        assert (
            Path(attack.path).name.split("<")[0] in errors["verify"]
            or attack.path.startswith(("memory/<", "candidates/<"))
            or attack.path == "."
        ), errors["verify"]


@pytest.mark.parametrize(
    "attack",
    [a for a in ATTACKS if a.kind in ("name", "oversize", "malformed")]
    + [a for a in ATTACKS if a.path == CANDIDATE_FILE],
    ids=str,
)
def test_a_bad_candidate_file_never_hides_the_queue(attack: Attack, template: Path, tmp_path: Path) -> None:
    victim = _victim_of(attack, template, tmp_path)
    listed = victim.run("list", "--json")
    assert listed.returncode == 0, listed.stderr
    warnings = [line for line in listed.stderr.decode().splitlines() if line.startswith("warning: ")]
    assert warnings, "the bad file was skipped silently"
    assert "\x1b" not in listed.stderr.decode(), "a hostile file name was echoed raw"
    if attack.kind == "name":  # shown as a quoted, escaped literal, never raw
        assert repr(attack.target) in listed.stderr.decode(), listed.stderr
    if attack.kind != "symlink" and attack.kind != "hardlink" and attack.kind != "fifo":
        # The attacker's pending candidate is still there and still listed; the bad file is not.
        [first, *_] = [c["id"] for c in json.loads(listed.stdout)]
        # The other readers and writers of the queue keep working past the bad file.
        for args in (["show", first], ["discard", first]):
            done = victim.run(*args)
            assert done.returncode == 0, (args, done.stderr)
    verify = victim.run("verify")
    assert verify.returncode == 1 and "candidate" in verify.stdout.decode() + verify.stderr.decode()
