"""The foundation end to end through the library: propose, apply, edit, discard, revert, delete, replay, verify."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from workspace_kit import fresh_workspace

from memory_review.errors import (
    ConflictError,
    IntegrityError,
    NotFoundError,
    PermissionDeniedError,
    ValidationError,
)
from memory_review.proposal import ProposedMemory, parse_proposals
from memory_review.record_io import memory_sha256, parse_memory
from memory_review.store import UNFINISHED
from memory_review.workspace import Workspace

ACTOR = "alice"


def proposal(memory_id: str = "pref-tabs", body: str = "Use 4 spaces.", scope: str = "project", **extra) -> dict:
    doc = {
        "op": "create",
        "scope": scope,
        "memory": {"id": memory_id, "type": "preference", "description": f"About {memory_id}", "body": body},
        "rationale": "the user said so",
        "evidence": [{"quote": "use 4 spaces", "session_id": "s1", "turn_id": "t1"}],
    }
    doc.update(extra)
    return doc


def propose(ws: Workspace, *docs: dict):
    return ws.propose(parse_proposals(json.dumps(list(docs)).encode()))


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return fresh_workspace(tmp_path, "project")


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_propose_touches_no_memory(ws: Workspace) -> None:
    before = ws.project.current_manifest()
    [state] = propose(ws, proposal())
    assert state.candidate.id.startswith("cand_")
    assert ws.project.current_manifest().memories == before.memories
    assert list(ws.project.memory_dir.iterdir()) == []
    assert [e.type for e in ws.log()] == ["candidate.created"]
    assert ws.log()[0].record["id"] == state.candidate.id


def test_apply_writes_file_manifest_index_and_event(ws: Workspace) -> None:
    [state] = propose(ws, proposal())
    [event] = ws.apply([state.candidate.id], actor=ACTOR)
    assert event.type == "candidate.applied" and event.actor == ACTOR
    assert event.changes[0].before is None and event.changes[0].after["body"] == "Use 4 spaces."
    manifest = ws.project.current_manifest()
    entry = manifest.memories["pref-tabs"]
    data = (ws.project.root / entry.file).read_bytes()
    assert hashlib.sha256(data).hexdigest() == entry.sha256
    memory = parse_memory(data)
    assert memory.applied_by == ACTOR and memory.applied_from == state.candidate.id
    assert "pref-tabs" in ws.project.index_path.read_text()
    assert manifest.log_seq == event.seq
    assert not (ws.project.candidate_dir / f"{state.candidate.id}.json").exists()
    assert ws.show(state.candidate.id).status == "applied"


def test_create_of_existing_memory_becomes_update_with_diff(ws: Workspace) -> None:
    [first] = propose(ws, proposal())
    ws.apply([first.candidate.id], actor=ACTOR)
    [second] = propose(ws, proposal(body="Use 2 spaces."))
    assert second.candidate.op == "update"
    assert "-Use 4 spaces." in second.candidate.diff and "+Use 2 spaces." in second.candidate.diff
    ws.apply([second.candidate.id], actor=ACTOR)
    with pytest.raises(ValidationError, match="already says exactly this"):
        propose(ws, proposal(body="Use 2 spaces."))


def test_edit_then_apply(ws: Workspace) -> None:
    [state] = propose(ws, proposal())
    edited = ProposedMemory(id="pref-indent", type="convention", description="Indent 4", body="Four spaces.")
    updated = ws.edit(state.candidate.id, edited, actor=ACTOR)
    assert updated.candidate.changes[0].memory == "pref-indent"
    assert [e.type for e in ws.log()] == ["candidate.created", "candidate.edited"]
    ws.apply([state.candidate.id], actor=ACTOR)
    [memory] = ws.memories()
    assert (memory.id, memory.type, memory.body) == ("pref-indent", "convention", "Four spaces.")


def test_discard_keeps_candidate_in_log_and_flags_repeat(ws: Workspace) -> None:
    [state] = propose(ws, proposal())
    [event] = ws.discard([state.candidate.id], actor=ACTOR, reason="one-off")
    assert event.reason == "one-off"
    assert ws.list_candidates() == []
    assert ws.show(state.candidate.id).status == "discarded"
    [again] = propose(ws, proposal())
    assert "previously-discarded" in again.candidate.flags


def test_revert_restores_exact_record_and_is_revertible(ws: Workspace) -> None:
    [one] = propose(ws, proposal())
    ws.apply([one.candidate.id], actor=ACTOR)
    original = ws.project.view().memory("pref-tabs")
    [two] = propose(ws, proposal(body="Use 2 spaces."))
    [applied] = ws.apply([two.candidate.id], actor=ACTOR)
    reverted = ws.revert(applied.seq, actor=ACTOR)
    assert reverted.type == "memory.reverted" and reverted.reverts == applied.seq
    assert memory_sha256(ws.project.view().memory("pref-tabs")) == memory_sha256(original)
    ws.revert(reverted.seq, actor=ACTOR)
    assert ws.project.view().memory("pref-tabs").body == "Use 2 spaces."


def test_revert_conflicts_when_memory_moved_on_unless_forced(ws: Workspace) -> None:
    [one] = propose(ws, proposal())
    [first] = ws.apply([one.candidate.id], actor=ACTOR)
    [two] = propose(ws, proposal(body="Use 2 spaces."))
    ws.apply([two.candidate.id], actor=ACTOR)
    with pytest.raises(ConflictError):
        ws.revert(first.seq, actor=ACTOR)
    forced = ws.revert(one.candidate.id, actor=ACTOR, force=True)
    assert forced.forced is True and forced.changes[0].before["body"] == "Use 2 spaces."
    assert ws.memories() == []


def test_stale_base_conflicts_and_keeps_candidate(ws: Workspace) -> None:
    [base] = propose(ws, proposal())
    ws.apply([base.candidate.id], actor=ACTOR)
    [a] = propose(ws, proposal(body="A"))
    [b] = propose(ws, proposal(body="B"))
    ws.apply([a.candidate.id], actor=ACTOR)
    assert "stale-base" in ws.show(b.candidate.id).flags
    before = snapshot(ws.project.root)
    with pytest.raises(ConflictError):
        ws.apply([b.candidate.id], actor=ACTOR)
    assert snapshot(ws.project.root) == before


def test_delete_is_a_recorded_event(ws: Workspace) -> None:
    [state] = propose(ws, proposal())
    ws.apply([state.candidate.id], actor=ACTOR)
    event = ws.delete("pref-tabs", actor=ACTOR)
    assert event.type == "memory.deleted" and event.changes[0].after is None
    assert ws.memories() == []
    ws.revert(event.seq, actor=ACTOR)
    assert [m.id for m in ws.memories()] == ["pref-tabs"]


def test_agents_cannot_decide(ws: Workspace) -> None:
    [state] = propose(ws, proposal())
    for action in (
        lambda: ws.apply([state.candidate.id], actor="agent:claude"),
        lambda: ws.discard([state.candidate.id], actor="agent"),
        lambda: ws.delete("x", actor="mcp"),
    ):
        with pytest.raises(PermissionDeniedError):
            action()


def test_replay_at_reproduces_every_past_state(ws: Workspace) -> None:
    states = []
    for body in ("one", "two", "three"):
        [s] = propose(ws, proposal(body=body))
        ws.apply([s.candidate.id], actor=ACTOR)
        states.append((ws.log()[-1].seq, {m.id: memory_sha256(m) for m in ws.memories()}))
    ws.delete("pref-tabs", actor=ACTOR)
    for seq, expected in states:
        assert {k: memory_sha256(v) for k, v in ws.replay(at=seq).items()} == expected
    assert ws.replay() == {}


def test_user_and_project_scopes_and_override(ws: Workspace) -> None:
    [u] = propose(ws, proposal(scope="user", body="user says"))
    [p] = propose(ws, proposal(scope="project", body="project says"))
    ws.apply([u.candidate.id, p.candidate.id], actor=ACTOR)
    [merged] = ws.memories()
    assert merged.scope == "project" and merged.body == "project says"
    assert ws.user.view().memory("pref-tabs").body == "user says"


def test_propose_is_all_or_nothing(ws: Workspace) -> None:
    before = snapshot(ws.project.root)
    with pytest.raises(ValidationError):
        propose(ws, proposal("good-one"), proposal("Bad ID!"))
    with pytest.raises(NotFoundError):
        ws.propose(
            parse_proposals(
                json.dumps(
                    [proposal("fine"), {"op": "delete", "scope": "project", "memory_id": "missing", "rationale": "r"}]
                ).encode()
            )
        )
    assert snapshot(ws.project.root) == before


def test_secrets_are_redacted_and_flagged(ws: Workspace) -> None:
    [state] = propose(ws, proposal(body="deploy token ghp_0123456789abcdefghijABCDEFGHIJ012345 here"))
    assert "secret" in state.candidate.flags
    raw = ws.project.log_path.read_bytes()
    assert b"ghp_0123456789abcdefghij" not in raw
    assert b"ghp_0123456789abcdefghij" not in (ws.project.candidate_dir / f"{state.candidate.id}.json").read_bytes()


def test_verify_passes_then_names_tampered_line(ws: Workspace) -> None:
    [state] = propose(ws, proposal())
    ws.apply([state.candidate.id], actor=ACTOR)
    assert all(r.ok for r in ws.verify())
    lines = ws.project.log_path.read_bytes().split(b"\n")
    lines[0] = lines[0].replace(b"the user said so", b"the user said no")
    ws.project.log_path.write_bytes(b"\n".join(lines))
    [project, _user] = ws.verify()
    assert not project.ok
    assert any(":2" in p or ":1" in p for p in project.problems), project.problems


def test_hand_edited_memory_file_is_reported(ws: Workspace) -> None:
    [state] = propose(ws, proposal())
    ws.apply([state.candidate.id], actor=ACTOR)
    ws.project.compact()  # readers take a memory in the tail from its log line; the manifest names its file
    entry = ws.project.current_manifest().memories["pref-tabs"]
    path = ws.project.root / entry.file
    path.write_bytes(path.read_bytes().replace(b"Use 4", b"Use 8"))
    [project, _] = ws.verify()
    assert any("sha256" in p for p in project.problems)
    with pytest.raises(IntegrityError):
        ws.memories()


def test_repair_rebuilds_deleted_memory_folder(ws: Workspace) -> None:
    [a, b] = propose(ws, proposal("one"), proposal("two"))
    ws.apply([a.candidate.id, b.candidate.id], actor=ACTOR)
    [pending] = propose(ws, proposal("three"))
    expected = {m.id: memory_sha256(m) for m in ws.memories()}
    shutil.rmtree(ws.project.memory_dir)
    (ws.project.candidate_dir / f"{pending.candidate.id}.json").unlink()
    (ws.project.root / "manifest.json").write_bytes(b"{not json")
    [report, _] = ws.verify(repair=True, apply=True, actor=ACTOR)
    assert report.ok, report.problems
    assert report.repaired
    assert {m.id: memory_sha256(m) for m in ws.memories()} == expected
    assert [s.candidate.id for s in ws.list_candidates()] == [pending.candidate.id]
    assert ws.log()[-1].type == "store.recovered"


def test_recovery_completes_a_writer_that_died_after_its_commit_point(ws: Workspace) -> None:
    [state] = propose(ws, proposal())
    manifest_before = (ws.project.root / "manifest.json").read_bytes()
    ws.apply([state.candidate.id], actor=ACTOR)
    # Simulate a crash right after the commit point: the checkpoint never happened.
    (ws.project.root / "manifest.json").write_bytes(manifest_before)
    (ws.project.candidate_dir / f"{state.candidate.id}.json").write_bytes(b"stale")
    (ws.project.memory_dir / UNFINISHED).touch()  # which that writer made before its first write
    assert [m.id for m in ws.memories()] == ["pref-tabs"]  # readers fold the tail over the manifest
    assert ws.list_candidates() == []  # the tail resolved the candidate its stale file still holds
    [other] = propose(ws, proposal("other"))  # any write recovers first: it compacts (docs/adr/0029)
    assert "pref-tabs" in ws.project.read_manifest().memories
    assert not (ws.project.candidate_dir / f"{state.candidate.id}.json").exists()
    assert all(r.ok for r in ws.verify())
    assert [s.candidate.id for s in ws.list_candidates()] == [other.candidate.id]


def test_session_memory_and_promote(ws: Workspace) -> None:
    memory = ProposedMemory(id="scratch", type="fact", description="Working on auth", body="Auth refactor")
    ws.write_session_memory("sess-1", memory)
    assert [m.id for m in ws.session_memories("sess-1")] == ["scratch"]
    assert ws.session_memories("sess-2") == []
    assert ws.memories() == []
    assert [m.id for m in ws.memories(session="sess-1")] == ["scratch"]
    state = ws.promote("sess-1", "scratch", scope="user", actor=ACTOR)
    ws.apply([state.candidate.id], actor=ACTOR)
    assert ws.user.view().memory("scratch").scope == "user"
    assert [s.session for s in ws.sessions()] == ["sess-1"]
    assert all(r.ok for r in ws.verify())


def test_updates_shed_old_sources_to_stay_within_the_size_limit(ws: Workspace) -> None:
    long_quote = "x" * 700
    doc = proposal(body="v0")
    doc["evidence"] = [{"quote": long_quote + "0", "session_id": "s1", "turn_id": "t0"}]
    [state] = propose(ws, doc)
    ws.apply([state.candidate.id], actor=ACTOR)
    for i in range(1, 8):
        doc = proposal(body=f"v{i}")
        doc["evidence"] = [{"quote": long_quote + str(i), "session_id": "s1", "turn_id": f"t{i}"}]
        [state] = propose(ws, doc)
        ws.apply([state.candidate.id], actor=ACTOR)
    memory = ws.project.view().memory("pref-tabs")
    assert memory.body == "v7" and memory.sources[-1].evidence.endswith("7")
    assert len(memory.sources) < 6


def test_consolidation_may_keep_one_source_unchanged(ws: Workspace) -> None:
    [a, b] = propose(ws, proposal("keep-me", body="Use 4 spaces."), proposal("twin", body="Use 4 spaces."))
    ws.apply([a.candidate.id, b.candidate.id], actor=ACTOR)
    kept = {"id": "keep-me", "type": "preference", "description": "About keep-me", "body": "Use 4 spaces."}
    doc = {
        "op": "consolidate",
        "scope": "project",
        "sources": ["keep-me", "twin"],
        "results": [kept],
        "rationale": "exact twins",
    }
    [state] = ws.propose(parse_proposals(json.dumps(doc).encode()))
    assert [(c.memory, c.after is None) for c in state.candidate.changes] == [("twin", True)]
    ws.apply([state.candidate.id], actor=ACTOR)
    assert [m.id for m in ws.memories()] == ["keep-me"]


def test_an_actor_name_must_be_short_and_one_line(ws: Workspace) -> None:
    [state] = propose(ws, proposal())
    for bad in ("x" * 65, "alice\nbob"):
        with pytest.raises(ValidationError):
            ws.apply([state.candidate.id], actor=bad)


def test_a_project_whose_store_is_the_user_store_is_refused(tmp_path: Path) -> None:
    """Session 38's review: ``MEMORY_REVIEW_HOME=~/.memory-review`` in a home folder that is no repository made the
    two stores one; each read the other's trust records as damaged, and project candidates went to the user store."""
    from cli_kit import run

    env = {**os.environ, "HOME": str(tmp_path), "MEMORY_REVIEW_HOME": str(tmp_path / ".memory-review")}
    env.pop("CLAUDE_PROJECT_DIR", None)
    for argv in (["context"], ["list"], ["init"]):
        done = run(argv, env, tmp_path)
        assert done.returncode == 1
        assert done.stderr.splitlines()[0] == (
            f"memory-review: error: the project store here would be the user store ({tmp_path / '.memory-review'})"
        )
    assert not (tmp_path / ".memory-review").exists()
