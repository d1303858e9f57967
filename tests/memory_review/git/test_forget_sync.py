"""forget in a team that syncs: the printed step takes the old publication down, sync publishes afresh (ADR 0019)."""

from __future__ import annotations

from git_helpers import Team, git

SECRET = "tangerine-omelette-4242"


def _reachable(repo, ref: str) -> str:
    objects = git("rev-list", "--objects", "--no-object-names", ref, "--", cwd=repo)
    return git("cat-file", "--batch", cwd=repo, stdin=objects.encode())


def test_after_forget_the_printed_step_and_a_sync_replace_the_publication(team: Team) -> None:
    ann, ben = team.pair()
    ann.approve("codeword", f"The staging codeword is {SECRET}.")
    ann.approve("tabs", "Indent with tabs.")
    ann.sync()
    ben.sync()
    assert SECRET in ben.bodies()["codeword"]

    [project, _user] = ann.ws.forget(text=SECRET, reason="leaked codeword", actor="ann", dry_run=False).stores
    assert project.git is not None and project.git.remaining == 0 and not project.remaining
    [hint] = project.push_hint
    command = hint.split(", then")[0].split()  # git -C DIR push origin --delete REF
    git(*command[3:], cwd=ann.root)

    result = ann.sync()
    assert result.pushed
    ann.assert_valid()
    origins = {ann.ws.project.read_manifest().origin: ann, ben.ws.project.read_manifest().origin: ben}
    published = {
        origins[ref.rsplit("/", 1)[1]].name: ref
        for ref in git("for-each-ref", "--format=%(refname)", cwd=team.remote).split()
        if ref.startswith("refs/memory-review/replicas/project/")
    }
    assert SECRET not in _reachable(team.remote, published["ann"])  # ann's publication is clean
    assert SECRET in _reachable(team.remote, published["ben"])  # what forget cannot reach: ben's copy

    ben.sync()  # ben still holds the text: he is offered ann's redacted version, nothing is picked
    [conflict] = ben.pending()
    assert conflict.candidate.changes[0].memory == "codeword"
    assert conflict.candidate.changes[0].after.body == "The staging codeword is [forgotten]."
    assert ben.bodies()["tabs"] == "Indent with tabs."
