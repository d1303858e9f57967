"""The replay fold: the log alone rebuilds durable memory at every seq."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from events_testkit import HISTORY, ORIGIN, STATES, chain, fixed_clock, memory
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples

from memory_review.events import (
    MEMORY_TYPES,
    Change,
    Event,
    EventDraft,
    EventLog,
    ReplayError,
    ReplayState,
    apply_event,
    decode_event,
    replay,
)


def _history_events() -> list[Event]:
    return [decode_event(line, path="p", line_no=n) for n, line in enumerate(chain(HISTORY), 1)]


@pytest.mark.parametrize("seq", sorted(STATES))
def test_replay_at_each_seq(seq: int) -> None:
    state = replay(_history_events(), at=seq)
    assert state.seq == seq
    assert state.memories == STATES[seq]


def test_replay_of_the_log_file(log: EventLog) -> None:
    for draft in HISTORY:
        log.append([draft])
    assert replay(log).memories == STATES[12]
    # Folding only the memory-changing events (seqs skip) reaches the same memory.
    only_changes = replay(log.read(type=MEMORY_TYPES))
    assert only_changes.memories == STATES[12] and only_changes.seq == 11


def test_apply_event_is_pure() -> None:
    events = _history_events()
    before = replay(events, at=4)
    snapshot = {k: dict(v) for k, v in before.memories.items()}
    after = apply_event(before, events[4])
    assert before.seq == 4 and before.memories == snapshot
    assert after.seq == 5 and after.memories == STATES[5]


def test_state_does_not_share_dicts_with_events() -> None:
    events = _history_events()
    state = replay(events, at=2)
    state.memories["pref-indent"]["body"] = "edited by a careless caller"
    assert events[1].changes is not None and events[1].changes[0].after == STATES[2]["pref-indent"]


def test_session_writes_are_not_durable_memory() -> None:
    events = _history_events()
    assert events[9].type == "session.written"
    assert replay(events, at=10).memories == replay(events, at=9).memories


def test_folding_out_of_order_is_refused() -> None:
    events = _history_events()
    with pytest.raises(ReplayError):
        apply_event(replay(events, at=5), events[2])
    with pytest.raises(ReplayError):
        replay([events[3], events[1]])
    with pytest.raises(ReplayError):
        replay(events, at=2, initial=replay(events, at=5))


def test_at_beyond_the_end_stops_at_the_last_event() -> None:
    assert replay(_history_events(), at=999).seq == 12
    assert replay([]) == ReplayState(0, {})


# --- property: a random consistent history, folded in parts, appended in random batches -----


@st.composite
def histories(draw: st.DrawFn) -> list[EventDraft]:
    """Drafts creating, updating, deleting and reverting a few memories, each before = current."""
    current: dict[str, dict[str, Any]] = {}
    changed: list[int] = []
    drafts: list[EventDraft] = []
    for _ in range(draw(st.integers(1, 25))):
        kind = draw(st.sampled_from(["apply", "apply", "delete", "revert", "other"]))
        drafts.append(_next(draw, kind, current, changed, len(drafts) + 1))
        if drafts[-1].changes:
            changed.append(len(drafts))
            for change in drafts[-1].changes:
                current.pop(change.memory, None) if change.after is None else current.update(
                    {change.memory: change.after}
                )
    return drafts


def _next(draw: st.DrawFn, kind: str, current: dict[str, Any], changed: list[int], seq: int) -> EventDraft:
    if kind == "delete" and current:
        memory_id = draw(st.sampled_from(sorted(current)))
        return EventDraft(
            type="memory.deleted",
            actor="user",
            changes=(Change(memory=memory_id, before=current[memory_id], after=None),),
        )
    if kind == "revert" and current and changed:
        memory_id = draw(st.sampled_from(sorted(current)))
        return EventDraft(
            type="memory.reverted",
            actor="user",
            reverts=draw(st.sampled_from(changed)),
            forced=True,
            changes=(Change(memory=memory_id, before=current[memory_id], after=None),),
        )
    if kind == "other":
        return EventDraft(type="store.recovered", actor="system", reason=f"step {seq}")
    ids = draw(st.lists(st.sampled_from(["m1", "m2", "m3", "m4"]), min_size=1, max_size=3, unique=True))
    changes = tuple(Change(memory=i, before=current.get(i), after=memory(i, f"body {seq} {i}")) for i in ids)
    return EventDraft(type="candidate.applied", actor="user", candidate=f"cand_{seq}", changes=changes)


def _events_of(drafts: list[EventDraft]) -> list[Event]:
    return [decode_event(line, path="p", line_no=n) for n, line in enumerate(chain(drafts), 1)]


@settings(max_examples=examples(150), deadline=None)
@given(histories(), st.data())
def test_replaying_in_two_parts_equals_replaying_whole(drafts: list[EventDraft], data: st.DataObject) -> None:
    events = _events_of(drafts)
    split = data.draw(st.integers(0, len(events)))
    whole = replay(events)
    first = replay(events[:split])
    assert replay(events[split:], initial=first) == whole
    assert replay(events, at=split) == first
    folded = ReplayState()
    for event in events:
        folded = apply_event(folded, event)
    assert folded == whole


@settings(max_examples=examples(60), deadline=None)
@given(histories(), st.data())
def test_appending_in_random_batches_reads_back_and_verifies(drafts: list[EventDraft], data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        log = EventLog(Path(folder) / "events.jsonl", origin=ORIGIN, clock=fixed_clock)
        rest = list(drafts)
        while rest:
            size = data.draw(st.integers(1, len(rest)))
            log.append(rest[:size], expect=log.head())
            rest = rest[size:]
        report = log.verify()
        assert report.ok, report.problems
        assert report.events == len(drafts) == log.head().seq
        read = list(log)
        assert [e.seq for e in read] == list(range(1, len(drafts) + 1))
        assert replay(read) == replay(_events_of(drafts))
