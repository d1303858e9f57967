"""Builders shared by the event log tests: records, drafts, forged lines and a realistic history."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson

from memory_review.events import GENESIS, Change, Event, EventDraft, encode_event, line_hash
from tools.reliability.arming import fault_env, unarmed_env

ROOT = Path(__file__).resolve().parents[2]
ORIGIN = "0123456789abcdef"
TS = "2026-11-30T19:55:00.123456Z"


def fixed_clock() -> str:
    """A clock that always says the same time, so logs are byte-for-byte reproducible."""
    return TS


def memory(memory_id: str, body: str, **extra: Any) -> dict[str, Any]:
    """A full memory record as the log stores it (frontmatter fields + body)."""
    record = {
        "id": memory_id,
        "type": "preference",
        "scope": "user",
        "description": f"about {memory_id}",
        "created_at": "2026-05-18T10:30:00Z",
        "updated_at": "2026-05-18T10:30:00Z",
        "applied_from": None,
        "applied_by": "user",
        "sources": [{"session_id": "sess_1", "turn_id": "turn_1", "evidence": "said so"}],
        "related_sessions": [],
        "body": body,
    }
    record.update(extra)
    return record


def created(cid: str, session: str | None = "sess_1") -> EventDraft:
    return EventDraft(
        type="candidate.created",
        actor="agent:claude",
        session=session,
        candidate=cid,
        record={"id": cid, "op": "create", "rationale": "asked for it"},
    )


def applied(cid: str, *changes: Change, session: str | None = "sess_1") -> EventDraft:
    return EventDraft(type="candidate.applied", actor="user", session=session, candidate=cid, changes=changes)


def discarded(cid: str, reason: str | None = "not true") -> EventDraft:
    return EventDraft(type="candidate.discarded", actor="user", candidate=cid, reason=reason)


def recovered(note: str = "note") -> EventDraft:
    return EventDraft(type="store.recovered", actor="system", reason=note)


V1 = memory("pref-indent", "Use 4 spaces.")
V2 = memory("pref-indent", "Use 4 spaces, never tabs.")
T1 = memory("fact-db", "The database is Postgres 16.")

HISTORY: list[EventDraft] = [
    created("cand_a"),  # 1
    applied("cand_a", Change(memory="pref-indent", before=None, after=V1)),  # 2
    created("cand_b", session="sess_2"),  # 3
    EventDraft(
        type="candidate.edited",
        actor="user",
        session="sess_2",
        candidate="cand_b",
        record={"id": "cand_b", "op": "update", "rationale": "edited"},
    ),  # 4
    applied(
        "cand_b",
        Change(memory="pref-indent", before=V1, after=V2),
        Change(memory="fact-db", before=None, after=T1),
        session="sess_2",
    ),  # 5
    created("cand_c"),  # 6
    discarded("cand_c"),  # 7
    EventDraft(
        type="memory.reverted",
        actor="user",
        reverts=5,
        changes=(Change(memory="pref-indent", before=V2, after=V1),),
    ),  # 8
    EventDraft(
        type="context.built",
        actor="agent:claude",
        session="sess_2",
        context={"query": "indent", "ids": [["pref-indent", "ab" * 32]], "block": "cd" * 32},
    ),  # 9
    EventDraft(
        type="session.written",
        actor="agent:claude",
        session="sess_2",
        changes=(Change(memory="sess-note", before=None, after=memory("sess-note", "tmp")),),
    ),  # 10
    EventDraft(
        type="memory.deleted",
        actor="user",
        reason="obsolete",
        changes=(Change(memory="fact-db", before=T1, after=None),),
    ),  # 11
    recovered(),  # 12
]
"""A realistic history touching every event type; the seq of each draft is its position + 1."""

STATES: dict[int, dict[str, dict[str, Any]]] = {
    0: {},
    1: {},
    2: {"pref-indent": V1},
    3: {"pref-indent": V1},
    4: {"pref-indent": V1},
    5: {"pref-indent": V2, "fact-db": T1},
    6: {"pref-indent": V2, "fact-db": T1},
    7: {"pref-indent": V2, "fact-db": T1},
    8: {"pref-indent": V1, "fact-db": T1},
    9: {"pref-indent": V1, "fact-db": T1},
    10: {"pref-indent": V1, "fact-db": T1},
    11: {"pref-indent": V1},
    12: {"pref-indent": V1},
}
"""Durable memory after each seq of HISTORY, written out by hand (session memory is not durable)."""


def chain(drafts: list[EventDraft], *, start_seq: int = 1, prev: str = GENESIS) -> list[bytes]:
    """Encode drafts as consecutive single-event commits, the way append would, without a file."""
    lines = []
    for offset, draft in enumerate(drafts):
        fields = {name: getattr(draft, name) for name in EventDraft.model_fields}
        event = Event(**fields, seq=start_seq + offset, prev=prev, ts=TS, origin=ORIGIN)
        line = encode_event(event)
        lines.append(line)
        prev = line_hash(line)
    return lines


def raw_line(**fields: Any) -> bytes:
    """A line forged with orjson directly, bypassing every model check (to plant damage)."""
    base = {"v": 1, "ts": TS, "origin": ORIGIN, "actor": "system", "type": "store.recovered"}
    base.update(fields)
    return orjson.dumps(base, option=orjson.OPT_SORT_KEYS) + b"\n"


def forged_chain(specs: list[dict[str, Any]]) -> list[bytes]:
    """Raw lines whose ``prev`` chains unless a spec sets its own; each spec gives its ``seq``."""
    lines, prev = [], GENESIS
    for spec in specs:
        line = raw_line(**{"prev": prev, **spec})
        lines.append(line)
        prev = line_hash(line)
    return lines


def flip(path: Path, offset: int, mask: int = 0x01) -> None:
    """Flip bits of one byte of a file in place, like a bad disk sector or a stray edit."""
    data = bytearray(path.read_bytes())
    data[offset] ^= mask
    path.write_bytes(bytes(data))


def line_offsets(path: Path) -> list[int]:
    """The byte offset where each line of a file starts."""
    offsets, position = [], 0
    for line in path.read_bytes().splitlines(keepends=True):
        offsets.append(position)
        position += len(line)
    return offsets


CHILD_APPEND = """
import sys
from pathlib import Path
from memory_review.events import EventDraft, EventLog
log = EventLog(Path(sys.argv[1]), origin="0123456789abcdef")
count = int(sys.argv[2])
log.append([EventDraft(type="store.recovered", actor="system", reason=f"new {i}")
            for i in range(count)])
print("committed")
"""


def run_child(code: str, *args: str, fault: str | None) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter, armed by the test harness when ``fault`` is set."""
    env = unarmed_env()
    if fault is not None:
        env.update(fault_env(fault))
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
