"""Git history: one plumbing-built commit per committed change, on refs/memory-review/<scope>, never
touching the user's HEAD, index, branches or working tree; a failed git step never blocks a change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from git_helpers import REF, Clone, Team, git, git_bytes, history, history_log, in_history, user_git_state

from memory_review.history import SEQ_TRAILER
from memory_review.proposal import ProposedMemory
from memory_review.workspace import Workspace


def test_an_apply_is_a_commit_holding_the_store_files(team: Team) -> None:
    ann = team["ann"]
    ann.propose("pending-one", "still waiting")  # a pending candidate stays local
    [applied] = ann.approve("db-tests", "Use the real database in tests.")
    tree = sorted(git("ls-tree", "-r", "--name-only", REF, cwd=ann.root).split())
    manifest = ann.ws.project.current_manifest()
    file = manifest.memories["db-tests"].file
    assert tree == sorted(["MEMORY.md", "log/0000000001.jsonl", in_history(file)])
    store = ann.root / ".memory-review"
    for name, there in (("MEMORY.md", "MEMORY.md"), (file, in_history(file))):
        assert git_bytes("show", f"{REF}:{there}", cwd=ann.root) == (store / name).read_bytes()
    assert history_log(ann.root) == (store / "events.jsonl").read_bytes()
    message = git("log", "-1", "--format=%B", REF, cwd=ann.root)
    assert applied.candidate in message and "+db-tests" in message and "by ann" in message
    assert f"{SEQ_TRAILER}: {applied.seq}" in message


def test_each_kind_of_change_is_one_commit_and_proposals_are_none(team: Team) -> None:
    ann = team["ann"]
    ws = ann.ws
    ann.approve("style", "Four spaces.")
    assert len(history(ann)) == 1
    cid = ann.propose("style", "Tabs.")
    ws.context(session="sess-1")  # a context build is logged, not committed
    assert len(history(ann)) == 1
    ws.edit(cid, ProposedMemory(id="style", type="fact", description="About style", body="Two spaces."), actor="ann")
    ws.apply([cid], actor="ann")
    ws.discard([ann.propose("other", "x")], actor="ann", reason="noise")
    ws.revert(cid, actor="ann")
    ws.delete("style", actor="ann")
    subjects = history(ann)
    assert [s.split(": #", 1)[1].split()[1] for s in subjects] == [
        "delete",
        "revert",
        "discard",
        "apply",
        "edit",
        "apply",
    ]
    assert all(r.ok and not r.notes for r in ws.verify())


def test_the_users_head_index_branches_and_files_are_untouched(team: Team) -> None:
    ann = team["ann"]
    git("add", "README.md", cwd=ann.root)  # an index that is not empty
    (ann.root / "README.md").write_text("# edited, not staged\n")
    before = user_git_state(ann.root)
    ann.approve("one", "first")
    ann.ws.delete("one", actor="ann")
    ann.ws.verify(repair=True, apply=True)
    assert user_git_state(ann.root) == before
    assert git("status", "--porcelain", "--untracked-files=no", cwd=ann.root) == " M README.md\n"


def test_plain_git_log_and_log_git_show_the_history(team: Team) -> None:
    ann = team["ann"]
    ann.approve("one", "first")
    ann.approve("two", "second")
    assert len(git("log", "--oneline", REF, cwd=ann.root).splitlines()) == 2
    done = ann.cli("log", "--git", "--json")
    assert done.returncode == 0, done.stderr
    entries = json.loads(done.stdout)
    assert [("+two" in e["message"], "+one" in e["message"]) for e in entries] == [(True, False), (False, True)]
    assert entries[0]["parents"] == [entries[1]["commit"]]
    text = ann.cli("log", "--git")
    assert text.returncode == 0 and "by ann" in text.stdout


def test_commit_dates_are_the_event_times(team: Team) -> None:
    ann = team["ann"]
    [event] = ann.approve("one", "first")
    date = git("log", "-1", "--format=%aI", REF, cwd=ann.root).strip()
    assert date.replace("+00:00", "") == event.ts[:19]


def test_the_user_store_gets_its_own_bare_repository(tmp_path: Path) -> None:
    project = tmp_path / "plain-project"  # not a git repository at all
    project.mkdir()
    clone = Clone("ann", project, tmp_path / "home")
    clone.approve("user-pref", "Answer briefly.", scope="user")
    bare = clone.home / "history.git"
    assert git("rev-parse", "--is-bare-repository", cwd=bare).strip() == "true"
    assert "+user-pref" in git("log", "-1", "--format=%s", "refs/memory-review/user", cwd=bare)
    assert not (project / ".git").exists()
    assert clone.ws.git_log(scope="project") == []
    assert len(clone.ws.git_log(scope="user")) == 1


def test_a_project_that_is_not_a_repository_has_no_history_and_no_warnings(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    ws = Workspace(project, tmp_path / "home")
    clone = Clone("ann", project, tmp_path / "home")
    clone.approve("x", "y")
    assert ws.verify()[0].notes == []


def test_a_subfolder_project_does_not_write_the_top_level_repositorys_ref(team: Team) -> None:
    ann = team["ann"]
    sub = Clone("ann", ann.root / "src", ann.home)
    sub.approve("x", "y")
    assert git("for-each-ref", "refs/memory-review", cwd=ann.root) == ""


def _lock_ref(clone: Clone) -> Path:
    lock = clone.root / ".git" / "refs" / "memory-review" / "project.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("held by someone else\n")
    return lock


def test_a_failed_git_step_never_blocks_the_change_and_the_next_one_catches_up(team: Team) -> None:
    ann = team["ann"]
    ann.approve("one", "first")
    lock = _lock_ref(ann)
    ws = ann.ws
    ws.apply([ann.propose("two", "second")], actor="ann")
    assert ws.memories()[1].id == "two"  # the change stands
    assert len(ws.warnings) == 1 and "follow-up step failed" in ws.warnings[0]
    [project, _user] = ann.ws.verify()
    assert project.ok and "lacks 1 change(s), from seq 4" in project.notes[0]
    lock.unlink()
    ann.approve("three", "third")
    message = git("log", "-1", "--format=%B", REF, cwd=ann.root)
    assert "+two" in message and "+three" in message  # one commit records both
    assert history_log(ann.root) == ann.ws.project.log_path.read_bytes()
    files = git("ls-tree", "-r", "--name-only", f"{REF}:memory", cwd=ann.root).split()
    assert sorted(f.rpartition("/")[2] for f in files) == sorted(
        e.file.rpartition("/")[2] for e in ann.ws.project.current_manifest().memories.values()
    )


def test_verify_repair_catches_the_history_up(team: Team) -> None:
    ann = team["ann"]
    lock = _lock_ref(ann)
    ws = ann.ws
    ws.apply([ann.propose("one", "first")], actor="ann")
    assert ws.warnings
    [report, _] = ann.ws.verify(repair=True, apply=True)
    assert report.problems and "git history" in report.problems[0]  # still locked: said, not hidden
    lock.unlink()
    [report, _] = ann.ws.verify(repair=True, apply=True)
    assert report.ok and "git history caught up" in report.repaired[0]
    assert "+one" in git("log", "-1", "--format=%B", REF, cwd=ann.root)
    [report, _] = ann.ws.verify()
    assert report.ok and report.notes == []


def test_a_foreign_commit_on_the_ref_is_built_upon_not_lost(team: Team) -> None:
    ann = team["ann"]
    head = git("rev-parse", "HEAD", cwd=ann.root).strip()
    git("update-ref", REF, head, cwd=ann.root)  # someone pointed our ref at a branch commit
    ann.approve("one", "first")
    parents = git("log", "-1", "--format=%P", REF, cwd=ann.root).split()
    assert parents == [head]
    assert "history restarts" in git("log", "-1", "--format=%B", REF, cwd=ann.root)
    assert git("rev-parse", "HEAD", cwd=ann.root).strip() == head


def test_history_keeps_the_verified_bytes_of_a_file_edited_by_hand(team: Team) -> None:
    ann = team["ann"]
    ann.approve("one", "first")
    entry = ann.ws.project.current_manifest().memories["one"]
    path = ann.root / ".memory-review" / entry.file
    good = path.read_bytes()
    path.write_text("tampered\n")
    ann.approve("two", "second")
    assert git_bytes("show", f"{REF}:{in_history(entry.file)}", cwd=ann.root) == good


def test_a_file_edited_by_hand_before_it_was_recorded_is_refused(team: Team) -> None:
    ann = team["ann"]
    lock = _lock_ref(ann)
    ann.ws.apply([ann.propose("one", "first")], actor="ann")
    lock.unlink()
    entry = ann.ws.project.current_manifest().memories["one"]
    (ann.root / ".memory-review" / entry.file).write_text("tampered\n")
    ws = ann.ws
    ws.apply([ann.propose("two", "second")], actor="ann")
    assert any("does not match manifest.json" in w for w in ws.warnings)
    assert ann.ws.git_log() == []


@pytest.mark.parametrize("scope", ["project", "user"])
def test_history_follows_a_store_created_before_history_existed(team: Team, scope: str) -> None:
    ann = team["ann"]
    ws = ann.ws
    ws.history[scope].observe = lambda store, events: None  # as if written by an older version
    ws.store(scope).observers.clear()
    ws.apply([ann.propose("old", "from before", scope=scope)], actor="ann")
    assert ws.git_log(scope=scope) == []
    ann.approve("new", "now", scope=scope)
    [entry] = ann.ws.git_log(scope=scope)
    assert "+old" in entry.message and "+new" in entry.message


@pytest.mark.parametrize("point", ["history.before_commit", "history.before_update_ref"])
def test_an_io_error_in_a_git_step_is_a_warning_never_an_untyped_error(team: Team, point: str) -> None:
    from memory_review.events import FaultPlan, arm

    ann = team["ann"]
    cid = ann.propose("one", "first")
    ws = ann.ws
    arm(FaultPlan(action="raise", point=point, errno=28))
    try:
        ws.apply([cid], actor="ann")
    finally:
        arm(None)
    assert ws.memories()[0].id == "one" and "No space left" in ws.warnings[0]
    ann.assert_valid()


def test_a_stale_lock_left_by_a_dead_git_process_is_cleared(team: Team) -> None:
    import os

    ann = team["ann"]
    lock = _lock_ref(ann)
    os.utime(lock, (lock.stat().st_atime - 3600, lock.stat().st_mtime - 3600))  # an hour old
    ws = ann.ws
    ws.apply([ann.propose("one", "first")], actor="ann")
    assert ws.warnings == [] and not lock.exists()
    assert "+one" in history(ann)[0]
