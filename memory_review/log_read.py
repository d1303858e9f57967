"""What ``Workspace.log`` returns: a store's events, filtered, with the raises among them read as raises.

A repeated rule raising a pending candidate is stored as a ``candidate.edited`` by the candidate's own
proposer (docs/adr/0050); what a person reads in it is derived by ``history.raise_of`` against the record
it replaced. :class:`LoggedEvents` is the list of events as the log holds them, and beside it the raises
among them, by seq: ``log`` says "raised to high by …" from them, and ``log --json`` gives each raised
event, as stored, one more key: ``raised`` (the fields of :class:`~memory_review.history.Raise`). Every
other event's JSON is its stored line.

A filter a raise can pass (``--session``, ``--candidate``, ``--type candidate.edited``; a raise changes no
memory, so never ``--memory``) reads more than the events it lists. The record each edit replaced may lie
outside the filter (``--type candidate.edited`` leaves out the ``candidate.created`` before it), so the
records of the candidates in question are read too. And a raise belongs to two sessions: it carries its
candidate's first session (``event.session``, which the log's own filter matches), and it was found again
in others, its new quotes' sessions; ``--session B`` lists the raises found in ``B`` as well, in log
order, once.
Both reads stop at the head the log had when the command began, so they see the same events. The
unfiltered log reads the log once and finds the raises among its own events only when asked.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any

import orjson
from pydantic import BaseModel, ConfigDict, PlainSerializer, SerializerFunctionWrapHandler, model_serializer

from memory_review.events import Event, EventLog, encode_event
from memory_review.history import Raise, raises
from memory_review.reviewed import RECORD_TYPES

EDITED = "candidate.edited"
"""The type of a raise (and of a person's edit)."""


class LoggedEvents(list[Event]):
    """Events of one log, in log order, and the raises among them (:attr:`raises`, by seq)."""

    def __init__(self, events: Iterable[Event], find: Callable[[], Mapping[int, Raise]] | None = None) -> None:
        super().__init__(events)
        self._find = find if find is not None else functools.partial(raises, self)

    @functools.cached_property
    def raises(self) -> dict[int, Raise]:
        """The raises among these events, by seq (ADR 0050: a ``candidate.edited`` that is no person's edit)."""
        found = self._find()
        return {event.seq: found[event.seq] for event in self if event.seq in found}

    def document(self) -> list[Event | RaisedEvent]:
        """``log --json``: each event (its JSON is its stored line), a raise as a :class:`RaisedEvent`; a plain
        list, which ``cli_render.to_json`` dumps item by item."""
        raised = self.raises
        return [RaisedEvent.model_construct(event=e, raised=raised[e.seq]) if e.seq in raised else e for e in self]


def sessions_of(event: Event, raises: Mapping[int, Raise]) -> list[str]:
    """The sessions ``event`` belongs to: its own, and, for a raise, each session it was found again in."""
    own = [event.session] if event.session else []
    found = raises.get(event.seq)
    return own + [s for s in found.sessions if s not in own] if found is not None else own


def _stored(event: Event) -> Any:
    return orjson.loads(encode_event(event))  # exactly as the log holds it


class RaisedEvent(BaseModel):
    """A raise in ``log --json``: the event's stored fields, then ``raised`` (the fields of its ``Raise``).

    Only raises are wrapped: every other event stays an ``Event``, whose JSON is its stored line, so the
    document of a log with no raise is what it always was, and costs what it did."""

    model_config = ConfigDict(frozen=True, defer_build=True)
    event: Annotated[Event, PlainSerializer(_stored)]
    raised: Raise

    @model_serializer(mode="wrap")
    def _flat(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        dumped = handler(self)
        return {**dumped["event"], "raised": dumped["raised"]}


def read_log(
    log: EventLog,
    *,
    session: str | None = None,
    type: str | None = None,
    memory: str | None = None,
    candidate: str | None = None,
) -> LoggedEvents:
    """The events matching every filter given, and, with ``session``, the raises found again in it."""
    if session is None and type is None and memory is None and candidate is None:
        return LoggedEvents(log.read())  # the whole log: its own records say which events are raises
    if memory is not None or type not in (None, EDITED):
        # A raise is a candidate.edited, which changes no memory: none can be among these events.
        return LoggedEvents(log.read(session=session, type=type, memory=memory, candidate=candidate), dict)
    head = log.head().seq
    records = list(log.read(type=RECORD_TYPES, candidate=candidate, stop=head))
    found = raises(records)
    events = list(log.read(session=session, type=type, candidate=candidate, stop=head))
    if session is not None:
        listed = {event.seq for event in events}
        again = [e for e in records if e.seq in found and session in found[e.seq].sessions and e.seq not in listed]
        events = sorted([*events, *again], key=lambda event: event.seq)
    return LoggedEvents(events, lambda: found)
