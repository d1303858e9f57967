"""The review app and its one factory, :func:`make_app` (used by the CLI and by the tests).

The app owns what every screen shares: the workspace, the person's name, how
things are displayed, the undo stack, the poller that notices changes made by
other processes, and the one place where decisions run. Screens ask it to
``commit`` an :class:`~tui.actions.Operation`; it runs the operation in a
worker thread (the lock and the disk never block the UI), then reports back by
message: a notification, an undo (or redo) entry, a reload. Every library error becomes a
notification — never a traceback — and leaves the store and the queue as they
were, so no decision is lost.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from typing import Literal

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.message import Message
from textual.worker import Worker, WorkerState

from memory_review.errors import MemoryReviewError
from memory_review.tui.actions import Operation, Outcome
from memory_review.tui.data import PendingReader, fingerprint
from memory_review.tui.format import Display, error_text, error_title
from memory_review.tui.screens.base import DataScreen
from memory_review.tui.screens.help import HelpScreen
from memory_review.tui.screens.history import HistoryScreen
from memory_review.tui.screens.memories import MemoriesScreen
from memory_review.tui.screens.review import ReviewScreen
from memory_review.tui.screens.sessions import SessionsScreen
from memory_review.workspace import Workspace, current_actor

BUSY_AFTER = 0.15
"""Seconds a decision may take before the key bar says it is under way (issue 18)."""
Callback = Callable[[], None]
Kind = Literal["do", "undo", "redo"]
"""A decision taken now, the undo of one, or the redo of an undone one."""
ErrorCallback = Callable[[MemoryReviewError], bool]


class StoresChecked(Message):
    """The poller's reading of the stores' fingerprint."""

    def __init__(self, value: tuple) -> None:
        super().__init__()
        self.value = value


class OperationDone(Message):
    """A decision finished: its outcome, or the library error that stopped it."""

    def __init__(
        self,
        op: Operation,
        outcome: Outcome | None,
        error: MemoryReviewError | None,
        *,
        kind: Kind,
        on_success: Callback | None,
        on_error: ErrorCallback | None,
    ) -> None:
        super().__init__()
        self.op = op
        self.outcome = outcome
        self.error = error
        self.kind = kind
        self.on_success = on_success
        self.on_error = on_error


class ReviewApp(App[None]):
    """memory-review's terminal UI: review, memories, history and sessions."""

    CSS_PATH = "app.tcss"
    TITLE = "memory-review"
    ENABLE_COMMAND_PALETTE = False
    MODES = {
        "review": ReviewScreen,
        "memories": MemoriesScreen,
        "history": HistoryScreen,
        "sessions": SessionsScreen,
    }
    DEFAULT_MODE = "review"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (160, "-wide")]
    BINDINGS = [
        Binding("1", "switch_mode('review')", "Review"),
        Binding("2", "switch_mode('memories')", "Memories"),
        Binding("3", "switch_mode('history')", "History"),
        Binding("4", "switch_mode('sessions')", "Sessions"),
        Binding("u", "undo", "Undo"),
        Binding("ctrl+r", "redo", "Redo"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, workspace: Workspace, *, display: Display, actor: str, poll_interval: float | None) -> None:
        super().__init__()
        self.workspace = workspace
        self.display_opts = display
        self.actor = actor
        self.poll_interval = poll_interval
        self.reader = PendingReader(workspace)
        self.undo_stack: list[Operation] = []
        self.redo_stack: list[Operation] = []
        """What ``ctrl+r`` makes again: each undone decision, newest last; a new decision empties it."""
        self.running: list[Operation] = []
        """Decisions taken and not yet finished, oldest first (the UI thread's view of the worker queue)."""
        self.loading: set[str] = set()
        """The screens whose loader is reading the stores now ("review", "history"…)."""
        self.busy: str | None = None
        """What the key bar says is under way, once a decision has taken longer than BUSY_AFTER."""
        self.generation = 0
        self._fingerprint = fingerprint(workspace)  # a few stat calls; the screens load after this
        self._commit_lock = threading.Lock()
        self.closing = threading.Event()
        """Set by quit: decisions still queued are not started (the running one finishes: it is atomic)."""
        self._started: set[int] = set()  # ids of the decisions a worker began (the lock's side)

    def on_mount(self) -> None:
        self.sub_title = self.workspace.root.name
        if self.poll_interval:
            self.set_interval(self.poll_interval, self.check_stores)

    # --- live refresh -------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="poll", exit_on_error=False)
    def check_stores(self) -> None:
        """Read the stores' fingerprint (off the UI thread) and report it."""
        self.post_message(StoresChecked(fingerprint(self.workspace)))

    def on_stores_checked(self, message: StoresChecked) -> None:
        if message.value == self._fingerprint:
            return
        self._fingerprint = message.value
        self.generation += 1
        for screen in self.screen_stack:
            if isinstance(screen, DataScreen):
                screen.reload()

    # --- decisions ----------------------------------------------------------------------------

    def commit(
        self,
        op: Operation,
        *,
        on_success: Callback | None = None,
        on_error: ErrorCallback | None = None,
    ) -> None:
        """Run a decision in a worker; ``on_error`` may handle a library error (return True)."""
        self._start(op, "do", on_success, on_error)

    def _start(self, op: Operation, kind: Kind, on_success: Callback | None, on_error: ErrorCallback | None) -> None:
        self.running.append(op)
        self.set_timer(BUSY_AFTER, self._show_busy)
        self.refresh_bindings()
        self._run(op, kind, on_success, on_error)

    def _show_busy(self) -> None:
        """Past BUSY_AFTER, the key bar says what is still under way (and how much is queued)."""
        if self.running:
            queued = f" (+{len(self.running) - 1} queued)" if len(self.running) > 1 else ""
            self.busy = f"working: {self.running[0].label}…{queued}"
        elif self.loading:
            self.busy = f"reading: {', '.join(sorted(self.loading))}…"
        else:
            self.busy = None
        if self.screen_stack:  # a loader cancelled while the app closes finds no screen to tell
            self.refresh_bindings()

    def load_started(self, what: str) -> None:
        """A screen began reading the stores (in a worker): said in the key bar past BUSY_AFTER."""
        self.loading.add(what)
        self.set_timer(BUSY_AFTER, lambda: self._show_busy() if what in self.loading else None)

    def load_ended(self, what: str) -> None:
        if what in self.loading:
            self.loading.discard(what)
            if self.busy is not None:
                self._show_busy()

    @work(thread=True, group="commit", exit_on_error=False)
    def _run(
        self,
        op: Operation,
        kind: Kind,
        on_success: Callback | None,
        on_error: ErrorCallback | None,
    ) -> None:
        with self._commit_lock:  # decisions run one at a time, in the order they were taken
            if self.closing.is_set():  # the safe point: between two decisions, nothing half done
                return
            self._started.add(id(op))
            try:
                outcome, error = op.run(self.workspace), None
            except MemoryReviewError as exc:
                outcome, error = None, exc
        self.post_message(OperationDone(op, outcome, error, kind=kind, on_success=on_success, on_error=on_error))

    def on_operation_done(self, message: OperationDone) -> None:
        if message.op in self.running:
            self.running.remove(message.op)
        self.busy = None
        if self.running:
            self._show_busy()
        if message.error is not None:
            self._failed(message)
        else:
            self._succeeded(message)
        self._show_warnings()
        self.refresh_bindings()
        self.check_stores()

    def _failed(self, message: OperationDone) -> None:
        assert message.error is not None
        if message.kind != "do":  # still undoable (redoable) once the cause is fixed
            self._stack(message.kind).append(message.op)
        if not (message.on_error and message.on_error(message.error)):
            self.show_error(message.error)

    def _succeeded(self, message: OperationDone) -> None:
        assert message.outcome is not None
        titles = {"do": "Done", "undo": "Undone", "redo": "Redone"}
        self.notify(message.outcome.message, title=titles[message.kind], markup=False)
        if message.kind == "do":
            self.redo_stack.clear()  # a new decision: what was undone before it is not redone over it
        if message.outcome.undo is not None:  # an undo's outcome carries the redo, and the other way round
            self._stack("redo" if message.kind == "undo" else "undo").append(message.outcome.undo)
        if message.on_success is not None:
            message.on_success()

    def _show_warnings(self) -> None:
        while self.workspace.warnings:
            self.notify(self.workspace.warnings.pop(0), title="Warning", severity="warning", markup=False)

    def show_error(self, error: MemoryReviewError) -> None:
        """Tell the person what went wrong and what to do; nothing was lost."""
        self.notify(error_text(error), title=error_title(error), severity="error", timeout=12, markup=False)

    def report_worker(self, event: Worker.StateChanged) -> None:
        """A worker died of something that is not a library error: a bug. Say so, keep running."""
        if event.state == WorkerState.ERROR:
            error = event.worker.error
            self.notify(
                f"{type(error).__name__}: {error}\nThe store is unchanged or fully changed; see the history screen.",
                title="Internal error — please report",
                severity="error",
                timeout=20,
                markup=False,
            )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        self.report_worker(event)

    # --- keys ---------------------------------------------------------------------------------

    def action_undo(self) -> None:
        self._take_back("undo", "u")

    def action_redo(self) -> None:
        self._take_back("redo", "ctrl+r")

    def _stack(self, kind: Kind) -> list[Operation]:
        return self.redo_stack if kind == "redo" else self.undo_stack

    def _take_back(self, kind: Kind, key: str) -> None:
        """Run the newest entry of the undo (redo) stack, never while a decision is still running."""
        if self.running:  # its undo is not on the stack yet: `u` now would undo an older decision
            self.notify(
                f"Wait: {self.running[-1].label} is still running; {key} then acts on it.",
                severity="warning",
                markup=False,
            )
            return
        stack = self._stack(kind)
        if not stack:
            self.notify(f"Nothing to {kind}.", severity="warning")
            return
        self._start(stack.pop(), kind, None, None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``ctrl+r`` is in the key bar only when there is something to redo (80 columns are full)."""
        return action != "redo" or bool(self.redo_stack)

    def describe_key(self, action: str) -> str | None:
        """The key bar's word for ``u`` / ``ctrl+r``: the decision it would act on (None: the binding's own)."""
        if action not in ("undo", "redo"):
            return None
        if self.running:
            return f"{action} (wait)"
        stack = self._stack("undo" if action == "undo" else "redo")
        return stack[-1].label if stack else None

    def not_run(self) -> list[str]:
        """After quit: the decisions that never started (nothing of them is recorded), oldest first."""
        return [op.label for op in self.running if id(op) not in self._started]

    async def action_quit(self) -> None:
        self.quit_now()

    def quit_now(self) -> None:
        """Quit at once: queued decisions are cancelled, loaders stop at their next chunk."""
        self.closing.set()
        self.exit()

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())


def make_app(
    workspace: Workspace,
    *,
    now: datetime | Callable[[], datetime] | None = None,
    id_display: Callable[[str], str] | None = None,
    time_display: Callable[[str], str] | None = None,
    actor: str | None = None,
    poll_interval: float | None = 1.0,
) -> ReviewApp:
    """The review app on ``workspace``.

    ``now`` fixes the clock ages are measured from; ``id_display`` and
    ``time_display`` change how candidate ids and timestamps are shown (tests
    pin all three so snapshots are stable). ``actor`` is the person deciding
    (default: :func:`current_actor`); ``poll_interval`` is how often, in
    seconds, the stores are checked for changes made by other processes
    (``None``: never).
    """
    display = Display(clock=_clock(now), id_display=id_display or (lambda cid: cid), time_display=time_display)
    return ReviewApp(workspace, display=display, actor=actor or current_actor(), poll_interval=poll_interval)


def _clock(now: datetime | Callable[[], datetime] | None) -> Callable[[], datetime]:
    if now is None:
        return Display().clock
    if isinstance(now, datetime):
        return lambda: now
    return now
