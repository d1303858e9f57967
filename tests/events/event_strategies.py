"""Hypothesis strategies for events: any valid draft or stored event (shared by the model tests)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from hypothesis import strategies as st

from memory_review.events import CHANGE_TYPES, MEMORY_TYPES, PERSON_TYPES, Change, Event, EventDraft

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
objects = st.dictionaries(st.text(max_size=8).filter(lambda k: k != "id"), values, max_size=4)
_ids = st.sampled_from(["m1", "m2", "pref-x", "fact-\u6d4b\u8bd5"])
_names = st.text(min_size=1, max_size=20)
_hex64 = st.text("0123456789abcdef", min_size=64, max_size=64)
_timestamps = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2999, 12, 31)).map(
    lambda moment: moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
)


@st.composite
def _changes(draw: st.DrawFn, *, deleting: bool = False) -> tuple[Change, ...]:
    memories = draw(st.lists(_ids, min_size=1, max_size=3, unique=True))
    result = []
    for memory_id in memories:
        before = draw(st.none() | objects) if not deleting else draw(objects)
        after = None if deleting else draw(objects if before is None else st.none() | objects)
        result.append(Change(memory=memory_id, before=before, after=after))
    return tuple(result)


@st.composite
def drafts(draw: st.DrawFn) -> EventDraft:
    """Any draft that meets the rules of its type."""
    kind = draw(
        st.sampled_from(
            sorted(
                CHANGE_TYPES
                | {
                    "candidate.created",
                    "candidate.edited",
                    "candidate.discarded",
                    "context.built",
                    "store.recovered",
                }
            )
        )
    )
    fields: dict[str, Any] = {
        "type": kind,
        "session": draw(st.none() | _names),
        "reason": draw(st.none() | st.text(max_size=30)),
    }
    fields["actor"] = "user" if kind in PERSON_TYPES else draw(st.sampled_from(["user", "system", "agent:x"]))
    if kind.startswith("candidate."):
        fields["candidate"] = draw(_names)
    if kind in ("candidate.created", "candidate.edited"):
        fields["record"] = draw(objects)
    if kind in MEMORY_TYPES or (kind == "session.written" and draw(st.booleans())):
        fields["changes"] = draw(_changes(deleting=kind == "memory.deleted"))
    if kind == "memory.reverted":
        fields["reverts"] = draw(st.integers(1, 10**6))
        fields["forced"] = draw(st.none() | st.booleans())
    if kind == "context.built":
        fields["context"] = draw(objects)
    return EventDraft(**fields)


@st.composite
def events(draw: st.DrawFn) -> Event:
    draft = draw(drafts())
    fields = {name: getattr(draft, name) for name in EventDraft.model_fields}
    return Event(
        **fields,
        seq=draw(st.integers(1, 2**40)),
        prev=draw(_hex64),
        ts=draw(_timestamps),
        origin=draw(_names),
        more=draw(st.sampled_from([None, True])),
    )
