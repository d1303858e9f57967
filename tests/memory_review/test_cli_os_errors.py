"""A held lock, a read-only file system and a full disk: each command says so in one line and exits 1.

The file systems are real: ``unshare -m`` gives the command its own mount namespace, where the
store is bind-mounted read-only, or lives on a tiny tmpfs that is then filled. That needs root
(or user namespaces); the tests skip with the reason when the machine does not allow it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from cli_kit import run

CLI = [sys.executable, "-m", "memory_review.cli"]
PROPOSAL = {
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


@cache
def _mount_namespaces() -> str | None:
    """Why namespaced mounts are unavailable here (None when they work)."""
    if shutil.which("unshare") is None:
        return "no unshare(1) on this machine"
    probe = subprocess.run(
        [
            "unshare",
            "-m",
            "sh",
            "-c",
            "mount -t tmpfs -o size=64k none /mnt 2>&1 || mount -t tmpfs -o size=64k none /tmp 2>&1",
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    return None if probe.returncode == 0 else f"cannot mount in a private namespace: {probe.stdout.strip()[:120]}"


def _needs_mounts() -> None:
    reason = _mount_namespaces()
    if reason:
        pytest.skip(reason)


def _assert_one_line(done: subprocess.CompletedProcess, *needles: str) -> None:
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr, done.stderr
    assert lines and lines[0].startswith("memory-review: error: "), done.stderr
    assert all(line.startswith(("memory-review: ", "  ")) for line in lines), done.stderr
    assert any(needle.lower() in lines[0].lower() for needle in needles), done.stderr
    where = lines[0].removeprefix("memory-review: error: ").split(": ")
    assert len(where) == len(set(where)), f"a path named twice: {lines[0]}"


def _proposed(repo: Path, env: dict) -> str:
    done = run(["propose", "--file", "-", "--json"], env, repo, stdin=json.dumps(PROPOSAL))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    return (answer[0] if isinstance(answer, list) else answer)["id"]


def _read_only(repo: Path, env: dict, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``memory-review ARGS`` with the project store and the user store mounted read-only."""
    stores = [repo / ".memory-review", Path(env["MEMORY_REVIEW_HOME"])]
    mounts = " && ".join(f"mount --bind '{s}' '{s}' && mount -o remount,bind,ro '{s}'" for s in stores)
    return subprocess.run(
        ["unshare", "-m", "sh", "-c", f'{mounts} && exec "$@"', "sh", *CLI, *args],
        input=stdin,
        env=env,
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_read_only_store_gets_one_line_per_command_and_nothing_changes(repo: Path, env: dict) -> None:
    _needs_mounts()
    pending = _proposed(repo, env)
    log = (repo / ".memory-review" / "events.jsonl").read_bytes()
    commands = [
        ["apply", pending],
        ["discard", pending],
        ["propose", "--file", "-"],
        ["context", "--session", "s-1"],
        ["verify", "--repair"],
    ]
    another = json.dumps({**PROPOSAL, "memory": {**PROPOSAL["memory"], "id": "other"}})
    for args in commands:
        done = _read_only(repo, env, *args, stdin=another if args[0] == "propose" else None)
        _assert_one_line(done, "read-only file system")
    assert (repo / ".memory-review" / "events.jsonl").read_bytes() == log
    assert run(["apply", pending], env, repo).returncode == 0  # writable again: nothing was left half-done


def test_a_full_disk_gets_one_line_and_the_store_still_verifies(tmp_path: Path, env: dict) -> None:
    _needs_mounts()
    root = tmp_path / "full"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True, timeout=60)
    results = tmp_path / "results.json"
    # One namespace for the whole story: a 512 KiB tmpfs holds the store; a filler takes the rest.
    driver = f"""
import json, os, subprocess, sys
store = {str(root / ".memory-review")!r}
os.makedirs(store)
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "none", store], check=True)
def cli(*args, stdin=None):
    done = subprocess.run({CLI!r} + list(args), input=stdin, cwd={str(root)!r}, capture_output=True, text=True,
                          timeout=60)
    return {{"rc": done.returncode, "out": done.stdout, "err": done.stderr}}
out = {{"init": cli("init")}}
filler = os.open(os.path.join(store, "filler"), os.O_WRONLY | os.O_CREAT)
try:
    while True:
        os.write(filler, b"x" * 4096)
except OSError:
    os.close(filler)
out["propose"] = cli("propose", "--file", "-", stdin={json.dumps(PROPOSAL)!r})
os.unlink(os.path.join(store, "filler"))
out["verify"] = cli("verify")
out["after"] = cli("propose", "--file", "-", stdin={json.dumps(PROPOSAL)!r})
json.dump(out, open({str(results)!r}, "w"))
"""
    done = subprocess.run(
        ["unshare", "-m", sys.executable, "-c", driver], env=env, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(results.read_text())
    assert out["init"]["rc"] == 0, out["init"]
    _assert_one_line(
        subprocess.CompletedProcess([], out["propose"]["rc"], out["propose"]["out"], out["propose"]["err"]),
        "no space left",
    )
    assert out["verify"]["rc"] == 0, out["verify"]  # the refused write left no torn state behind
    assert out["after"]["rc"] == 0, out["after"]


def test_a_held_lock_is_one_line_naming_the_lock(repo: Path, env: dict) -> None:
    pending = _proposed(repo, env)
    lock = repo / ".memory-review" / ".lock"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import filelock, sys, time\n"
                f"lock = filelock.FileLock({str(lock)!r}, thread_local=False, preserve_lock_file=True)\n"
                "lock.acquire()\nprint('held', flush=True)\ntime.sleep(120)\n"
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        done = run(["apply", pending], env, repo)
    finally:
        holder.kill()
        holder.wait(timeout=30)
    _assert_one_line(done, ".lock")
    assert "another" in done.stderr.lower() or "lock" in done.stderr.lower()
    assert run(["apply", pending], env, repo).returncode == 0
