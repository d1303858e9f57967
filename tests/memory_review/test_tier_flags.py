"""A candidate whose id an approved memory of the other store holds says what the merge by id will do.

Injection merges user, then project (docs/design.md §6): the project memory wins. A candidate that would hide
an approved user memory (``overrides:<id>``), that a project memory would hide (``overridden-by:<id>``) or whose
deletion brings a user memory back (``uncovers:<id>``) is flagged, live, from the stores as they are now; ``show``
names the other memory and never says "injected as" for a note the merge hides.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_kit import run, run_json
from workspace_kit import fresh_workspace

from memory_review.proposal import parse_proposals
from memory_review.workspace import CandidateState, Workspace

ACTOR = "alice"


def doc(memory_id: str, description: str, *, scope: str, kind: str = "fact", op: str = "create") -> dict:
    return {
        "op": op,
        "scope": scope,
        "rationale": "seen in the repo",
        "memory": {"id": memory_id, "type": kind, "description": description, "body": ""},
    }


def propose(ws: Workspace, proposal: dict) -> CandidateState:
    [state] = ws.propose(parse_proposals(json.dumps(proposal).encode()))
    return state


def approved(ws: Workspace, proposal: dict) -> None:
    ws.apply([propose(ws, proposal).candidate.id], actor=ACTOR)


RULE = doc("no-force-push", "Never force-push to any branch", scope="user", kind="forbidden")
FACT = doc("no-force-push", "CI runs on every push to a pull request branch", scope="project")


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    workspace = fresh_workspace(tmp_path, "project")
    approved(workspace, RULE)
    return workspace


def flags_listed(ws: Workspace, candidate_id: str) -> tuple[str, ...]:
    [listed] = [s for s in ws.list_candidates() if s.candidate.id == candidate_id]
    return listed.flags


def test_a_project_note_under_an_approved_user_memorys_id_says_it_overrides_it(ws: Workspace) -> None:
    from memory_review import cli_render

    cid = propose(ws, FACT).candidate.id
    assert "overrides:no-force-push" in flags_listed(ws, cid)
    shown = ws.show(cid)
    assert "overrides:no-force-push" in shown.flags
    [user_rule] = ws.other_store(shown)
    assert (user_rule.scope, user_rule.type) == ("user", "forbidden")
    text = cli_render.render_show(cli_render.Shown(shown, [], [user_rule]), None)
    gone = text.split("once applied, no longer injected (the user memory with the same id, which this overrides):")
    assert len(gone) == 2 and gone[1].lstrip().startswith("[memory:user:forbidden] Never force-push to any branch")


def test_a_user_note_a_project_memory_overrides_is_never_said_to_be_injected(tmp_path: Path) -> None:
    from memory_review import cli_render

    ws = fresh_workspace(tmp_path, "project")
    approved(ws, doc("deploy", "Deploys go through make deploy", scope="project"))
    cid = propose(ws, doc("deploy", "Never deploy on Fridays", scope="user", kind="forbidden")).candidate.id
    shown = ws.show(cid)
    assert "overridden-by:deploy" in shown.flags and "overridden-by:deploy" in flags_listed(ws, cid)
    text = cli_render.render_show(cli_render.Shown(shown, [], ws.other_store(shown)), None)
    assert "injected as" not in text
    assert "NOT injected (the project memory with the same id overrides it):\n[memory:user:forbidden]" in text
    assert "injected instead (the project memory with the same id):\n[memory:project:fact] Deploys go" in text


def test_the_flags_follow_the_other_store_as_it_is_now(ws: Workspace) -> None:
    cid = propose(ws, FACT).candidate.id
    ws.delete("no-force-push", actor=ACTOR, scope="user")
    assert not any(f.startswith("overrides:") for f in flags_listed(ws, cid))
    approved(ws, RULE)
    assert "overrides:no-force-push" in flags_listed(ws, cid)
    ws.apply([cid], actor=ACTOR)  # the candidate carries no such flag of its own: it is never stored
    [applied] = ws.log(type="candidate.applied", candidate=cid)
    assert not any("overrides" in f for f in ws.show(cid).flags)
    assert applied.changes[0].after["id"] == "no-force-push"


def test_deleting_a_project_memory_that_hides_a_user_one_says_the_user_one_comes_back(ws: Workspace) -> None:
    approved(ws, FACT)
    cid = propose(ws, {"op": "delete", "scope": "project", "memory_id": "no-force-push", "rationale": "stale"})
    assert "uncovers:no-force-push" in flags_listed(ws, cid.candidate.id)


def test_the_queue_reader_gives_the_same_flags_as_the_listing(ws: Workspace) -> None:
    propose(ws, FACT)
    propose(ws, doc("unrelated", "The docs live in docs/", scope="project"))
    reader = ws.pending_files()
    from_reader = {s.candidate.id: s.flags for chunk in reader.chunks() for s in chunk}
    assert from_reader == {s.candidate.id: s.flags for s in ws.list_candidates()}
    assert sum(1 for flags in from_reader.values() if "overrides:no-force-push" in flags) == 1


def test_show_json_names_the_memory_of_the_other_store(tmp_path: Path, env: dict, repo: Path) -> None:
    for proposal in (RULE, FACT):
        made = run_json(["propose", "--file", "-"], env, repo, stdin=json.dumps(proposal))
        if proposal is RULE:
            assert run(["apply", made["id"]], env, repo).returncode == 0
    shown = run_json(["show", made["id"]], env, repo)
    assert "overrides:no-force-push" in shown["flags"]
    [other] = shown["other_store"]
    assert (other["id"], other["scope"], other["description"]) == (
        "no-force-push",
        "user",
        RULE["memory"]["description"],
    )
    text = run(["show", made["id"]], env, repo).stdout
    assert "no longer injected (the user memory with the same id" in text


def test_deleting_the_project_memory_says_the_user_one_is_injected_again(env: dict, repo: Path) -> None:
    for proposal in (RULE, FACT):
        made = run_json(["propose", "--file", "-"], env, repo, stdin=json.dumps(proposal))
        assert run(["apply", made["id"]], env, repo).returncode == 0
    done = run(["delete", "no-force-push"], env, repo)  # the project store is looked in first
    assert done.returncode == 0 and "memory.deleted" in done.stdout
    assert "the user memory 'no-force-push' is injected again" in done.stderr
    assert "Never force-push to any branch" in run(["context"], env, repo).stdout
    done = run(["delete", "no-force-push"], env, repo)  # now the user one: nothing comes back
    assert done.returncode == 0 and "injected again" not in done.stderr


def test_the_proposer_is_told_at_once(ws: Workspace) -> None:
    state = propose(ws, FACT)
    assert "overrides:no-force-push" in state.flags
    assert not any(f.startswith("overrides:") for f in state.candidate.flags)  # live: never stored
