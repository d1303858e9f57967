"""Sync through a real bare remote with three clones: teammates' approvals arrive, concurrent ones merge,
conflicts become one candidate per side, resolutions converge, and a second sync changes nothing."""

from __future__ import annotations

import json

import pytest
from git_helpers import REF, Team, git, manifest_memories, plant_replica, user_git_state

from memory_review.errors import ConflictError, NotFoundError
from memory_review.sync import FLAG_SYNC_CONFLICT


def _converged(team: Team) -> None:
    """Every clone holds the same memories (byte-identical records), replays to them, and verifies."""
    first = manifest_memories(team.clones[0])
    for clone in team.clones:
        assert manifest_memories(clone) == first
        assert {k: m.model_dump() for k, m in clone.ws.replay().items()} == {
            k: m.model_dump() for k, m in team.clones[0].ws.replay().items()
        }
        clone.assert_valid()


def _quiet(team: Team) -> None:
    """Syncing again changes nothing anywhere: no event, no push."""
    before = {c.name: len(c.events()) for c in team.clones}
    for clone in team.clones:
        result = clone.sync()
        assert (result.event, result.pushed, result.adopted, result.conflicts) == (None, False, (), ())
    assert {c.name: len(c.events()) for c in team.clones} == before


def test_approvals_in_one_clone_reach_the_others(team: Team) -> None:
    ann, ben, cat = team.trio()
    ann.approve("db-tests", "Use the real database in tests.")
    assert ann.sync().pushed
    got = ben.sync()
    assert got.adopted == ("db-tests",) and got.replicas == (ann.ws.project.read_manifest().origin,)
    cat.sync()
    assert ben.bodies() == cat.bodies() == {"db-tests": "Use the real database in tests."}
    assert ben.memories()["db-tests"].applied_by == "ann"  # the teammate's record, exactly
    team.sync_all()
    _converged(team)
    _quiet(team)


def test_concurrent_non_conflicting_approvals_merge_everywhere(team: Team) -> None:
    ann, ben, cat = team.trio()
    ann.approve("a-note", "from ann")
    ben.approve("b-note", "from ben")
    cat.approve("c-note", "from cat")
    ann.ws.delete("a-note", actor="ann")
    ann.approve("a-note2", "from ann again")
    team.sync_all()
    assert set(ann.bodies()) == {"a-note2", "b-note", "c-note"}
    _converged(team)
    _quiet(team)


def test_a_conflicting_pair_gives_one_candidate_each_side_then_converges(team: Team) -> None:
    ann, ben, cat = team.trio()
    ann.approve("indent", "Two spaces.")
    team.sync_all()
    ann.approve("indent", "Four spaces.")
    ben.approve("indent", "Tabs.")
    team.sync_all()
    [on_ann] = ann.pending()
    [on_ben] = ben.pending()
    assert cat.pending() == [] and "indent" in cat.sync().waiting  # a bystander takes neither side
    assert cat.bodies()["indent"] == "Two spaces."
    for state, mine, theirs in ((on_ann, "Four spaces.", "Tabs."), (on_ben, "Tabs.", "Four spaces.")):
        assert FLAG_SYNC_CONFLICT in state.flags and state.candidate.op == "update"
        [change] = state.candidate.changes
        assert (change.before.body, change.after.body) == (mine, theirs)  # nothing lost, nothing picked
    assert ann.bodies()["indent"] == "Four spaces." and ben.bodies()["indent"] == "Tabs."
    _quiet(team)
    ben.ws.apply([on_ben.candidate.id], actor="ben")  # ben takes ann's version
    team.sync_all()
    assert ann.pending() == [] and ben.pending() == []
    assert {c.bodies()["indent"] for c in team.clones} == {"Four spaces."}
    closed = [e for e in ann.events() if e.type == "candidate.discarded" and e.candidate == on_ann.candidate.id]
    assert len(closed) == 1 and "closed by sync" in closed[0].reason
    _converged(team)
    _quiet(team)


def test_keep_mine_is_a_resolution_the_other_side_adopts(team: Team) -> None:
    ann, ben = team.pair()
    ann.approve("lang", "English.")
    team.sync_all()
    ann.approve("lang", "British English.")
    ben.approve("lang", "American English.")
    team.sync_all()
    [on_ann] = ann.pending()
    ann.ws.discard([on_ann.candidate.id], actor="ann", reason="keep mine")
    team.sync_all()
    assert {c.bodies()["lang"] for c in team.clones} == {"British English."}
    assert ben.pending() == []
    _converged(team)
    _quiet(team)


