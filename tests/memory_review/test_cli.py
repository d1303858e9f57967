"""The command line as a user and an agent run it: real subprocesses, real files, a real git repo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from cli_kit import run, run_json

from memory_review.workspace import Workspace

PROPOSAL = {
    "op": "create",
    "scope": "project",
    "memory": {
        "id": "forbidden-mock-db",
        "type": "forbidden",
        "description": "Never mock the database in tests",
        "body": "Use the test container.",
    },
    "rationale": "The user corrected this twice.",
    "evidence": [{"quote": "no, don't mock the database", "session_id": "s1", "turn_id": "t4"}],
}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home"), "MEMORY_REVIEW_ACTOR": "alice"}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def test_project_root_is_the_git_toplevel(repo: Path, env: dict) -> None:
    assert run(["init"], env, repo / "src").returncode == 0
    assert (repo / ".memory-review" / "manifest.json").exists()
    assert not (repo / "src" / ".memory-review").exists()


def test_full_review_cycle(repo: Path, env: dict) -> None:
    created = run_json(["propose", "--file", "-"], env, repo, json.dumps(PROPOSAL))
    assert set(created) >= {"id", "flags"} and created["flags"] == []
    cid = created["id"]
    listed = run_json(["list"], env, repo)
    assert [c["id"] for c in listed] == [cid]
    assert {"id", "op", "scope", "status", "flags", "changes"} <= set(listed[0])
    shown = run(["show", cid], env, repo)
    assert "rationale" in shown.stdout and "no, don't mock the database" in shown.stdout
    assert '+description: "Never mock the database in tests"' in shown.stdout
    applied = run_json(["apply", cid], env, repo)
    assert applied[0]["type"] == "candidate.applied" and applied[0]["actor"] == "alice"
    memories = run_json(["memories"], env, repo)
    assert [(m["id"], m["scope"]) for m in memories] == [("forbidden-mock-db", "project")]
    log = run_json(["log"], env, repo)
    raw = (repo / ".memory-review" / "events.jsonl").read_bytes().splitlines()
    assert [json.dumps(e, sort_keys=True, separators=(",", ":")) for e in log] == [
        json.dumps(json.loads(line), sort_keys=True, separators=(",", ":")) for line in raw
    ]
    reverted = run_json(["revert", str(applied[0]["seq"])], env, repo)
    assert reverted["type"] == "memory.reverted"
    assert run_json(["memories"], env, repo) == []
    assert run_json(["replay", "--at", str(applied[0]["seq"])], env, repo)["forbidden-mock-db"]["body"]
    verify = run_json(["verify"], env, repo)
    assert verify["ok"] is True and verify["problems"] == []


def test_edit_from_file_then_apply(repo: Path, env: dict, tmp_path: Path) -> None:
    created = run_json(["propose", "--file", "-"], env, repo, json.dumps(PROPOSAL))
    cid = created["id"]
    edited = tmp_path / "edited.md"
    edited.write_text(
        '---\nid: "forbidden-mock-db"\ntype: "forbidden"\nscope: "project"\n'
        'description: "Never mock the DB"\ncreated_at: "2026-01-01T00:00:00Z"\n'
        'updated_at: "2026-01-01T00:00:00Z"\n---\nReal Postgres only.\n'
    )
    assert run(["edit", cid, "--from-file", str(edited)], env, repo).returncode == 0
    run_json(["apply", cid], env, repo)
    [memory] = run_json(["memories"], env, repo)
    assert memory["description"] == "Never mock the DB" and memory["body"] == "Real Postgres only."


def test_edit_with_editor(repo: Path, env: dict, tmp_path: Path) -> None:
    created = run_json(["propose", "--file", "-"], env, repo, json.dumps(PROPOSAL))
    script = tmp_path / "editor.py"
    script.write_text(
        "import sys,pathlib; p=pathlib.Path(sys.argv[1]); "
        "p.write_text(p.read_text().replace('Use the test container.', 'Use testcontainers.'))"
    )
    env = {**env, "EDITOR": f"{sys.executable} {script}"}
    assert run(["edit", created["id"]], env, repo).returncode == 0
    events = run_json(["log", "--type", "candidate.edited"], env, repo)
    assert len(events) == 1 and "Use testcontainers." in json.dumps(events[0]["record"])


def test_edit_reopens_the_editor_on_an_invalid_record_with_the_reason_on_top(
    repo: Path, env: dict, tmp_path: Path
) -> None:
    created = run_json(["propose", "--file", "-"], env, repo, json.dumps(PROPOSAL))
    script, seen = tmp_path / "editor.py", tmp_path / "seen"
    script.write_text(  # 1st open: break the type; 2nd: keep what it was shown, fix the type
        "import sys,pathlib; s=pathlib.Path(sys.argv[1]); p=pathlib.Path(sys.argv[2]); t=p.read_text()\n"
        "if not s.exists(): s.write_text(''); p.write_text(t.replace('type: \"forbidden\"', 'type: \"nonsense\"')"
        ".replace('Use the test container.', 'Use testcontainers.'))\n"
        "else: s.write_text(t); p.write_text(t.replace('type: \"nonsense\"', 'type: \"forbidden\"'))\n"
    )
    env = {**env, "EDITOR": f"{sys.executable} {script}", "VISUAL": ""}
    env["EDITOR"] += f" {seen}"  # the file comes last, as editors are called
    done = run(["edit", created["id"]], env, repo)
    assert done.returncode == 0, done.stderr
    shown = seen.read_text()
    assert shown.startswith("# memory-review: not saved:") and "type" in shown.splitlines()[0]
    assert "Use testcontainers." in shown  # the person's text came back, not the original
    [event] = run_json(["log", "--type", "candidate.edited"], env, repo)
    after = event["record"]["changes"][0]["after"]
    assert after["type"] == "forbidden" and after["body"] == "Use testcontainers."


def test_a_failing_editor_is_a_one_line_error(repo: Path, env: dict, tmp_path: Path) -> None:
    created = run_json(["propose", "--file", "-"], env, repo, json.dumps(PROPOSAL))
    for editor in (str(tmp_path / "no-such-editor"), "false", "'unbalanced"):
        done = run(["edit", created["id"]], {**env, "EDITOR": editor, "VISUAL": ""}, repo)
        assert done.returncode == 1 and "Traceback" not in done.stderr, editor
        assert "nothing changed" in done.stderr, editor
    assert run_json(["log", "--type", "candidate.edited"], env, repo) == []


def test_errors_exit_1_with_message_and_store_untouched(repo: Path, env: dict) -> None:
    run(["init"], env, repo)
    store = repo / ".memory-review"
    before = {p: p.read_bytes() for p in store.rglob("*") if p.is_file()}
    bad = dict(PROPOSAL, memory=dict(PROPOSAL["memory"], id="../../etc/passwd"))
    for args, stdin in (
        (["propose", "--file", "-"], json.dumps(bad)),
        (["propose", "--file", "-"], "{not json"),
        (["propose", "--file", "-"], json.dumps(dict(PROPOSAL, rationale=" "))),
        (["apply", "cand_01M8Q1T1341A6F5P0EWZXR0QJ9"], None),
        (["show", "../x"], None),
        (["revert", "99"], None),
        (["delete", "nothing-here"], None),
    ):
        done = run(args, env, repo, stdin)
        assert done.returncode == 1, (args, done.stderr)
        assert done.stderr.startswith("memory-review: error:") and "Traceback" not in done.stderr
    assert {p: p.read_bytes() for p in store.rglob("*") if p.is_file()} == before


def test_usage_errors_exit_2(repo: Path, env: dict) -> None:
    assert run(["apply"], env, repo).returncode == 2
    assert run(["frobnicate"], env, repo).returncode == 2
    done = run(["verify", "--apply"], env, repo)  # a combination argparse cannot refuse by itself
    assert done.returncode == 2 and "--apply goes with --repair" in done.stderr


def test_propose_array_all_or_nothing(repo: Path, env: dict) -> None:
    run(["init"], env, repo)
    second = dict(PROPOSAL, memory=dict(PROPOSAL["memory"], id="second"))
    results = run_json(["propose", "--file", "-"], env, repo, json.dumps([PROPOSAL, second]))
    assert len(results) == 2
    lines = "\n".join(
        json.dumps(p) for p in (dict(PROPOSAL, memory=dict(PROPOSAL["memory"], id="third")), {"op": "create"})
    )
    assert run(["propose", "--file", "-"], env, repo, lines).returncode == 1
    assert len(run_json(["list"], env, repo)) == 2


@pytest.mark.parametrize(
    ("layout", "is_array"),
    [
        (lambda ps: json.dumps(ps[0]), False),  # one object on one line
        (lambda ps: json.dumps(ps[0], indent=2), False),  # one object, pretty-printed: still one object
        (lambda ps: "\n  " + json.dumps(ps[0]) + "\n\n", False),
        (lambda ps: json.dumps(ps[:1]), True),  # an array of one is an array
        (lambda ps: json.dumps(ps[:1], indent=2), True),
        (lambda ps: "\n".join(json.dumps(p) for p in ps), True),  # JSON Lines of two
    ],
)
def test_propose_json_shape_follows_the_input_document_not_its_whitespace(
    repo: Path, env: dict, layout, is_array: bool
) -> None:
    proposals = [dict(PROPOSAL, memory=dict(PROPOSAL["memory"], id=f"shape-{n}")) for n in (1, 2)]
    result = run_json(["propose", "--file", "-"], env, repo, layout(proposals))
    assert isinstance(result, list) is is_array
    assert all(item["id"].startswith("cand_") for item in (result if is_array else [result]))


def test_verify_fails_naming_the_tampered_line(repo: Path, env: dict) -> None:
    created = run_json(["propose", "--file", "-"], env, repo, json.dumps(PROPOSAL))
    run_json(["apply", created["id"]], env, repo)
    log = repo / ".memory-review" / "events.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    lines[0] = lines[0].replace(b"twice", b"thrice")
    log.write_bytes(b"".join(lines))
    done = run(["verify", "--json"], env, repo)
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["ok"] is False and any("events.jsonl:" in p for p in report["problems"])


def test_repair_rebuilds_a_deleted_memory_folder(repo: Path, env: dict) -> None:
    import shutil

    created = run_json(["propose", "--file", "-"], env, repo, json.dumps(PROPOSAL))
    run_json(["apply", created["id"]], env, repo)
    expected = run_json(["memories"], env, repo)
    assert run(["verify"], env, repo).returncode == 0
    shutil.rmtree(repo / ".memory-review" / "memory")
    assert run(["verify"], env, repo).returncode == 1
    assert run(["verify", "--repair", "--apply"], env, repo).returncode == 0
    assert run_json(["memories"], env, repo) == expected


@pytest.mark.parametrize("line", [b"garbage\n", b'{"v":1}\n'])
def test_repair_names_a_line_that_is_no_event_in_one_line(repo: Path, env: dict, line: bytes) -> None:
    """Session 39's re-review: a complete line that decodes to no event ended ``verify --repair`` in a traceback."""
    created = run_json(["propose", "--file", "-"], env, repo, json.dumps(PROPOSAL))
    run_json(["apply", created["id"]], env, repo)
    log = repo / ".memory-review" / "events.jsonl"
    before = log.read_bytes() + line
    log.write_bytes(before)
    for args in (["verify", "--repair"], ["verify", "--repair", "--apply"]):
        done = run(args, env, repo)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "not a valid event" in done.stdout + done.stderr
    assert log.read_bytes() == before


