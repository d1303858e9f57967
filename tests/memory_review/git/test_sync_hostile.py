"""Sync and git history against a hostile remote and a hostile clone (review of session 39).

- A replica ref naming a tag or a tree is left out and named; a store whose log already records
  such an id as a merged replica still gets history (only commits become parents).
- A remote named by a relative URL is the one plain git reaches, from the work tree: never a bare
  repository the clone itself carries, whose hooks would run.
- A ``.git`` file naming another repository's git dir gets no history there; a linked worktree and a
  submodule keep theirs.
- ``sync``'s fetch and push start no program the repository's own config names (``core.fsmonitor``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from git_helpers import REF, Clone, Team, git

from memory_review.errors import ConflictError
from memory_review.events import EventDraft
from memory_review.rules import Plan
from memory_review.sync import REPLICA_PREFIX

FORGED = "ffffffffffffffff"


def _script(path: Path, marker: Path) -> Path:
    """An executable that leaves ``marker`` behind when something runs it."""
    path.write_text(f'#!/bin/sh\necho "ran in $(pwd)" >> "{marker}"\n')
    path.chmod(0o755)
    return path


# --- F1: a replica tip that is not a commit -------------------------------------------------------


def _non_commit(team: Team, kind: str, commit: str) -> str:
    """A tag of ``commit``, or its tree, written on the remote (what anyone who can push can do)."""
    if kind == "tree":
        return git("rev-parse", f"{commit}^{{tree}}", cwd=team.remote).strip()
    tag = f"object {commit}\ntype commit\ntag t\ntagger a <a@a> 0 +0000\n\nx\n"
    return git("mktag", cwd=team.remote, stdin=tag.encode()).strip()


@pytest.mark.parametrize("kind", ["tag", "tree"])
def test_a_replica_tip_that_is_not_a_commit_is_left_out_and_named(team: Team, kind: str) -> None:
    ann, ben = team.pair()
    ann.approve("x", "from ann")
    ann.sync()
    [(_ref, commit)] = [
        line.split()
        for line in git(
            "for-each-ref", "--format=%(refname) %(objectname)", REPLICA_PREFIX, cwd=team.remote
        ).splitlines()
    ]
    git("update-ref", f"{REPLICA_PREFIX}project/{FORGED}", _non_commit(team, kind, commit), cwd=team.remote)
    result = ben.sync()  # no warning: history recorded the merge
    assert result.adopted == ("x",)
    [skipped] = result.skipped_replicas
    assert skipped.startswith(FORGED) and f"names a {kind}, not a commit" in skipped
    git("update-ref", "-d", f"{REPLICA_PREFIX}project/{FORGED}", cwd=team.remote)
    ben.approve("y", "from ben")  # every later history commit still works
    ben.sync()
    ben.assert_valid()
    assert git("cat-file", "-t", REF, cwd=ben.root).strip() == "commit"


def test_our_own_replica_ref_naming_a_tree_is_refused_until_it_is_deleted(team: Team) -> None:
    ann = team["ann"]
    ann.approve("x", "1")
    ann.sync()
    own = f"{REPLICA_PREFIX}project/{ann.ws.project.current_manifest().origin}"
    git("update-ref", own, git("rev-parse", f"{own}^{{tree}}", cwd=team.remote).strip(), cwd=team.remote)
    with pytest.raises(ConflictError, match="names a tree, not a commit"):
        ann.ws.sync(scope="project", actor="ann")
    git("update-ref", "-d", own, cwd=team.remote)
    assert ann.sync().pushed
    ann.assert_valid()


def test_history_of_a_store_that_recorded_a_tag_as_a_merged_replica_goes_on(team: Team) -> None:
    """A store an earlier sync already hit: its log names a tag (and a tree) among the merged replicas."""
    ben = team["ben"]
    ben.approve("x", "1")
    head = git("rev-parse", "HEAD", cwd=ben.root).strip()
    tag = git("mktag", cwd=ben.root, stdin=f"object {head}\ntype commit\ntag t\ntagger a <a@a> 0 +0000\n\nx\n".encode())
    tree = git("rev-parse", "HEAD^{tree}", cwd=ben.root).strip()
    remotes = {"00000000000000a1": tag.strip(), "00000000000000a2": tree, "00000000000000a3": head}
    ws = ben.ws
    with ws.project.transact() as tx:
        ws.commit(tx, Plan(drafts=[EventDraft(type="sync.merged", actor="ben", sync={"remotes": remotes})]))
    assert ws.warnings == []
    parents = git("log", "-1", "--format=%P", REF, cwd=ben.root).split()
    assert parents[1:] == [head]  # the commit among them is still shown as merged
    ben.approve("y", "2")
    ben.assert_valid()


# --- F4: a remote named by a relative URL ------------------------------------------------------


def test_a_relative_remote_url_reaches_the_remote_git_reaches(team: Team) -> None:
    ann = team["ann"]
    git("remote", "set-url", "origin", "../remote.git", cwd=ann.root)  # from the work tree, as git resolves it
    ann.approve("x", "1")
    result = ann.sync()
    assert result.pushed
    published = git("for-each-ref", "--format=%(refname)", REPLICA_PREFIX, cwd=team.remote).split()
    assert published == [f"{REPLICA_PREFIX}project/{ann.ws.project.current_manifest().origin}"]


def test_a_bare_repository_the_clone_carries_never_receives_the_push_nor_runs_its_hook(team: Team) -> None:
    ann = team["ann"]
    marker = team.tmp / "hook-ran.txt"
    # ann's project commits a folder named like the team's remote: a bare repository with a hook
    carried = ann.root / "remote.git"
    git("init", "-q", "--bare", str(carried), cwd=ann.root)
    for sample in (carried / "hooks").glob("*.sample"):
        sample.unlink()
    for hook in ("pre-receive", "post-receive", "post-update"):
        _script(carried / "hooks" / hook, marker)
    for folder in ("refs/heads", "refs/tags", "objects/info", "objects/pack"):
        (carried / folder / ".keep").touch()
    git("add", "-A", cwd=ann.root)
    git("commit", "-q", "-m", "carry a repository", cwd=ann.root)
    git("push", "-q", "origin", "HEAD", cwd=ann.root)
    ben = team["ben"]
    assert (ben.root / "remote.git" / "hooks" / "post-receive").exists()
    git("remote", "set-url", "origin", "../remote.git", cwd=ben.root)
    ben.approve("x", "1")
    assert ben.sync().pushed
    assert not marker.exists()
    assert git("for-each-ref", "refs/memory-review", cwd=ben.root / "remote.git") == ""
    origin = ben.ws.project.current_manifest().origin
    assert git("for-each-ref", "--format=%(refname)", REPLICA_PREFIX, cwd=team.remote).split() == [
        f"{REPLICA_PREFIX}project/{origin}"
    ]


# --- F6: a .git file -------------------------------------------------------------------------------


def _clone_at(team: Team, name: str, root: Path) -> Clone:
    return Clone(name, root, team.tmp / f"home-{name}")


@pytest.mark.parametrize("pointer", ["gitfile", "symlink"])
def test_a_git_file_naming_another_repository_writes_no_history_there(team: Team, pointer: str) -> None:
    ann = team["ann"]
    ann.approve("ann-memory", "1")
    before = git("rev-parse", REF, cwd=ann.root).strip()
    unpacked = team.tmp / "unpacked"
    unpacked.mkdir()
    if pointer == "gitfile":
        (unpacked / ".git").write_text(f"gitdir: ../{ann.root.name}/.git\n")
    else:
        (unpacked / ".git").symlink_to(ann.root / ".git")
    evil = _clone_at(team, "eve", unpacked)
    evil.approve("eve-memory", "2")  # applied, no warning: the folder simply has no history
    assert git("rev-parse", REF, cwd=ann.root).strip() == before
    done = evil.cli("sync", "origin", "--scope", "project")
    assert done.returncode == 1 and "names another repository's git directory" in done.stderr
    assert "Traceback" not in done.stderr
    assert git("for-each-ref", REPLICA_PREFIX, cwd=team.remote) == ""


def test_a_forged_worktree_folder_sharing_another_repositorys_refs_is_refused(team: Team) -> None:
    """An archive carrying its own "worktree admin folder": it names the folder back, and another repository
    as the one whose refs it shares (``commondir``)."""
    ann = team["ann"]
    ann.approve("ann-memory", "1")
    before = git("rev-parse", REF, cwd=ann.root).strip()
    unpacked = team.tmp / "unpacked"
    admin = unpacked / ".admin"
    admin.mkdir(parents=True)
    (admin / "HEAD").write_text("ref: refs/heads/main\n")
    (admin / "commondir").write_text(f"{ann.root / '.git'}\n")
    (admin / "gitdir").write_text(f"{unpacked / '.git'}\n")
    (unpacked / ".git").write_text("gitdir: .admin\n")
    _clone_at(team, "eve", unpacked).approve("eve-memory", "2")
    assert git("rev-parse", REF, cwd=ann.root).strip() == before


def test_a_git_folder_whose_refs_live_in_another_repository_is_refused(team: Team) -> None:
    ann = team["ann"]
    ann.approve("ann-memory", "1")
    before = git("rev-parse", REF, cwd=ann.root).strip()
    unpacked = team.tmp / "unpacked"
    git("init", "-q", str(unpacked), cwd=team.tmp)
    (unpacked / ".git" / "commondir").write_text(f"{ann.root / '.git'}\n")  # git keeps its refs there
    _clone_at(team, "eve", unpacked).approve("eve-memory", "2")
    assert git("rev-parse", REF, cwd=ann.root).strip() == before


def test_a_linked_worktree_keeps_its_history(team: Team) -> None:
    ann = team["ann"]
    worktree = team.tmp / "ann-feature"
    git("worktree", "add", "-q", "-b", "feature", str(worktree), cwd=ann.root)
    _clone_at(team, "ann", worktree).approve("wt-memory", "1")
    assert "+wt-memory" in git("log", "-1", "--format=%s", REF, cwd=ann.root)


def test_a_submodule_keeps_its_history(team: Team) -> None:
    ann = team["ann"]
    git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(team.remote), "sub", cwd=ann.root)
    sub = ann.root / "sub"
    assert (sub / ".git").is_file()
    _clone_at(team, "ann", sub).approve("sub-memory", "1")
    assert "+sub-memory" in git("log", "-1", "--format=%s", REF, cwd=sub)
    assert git("for-each-ref", REF, cwd=ann.root) == ""  # the superproject's own refs are untouched


# --- F7: programs the repository's config names ----------------------------------------------------


def test_sync_starts_no_fsmonitor_the_repository_names(team: Team) -> None:
    ann = team["ann"]
    marker = team.tmp / "fsmonitor-ran.txt"
    git("config", "core.fsmonitor", str(_script(team.tmp / "fsmonitor.sh", marker)), cwd=ann.root)
    ann.approve("x", "1")
    assert ann.sync().pushed
    ann.sync()
    assert not marker.exists(), marker.read_text()


def test_sync_starts_no_alternate_refs_command_the_repository_names(team: Team) -> None:
    """Session 39's re-review: with an alternate object store, fetch ran the config's ``core.alternateRefsCommand``."""
    ann, bob = team["ann"], team["bob"]
    bob.approve("y", "2")
    bob.sync()  # something for ann's fetch to negotiate
    alternate = team.tmp / "alt"
    git("init", "-q", str(alternate), cwd=team.tmp)
    (ann.root / ".git" / "objects" / "info").mkdir(parents=True, exist_ok=True)
    (ann.root / ".git" / "objects" / "info" / "alternates").write_text(f"{alternate / '.git' / 'objects'}\n")
    marker = team.tmp / "alternate-refs-ran.txt"
    git("config", "core.alternateRefsCommand", str(_script(team.tmp / "alt.sh", marker)), cwd=ann.root)
    ann.approve("x", "1")
    ann.sync()
    assert not marker.exists(), marker.read_text()