def test_both_sides_resolving_alike_converge_without_a_new_conflict(team: Team) -> None:
    ann, ben = team.pair()
    ann.approve("lint", "ruff.")
    team.sync_all()
    ann.approve("lint", "ruff and mypy.")
    ben.approve("lint", "flake8.")
    ann.sync(), ben.sync(), ann.sync()
    [on_ann], [on_ben] = ann.pending(), ben.pending()
    ann.ws.discard([on_ann.candidate.id], actor="ann")  # ann keeps "ruff and mypy."
    ben.ws.apply([on_ben.candidate.id], actor="ben")  # ben takes "ruff and mypy." too, offline
    team.sync_all()
    assert all(c.pending() == [] for c in team.clones)
    assert {c.bodies()["lint"] for c in team.clones} == {"ruff and mypy."}
    _converged(team)
    _quiet(team)


def test_a_delete_against_an_update_is_a_conflict_too(team: Team) -> None:
    ann, ben = team.pair()
    ann.approve("old-fact", "v1")
    team.sync_all()
    ann.ws.delete("old-fact", actor="ann")
    ben.approve("old-fact", "v2")
    team.sync_all()
    [on_ann], [on_ben] = ann.pending(), ben.pending()
    assert on_ann.candidate.op == "create" and on_ben.candidate.op == "delete"
    ben.ws.apply([on_ben.candidate.id], actor="ben")
    team.sync_all()
    assert all("old-fact" not in c.bodies() for c in team.clones)
    _converged(team)


def test_the_same_change_is_never_applied_twice(team: Team) -> None:
    ann, ben, cat = team.trio()
    ann.approve("once", "only once")
    ann.sync()
    ben.sync()  # ben now carries ann's change too
    cat.sync()
    cat.sync()
    taken = [c for e in cat.events() if e.type == "sync.merged" for c in e.changes or ()]
    assert [c.memory for c in taken] == ["once"]
    _converged(team)


def test_pending_candidates_stay_local(team: Team) -> None:
    ann, ben = team.pair()
    ann.propose("maybe", "not decided")
    ann.approve("sure", "decided")
    team.sync_all()
    assert ben.pending() == [] and set(ben.bodies()) == {"sure"}
    assert git("ls-tree", "-r", "--name-only", REF, cwd=ann.root).count("candidates/") == 0


def test_sync_never_touches_the_users_branch_index_or_files(team: Team) -> None:
    ann, ben = team.pair()
    (ben.root / "src" / "app.py").write_text("print('work in progress')\n")
    git("add", "src/app.py", cwd=ben.root)
    before = {c.name: user_git_state(c.root) for c in (ann, ben)}
    ann.approve("x", "1")
    ben.approve("y", "2")
    team.sync_all()
    ann.approve("x", "3")
    ben.approve("x", "4")
    team.sync_all()
    assert {c.name: user_git_state(c.root) for c in (ann, ben)} == before
    assert git("for-each-ref", "--format=%(refname)", "refs/heads", cwd=team.remote).split() == ["refs/heads/main"]


def test_history_graph_shows_the_merge(team: Team) -> None:
    ann, ben = team.pair()
    ann.approve("x", "1")
    ann.sync()
    result = ben.sync()
    parents = git("log", "-1", "--format=%P", REF, cwd=ben.root).split()
    assert len(parents) == 2 and result.event is not None
    assert (
        git(
            "rev-parse", f"refs/memory-review/replicas/project/{ann.ws.project.read_manifest().origin}", cwd=team.remote
        ).strip()
        in parents
    )


def test_a_copied_store_cannot_publish_under_the_same_origin(team: Team) -> None:
    import shutil

    ann, ben = team.pair()
    ann.approve("x", "1")
    ann.sync()
    ben.ws.init()
    shutil.rmtree(ben.root / ".memory-review")
    shutil.copytree(ann.root / ".memory-review", ben.root / ".memory-review")
    ben.approve("y", "diverges")
    ann.approve("z", "the original moves on")
    ann.sync()
    before = len(ben.events())
    with pytest.raises(ConflictError, match="same replica id"):
        ben.ws.sync(scope="project", actor="ben")
    assert len(ben.events()) == before


