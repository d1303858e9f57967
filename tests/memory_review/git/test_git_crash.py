"""A crash or a network failure in the middle of a sync leaves every clone valid, and a retry completes it.

Crashes are real: ``memory-review sync`` runs as a child process armed (by the test
harness, ``tools/reliability/arming.py``) to die at one step — after the fetch, half-way through
appending the merge batch, before the history ref moves, before the push.
"""

from __future__ import annotations

import shutil

import pytest
from git_helpers import Clone, Team, git, manifest_memories

from memory_review.errors import MemoryReviewError, StorageError
from tools.reliability.arming import fault_env

CRASH_POINTS = [
    {"action": "kill", "point": "sync.after_fetch"},
    {"action": "partial", "point": "log.append.before_write"},
    {"action": "kill", "point": "log.append.after_fsync"},
    {"action": "kill", "point": "history.before_update_ref"},
    {"action": "kill", "point": "sync.before_push"},
]


def _diverged(team: Team) -> tuple[Clone, Clone]:
    """Ann and Ben each approved something the other lacks, plus a conflicting pair."""
    ann, ben = team.pair()
    ann.approve("shared", "v0")
    ann.sync(), ben.sync()
    ann.approve("from-ann", "a")
    ann.approve("shared", "ann's v1")
    ann.sync()
    ben.approve("from-ben", "b")
    ben.approve("shared", "ben's v1")
    return ann, ben


def _settled(ann: Clone, ben: Clone) -> None:
    """After retries: both hold both notes, and one conflict candidate each on ``shared``."""
    for clone in (ann, ben):
        clone.assert_valid()
        assert {"from-ann", "from-ben", "shared"} <= set(clone.bodies())
        [state] = clone.pending()
        assert state.candidate.changes[0].memory == "shared"


@pytest.mark.parametrize("plan", CRASH_POINTS, ids=lambda p: p["point"])
def test_a_crash_mid_sync_leaves_every_clone_valid_and_a_retry_completes(team: Team, plan: dict) -> None:
    ann, ben = _diverged(team)
    done = ben.cli("sync", "--scope", "project", env=fault_env(plan))
    assert done.returncode == 137, done.stderr  # it really died there
    for clone in (ann, ben):
        clone.assert_valid()  # verify recovers first, like any command, then finds nothing wrong
    ben.sync()  # the retry
    ann.sync()
    ben.sync()
    _settled(ann, ben)
    assert manifest_memories(ann)["from-ben"] == manifest_memories(ben)["from-ben"]
    for clone in (ann, ben):
        result = clone.sync()
        assert (result.event, result.pushed) == (None, False)


def test_a_network_failure_on_fetch_changes_nothing_and_a_retry_completes(team: Team) -> None:
    ann, ben = _diverged(team)
    before = ben.ws.project.log_path.read_bytes()
    moved = team.remote.with_name("remote-offline.git")
    team.remote.rename(moved)
    with pytest.raises(StorageError, match="git fetch failed"):
        ben.ws.sync(scope="project", actor="ben")
    assert ben.ws.project.log_path.read_bytes() == before
    ben.assert_valid()
    moved.rename(team.remote)
    ben.sync(), ann.sync(), ben.sync()
    _settled(ann, ben)


def test_a_rejected_push_keeps_the_merge_and_a_retry_publishes_it(team: Team) -> None:
    ann, ben = _diverged(team)
    hook = team.remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'the server is read-only today' >&2\nexit 1\n")
    hook.chmod(0o755)
    with pytest.raises(MemoryReviewError, match="read-only today|rejected"):
        ben.ws.sync(scope="project", actor="ben")
    ben.assert_valid()
    assert "from-ann" in ben.bodies()  # the merge itself stands
    hook.unlink()
    assert ben.sync().pushed
    ann.sync()
    _settled(ann, ben)


def test_a_remote_that_vanished_mid_push_is_retried(team: Team) -> None:
    ann, ben = _diverged(team)
    done = ben.cli("sync", "--scope", "project", env=fault_env({"action": "kill", "point": "sync.before_push"}))
    assert done.returncode == 137
    shutil.copytree(team.remote, team.tmp / "backup.git")
    shutil.rmtree(team.remote)
    assert ben.cli("sync", "--scope", "project").returncode == 1  # the remote is gone: an error, no damage
    ben.assert_valid()
    shutil.copytree(team.tmp / "backup.git", team.remote)
    ben.sync(), ann.sync()
    _settled(ann, ben)
    assert git("for-each-ref", "refs/memory-review/replicas", cwd=team.remote).count("\n") == 2
