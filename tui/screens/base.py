"""What every data screen shares: load in a worker, reload when the stores change.

The app counts store changes in ``generation`` (its poller bumps it whenever the
stores' fingerprint moves). A screen remembers the generation it loaded; the
visible screen reloads at once, a hidden one when it is shown again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual import on
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, Input
from textual.worker import Worker, WorkerState

from memory_review.errors import MemoryReviewError
from memory_review.tui.format import Display
from memory_review.tui.widgets.filter_bar import FilterBar
from memory_review.tui.widgets.key_bar import KeyBar
from memory_review.tui.widgets.row_table import RowTable
from memory_review.workspace import Workspace

if TYPE_CHECKING:
    from memory_review.tui.app import ReviewApp


AGE_TICK = 5.0
"""Seconds between redraws of the ages a screen shows (issue 18: they were stuck at "1s")."""


class DataScreen(Screen[None]):
    """A screen over store data; subclasses implement :meth:`load` (a thread worker)."""

    loaded_generation = -1

    class LoadFailed(Message):
        """The screen's data could not be read; the person sees why."""

        def __init__(self, error: MemoryReviewError) -> None:
            super().__init__()
            self.error = error

    def on_data_screen_load_failed(self, message: LoadFailed) -> None:
        self.review_app.show_error(message.error)

    @property
    def review_app(self) -> ReviewApp:
        """The app, typed."""
        return cast("ReviewApp", self.app)

    @property
    def ws(self) -> Workspace:
        return self.review_app.workspace

    @property
    def display_opts(self) -> Display:
        return self.review_app.display_opts

    def chrome(self) -> tuple[Header, KeyBar]:
        """The header and the key bar every screen has."""
        return Header(), KeyBar()

    def on_mount(self) -> None:
        for table in self.query(RowTable):
            table.live = self.display_opts.age
        self.set_interval(AGE_TICK, self.tick_ages)
        self.reload()

    def tick_ages(self) -> None:
        """Ages move on: the tables draw their live cells again (only the lines on screen)."""
        for table in self.query(RowTable):
            table.tick()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        self.review_app.report_worker(event)
        group = event.worker.group
        if group.startswith("load-"):  # a loader: the key bar says "reading: …" while it runs long
            what = group.removeprefix("load-")
            if event.state == WorkerState.RUNNING:
                self.review_app.load_started(what)
            elif event.state in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
                self.review_app.load_ended(what)

    def on_screen_resume(self) -> None:
        self.refresh_bindings()  # the key bar wakes up again after a dialog
        if self.loaded_generation < self.review_app.generation:
            self.reload()

    def on_screen_suspend(self) -> None:
        self.refresh_bindings()  # a dialog (or another screen) is on top: the key bar says so

    def reload(self) -> None:
        """Load the screen's data again (in a worker)."""
        self.loaded_generation = self.review_app.generation
        self.load()

    def load(self) -> Worker[None]:
        """Start the worker that reads the data and posts it back to the screen."""
        raise NotImplementedError


class FilteredScreen(DataScreen):
    """A data screen whose table narrows as the person types in its ``#filter`` bar (``/``)."""

    table_id = ""  # the CSS id of the table the filter narrows, e.g. "#queue"
    filter_text = ""
    loaded = False  # a first load has arrived: an empty table is then empty, not loading

    def refresh_rows(self) -> None:
        """Rebuild the table's rows for the current ``filter_text``."""
        raise NotImplementedError

    def empty_text(self, total: int, nothing: str) -> str:
        """What an empty table says: ``nothing``, unless the filter hides ``total`` rows (then that)."""
        words = self.filter_text.strip()
        if total and words:
            return f"the filter “{words}” hides all {total} (/ to change it; esc in it clears)"
        return nothing

    def action_filter(self) -> None:
        self.query_one("#filter", FilterBar).reveal()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, message: Input.Changed) -> None:
        self.filter_text = message.value
        self.refresh_rows()

    @on(FilterBar.Done)
    def _filter_done(self) -> None:
        self.query_one(self.table_id, RowTable).focus()