def _worker(args: tuple[Path, dict, int]) -> list[str]:
    repo, env, n = args
    applied = []
    for i in range(3):
        p = dict(PROPOSAL, memory=dict(PROPOSAL["memory"], id=f"w{n}-m{i}", body=f"worker {n} item {i}"))
        created = run_json(["propose", "--file", "-"], env, repo, json.dumps(p))
        done = run(["apply", created["id"], "--json"], env, repo)
        assert done.returncode == 0, done.stderr
        applied.append(created["id"])
    return applied


def test_four_processes_propose_and_apply_concurrently(repo: Path, env: dict) -> None:
    run(["init"], env, repo)
    with ThreadPoolExecutor(4) as pool:  # each thread drives real CLI processes
        applied = [cid for batch in pool.map(_worker, [(repo, env, n) for n in range(4)]) for cid in batch]
    ws = Workspace(repo, Path(env["MEMORY_REVIEW_HOME"]))
    events = ws.log()
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert {e.candidate for e in events if e.type == "candidate.applied"} == set(applied)
    assert {m.id for m in ws.memories()} == {f"w{n}-m{i}" for n in range(4) for i in range(3)}
    assert set(ws.replay()) == set(ws.project.current_manifest().memories)
    assert all(r.ok for r in ws.verify())


