"""A reviewer files a pending new memory in the other store (ADR 0154): through the library and the command line."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from cli_kit import run, run_json
from workspace_kit import fresh_workspace

from memory_review.candidate import FLAG_PREVIOUSLY_DISCARDED
from memory_review.discarded import discarded_candidates
from memory_review.errors import ConflictError, PermissionDeniedError, ValidationError
from memory_review.models import Memory
from memory_review.proposal import ProposedMemory, parse_proposals
from memory_review.record_io import render_memory
from memory_review.workspace import Workspace

ACTOR = "alice"


def proposal(scope: str = "user", memory_id: str = "use-pnpm", **extra) -> dict:
    return {
        "op": "create",
        "scope": scope,
        "memory": {
            "id": memory_id,
            "type": "preference",
            "description": "Use pnpm, not npm",
            "body": "Run `pnpm install`; never `npm install`.",
        },
        "rationale": "the user corrected the agent twice",
        "evidence": [{"quote": "we use pnpm here, not npm", "session_id": "s1", "turn_id": "t4"}],
        "proposer": {"kind": "heuristic", "name": "memory-review-heuristic"},
        "priority": "high",
        "session_id": "s1",
        **extra,
    }


def propose(ws: Workspace, *docs: dict, flags=None) -> list[str]:
    states = ws.propose(parse_proposals(json.dumps(list(docs)).encode()), flags)
    return [s.candidate.id for s in states]


def logged(ws: Workspace, scope: str) -> list[tuple[str, str | None, str, str | None]]:
    return [(e.type, e.candidate, e.actor, e.reason) for e in ws.store(scope).log().read()]


def no_problems(ws: Workspace) -> None:
    assert [p for report in ws.verify() for p in report.problems] == []


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return fresh_workspace(tmp_path)


def test_a_move_proposes_the_same_record_in_the_other_store_and_discards_this_one(ws: Workspace) -> None:
    [old, other] = propose(ws, proposal(), proposal(memory_id="other"), flags=[{"untrusted-source"}] * 2)
    edited = ProposedMemory(id="use-pnpm", type="convention", description="This repo uses pnpm", body="pnpm only.")
    ws.edit(old, edited, actor=ACTOR)  # a person's edit moves with it
    before = ws.show(old).candidate
    assert ws.move(other, "project", actor=ACTOR).candidate.flags == ("untrusted-source",)  # an extractor's warning

    moved = ws.move(old, "project", actor=ACTOR)

    new = moved.candidate
    assert (moved.status, new.scope, new.op) == ("pending", "project", "create")
    for field in ("rationale", "evidence", "proposer", "priority", "session_id"):
        assert getattr(new, field) == getattr(before, field), field
    assert new.flags == before.flags
    [change] = new.changes
    assert change.before is None and change.after is not None
    assert (change.after.scope, change.after.applied_from) == ("project", new.id)
    assert (change.after.type, change.after.description, change.after.body) == (
        "convention",
        "This repo uses pnpm",
        "pnpm only.",
    )
    assert change.after.sources == before.changes[0].after.sources
    assert new.id in [s.candidate.id for s in ws.list_candidates(scope="project")]
    assert ws.list_candidates(scope="user") == []
    assert ws.show(old).status == "discarded"
    assert logged(ws, "project")[-1] == (
        "candidate.created",
        new.id,
        ACTOR,
        f"moved from candidate {old} of the user store",
    )
    assert logged(ws, "user")[-1] == (
        "candidate.discarded",
        old,
        ACTOR,
        f"moved to the project store as candidate {new.id}",
    )
    no_problems(ws)

    ws.apply([new.id], actor=ACTOR)
    [memory] = ws.memories()
    assert (memory.scope, memory.id, memory.body) == ("project", "use-pnpm", "pnpm only.")
    assert "[memory:project:convention] This repo uses pnpm" in ws.context().text
    no_problems(ws)


def test_a_move_is_not_a_rejection_but_a_persons_discard_still_is(ws: Workspace) -> None:
    [first] = propose(ws, proposal())
    there = ws.move(first, "project", actor=ACTOR).candidate
    back = ws.move(there.id, "user", actor=ACTOR).candidate
    assert FLAG_PREVIOUSLY_DISCARDED not in back.flags  # the move's discard named no rejection
    assert discarded_candidates(ws.store("user")) == [] and discarded_candidates(ws.store("project")) == []

    ws.discard([back.id], actor=ACTOR, reason="moved to the user store, I thought")  # a person's own words
    [again] = ws.propose(parse_proposals(json.dumps([proposal()]).encode()))
    assert FLAG_PREVIOUSLY_DISCARDED in again.flags
    no_problems(ws)


def test_project_to_user_and_the_undo_the_command_line_names(ws: Workspace) -> None:
    [cid] = propose(ws, proposal(scope="project"))
    moved = ws.move(cid, "user", actor=ACTOR).candidate
    assert moved.scope == "user" and moved.changes[0].after.scope == "user"
    assert ws.show(cid).moved_to == moved.id
    ws.restore([cid], actor=ACTOR)
    assert ws.show(cid).moved_to is None
    ws.discard([moved.id], actor=ACTOR)
    assert ws.show(moved.id).moved_to is None  # a person's discard
    assert [s.candidate.id for s in ws.list_candidates()] == [cid]
    no_problems(ws)


def _unchanged(ws: Workspace, action) -> Exception:
    logs = (logged(ws, "user"), logged(ws, "project"))
    with pytest.raises((ValidationError, ConflictError, PermissionDeniedError)) as raised:
        action()
    assert (logged(ws, "user"), logged(ws, "project")) == logs
    return raised.value


def test_what_cannot_move_changes_nothing(ws: Workspace) -> None:
    [held] = propose(ws, proposal(scope="project", memory_id="held"))
    ws.apply([held], actor=ACTOR)
    update = proposal(scope="project", memory_id="held")
    update["memory"]["body"] = "Run `pnpm install --frozen-lockfile`."
    [changes_held] = propose(ws, update)
    [user_side] = propose(ws, proposal(scope="user", memory_id="held"))
    [agent_side] = propose(ws, proposal(scope="user", memory_id="free"))

    error = _unchanged(ws, lambda: ws.move(changes_held, "user", actor=ACTOR))
    assert "only a new memory can move" in str(error)
    error = _unchanged(ws, lambda: ws.move(user_side, "project", actor=ACTOR))
    assert isinstance(error, ConflictError) and "already has a memory 'held'" in str(error)
    error = _unchanged(ws, lambda: ws.move(agent_side, "user", actor=ACTOR))
    assert "already in the user store" in str(error)
    _unchanged(ws, lambda: ws.move(agent_side, "project", actor="agent:claude"))
    ws.discard([agent_side], actor=ACTOR)
    error = _unchanged(ws, lambda: ws.move(agent_side, "project", actor=ACTOR))
    assert "no longer pending" in str(error)
    no_problems(ws)


def test_the_command_line_moves_with_edit_scope(tmp_path: Path, repo: Path, env: dict) -> None:
    done = run(["propose", "--file", "-"], env, repo, stdin=json.dumps(proposal()))
    assert done.returncode == 0, done.stderr
    [listed] = run_json(["list"], env, repo)
    old = listed["id"]

    done = run(["edit", old, "--scope", "project"], env, repo)
    assert done.returncode == 0, done.stderr
    [new] = run_json(["list"], env, repo)
    assert new["scope"] == "project" and new["id"] != old
    assert done.stdout.splitlines()[0] == (
        f"moved to the project store as {new['id']}; {old} is discarded in its store "
        f"(to undo: `memory-review restore {old}` and `memory-review discard {new['id']}`)"
    )
    assert f"candidate {new['id']}  (pending)" in done.stdout

    shown = run(["show", old], env, repo)
    assert shown.stdout.splitlines()[0] == f"candidate {old}  (discarded: moved to candidate {new['id']})"
    assert run_json(["show", old], env, repo)["moved_to"] == new["id"]
    assert run_json(["show", new["id"]], env, repo)["moved_to"] is None
    again = run(["edit", old, "--scope", "project"], env, repo)
    assert again.returncode != 0 and again.stderr.count("\n") == 1 and "no longer pending" in again.stderr
    same = run(["edit", new["id"], "--scope", "project"], env, repo)
    assert same.returncode != 0 and "already in the project store" in same.stderr


def _memory_file(candidate: dict, **changed: str) -> str:
    """The proposed record as the editor shows it, with ``changed`` fields."""
    after = {**candidate["changes"][0]["after"], **changed}
    return render_memory(Memory.model_validate(after)).decode()


def test_edit_scope_with_a_file_edits_then_moves_and_a_bad_file_changes_nothing(
    tmp_path: Path, repo: Path, env: dict
) -> None:
    assert run(["propose", "--file", "-"], env, repo, stdin=json.dumps(proposal())).returncode == 0
    [listed] = run_json(["list"], env, repo)
    bad = tmp_path / "bad.md"
    bad.write_text("not a memory file\n")
    failed = run(["edit", listed["id"], "--scope", "project", "--from-file", str(bad)], env, repo)
    assert failed.returncode != 0
    assert run_json(["list"], env, repo) == [listed]

    good = tmp_path / "good.md"
    good.write_text(_memory_file(listed, type="convention", body="Only pnpm."))
    moved = run_json(["edit", listed["id"], "--scope", "project", "--from-file", str(good)], env, repo)
    assert moved["scope"] == "project"
    after = moved["changes"][0]["after"]
    assert (after["scope"], after["type"], after["body"]) == ("project", "convention", "Only pnpm.")
    kinds = [e["type"] for e in run_json(["log", "--scope", "user"], env, repo)]
    assert kinds[-2:] == ["candidate.edited", "candidate.discarded"]  # edited there, then moved


def test_the_scope_line_of_the_edited_file_moves_it(tmp_path: Path, repo: Path, env: dict) -> None:
    """Changing ``scope:`` in $EDITOR is the same move (the editor here: sed, as a person's edit)."""
    assert run(["propose", "--file", "-"], env, repo, stdin=json.dumps(proposal())).returncode == 0
    [listed] = run_json(["list"], env, repo)
    editor = {**env, "VISUAL": """sed -i 's/^scope:.*/scope: "project"/'"""}
    done = run(["edit", listed["id"]], editor, repo)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("moved to the project store as ")
    [moved] = run_json(["list"], env, repo)
    assert moved["scope"] == "project"
    assert moved["changes"][0]["after"]["body"] == listed["changes"][0]["after"]["body"]
    assert [e["type"] for e in run_json(["log", "--scope", "user"], env, repo)][-1] == "candidate.discarded"

    update = proposal(scope="project", memory_id=moved["changes"][0]["memory"])
    update["memory"]["body"] = "Run `pnpm install --frozen-lockfile`."
    assert run(["apply", moved["id"]], env, repo).returncode == 0
    assert run(["propose", "--file", "-"], env, repo, stdin=json.dumps(update)).returncode == 0
    [changes_it] = run_json(["list"], env, repo)
    editor_script = tmp_path / "editor.sh"  # first save: the scope line; then, shown why not, give up (empty)
    editor_script.write_text(
        '#!/bin/sh\nif [ -e "$0.seen" ]; then cp "$1" "$0.seen"; : > "$1"; '
        """else touch "$0.seen"; sed -i 's/^scope:.*/scope: "user"/' "$1"; fi\n"""
    )
    editor_script.chmod(0o755)
    refused = run(["edit", changes_it["id"]], {**env, "VISUAL": str(editor_script)}, repo)
    assert refused.returncode != 0
    shown_again = Path(f"{editor_script}.seen").read_text()
    assert "# memory-review: not saved: " in shown_again and "only a new memory can move" in shown_again
    assert run_json(["list"], env, repo) == [changes_it]


def test_two_processes_moving_one_candidate_move_it_once(repo: Path, env: dict) -> None:
    assert run(["propose", "--file", "-"], env, repo, stdin=json.dumps(proposal())).returncode == 0
    [listed] = run_json(["list"], env, repo)
    results: list = []

    def move() -> None:  # from a thread: each its own fresh process (forkserver_kit)
        results.append(run(["edit", listed["id"], "--scope", "project"], env, repo))

    threads = [threading.Thread(target=move) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(r.returncode for r in results) == [0, 1], [r.stderr for r in results]
    [pending] = run_json(["list"], env, repo)
    assert pending["scope"] == "project"
    assert run(["verify"], env, repo).returncode == 0


def test_moves_the_opposite_ways_at_once_both_finish(repo: Path, env: dict) -> None:
    """Both stores are locked user first in every process, so opposite moves cannot wait on each other."""
    docs = [proposal(scope="user", memory_id="to-project"), proposal(scope="project", memory_id="to-user")]
    assert run(["propose", "--file", "-"], env, repo, stdin=json.dumps(docs)).returncode == 0
    by_memory = {c["changes"][0]["memory"]: c["id"] for c in run_json(["list"], env, repo)}
    results: list = []

    def move(memory_id: str, scope: str) -> None:
        results.append(run(["edit", by_memory[memory_id], "--scope", scope], env, repo))

    threads = [threading.Thread(target=move, args=a) for a in (("to-project", "project"), ("to-user", "user"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [r.returncode for r in results] == [0, 0], [r.stderr for r in results]
    scopes = {c["changes"][0]["memory"]: c["scope"] for c in run_json(["list"], env, repo)}
    assert scopes == {"to-project": "project", "to-user": "user"}