def test_a_damaged_replica_is_left_out_not_half_used(team: Team) -> None:
    ann, ben = team.pair()
    ann.approve("x", "1")
    ann.sync()
    good = ann.ws.project.log_path.read_bytes()
    plant_replica(team, "00000000000000ff", b'{"not": "an event"}\n')
    plant_replica(team, "00000000000000fe", good.replace(b'"x"', b'"y"', 1))  # a broken hash chain
    plant_replica(team, "not-a-replica-id", good)
    result = ben.sync()
    assert result.adopted == ("x",)
    assert sorted(s.split(":")[0] for s in result.skipped_replicas) == [
        "00000000000000fe",
        "00000000000000ff",
        "not-a-replica-id",
    ]
    ben.assert_valid()


def test_cli_sync_reports_and_fails_cleanly_without_the_remote(team: Team) -> None:
    ann = team["ann"]
    ann.approve("x", "1")
    done = ann.cli("sync", "origin", "--json")
    assert done.returncode == 0, done.stderr
    [project, user] = json.loads(done.stdout)
    assert project["status"] == "synced" and project["pushed"] and user["status"] == "skipped"
    missing = ann.cli("sync", "nowhere")
    assert missing.returncode == 1 and "no git remote 'nowhere'" in missing.stderr
    with pytest.raises(NotFoundError):
        ann.ws.sync("nowhere", scope="project", actor="ann")


def test_the_user_store_syncs_through_its_own_repository(team: Team) -> None:
    ann, ben = team.pair()
    shared = team.tmp / "dotfiles.git"
    git("init", "-q", "--bare", str(shared), cwd=team.tmp)
    ann.approve("answer-style", "Be brief.", scope="user")
    ben.approve("other", "x", scope="user")
    for clone in (ann, ben):
        git("remote", "add", "origin", str(shared), cwd=clone.home / "history.git")
    ann.sync("user"), ben.sync("user"), ann.sync("user")
    assert {m.id for m in ann.ws.user.view().memories()} == {"answer-style", "other"}
    assert {m.id for m in ben.ws.user.view().memories()} == {"answer-style", "other"}


def test_reverting_a_merge_is_an_ordinary_change_that_travels(team: Team) -> None:
    ann, ben = team.pair()
    ann.approve("x", "1")
    ann.sync()
    merged = ben.sync().event
    ben.ws.revert(merged, actor="ben")  # ben undoes taking ann's note
    ben.assert_valid()
    assert "x" not in ben.bodies()
    ben.sync(), ann.sync()
    assert "x" not in ann.bodies()
    _converged(team)


def test_a_new_machine_can_pull_the_user_store_before_any_change(team: Team) -> None:
    ann, ben = team.pair()
    shared = team.tmp / "dotfiles.git"
    git("init", "-q", "--bare", str(shared), cwd=team.tmp)
    ann.approve("answer-style", "Be brief.", scope="user")
    git("remote", "add", "origin", str(shared), cwd=ann.home / "history.git")
    ann.sync("user")
    fresh = ben.home / "history.git"
    assert "git init --bare" in ben.cli("sync", "--scope", "user").stderr
    git("init", "-q", "--bare", str(fresh), cwd=team.tmp)
    git("remote", "add", "origin", str(shared), cwd=fresh)
    assert ben.sync("user").adopted == ("answer-style",)


def test_three_clones_changing_one_memory_get_one_candidate_each(team: Team) -> None:
    ann, ben, cat = team.trio()
    ann.approve("owner", "nobody")
    team.sync_all()
    for clone in (ann, ben, cat):
        clone.approve("owner", f"{clone.name} owns it")
    team.sync_all()
    assert [len(c.pending()) for c in (ann, ben, cat)] == [1, 1, 1]
    for _ in range(3):  # each person in turn: sync, take the other side if asked, publish
        taken = 0
        for clone in (ann, ben, cat):
            clone.sync()
            for state in clone.pending():
                clone.ws.apply([state.candidate.id], actor=clone.name)
                taken += 1
                clone.sync()
        if not taken:
            break
    team.sync_all(rounds=1)
    assert all(c.pending() == [] for c in team.clones)
    assert len({c.bodies()["owner"] for c in team.clones}) == 1
    _converged(team)