def test_eight_processes_apply_the_same_candidate_exactly_one_wins(repo: Path, env: dict) -> None:
    created = run_json(["propose", "--file", "-"], env, repo, json.dumps(PROPOSAL))
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "memory_review.cli", "apply", created["id"]],
            env=env,
            cwd=repo,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(8)
    ]
    results = [(p.wait(timeout=120), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    assert sorted(code for code, _ in results) == [0] + [1] * 7
    assert all("no longer pending" in err or "resolved" in err for code, err in results if code == 1)
    ws = Workspace(repo, Path(env["MEMORY_REVIEW_HOME"]))
    assert len([e for e in ws.log() if e.type == "candidate.applied"]) == 1


def test_context_prints_the_bare_block_and_says_on_stderr_what_it_dropped(repo: Path, env: dict) -> None:
    assert run(["init"], env, repo).returncode == 0
    second = {
        **PROPOSAL,
        "memory": {**PROPOSAL["memory"], "id": "fact-db", "type": "fact", "description": "The database is Postgres 16"},
    }
    [a, b] = run_json(["propose", "--file", "-"], env, repo, stdin=json.dumps([PROPOSAL, second]))
    assert run(["apply", a["id"], b["id"]], env, repo).returncode == 0
    whole = run_json(["context"], env, repo)
    # Room for the forbidden note only: the fact, lower in priority, is dropped for the budget.
    budget = whole["text"].index("\n[memory:project:fact]") + len("\n</memory-review-context>\n")
    cut = run_json(["context", "--budget", str(budget)], env, repo)
    assert [m["id"] for m in cut["included"]] == ["forbidden-mock-db"]
    done = run(["context", "--budget", str(budget)], env, repo)
    assert done.returncode == 0 and done.stdout == cut["text"]  # the block, byte for byte, and only it
    assert done.stderr == "memory-review: 1 injected, 1 dropped: 1 over budget (raise --budget)\n"
    everything = run(["context"], env, repo)
    assert everything.stdout == whole["text"] and everything.stderr == ""
    none = run(["context", "--budget", "10"], env, repo)
    assert none.stdout == "" and "0 injected, 2 dropped: 2 over budget" in none.stderr


def test_revert_many_and_restore_from_the_command_line(repo: Path, env: dict) -> None:
    docs = [{**PROPOSAL, "memory": {**PROPOSAL["memory"], "id": f"note-{i}"}} for i in range(3)]
    ids = [r["id"] for r in run_json(["propose", "--file", "-"], env, repo, json.dumps(docs))]
    applied = run_json(["apply", *ids], env, repo)
    reverted = run_json(["revert", *(str(e["seq"]) for e in applied[1:])], env, repo)
    assert [e["reverts"] for e in reverted] == [applied[2]["seq"], applied[1]["seq"]]
    assert [m["id"] for m in run_json(["memories"], env, repo)] == ["note-0"]
    restored = run_json(["restore", ids[0]], env, repo)
    assert [e["type"] for e in restored] == ["memory.reverted", "candidate.restored"]
    assert [c["id"] for c in run_json(["list"], env, repo)] == [ids[0]]
    again = run(["restore", ids[0]], env, repo)
    assert again.returncode == 1 and "pending" in again.stderr and "Traceback" not in again.stderr
    assert run_json(["verify"], env, repo)["ok"] is True


def test_demo_says_how_to_open_its_workspace_again(tmp_path: Path, env: dict) -> None:
    done = run(["demo", "--no-tui", "--dir", str(tmp_path / "my demo")], env, tmp_path)
    assert done.returncode == 0, done.stderr
    [command] = [line.removeprefix("open it: ") for line in done.stdout.splitlines() if line.startswith("open it: ")]
    assert command.endswith(" review")
    listed = subprocess.run(
        command.removesuffix(" review") + " list --json",
        shell=True,
        capture_output=True,
        text=True,
        env={**env, "PATH": f"{Path(sys.executable).parent}:{env['PATH']}"},
    )
    assert listed.returncode == 0, listed.stderr
    demo = Workspace((tmp_path / "my demo" / "project").resolve(), (tmp_path / "my demo" / "user-home").resolve())
    expected = [s.candidate.id for s in demo.list_candidates()]
    assert expected and [c["id"] for c in json.loads(listed.stdout)] == expected  # the demo's stores, both
