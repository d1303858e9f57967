"""The property test: a hypothesis state machine driving random operation sequences against a real store.

Rules propose (create, update, delete), apply, edit, discard, revert (forced or
not) and delete, choosing among what exists. A small model — memory id to body —
predicts what every successful step does; a ConflictError is only accepted where
the model says the base went stale. After every step:

- the memories on disk equal the model, and replaying the log equals both;
- every invariant of RELIABILITY.md holds (``check_invariants``, which ends with ``verify``).

This module needs ``hypothesis`` (a test dependency); only the figures script and
the tests import it.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from memory_review.errors import ConflictError, ValidationError
from memory_review.proposal import ProposedMemory
from memory_review.record_io import memory_to_json
from tools.reliability.invariants import check_invariants
from tools.reliability.results import SuiteResult, timed
from tools.reliability.scenario import ACTOR, Trial, delete_proposal, upsert
from tools.reliability.state import replayed_memories

IDS = st.sampled_from(["tabs", "tests", "style", "db"])
BODIES = st.sampled_from(["Use 4 spaces.", "Use tabs.", "Run pytest -x.", "Postgres only.", "No mocks."])
STATS = {"examples": 0, "steps": 0}


class StoreMachine(RuleBasedStateMachine):
    """One throwaway workspace per example; the model is the approved memory, id -> body."""

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="memory-review-hypothesis-"))
        (self.dir / "project").mkdir()
        self.ws = Trial(self.dir).workspace()
        self.ws.init()
        self.model: dict[str, str] = {}
        STATS["examples"] += 1

    def teardown(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)

    def _pending(self, data: st.DataObject, ops: tuple[str, ...] = ("create", "update", "delete")):
        pending = [s for s in self.ws.list_candidates() if s.candidate.op in ops]
        return data.draw(st.sampled_from(pending)) if pending else None

    @rule(memory_id=IDS, body=BODIES)
    def propose(self, memory_id: str, body: str) -> None:
        try:
            self.ws.propose([upsert(memory_id, body)])
        except ValidationError as exc:
            assert self.model.get(memory_id) == body, exc  # only refused when it already says exactly this

    @rule(memory_id=IDS)
    def propose_delete(self, memory_id: str) -> None:
        if memory_id in self.model:
            self.ws.propose([delete_proposal(memory_id)])

    @rule(data=st.data())
    def apply(self, data: st.DataObject) -> None:
        state = self._pending(data)
        if state is None:
            return
        try:
            self.ws.apply([state.candidate.id], actor=ACTOR)
        except ConflictError:
            assert "stale-base" in state.flags, "a ConflictError on a candidate whose base was current"
            return
        assert "stale-base" not in state.flags, "a candidate with a stale base was applied"
        for change in state.candidate.changes:
            self._set(change.memory, change.after.body if change.after else None)

    @rule(data=st.data(), body=BODIES)
    def edit(self, data: st.DataObject, body: str) -> None:
        state = self._pending(data, ("create", "update"))
        if state is not None:
            after = state.candidate.changes[0].after
            edited = ProposedMemory(id=after.id, type=after.type, description=after.description, body=body)
            self.ws.edit(state.candidate.id, edited, actor=ACTOR)

    @rule(data=st.data())
    def discard(self, data: st.DataObject) -> None:
        state = self._pending(data)
        if state is not None:
            self.ws.discard([state.candidate.id], actor=ACTOR, reason="hypothesis")

    @rule(data=st.data(), force=st.booleans())
    def revert(self, data: st.DataObject, force: bool) -> None:
        changed = [e for e in self.ws.log() if e.changes and e.type != "session.written"]
        if not changed:
            return
        event = data.draw(st.sampled_from(changed))
        try:
            self.ws.revert(event.seq, actor=ACTOR, force=force)
        except ConflictError as exc:
            self._check_refused_revert(event, force, exc)
            return
        for change in event.changes:
            self._set(change.memory, change.before["body"] if change.before else None)

    def _check_refused_revert(self, event, force: bool, exc: Exception) -> None:
        """A refused revert must be right: already undone, or moved on and not forced."""
        view = self.ws.project.view()
        records = [(_json(view.memory(c.memory)), c.before, c.after) for c in event.changes]
        if all(now == before for now, before, _ in records):
            return  # already undone: nothing to do, and nothing was written
        assert not force and any(now not in (before, after) for now, before, after in records), exc

    @rule(memory_id=IDS)
    def delete(self, memory_id: str) -> None:
        if memory_id in self.model:
            self.ws.delete(memory_id, actor=ACTOR, scope="project")
            self._set(memory_id, None)

    def _set(self, memory_id: str, body: str | None) -> None:
        if body is None:
            self.model.pop(memory_id, None)
        else:
            self.model[memory_id] = body

    @invariant()
    def disk_equals_log_equals_model(self) -> None:
        STATS["steps"] += 1
        on_disk = {m.id: m.body for m in self.ws.memories()}
        replayed = {mid: rec["body"] for mid, rec in replayed_memories(self.ws.project).items()}
        assert on_disk == replayed == self.model, (on_disk, replayed, self.model)
        problems = check_invariants(self.ws)
        assert not problems, problems


def _json(memory) -> dict | None:
    return memory_to_json(memory) if memory is not None else None


def run_stateful(*, examples: int, steps: int, derandomize: bool = True) -> SuiteResult:
    """Run the machine for ``examples`` sequences of up to ``steps`` steps; any counterexample is a failure."""
    result = SuiteResult("hypothesis state machine", zero=("counterexamples",))
    STATS.update(examples=0, steps=0)
    config = settings(
        max_examples=examples,
        stateful_step_count=steps,
        deadline=None,
        database=None,
        derandomize=derandomize,
        suppress_health_check=list(HealthCheck),
        print_blob=True,
    )
    result.notes.append(
        "rules: propose (create/update), propose a delete, apply, edit, discard, revert "
        "(forced or not), delete; after every step: memories on disk == log replay == model, "
        "and check_invariants() (which ends with verify) finds nothing"
    )
    with timed(result):
        try:
            run_state_machine_as_test(StoreMachine, settings=config)
        except AssertionError as exc:
            result.failures.append(f"counterexample: {exc}")
    result.trials = STATS["examples"]
    result.counts.update(
        {"examples": STATS["examples"], "steps checked": STATS["steps"], "counterexamples": len(result.failures)}
    )
    result.row("random operation sequences").update(examples=STATS["examples"], **{"steps checked": STATS["steps"]})
    return result
