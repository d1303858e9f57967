"""Building big stores fast: the project's own encoders, without an fsync per item.

A store of 10,000 memories built through the commit path would spend minutes in
fsyncs that measure nothing. So the log lines are encoded here (``encode_event``
for the store logs; plain sorted-key orjson, checked against ``decode_event``,
for the multi-million-line replay logs), the memory files are written with
``render_memory``, and the store's own recovery then rolls the manifest forward
from the log — exactly what the first command after a crash would do. One
``os.sync()`` at the end so the benchmarks do not pay for the builder's dirty pages.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from memory_review.events import GENESIS, Change, Event, decode_event, encode_event, line_hash
from memory_review.models import Memory
from memory_review.proposal import Evidence, ProposedMemory, UpsertProposal
from memory_review.record_io import memory_to_json, render_memory
from memory_review.store import Store
from memory_review.workspace import Workspace

NOW = "2026-11-30T12:00:00Z"
TS = "2026-11-30T12:00:00.000000Z"
ORIGIN = "0123456789abcdef"
TYPES = ("preference", "convention", "fact", "fact", "convention")
WORDS = [
    "database",
    "tests",
    "container",
    "postgres",
    "migration",
    "deploy",
    "staging",
    "lint",
    "format",
    "indent",
    "spaces",
    "logging",
    "retries",
    "timeout",
    "cache",
    "index",
    "schema",
    "review",
    "branch",
    "release",
    "docs",
    "api",
    "client",
    "server",
    "queue",
    "worker",
    "metrics",
    "alert",
    "config",
    "secret",
    "token",
    "build",
    "wheel",
    "package",
    "import",
    "typing",
]


def _words(i: int, count: int) -> str:
    return " ".join(WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(count))


def memory_record(i: int, scope: str) -> Memory:
    """The i-th synthetic memory: a realistic size (about 600 bytes as a file), varied types and ages."""
    kind = "forbidden" if i % 97 == 0 else TYPES[i % len(TYPES)]
    day = 1 + i % 28
    month = 1 + (i // 28) % 11
    stamp = f"2026-{month:02d}-{day:02d}T10:{i % 60:02d}:00Z"
    return Memory(
        id=f"{kind[:4]}-bench-{i:07d}",
        type=kind,
        scope=scope,
        description=f"Benchmark note {i}: {_words(i, 6)}",
        created_at=stamp,
        updated_at=stamp,
        applied_from=f"cand_{i:026d}",
        applied_by="bench",
        sources=(
            {
                "session_id": f"sess-{i % 50}",
                "turn_id": f"t{i % 9}",
                "evidence": f"user said: always {_words(i + 1, 8)}",
            },
        ),
        body=f"{_words(i, 25)}.\nAlways {_words(i + 3, 12)}; never {_words(i + 5, 6)}.",
    )


def proposal(i: int, scope: str, *, prefix: str = "prop") -> UpsertProposal:
    """A plain create proposal for a new memory (no flags: bulk apply skips flagged ones)."""
    return UpsertProposal(
        op="create",
        scope=scope,
        session_id=f"sess-{i % 50}",
        rationale=f"said twice in session {i % 50}",
        memory=ProposedMemory(
            id=f"{prefix}-{i:07d}",
            type=TYPES[i % len(TYPES)],
            description=f"Proposed note {i}: {_words(i, 6)}",
            body=f"{_words(i, 30)}.\nPrefer {_words(i + 2, 10)}.",
        ),
        evidence=(Evidence(quote=f"please {_words(i + 4, 8)}", session_id=f"sess-{i % 50}", turn_id="t1"),),
    )


def workspace(root: Path) -> Workspace:
    """A workspace whose project and user stores both live under ``root``."""
    project = root / "project"
    project.mkdir(parents=True, exist_ok=True)
    return Workspace(project, root / "user", lock_timeout=60)


def filled_project(root: Path, count: int) -> Workspace:
    """A git project under ``root`` whose two stores hold ``count`` approved memories between them."""
    ws = workspace(root)
    fill_store(ws.user, count // 2)
    fill_store(ws.project, count - count // 2, start=count // 2)
    subprocess.run(["git", "init", "-q", str(ws.root)], check=True)
    return ws


def fill_store(store: Store, count: int, *, start: int = 0) -> None:
    """Give a new ``store`` ``count`` approved memories: log and files written directly, then recovery."""
    memories = [memory_record(start + i, store.scope) for i in range(count)]
    store.memory_dir.mkdir(parents=True, exist_ok=True)
    for memory in memories:
        data = render_memory(memory)
        name = f"{memory.id}-{hashlib.sha256(data).hexdigest()[:12]}.md"
        (store.memory_dir / name).write_bytes(data)
    _write_log(store.log_path, (draft for memory in memories for draft in _proposed_then_applied(memory)))
    store.compact()  # the manifest, MEMORY.md and derived files from the log (docs/adr/0029)
    os.sync()


def trust_filled(ws: Workspace) -> None:
    """Trust what :func:`fill_store` wrote, as a person here would: a log this machine did not write is
    foreign (ADR 0021), and a benchmark of an untrusted store would measure a block without its memories."""
    ws.trust(everything=True, actor="bench")


def _proposed_then_applied(memory: Memory) -> Iterator[dict[str, Any]]:
    """A reviewed apply: verify serves only an apply that writes what its candidate proposed (ADR 0025)."""
    record = memory_to_json(memory)
    yield {
        "type": "candidate.created",
        "actor": "agent:bench",
        "candidate": memory.applied_from,
        "record": {**_record(memory.applied_from, record), "op": "create", "scope": memory.scope},
    }
    yield _applied(memory)


def _applied(memory: Memory) -> dict[str, Any]:
    change = Change(memory=memory.id, before=None, after=memory_to_json(memory))
    return {"type": "candidate.applied", "actor": "bench", "candidate": memory.applied_from, "changes": (change,)}


def _write_log(path: Path, drafts: Iterator[dict[str, Any]]) -> None:
    prev, lines = GENESIS, []
    for seq, fields in enumerate(drafts, 1):
        line = encode_event(Event(**fields, seq=seq, prev=prev, ts=TS, origin=ORIGIN))
        prev = line_hash(line)
        lines.append(line)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(lines))


# --- the long logs of the replay benchmarks -----------------------------------------------


class ReplayLogWriter:
    """Writes a realistic event mix fast: per memory slot, created → applied, plus contexts and discards.

    The lines are canonical (sorted keys, orjson) and chained; the first cycle is
    decoded with ``decode_event`` so a drift from the real encoding fails loudly.
    """

    SLOTS = 2_000  # memories in the store; updates cycle over them with correct ``before``

    def __init__(self) -> None:
        self.records: dict[str, dict[str, Any]] = {}
        self.candidate = 0

    def write(self, path: Path, count: int) -> int:
        """Write ``count`` events to ``path``; returns the file size in bytes."""
        prev, seq = GENESIS, 0
        with open(path, "wb") as out:
            for fields in self._events():
                if seq == count:
                    break
                seq += 1
                fields.update(seq=seq, prev=prev, ts=TS, origin=ORIGIN, v=1)
                line = orjson.dumps(fields, option=orjson.OPT_SORT_KEYS) + b"\n"
                if seq <= 10:
                    decode_event(line, path=path, line_no=seq)  # must be what the log would write
                prev = hashlib.sha256(line).hexdigest()
                out.write(line)
        return path.stat().st_size

    def _events(self) -> Iterator[dict[str, Any]]:
        i = 0
        while True:
            i += 1
            yield from self._cycle(i)

    def _cycle(self, i: int) -> Iterator[dict[str, Any]]:
        slot = i % self.SLOTS
        memory = _small_memory(slot, i)
        created, applied = self._candidate_id(), self._candidate_id()
        yield {
            "type": "candidate.created",
            "actor": "agent:bench",
            "candidate": created,
            "session": f"sess-{i % 50}",
            "record": _record(created, memory),
        }
        before = self.records.get(memory["id"])
        yield {
            "type": "candidate.applied",
            "actor": "bench",
            "candidate": created,
            "changes": [{"memory": memory["id"], "before": before, "after": memory}],
        }
        self.records[memory["id"]] = memory
        for turn in range(3):
            yield {
                "type": "context.built",
                "actor": f"agent:sess-{i % 50}",
                "session": f"sess-{i % 50}",
                "context": _context(i, turn),
            }
        yield {
            "type": "candidate.created",
            "actor": "agent:bench",
            "candidate": applied,
            "session": f"sess-{i % 50}",
            "record": _record(applied, memory),
        }
        yield {"type": "candidate.discarded", "actor": "bench", "candidate": applied, "reason": "one-off"}

    def _candidate_id(self) -> str:
        self.candidate += 1
        return f"cand_{self.candidate:026d}"


def _small_memory(slot: int, i: int) -> dict[str, Any]:
    """A short memory record (the log of a long-lived store is mostly small notes and contexts)."""
    return memory_to_json(
        Memory(
            id=f"note-{slot:05d}",
            type=TYPES[slot % len(TYPES)],
            scope="project",
            description=f"note {slot} rev {i}",
            created_at=NOW,
            updated_at=NOW,
            applied_by="bench",
            body=_words(i, 10),
        )
    )


def _record(candidate: str, memory: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": candidate,
        "op": "update",
        "scope": "project",
        "rationale": "said twice",
        "changes": [{"memory": memory["id"], "before": None, "after": memory}],
        "base": {memory["id"]: None},
        "diff": "",
        "evidence": [],
        "flags": [],
        "proposer": {"kind": "agent", "name": "bench"},
        "priority": "medium",
        "session_id": None,
        "created_at": NOW,
    }


def _context(i: int, turn: int) -> dict[str, Any]:
    included = [
        {
            "id": f"fact-bench-{(i + k) % 2000:07d}",
            "scope": "project",
            "type": "fact",
            "sha256": hashlib.sha256(f"{i}-{k}".encode()).hexdigest(),
        }
        for k in range(3)
    ]
    return {
        "query": None,
        "budget_bytes": 25000,
        "budget_lines": 200,
        "now": NOW,
        "sha256": hashlib.sha256(f"{i}-{turn}".encode()).hexdigest(),
        "user_seq": 0,
        "included": included,
    }
