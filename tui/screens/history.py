"""The history screen: both stores' event logs as one timeline, newest first.

Filter with ``/`` (words, or ``type:`` ``session:`` ``memory:`` ``scope:``
terms); the details show any event's before → after. ``r`` reverts the selected
change: an apply, a delete or a revert by a recorded ``memory.reverted`` (a
forced revert is offered on conflict), an edit by restoring the record it
replaced.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.message import Message

from memory_review.candidate import candidate_from_json
from memory_review.errors import ConflictError, MemoryReviewError
from memory_review.events import MEMORY_TYPES, Event
from memory_review.history import Raise, raise_of, records_before
from memory_review.models import DurableScope
from memory_review.safety import visible_form
from memory_review.tui.actions import editable_record, restore_record_op, revert_op
from memory_review.tui.bulk import bulk_read
from memory_review.tui.format import EVENT_STYLE, RAISED, event_subject
from memory_review.tui.render import event_detail
from memory_review.tui.screens.base import FilteredScreen
from memory_review.tui.screens.confirm import confirm
from memory_review.tui.widgets.detail import DetailPane
from memory_review.tui.widgets.filter_bar import SYNTAX, FilterBar, matches
from memory_review.tui.widgets.row_table import Column, Row, RowTable
from memory_review.workspace import DURABLE

COLUMNS = (
    Column("store", 7),
    Column("seq", 5),
    Column("age", 4, live=True),
    Column("type", 19, styler=lambda t: EVENT_STYLE.get(t, "")),
    Column("actor", 14, style="dim"),
    Column("about", None, style="bold", min_width=10),
    Column("session", None, style="dim", min_width=8, hide_below=96),
)


@dataclass(frozen=True)
class LoggedEvent:
    """An event and the store whose log holds it."""

    scope: DurableScope
    event: Event

    @property
    def key(self) -> str:
        return f"{self.scope}:{self.event.seq}"

    def memories(self) -> list[str]:
        return [c.memory for c in self.event.changes or ()]


def befores(logs: Mapping[DurableScope, list[Event]]) -> dict[str, Mapping]:
    """For each ``candidate.edited``, by its key, the record of that candidate it replaced (in its own log)."""
    pairs = ((scope, records_before(events)) for scope, events in logs.items())
    return {f"{scope}:{seq}": record for scope, before in pairs for seq, record in before.items()}


def timeline(logs: Mapping[DurableScope, list[Event]]) -> list[LoggedEvent]:
    """Both logs merged, newest first (by timestamp, then store, then seq)."""
    merged = [LoggedEvent(scope, e) for scope, events in logs.items() for e in events]
    return sorted(merged, key=lambda item: (item.event.ts, item.scope, item.event.seq), reverse=True)


def event_fields(item: LoggedEvent) -> dict[str, str]:
    """An event's values for the filter's ``field:value`` terms (tui.widgets.filter_bar)."""
    e = item.event
    return {
        "type": e.type,
        "session": (e.session or "").lower(),
        "scope": item.scope,
        "memory": " ".join(item.memories()).lower(),
    }


class HistoryScreen(FilteredScreen):
    """The timeline and the selected event's details."""

    table_id = "#events"

    BINDINGS = [
        Binding("r", "revert", "Revert"),
        Binding("slash", "filter", "Filter"),
    ]

    class Loaded(Message):
        """Both logs, merged, with each event's search text and row (built by the loader)."""

        def __init__(
            self, items: list[LoggedEvent], haystacks: dict[str, str], rows: dict[str, Row], before: dict[str, Mapping]
        ) -> None:
            super().__init__()
            self.items = items
            self.before = before
            self.haystacks = haystacks
            self.rows = rows

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[str, LoggedEvent] = {}
        self.order: list[str] = []
        self.haystacks: dict[str, str] = {}
        self.rows: dict[str, Row] = {}
        self.before: dict[str, Mapping] = {}  # the record each candidate.edited replaced: a raise is no edit
        self.filter_text = ""

    def compose(self) -> ComposeResult:
        header, footer = self.chrome()
        yield header
        with Container(id="main"):
            yield RowTable(COLUMNS, id="events", empty_text="loading…")
            yield DetailPane(id="detail")
        yield FilterBar(
            placeholder=f"filter: {SYNTAX}",
            id="filter",
        )
        yield footer

    def on_mount(self) -> None:
        self.query_one("#events", RowTable).focus()
        super().on_mount()

    @work(thread=True, exclusive=True, group="load-history", exit_on_error=False)
    def load(self) -> None:
        try:
            with bulk_read() as read:  # a long log is hundreds of thousands of objects
                logs = {scope: self.ws.log(scope=scope) for scope in DURABLE}
                items = timeline(logs)
                self.before = befores(logs)  # before the rows: _row reads it (this worker alone writes it)
                # Search texts and rows are built here too, off the UI thread (~10 µs an event).
                haystacks = {item.key: self._haystack(item) for item in items}
                rows = {item.key: self._row(item) for item in items}
                read.kept = len(items)
        except MemoryReviewError as exc:
            self.post_message(self.LoadFailed(exc))
            return
        self.post_message(self.Loaded(items, haystacks, rows, self.before))

    def on_history_screen_loaded(self, message: Loaded) -> None:
        self.items = {item.key: item for item in message.items}
        self.order = [item.key for item in message.items]
        self.haystacks = message.haystacks
        self.rows = message.rows
        self.before = message.before
        self.loaded = True
        self.refresh_rows()

    def _haystack(self, item: LoggedEvent) -> str:
        e = item.event
        raised = self._raised(item)
        return " ".join(
            [
                item.scope,
                e.type,
                visible_form(e.actor),
                visible_form(e.session or ""),
                e.candidate or "",
                event_subject(e, self.display_opts),
                visible_form(e.reason or ""),
                raised.describe() if raised else "",
            ]
        ).lower()

    def refresh_rows(self) -> None:
        """Rebuild the timeline rows (after a load or a change of filter)."""
        query = self.filter_text
        shown = [k for k in self.order if matches(self.haystacks[k], query, event_fields(self.items[k]))]
        table = self.query_one("#events", RowTable)
        if self.loaded:
            table.empty_text = self.empty_text(len(self.order), "the logs are empty")
        table.set_rows([self.rows[k] for k in shown])
        total = (
            f"{len(shown)} of {len(self.order)} events"
            if len(shown) != len(self.order)
            else (f"{len(self.order)} events")
        )
        table.border_title = f"History · {total}, newest first"
        if not table.rows:
            self.query_one("#detail", DetailPane).show("")

    def _raised(self, item: LoggedEvent) -> Raise | None:
        return raise_of(item.event, self.before.get(item.key))

    def _row(self, item: LoggedEvent) -> Row:
        e = item.event
        raised = self._raised(item)
        subject = event_subject(e, self.display_opts)
        cells = (
            item.scope,
            str(e.seq),
            e.ts,  # live: shown as its age when drawn
            RAISED if raised else e.type,
            visible_form(e.actor),  # the log is the repository's: its names may hold escape sequences
            f"{subject} — {raised.describe()}" if raised else subject,
            visible_form(e.session or ""),
        )
        return Row(item.key, cells)

    @on(RowTable.Highlighted, "#events")
    def _show_event(self, message: RowTable.Highlighted) -> None:
        item = self.items.get(message.key) if message.key else None
        if item is not None:
            detail = event_detail(item.event, item.scope, self.display_opts, self.before.get(item.key))
            self.query_one("#detail", DetailPane).show(detail)

    def current(self) -> LoggedEvent | None:
        """The event under the cursor."""
        key = self.query_one("#events", RowTable).highlighted_key
        return self.items.get(key) if key else None

    # --- reverting ----------------------------------------------------------------------------

    def action_revert(self) -> None:
        item = self.current()
        if item is None:
            return
        if item.event.type in MEMORY_TYPES:
            self._ask_revert(item)
        elif item.event.type == "candidate.edited":
            self._ask_restore(item)
        else:
            self.notify(
                f"A {item.event.type} event changed no memory; there is nothing to revert.",
                severity="warning",
            )

    def _ask_revert(self, item: LoggedEvent) -> None:
        e = item.event
        op = revert_op(e.seq, item.scope, actor=self.review_app.actor)
        body = (
            f"{e.type} of {', '.join(item.memories())}: the memory goes back to what it was before "
            f"event {e.seq}. The revert is itself recorded and can be undone."
        )

        def answered(answer: str | None) -> None:
            if answer == "yes":
                self.review_app.commit(op, on_error=lambda exc: self._offer_force(item, exc))

        self.app.push_screen(confirm(f"Revert {item.scope} event {e.seq}?", body, "Revert"), answered)

    def _offer_force(self, item: LoggedEvent, error: MemoryReviewError) -> bool:
        if not isinstance(error, ConflictError):
            return False
        op = revert_op(
            item.event.seq,
            item.scope,
            actor=self.review_app.actor,
            force=True,
            label="forced revert",
        )
        body = (
            f"{error}\n\nForcing overwrites the newer change; the overwrite is recorded "
            "(forced) and can itself be reverted."
        )

        def answered(answer: str | None) -> None:
            if answer == "yes":
                self.review_app.commit(op)

        self.app.push_screen(
            confirm("The memory changed since — force the revert?", body, "Force revert", danger=True),
            answered,
        )
        return True

    def _ask_restore(self, item: LoggedEvent) -> None:
        previous = self._record_before(item)
        if previous is None:
            self.notify("No earlier record of this candidate is in the log.", severity="warning")
            return
        raised = self._raised(item)
        if raised is not None:
            # Restoring a record restores its text (Workspace.edit), which a raise left as it was: the
            # priority and the quotes would stay. Say so rather than record an edit that changes nothing.
            self.notify(
                f"Event {item.event.seq} {raised.describe()}; it changed no text, so there is no edit to revert.",
                severity="warning",
            )
            return
        cid = item.event.candidate or ""
        op = restore_record_op(cid, previous, actor=self.review_app.actor, label="revert edit")
        body = (
            f"The candidate's proposed record goes back to what it was before event "
            f"{item.event.seq} "
            f"({previous.id}: {previous.description}). Recorded as candidate.edited."
        )
        self.app.push_screen(
            confirm("Revert this edit?", body, "Revert edit"),
            lambda answer: self.review_app.commit(op) if answer == "yes" else None,
        )

    def _record_before(self, item: LoggedEvent):
        earlier = [
            i.event
            for i in self.items.values()
            if i.scope == item.scope
            and i.event.candidate == item.event.candidate
            and i.event.seq < item.event.seq
            and i.event.record is not None
        ]
        if not earlier:
            return None
        latest = max(earlier, key=lambda e: e.seq)
        return editable_record(candidate_from_json(latest.record, where=f"{item.scope} log {latest.seq}"))
