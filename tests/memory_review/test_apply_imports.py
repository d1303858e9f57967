"""What an ``apply`` process may load (issue #15, docs/adr/0037): only what a write needs.

The console script runs ``apply`` in a real git project, as users run it, and reports ``sys.modules``;
the history commit must still be made (through git's plumbing, without gitpython) and the memory
applied with every check of the commit path.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from memory_review.proposal import parse_proposal
from memory_review.workspace import Workspace

NOT_FOR_A_WRITE = (
    "git",  # gitpython and what it loads (email, configparser, ...): history is written by git plumbing
    "gitdb",
    "filelock",  # the store lock is flock on POSIX; filelock loads asyncio
    "asyncio",
    "textual",
    "rich",
    "memory_review.tui",
    "memory_review.integrations",
    "memory_review.extract",
    "memory_review.importers",
    "memory_review.sync",
    "memory_review.repair",
    "memory_review.forget",
    "memory_review.near_duplicates",
    "memory_review.pending_files",
    "memory_review.doctor",
    # docs/adr/0042: an apply renders memory files and never parses one, so PyYAML stays out
    # (memory_review.record_yaml is imported on the first parse); the console script stands in for
    # pydantic's plugin loader, whose import of importlib.metadata (with email, zipfile, csv, ...)
    # only served the scan it turns off; the read index writer takes the renderer, not the block builder.
    "yaml",
    "memory_review.record_yaml",
    "importlib.metadata",
    "email",
    "zipfile",
    "memory_review.injection.build",
    "memory_review.injection.selection",
    "memory_review.context",
    # docs/adr/0048: the unified diff is shown to a person (difflib, imported there); the history's git
    # date is read with fromisoformat (no _strptime)
    "difflib",
    "_strptime",
    # the fsync pool is made (concurrent.futures, which imports logging) only by a commit that fsyncs
    # several files at once
    "concurrent.futures",
    "logging",
)
HISTORY_GIT = ["for-each-ref", "ls-tree", "ls-tree", "hash-object", "mktree", "config", "commit-tree", "update-ref"]
"""The git processes of an apply's history commit that continues the one before (docs/adr/0048): the tip, its
log chunks, its ``memory/`` with the touched shard, the new blobs, every tree in one ``mktree --batch``, the
committer (none when the environment names both people), the commit, the ref."""
PROPOSAL = {
    "op": "create",
    "scope": "project",
    "memory": {"id": "pref-tabs", "type": "preference", "description": "Tabs", "body": "Indent with tabs."},
    "rationale": "the user said so",
    "evidence": [{"quote": "tabs please", "session_id": "s1", "turn_id": "t1"}],
}
REPORT = (
    "import json, sys\n"
    "sys.argv = ['memory-review', *sys.argv[1:]]\n"
    "from memory_review.main import main\n"
    "rc = main()\n"
    "loader = sys.modules.get('pydantic.plugin._loader')\n"
    "faults = sys.modules.get('memory_review.events.faults')\n"
    "sys.stderr.write(json.dumps({'rc': rc, 'modules': sorted(sys.modules),\n"
    "    'plugins_scanned': loader is not None and loader._plugins is not None,\n"
    "    'fault_plan_built': faults is not None and faults.FaultPlan.__pydantic_complete__}))\n"
)


def _history_tip(repo: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "for-each-ref", "--format=%(objectname) %(contents:subject)", "refs/memory-review/"],
        capture_output=True,
        check=True,
        timeout=60,
    )
    return done.stdout.decode()


def _git_commands(trace: Path) -> list[str]:
    """The git subcommand of each git process ``GIT_TRACE`` logged (each logs its command line once)."""
    lines = trace.read_text().splitlines() if trace.exists() else []
    return [line.split("built-in: git ", 1)[1].split()[0] for line in lines if "built-in: git " in line]


def test_apply_loads_only_what_a_write_needs(repo: Path, env: dict[str, str], tmp_path: Path) -> None:
    ws = Workspace(repo, Path(env["MEMORY_REVIEW_HOME"]))
    earlier = {**PROPOSAL, "memory": {**PROPOSAL["memory"], "id": "pref-first", "body": "First."}}
    first, state = ws.propose([parse_proposal(earlier), parse_proposal(PROPOSAL)])
    ws.apply([first.candidate.id], actor="alice")  # the first history commit (built whole); the next continues it
    before = _history_tip(repo)
    trace = tmp_path / "git-trace.log"
    done = subprocess.run(
        [sys.executable, "-c", REPORT, "--project", str(repo), "apply", state.candidate.id],
        env={**env, "GIT_TRACE": str(trace)},
        cwd=repo,
        capture_output=True,
        timeout=120,
    )
    report = json.loads(done.stderr.decode().splitlines()[-1])
    assert report["rc"] == 0, done.stderr.decode()
    loaded = report["modules"]
    assert [m for m in loaded if m in NOT_FOR_A_WRITE or m.startswith(tuple(f"{n}." for n in NOT_FOR_A_WRITE))] == []
    assert not report["plugins_scanned"]  # pydantic's entry-point scan for plugins is skipped
    assert report["fault_plan_built"] is False  # only the test harness makes a FaultPlan (docs/adr/0052)
    assert "pydantic" in loaded  # the commit still validates what it writes
    [memory] = [m for m in Workspace(repo, Path(env["MEMORY_REVIEW_HOME"])).memories() if m.id == "pref-tabs"]
    assert memory.body == "Indent with tabs."
    after = _history_tip(repo)
    assert after != before and "pref-tabs" in after  # the history commit was made, by git's plumbing
    named = all(env.get(f"GIT_{who}_{what}") for who in ("AUTHOR", "COMMITTER") for what in ("NAME", "EMAIL"))
    assert _git_commands(trace) == [c for c in HISTORY_GIT if not (named and c == "config")]


def test_the_plugin_loader_stand_in_hands_any_other_name_to_the_real_module() -> None:
    # pydantic's private loader may grow names in a release we accept: asking the stand-in for one it
    # does not define loads the real module for it instead of failing every command's import.
    code = (
        "import json, sys\n"
        "from memory_review.main import _no_plugin_loader\n"
        "_no_plugin_loader()\n"
        "from pydantic import BaseModel\n"
        "class M(BaseModel):\n"
        "    x: int\n"
        "M(x=1)\n"
        "quiet = 'importlib.metadata' not in sys.modules\n"
        "from pydantic.plugin._loader import get_plugins, entry_points\n"
        "print(json.dumps([quiet, list(get_plugins()), callable(entry_points)]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [True, [], True]


def test_verify_reads_the_tools_version_only_for_json(repo: Path, env: dict[str, str]) -> None:
    ws = Workspace(repo, Path(env["MEMORY_REVIEW_HOME"]))
    [state] = ws.propose([parse_proposal(PROPOSAL)])
    ws.apply([state.candidate.id], actor="alice")
    reports = {}
    for extra in ([], ["--json"]):
        done = subprocess.run(
            [sys.executable, "-c", REPORT, "--project", str(repo), "verify", *extra],
            env=env,
            cwd=repo,
            capture_output=True,
            timeout=120,
        )
        reports[bool(extra)] = (json.loads(done.stderr.decode().splitlines()[-1]), done.stdout.decode())
    (text, text_out), (as_json, json_out) = reports[False], reports[True]
    assert text["rc"] == as_json["rc"] == 0 and "ok" in text_out
    assert "importlib.metadata" not in text["modules"]  # package metadata: email, zipfile, ... for nothing shown
    assert json.loads(json_out)["version"] and "importlib.metadata" in as_json["modules"]
