"""A random stream of operations against one store, as a busy reviewer and a busy agent make them.

Used by the concurrency trials (several processes or threads at once), by the
random-moment SIGKILL trials (a child looping until it is killed) and, through
its building blocks, by the hypothesis state machine. Every success is recorded
with the events it appended, so the parent can prove that no reported success
was lost; every error is recorded by type, so the parent can prove that racing
writers only ever see :class:`ConflictError` or :class:`LockTimeoutError`.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from memory_review.errors import ConflictError, LockTimeoutError, MemoryReviewError
from memory_review.events import Event
from memory_review.proposal import ProposedMemory
from memory_review.record_io import memory_to_json
from memory_review.workspace import CandidateState, Workspace
from tools.reliability.scenario import ACTOR, upsert

EXPECTED_RACE_ERRORS = (ConflictError, LockTimeoutError)
MEMORY_POOL = tuple(f"w{i}" for i in range(6))
WEIGHTS = {"propose": 4, "apply": 4, "discard": 1, "edit": 1, "revert": 1, "delete": 1}


@dataclass
class WorkloadResult:
    """What one worker did: its successes (with their events) and its errors by type."""

    successes: list[dict[str, Any]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"successes": self.successes, "errors": dict(self.errors), "unexpected": self.unexpected}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WorkloadResult:
        return cls(list(data["successes"]), Counter(data["errors"]), list(data["unexpected"]))


def success_record(op: str, events: list[Event], candidate: str | None = None) -> dict[str, Any]:
    """A success as the parent checks it: the op and each event's seq, type and candidate."""
    return {
        "op": op,
        "candidate": candidate,
        "events": [{"seq": e.seq, "type": e.type, "candidate": e.candidate} for e in events],
    }


class Workload:
    """Random operations on ``ws``; ``ops`` chooses among them (``delete`` only when single-writer)."""

    def __init__(self, ws: Workspace, seed: int, *, ops: tuple[str, ...] = tuple(WEIGHTS)) -> None:
        self.ws = ws
        self.rng = random.Random(seed)
        self.ops = ops
        self.actions: dict[str, Callable[[], dict[str, Any] | None]] = {
            "propose": self.propose,
            "apply": self.apply,
            "discard": self.discard,
            "edit": self.edit,
            "revert": self.revert,
            "delete": self.delete,
        }

    def step(self) -> tuple[str, dict[str, Any] | None]:
        """One random operation; returns its name and its success record (None: nothing to do)."""
        name = self.rng.choices(self.ops, weights=[WEIGHTS[o] for o in self.ops])[0]
        return name, self.actions[name]()

    def run(self, count: int, *, on_success: Callable[[dict[str, Any]], None] | None = None) -> WorkloadResult:
        """``count`` steps; expected race errors are counted, anything else is recorded as unexpected."""
        result = WorkloadResult()
        for _ in range(count):
            self.run_step(result, on_success)
        return result

    def run_step(self, result: WorkloadResult, on_success: Callable[[dict[str, Any]], None] | None) -> None:
        """One step into ``result``."""
        try:
            _name, record = self.step()
        except EXPECTED_RACE_ERRORS as exc:
            result.errors[type(exc).__name__] += 1
            return
        except MemoryReviewError as exc:
            result.errors[type(exc).__name__] += 1
            result.unexpected.append(f"{type(exc).__name__}: {exc}")
            return
        if record is not None:
            result.successes.append(record)
            if on_success is not None:
                on_success(record)

    # --- the operations -------------------------------------------------------------------

    def _pending(self) -> list[CandidateState]:
        return self.ws.list_candidates(scope="project")

    def propose(self) -> dict[str, Any]:
        memory_id = self.rng.choice(MEMORY_POOL)
        [state] = self.ws.propose([upsert(memory_id, f"Note {secrets.token_hex(6)} about {memory_id}.")])
        created = [e for e in self.ws.log(candidate=state.candidate.id) if e.type == "candidate.created"]
        return success_record("propose", created, state.candidate.id)

    def apply(self) -> dict[str, Any] | None:
        pending = self._pending()
        if not pending:
            return None
        cid = self.rng.choice(pending).candidate.id
        return success_record("apply", self.ws.apply([cid], actor=ACTOR), cid)

    def discard(self) -> dict[str, Any] | None:
        pending = self._pending()
        if not pending:
            return None
        cid = self.rng.choice(pending).candidate.id
        return success_record("discard", self.ws.discard([cid], actor=ACTOR, reason="workload"), cid)

    def edit(self) -> dict[str, Any] | None:
        editable = [s for s in self._pending() if s.candidate.op in ("create", "update")]
        if not editable:
            return None
        candidate = self.rng.choice(editable).candidate
        after = candidate.changes[0].after
        body = f"Edited {secrets.token_hex(6)}."
        edited = ProposedMemory(id=after.id, type=after.type, description=after.description, body=body)
        self.ws.edit(candidate.id, edited, actor=ACTOR)
        # Another worker may edit the same candidate right after: find our edit by its unique body.
        events = [
            e
            for e in self.ws.log(candidate=candidate.id, type="candidate.edited")
            if e.record and e.record["changes"][0]["after"]["body"] == body
        ]
        return success_record("edit", events, candidate.id)

    def revert(self) -> dict[str, Any] | None:
        target = self._revertible()
        if target is None:
            return None
        return success_record("revert", [self.ws.revert(target.seq, actor=ACTOR)], target.candidate)

    def _revertible(self) -> Event | None:
        """A recent memory-changing event whose changes are all still the current state."""
        view = self.ws.project.view()
        current = {m.id: m for m in view.memories()}
        changed = [e for e in self.ws.log() if e.changes and e.type != "session.written"][-8:]
        live = [e for e in changed if all(_is_current(current, c.memory, c.after) for c in e.changes)]
        return self.rng.choice(live) if live else None

    def delete(self) -> dict[str, Any] | None:
        ids = [m.id for m in self.ws.project.view().memories()]
        if not ids:
            return None
        return success_record("delete", [self.ws.delete(self.rng.choice(ids), actor=ACTOR, scope="project")])


def _is_current(current: dict[str, Any], memory_id: str, after: dict[str, Any] | None) -> bool:
    memory = current.get(memory_id)
    return (memory_to_json(memory) if memory is not None else None) == after
