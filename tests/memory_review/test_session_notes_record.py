"""The record of the session notes this machine wrote (``<user store>/trust/<key>.notes``) stays bounded.

Only notes recorded there are served (the F5 attack: a clone's store brings notes for any session id). A session
writing and rewriting notes, or a long life of sessions, must not grow it past its read limit: it keeps the
last sessions' notes, and a note rewritten replaces its old hash.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from workspace_kit import fresh_workspace

from memory_review.limits import MAX_SESSION_MEMORIES
from memory_review.proposal import ProposedMemory
from memory_review.trust import MAX_NOTED_SESSIONS, MAX_NOTES_BYTES, SessionNotes


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _note(memory_id: str, body: str) -> ProposedMemory:
    return ProposedMemory(id=memory_id, type="fact", description=f"about {memory_id}", body=body)


def test_the_oldest_sessions_notes_go_and_a_rewritten_session_is_the_newest(tmp_path: Path) -> None:
    ws = fresh_workspace(tmp_path)
    sessions = [f"s{i:03d}" for i in range(MAX_NOTED_SESSIONS + 2)]
    for session in sessions:
        ws.write_session_memory(session, _note("scratch", f"note of {session}"))
    ws.write_session_memory(sessions[0], _note("again", "the first session wrote again"))  # now the newest
    assert [m.id for m in ws.session_memories(sessions[0])] == ["again"]  # its first note aged out
    assert ws.session_memories(sessions[1]) == [] == ws.session_memories(sessions[2])
    assert [m.body for m in ws.session_memories(sessions[-1])] == [f"note of {sessions[-1]}"]
    record = ws.trust_records.session_notes(ws.project)
    assert len(record.sessions) == MAX_NOTED_SESSIONS and list(record.sessions)[-1] == sessions[0]


def test_a_rewritten_note_replaces_its_hash_and_the_worst_case_fits_the_read_limit(tmp_path: Path) -> None:
    ws = fresh_workspace(tmp_path)
    for body in ("first", "second", "third"):
        ws.write_session_memory("s1", _note("scratch", body))
    assert [m.body for m in ws.session_memories("s1")] == ["third"]
    assert len(ws.trust_records.session_notes(ws.project).sessions["s1"]) == 1

    worst = SessionNotes(tmp_path / "x.notes", "/" + "d" * 4000)
    for s in range(MAX_NOTED_SESSIONS + 10):
        session = f"{s:03d}".ljust(128, "s")  # the longest session id
        worst.note({session: {f"{n:03d}".ljust(64, "m"): _sha(f"{s} {n}") for n in range(MAX_SESSION_MEMORIES + 5)}})
    assert len(worst.sessions) == MAX_NOTED_SESSIONS
    assert all(len(notes) == MAX_SESSION_MEMORIES for notes in worst.sessions.values())
    assert len(worst.to_bytes()) < MAX_NOTES_BYTES // 2
