"""A reader that polls like the review UI while writers race, and proves it never saw a mixed state.

The UI calls ``Workspace.list_candidates()`` and ``Workspace.memories()`` over and
over, without the lock. Each answer must be whole: the memories must be exactly
the set the log replays to at *some* seq (never half of a batch, never a memory
without its event), and each listed candidate must be a version of that candidate
the log recorded. Any exception is a failure: a reader never sees an error.
"""

from __future__ import annotations

import threading
import traceback
from types import TracebackType
from typing import Any

from memory_review.candidate import candidate_to_json
from memory_review.events.replay import fold_changes
from memory_review.record_io import memory_from_json, memory_to_json
from tools.reliability.scenario import Trial
from tools.reliability.state import content_digest

MemorySet = frozenset[tuple[str, str]]


class Poller:
    """A thread reading the trial's workspace in a loop until the block ends."""

    def __init__(self, trial: Trial) -> None:
        self.trial = trial
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.memory_sets: set[MemorySet] = set()
        self.candidates: set[tuple[str, str]] = set()
        self.errors: list[str] = []
        self.reads = 0

    def __enter__(self) -> Poller:
        self.thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop.set()
        self.thread.join(30)

    def _loop(self) -> None:
        ws = self.trial.workspace()
        while not self.stop.is_set():
            try:
                memories = ws.memories()
                pending = ws.list_candidates()
            except Exception as exc:  # noqa: BLE001 — any error a reader sees is the finding
                self.errors.append(f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=4)}")
                continue
            # The writers race on the project store; the user store's memories merge in unchanged.
            self.memory_sets.add(
                frozenset((m.id, content_digest(memory_to_json(m))) for m in memories if m.scope == "project")
            )
            self.candidates.update((s.candidate.id, content_digest(candidate_to_json(s.candidate))) for s in pending)
            self.reads += 1

    def check(self) -> list[str]:
        """Problems seen: errors, memory sets no seq of the log replays to, candidates the log never held."""
        problems = [f"poller saw an error: {e}" for e in self.errors[:5]]
        if self.reads == 0:
            problems.append("poller never completed a read")
        states, versions = _log_states(self.trial)
        problems += [f"MIXED memory set read by the poller: {sorted(s)}" for s in self.memory_sets - states]
        problems += [
            f"poller listed candidate {cid} in a version the log never held"
            for cid, digest in sorted(self.candidates - versions)
        ]
        return problems


def _log_states(trial: Trial) -> tuple[set[MemorySet], set[tuple[str, str]]]:
    """Every memory set the log replays to (one per committed batch) and every candidate version it holds."""
    memories: dict[str, dict[str, Any]] = {}
    states: set[MemorySet] = {frozenset()}
    versions: set[tuple[str, str]] = set()
    ws = trial.workspace()
    for event in ws.project.log().read():
        fold_changes(memories, event)
        if not event.more:
            states.add(frozenset((mid, _digest(rec)) for mid, rec in memories.items()))
    for store in (ws.project, ws.user):
        versions |= {
            (e.candidate, content_digest(e.record)) for e in store.log().read() if e.record is not None and e.candidate
        }
    return states, versions


def _digest(record: dict[str, Any]) -> str:
    return content_digest(memory_to_json(memory_from_json(record)))
