"""The trust ledger (docs/adr/0021): what a person here applies is trusted, durably and before the commit
point; a damaged or planted ledger trusts nothing; a user store from before trust records is adopted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from workspace_kit import fresh_workspace

from memory_review.errors import IntegrityError, ValidationError
from memory_review.events import FaultPlan
from memory_review.proposal import ProposedMemory, UpsertProposal
from memory_review.trust import TRUST_DIR
from memory_review.workspace import Workspace
from tools.reliability.arming import fault_env

ACTOR = "alice"


def _proposal(memory_id: str, body: str, scope: str = "project") -> UpsertProposal:
    return UpsertProposal(
        op="create",
        scope=scope,
        rationale="said so",
        memory=ProposedMemory(id=memory_id, type="fact", description=f"about {memory_id}", body=body),
    )


def _approve(ws: Workspace, memory_id: str, body: str, scope: str = "project") -> None:
    [state] = ws.propose([_proposal(memory_id, body, scope)])
    ws.apply([state.candidate.id], actor=ACTOR)


def _injected(ws: Workspace) -> set[str]:
    return {item.id for item in ws.context(session=None, query=None, budget=None).included}


def test_every_kind_of_a_persons_change_is_trusted(tmp_path: Path) -> None:
    ws = fresh_workspace(tmp_path)
    _approve(ws, "a-note", "first")
    _approve(ws, "a-note", "second")  # an update
    _approve(ws, "u-note", "mine", scope="user")
    assert _injected(ws) == {"a-note", "u-note"}
    [update] = ws.log(type="candidate.applied", memory="a-note")[-1:]
    ws.revert(update.seq, actor=ACTOR)  # the revert's version is a person's choice too
    assert _injected(ws) == {"a-note", "u-note"} and ws.memories()[0].body == "first"
    ws.delete("a-note", actor=ACTOR)
    assert _injected(ws) == {"u-note"}


def test_another_workspace_with_its_own_user_store_trusts_nothing_of_it(tmp_path: Path) -> None:
    ws = fresh_workspace(tmp_path)
    _approve(ws, "a-note", "first")
    stranger = Workspace(ws.root, tmp_path / "stranger-home")
    assert _injected(stranger) == set() and stranger.memories() == []
    assert [f.id for f in stranger.foreign()] == ["a-note"]


def test_the_ledger_lives_outside_the_project_and_is_keyed_by_real_path(tmp_path: Path) -> None:
    ws = fresh_workspace(tmp_path)
    _approve(ws, "a-note", "first")
    ledgers = list((tmp_path / "home" / TRUST_DIR).glob("*.json"))
    assert len(ledgers) == 2 and not any(ws.root in p.parents for p in ledgers)
    link = tmp_path / "link-to-p"
    link.symlink_to(ws.root)
    assert _injected(Workspace(link, tmp_path / "home")) == {"a-note"}  # the same store, by its real path


def test_a_crash_right_after_the_commit_point_keeps_the_apply_trusted(tmp_path: Path) -> None:
    ws = fresh_workspace(tmp_path)
    [state] = ws.propose([_proposal("a-note", "first")])
    plan = FaultPlan(action="kill", point="log.append.after_fsync")
    child = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from memory_review.workspace import Workspace; from pathlib import Path;"
            "Workspace(Path(sys.argv[1]), Path(sys.argv[2])).apply([sys.argv[3]], actor='alice')",
            str(ws.root),
            str(tmp_path / "home"),
            state.candidate.id,
        ],
        env={**os.environ, **fault_env(plan)},
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert child.returncode == 137, child.stderr.decode()
    assert _injected(Workspace(ws.root, tmp_path / "home")) == {"a-note"}  # rolled forward, and trusted


@pytest.mark.parametrize("damage", [b"", b"{not json", b'{"v": 2}', b"[]"])
def test_a_damaged_ledger_is_a_clear_error(tmp_path: Path, damage: bytes) -> None:
    ws = fresh_workspace(tmp_path)
    _approve(ws, "a-note", "first")
    ws.trust_records.ledger_path(ws.project).write_bytes(damage)
    with pytest.raises(IntegrityError, match="trust record"):
        ws.context(session=None, query=None, budget=None)


def test_a_ledger_for_another_path_trusts_nothing_here(tmp_path: Path) -> None:
    ws = fresh_workspace(tmp_path)
    _approve(ws, "a-note", "first")
    other = fresh_workspace(tmp_path, "q")
    ws.trust_records.ledger_path(other.project).write_bytes(ws.trust_records.ledger_path(ws.project).read_bytes())
    with pytest.raises(IntegrityError, match="not"):
        other.memories()


def test_a_symlinked_ledger_or_trust_folder_is_refused(tmp_path: Path) -> None:
    ws = fresh_workspace(tmp_path)
    _approve(ws, "a-note", "first")
    path = ws.trust_records.ledger_path(ws.project)
    planted = tmp_path / "planted.json"
    planted.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(planted)
    with pytest.raises(IntegrityError, match="regular file"):
        ws.memories()
    path.unlink()
    path.write_bytes(planted.read_bytes())
    folder = tmp_path / "home" / TRUST_DIR
    os.rename(folder, tmp_path / "elsewhere")
    folder.symlink_to(tmp_path / "elsewhere")
    [state] = ws.propose([_proposal("b-note", "second")])
    with pytest.raises(IntegrityError, match="real directory"):
        ws.apply([state.candidate.id], actor=ACTOR)
    with pytest.raises(IntegrityError, match="real directory"):
        ws.memories()
    assert ws.list_candidates()[0].candidate.id == state.candidate.id  # refused before the commit point


def test_a_user_store_from_before_trust_records_is_adopted_but_a_project_store_is_not(tmp_path: Path) -> None:
    ws = fresh_workspace(tmp_path)
    _approve(ws, "u-note", "mine", scope="user")
    _approve(ws, "p-note", "ours")
    for path in (tmp_path / "home" / TRUST_DIR).glob("*.json"):
        path.unlink()  # as a store from before this version has none
    again = Workspace(ws.root, tmp_path / "home")
    assert _injected(again) == {"u-note"}
    [adopted] = again.log(scope="user", type="memory.trusted")
    assert "adopted" in (adopted.reason or "")
    assert [f.id for f in again.foreign()] == ["p-note"]  # a repository could have planted that one
    again.trust(everything=True, actor=ACTOR)
    assert _injected(again) == {"u-note", "p-note"}


def test_refused_is_not_asked_again_until_the_memory_changes(tmp_path: Path) -> None:
    author = fresh_workspace(tmp_path)
    _approve(author, "a-note", "first")
    me = Workspace(author.root, tmp_path / "me")
    me.refuse(["a-note"], actor=ACTOR, reason="no")
    assert me.foreign() == [] and _injected(me) == set()
    _approve(author, "a-note", "second")
    assert [f.memory.body for f in me.foreign()] == ["second"]
    with pytest.raises(ValidationError, match="not a memory waiting"):
        me.trust(["no-such"], actor=ACTOR)
    me.trust(["a-note"], actor=ACTOR)
    assert _injected(me) == {"a-note"}
    record = json.loads(me.trust_records.ledger_path(me.project).read_bytes())
    assert sorted(record["trusted"].values()) == ["a-note"] and list(record["refused"].values()) == ["a-note"]


def test_a_name_that_changed_while_trust_waited_for_the_lock_is_an_error(tmp_path: Path) -> None:
    """Session 39's re-review: a pinned version that changed between the name check and the lock was skipped
    in silence ("nothing to decide", status 0; the review UI said it had trusted it)."""
    from memory_review.errors import ConflictError
    from memory_review.trust_review import trust_plan, untrusted

    ws = fresh_workspace(tmp_path)
    _approve(ws, "a-note", "first")
    _approve(ws, "b-note", "second")
    stranger = Workspace(ws.root, tmp_path / "stranger-home")
    looks = []

    def as_it_changes(view, ledger):  # the second look is the one under the lock: b-note moved on meanwhile
        found = untrusted(view, ledger)
        looks.append(view)
        return found if len(looks) == 1 else {m: sha for m, sha in found.items() if not m.startswith("b-note")}

    with pytest.raises(ConflictError, match=r"changed while waiting for the store lock: b-note; decided: a-note"):
        stranger._decide("project", as_it_changes, ["a-note", "b-note"], False, lambda c: trust_plan(c, actor=ACTOR))
    assert _injected(stranger) == {"a-note"}
