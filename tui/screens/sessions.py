"""The sessions screen: sessions found in the logs, stepped through event by event.

Pick a session (enter) and step with ``n``/``p``: each step shows what the
session proposed, what was applied or discarded, any context it was given
(``context.built``), next to the memory set as it was when the session started
(replayed from the logs alone).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rich.console import Group
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal
from textual.message import Message

from memory_review.context import ReplayedContext
from memory_review.errors import MemoryReviewError
from memory_review.events import Event
from memory_review.history import Raise, raise_of, records_before
from memory_review.injection import merge_tiers, priority_order
from memory_review.log_read import sessions_of
from memory_review.models import DurableScope, Memory
from memory_review.tui.bulk import bulk_read
from memory_review.tui.format import EVENT_STYLE, RAISED, event_subject
from memory_review.tui.render import event_detail, memory_list, rebuilt_context
from memory_review.tui.screens.base import DataScreen
from memory_review.tui.screens.history import LoggedEvent
from memory_review.tui.widgets.detail import DetailPane
from memory_review.tui.widgets.row_table import Column, Row, RowTable
from memory_review.workspace import DURABLE, SessionSummary, Workspace

SESSION_COLUMNS = (
    Column("session", None, style="bold", min_width=10),
    Column("events", 6),
    Column("last", 4, live=True),
)
STEP_COLUMNS = (
    Column("#", 3, style="dim"),
    Column("store", 7),
    Column("type", 19, styler=lambda t: EVENT_STYLE.get(t, "")),
    Column("about", None, style="bold", min_width=10),
)


@dataclass(frozen=True)
class SessionStory:
    """One session: its events in order (both stores), the memory set when it started, and each
    context it was given, rebuilt from the logs (by project seq; a message if it could not be)."""

    session: str
    steps: list[LoggedEvent]
    start: list[Memory]
    contexts: dict[int, ReplayedContext | str] = field(default_factory=dict)


def session_story(ws: Workspace, session: str) -> SessionStory:
    """Read a session's events and replay each store to just before the session's first event."""
    logs = {scope: ws.log(scope=scope) for scope in DURABLE}
    steps = sorted(
        (
            LoggedEvent(scope, e)
            for scope, events in logs.items()
            for e in events
            if session in sessions_of(e, events.raises)  # a raise found again in it too (ADR 0050)
        ),
        key=lambda item: (item.event.ts, item.scope, item.event.seq),
    )
    first_ts = steps[0].event.ts if steps else ""
    tiers = {scope: _state_before(ws, scope, logs[scope], first_ts) for scope in DURABLE}
    start = priority_order(merge_tiers(tiers["user"], tiers["project"], []))
    return SessionStory(session, steps, start, _contexts(ws, session, steps))


def _contexts(ws: Workspace, session: str, steps: list[LoggedEvent]) -> dict[int, ReplayedContext | str]:
    built = [item.event.seq for item in steps if item.event.type == "context.built"]
    if not built:
        return {}
    try:
        return {rebuilt.seq: rebuilt for rebuilt in ws.replay_session(session)}
    except MemoryReviewError as exc:  # shown on those steps; the rest of the story still stands
        return dict.fromkeys(built, f"could not rebuild the context: {exc}")


def _state_before(ws: Workspace, scope: DurableScope, events: list[Event], ts: str) -> list[Memory]:
    earlier = [e.seq for e in events if e.ts < ts]
    return list(ws.replay(at=max(earlier), scope=scope).values()) if earlier else []


class SessionsScreen(DataScreen):
    """Sessions, the steps of the chosen one, and the step under the cursor."""

    BINDINGS = [
        Binding("n", "step(1)", "Next step"),
        Binding("p", "step(-1)", "Previous step"),
        Binding("escape", "back", "Sessions", show=False),
    ]

    class Loaded(Message):
        """The sessions found in the logs."""

        def __init__(self, sessions: list[SessionSummary]) -> None:
            super().__init__()
            self.sessions = sessions

    class StoryLoaded(Message):
        """One session's steps and starting memory."""

        def __init__(self, story: SessionStory) -> None:
            super().__init__()
            self.story = story

    def __init__(self) -> None:
        super().__init__()
        self.sessions: dict[str, SessionSummary] = {}
        self.story: SessionStory | None = None
        self.step_before: dict[str, Mapping] = {}

    def compose(self) -> ComposeResult:
        header, footer = self.chrome()
        yield header
        with Container(id="main"):
            with Horizontal(id="session-lists"):
                yield RowTable(SESSION_COLUMNS, id="sessions", empty_text="loading…")
                yield RowTable(STEP_COLUMNS, id="steps", empty_text="pick a session (enter)")
            yield DetailPane(id="detail")
        yield footer

    def on_mount(self) -> None:
        self.query_one("#sessions", RowTable).focus()
        super().on_mount()

    # --- loading ----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load-sessions", exit_on_error=False)
    def load(self) -> None:
        try:
            with bulk_read():  # reads both logs whole; keeps only a summary of each session
                sessions = self.ws.sessions()
        except MemoryReviewError as exc:
            self.post_message(self.LoadFailed(exc))
            return
        self.post_message(self.Loaded(sessions))
        if self.story is not None:
            self.load_story(self.story.session)

    @work(thread=True, exclusive=True, group="load-story", exit_on_error=False)
    def load_story(self, session: str) -> None:
        """Read one session's steps (in a worker)."""
        try:
            story = session_story(self.ws, session)
        except MemoryReviewError as exc:
            self.post_message(self.LoadFailed(exc))
            return
        self.post_message(self.StoryLoaded(story))

    def on_sessions_screen_loaded(self, message: Loaded) -> None:
        self.sessions = {s.session: s for s in message.sessions}
        table = self.query_one("#sessions", RowTable)
        table.empty_text = "no sessions in the logs yet"
        newest_first = sorted(message.sessions, key=lambda s: s.last_ts, reverse=True)
        table.set_rows(
            [
                Row(s.session, (s.session, str(s.events), s.last_ts))  # live: its age
                for s in newest_first
            ]
        )
        table.border_title = f"Sessions · {len(message.sessions)}"

    def on_sessions_screen_story_loaded(self, message: StoryLoaded) -> None:
        self.story = message.story
        # The record each candidate.edited of the session replaced (the candidate's session is the
        # session of its proposal and its raises): a raise by the proposer is no edit (ADR 0050).
        self.step_before = {
            f"{scope}:{seq}": record
            for scope in {item.scope for item in message.story.steps}
            for seq, record in records_before([i.event for i in message.story.steps if i.scope == scope]).items()
        }
        steps = self.query_one("#steps", RowTable)
        steps.set_rows(
            [
                Row(
                    item.key,
                    (
                        str(i + 1),
                        item.scope,
                        RAISED if self._raised(item) else item.event.type,
                        event_subject(item.event, self.display_opts),
                    ),
                )
                for i, item in enumerate(message.story.steps)
            ]
        )
        steps.border_title = f"Steps of {message.story.session} · {len(message.story.steps)}"
        self._show_step()

    def _raised(self, item: LoggedEvent) -> Raise | None:
        return raise_of(item.event, self.step_before.get(f"{item.scope}:{item.event.seq}"))

    # --- choosing and stepping --------------------------------------------------------------

    @on(RowTable.Selected, "#sessions")
    def _open_session(self, message: RowTable.Selected) -> None:
        self.load_story(message.key)
        self.query_one("#steps", RowTable).focus()

    @on(RowTable.Highlighted, "#sessions")
    def _preview_session(self, message: RowTable.Highlighted) -> None:
        summary = self.sessions.get(message.key) if message.key else None
        if summary is not None and (self.story is None or self.story.session != summary.session):
            kinds = ", ".join(f"{n} {t}" for t, n in sorted(summary.types.items()))
            when = self.display_opts.when
            self.query_one("#detail", DetailPane).show(
                Text(
                    f"{summary.session}\n{summary.events} events: {kinds}\n"
                    f"from {when(summary.first_ts)}\nto   {when(summary.last_ts)}"
                    "\n\nenter: step through it"
                )
            )

    @on(RowTable.Highlighted, "#steps")
    def _step_changed(self) -> None:
        self._show_step()

    def action_step(self, delta: int) -> None:
        if self.story is None:
            key = self.query_one("#sessions", RowTable).highlighted_key
            if key:
                self.load_story(key)
            return
        self.query_one("#steps", RowTable).action_cursor(delta)

    def action_back(self) -> None:
        self.query_one("#sessions", RowTable).focus()

    @property
    def step_index(self) -> int | None:
        """The index of the step under the cursor (None before a session is opened)."""
        if self.story is None or not self.story.steps:
            return None
        return self.query_one("#steps", RowTable).cursor

    @property
    def current_step(self) -> LoggedEvent | None:
        """The event of the step under the cursor."""
        story, index = self.story, self.step_index
        return None if story is None or index is None else story.steps[index]

    def _show_step(self) -> None:
        story, item, index = self.story, self.current_step, self.step_index
        if story is None:
            return
        if item is None or index is None:
            self.query_one("#detail", DetailPane).show(Text("This session left no events.", style="dim"))
            return
        title = Text(
            f"Step {index + 1} of {len(story.steps)} of session {story.session}\n",
            style="bold reverse",
        )
        before = self.step_before.get(f"{item.scope}:{item.event.seq}")
        parts = [title, event_detail(item.event, item.scope, self.display_opts, before)]
        rebuilt = story.contexts.get(item.event.seq) if item.scope == "project" else None
        if isinstance(rebuilt, ReplayedContext):
            parts.append(rebuilt_context(rebuilt.text, rebuilt.matches))
        elif rebuilt is not None:
            parts.append(Text(rebuilt, style="bold red"))
        parts.append(memory_list("Memory when the session started", story.start))
        self.query_one("#detail", DetailPane).show(Group(*parts))
