"""The review screen (the default): the queue of pending candidates and the one under the cursor.

Keys (a contract, docs/design.md §9): ``a`` apply, ``d`` discard, ``e`` edit, ``space``
mark, ``/`` filter. Applying a flagged candidate asks first, and the answer a reflex
gives (enter) keeps it pending: only shift+a applies it. A bulk apply with flagged
rows applies the unflagged ones on enter and the flagged ones only on shift+a.
"""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.message import Message
from textual.worker import get_current_worker

from memory_review.errors import MemoryReviewError
from memory_review.models import Memory
from memory_review.tui.actions import edit_op, editable_record, move_op
from memory_review.tui.data import PendingReader, Problem
from memory_review.tui.foreign import ForeignState, decide_apply, decide_discard
from memory_review.tui.format import OP_STYLE, flag_kind
from memory_review.tui.queue import EntryCache, QueueEntry
from memory_review.tui.render import candidate_detail
from memory_review.tui.screens.base import FilteredScreen
from memory_review.tui.screens.confirm import ReasonModal, flagged_apply
from memory_review.tui.screens.edit import Edited, EditModal
from memory_review.tui.widgets.detail import DetailPane
from memory_review.tui.widgets.filter_bar import SYNTAX, FilterBar, matches
from memory_review.tui.widgets.row_table import Column, Row, RowTable
from memory_review.workspace import CandidateState

COLUMNS = (
    Column(" ", 1, style="bold yellow"),
    Column("!", 4, style="bold red"),
    Column("scope", 7),
    Column("type", 10),
    Column("op", 6, styler=lambda op: OP_STYLE.get(op, "")),
    Column("memory", None, style="bold", min_width=12, fit=True),
    Column("description", None, min_width=10),
    Column("proposer", 10, style="dim", hide_below=90),
    Column("age", 4, live=True),
    Column("pri", 4, styler=lambda p: {"high": "bold", "low": "dim"}.get(p, "")),
)
SIMILAR_AFTER = 0.25
"""Seconds the cursor rests on a near-duplicate before the memory it repeats is read (in a worker)."""
LOOKED_UP = frozenset({"similar-to", "overrides", "overridden-by", "uncovers"})
"""The flags that name memories the detail shows beside the proposal (read in a worker)."""
PROGRESS_EVERY = 4  # chunks (of tui.data.CHUNK candidates) between progressive updates of the first load


class ReviewScreen(FilteredScreen):
    """The queue (virtual table) above or beside the selected candidate's details."""

    table_id = "#queue"

    BINDINGS = [
        Binding("a", "apply", "Apply"),
        Binding("d", "discard", "Discard"),
        Binding("e", "edit", "Edit"),
        Binding("space", "mark", "Mark"),
        Binding("slash", "filter", "Filter"),
    ]

    class Loaded(Message):
        """Queue entries read by the loader: the whole queue (``replace``) or more of it.

        The first load sends the queue as it is read: a first part that replaces
        what is shown, then parts to add; ``final`` marks the last part of a pass.
        """

        def __init__(self, entries: list[QueueEntry], problems: list[Problem], *, final: bool, replace: bool) -> None:
            super().__init__()
            self.entries = entries
            self.problems = problems
            self.final = final
            self.replace = replace

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[str, QueueEntry] = {}
        self.order: list[str] = []
        self.marked: set[str] = set()
        self.filter_text = ""
        self.loaded = False
        self._reported_problems: set[str] = set()
        self._built = EntryCache()  # the loader's, one pass at a time (under the reader's lock)
        self._read_once = False  # the loader's: a pass has finished, later ones send it whole
        self._detail_of: QueueEntry | None = None  # the entry the details pane shows

    def compose(self) -> ComposeResult:
        header, footer = self.chrome()
        yield header
        with Container(id="main"):
            yield RowTable(COLUMNS, id="queue", empty_text="loading…")
            yield DetailPane(id="detail")
        yield FilterBar(placeholder=f"filter the queue: {SYNTAX}", id="filter")
        yield footer

    def on_mount(self) -> None:
        self.query_one("#queue", RowTable).focus()
        super().on_mount()

    # --- loading ----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load-review", exit_on_error=False)
    def load(self) -> None:
        reader = self.review_app.reader
        try:
            with reader.reading():
                self._read_queue(reader)
        except MemoryReviewError as exc:
            self.post_message(self.LoadFailed(exc))

    def _read_queue(self, reader: PendingReader) -> None:
        """(In the loader's thread.) Build the entries; the first pass sends them as they come."""
        display, progressive = self.display_opts, not self._read_once
        entries: list[QueueEntry] = []
        sent = 0
        worker = get_current_worker()
        for number, chunk in enumerate(reader.chunks()):
            if worker.is_cancelled:  # the app is quitting: stop at a chunk boundary, keep nothing
                return
            entries.extend(self._built.entry(state, display) for state in chunk)
            # First load: show the first rows at once, then more every few chunks.
            if progressive and chunk and number % PROGRESS_EVERY == 0:
                self.post_message(self.Loaded(entries[sent:], [], final=False, replace=sent == 0))
                sent = len(entries)
        self._built.keep(entries)
        self._read_once = True
        problems = list(reader.problems)
        self.post_message(self.Loaded(entries[sent:], problems, final=True, replace=sent == 0))

    def on_review_screen_loaded(self, message: Loaded) -> None:
        if message.replace:
            self.entries = {entry.id: entry for entry in message.entries}
            self.order = list(self.entries)
        else:
            self.entries.update((entry.id, entry) for entry in message.entries)
            self.order += [entry.id for entry in message.entries]
        self.order.sort(key=lambda cid: self.entries[cid].key)
        if not self.marked <= self.entries.keys():
            self.marked &= self.entries.keys()
            self.refresh_bindings()
        self.loaded = self.loaded or message.final
        self.refresh_rows()
        self._report_problems(message.problems)

    def _report_problems(self, problems: list[Problem]) -> None:
        for problem in problems:
            if problem.path not in self._reported_problems:
                self._reported_problems.add(problem.path)
                self.review_app.show_error(problem.error)

    # --- showing ----------------------------------------------------------------------------

    def visible_ids(self) -> list[str]:
        """The candidate ids the queue shows, in order (after the filter)."""
        if not self.filter_text.strip():
            return list(self.order)
        query = self.filter_text
        return [cid for cid in self.order if matches(self.entries[cid].haystack, query, self.entries[cid].fields)]

    def refresh_rows(self) -> None:
        """Rebuild the queue's rows from the entries, marks and filter."""
        table = self.query_one("#queue", RowTable)
        nothing = self.empty_text(len(self.order), "no pending candidates")
        table.empty_text = nothing if self.loaded else "loading…"
        table.set_rows([self._row(cid) for cid in self.visible_ids()])
        self._update_title(len(table.rows))
        current = self.current()
        if current is not None and current is not self._detail_of:  # e.g. an edit reloaded it
            self._show_detail(current)
        if not table.rows:
            self.query_one("#detail", DetailPane).show(
                Text(
                    ("Nothing to review." if not self.order else "Every candidate is hidden by the filter.")
                    if self.loaded
                    else "Loading…",
                    style="dim",
                )
            )

    def _row(self, cid: str) -> Row:
        entry = self.entries[cid]
        return entry.marked_row() if cid in self.marked else entry.row

    def _update_title(self, shown: int) -> None:
        parts = [f"{len(self.order)} pending"]
        if self.marked:
            parts.append(f"{len(self.marked)} marked")
        if self.filter_text.strip():
            parts.append(f"filter “{self.filter_text.strip()}”: {shown} shown")
        self.query_one("#queue", RowTable).border_title = "Queue · " + " · ".join(parts)

    @on(RowTable.Highlighted, "#queue")
    def _show_candidate(self, message: RowTable.Highlighted) -> None:
        entry = self.entries.get(message.key) if message.key else None
        if entry is not None:
            self._show_detail(entry)

    def _show_detail(self, entry: QueueEntry, similar: list[Memory] | None = None) -> None:
        self._detail_of = entry
        self.query_one("#detail", DetailPane).show(candidate_detail(entry.state, self.display_opts, similar or ()))
        wants = any(flag_kind(f) in LOOKED_UP for f in entry.state.flags)
        if similar is None and wants and not isinstance(entry.state, ForeignState):
            # Once the cursor rests there: keys held down read nothing on the way.
            self.set_timer(SIMILAR_AFTER, lambda: self._load_similar(entry) if entry is self._detail_of else None)

    class SimilarLoaded(Message):
        """What an entry's ``similar-to:`` flags name, read in a worker."""

        def __init__(self, entry: QueueEntry, similar: list[Memory]) -> None:
            super().__init__()
            self.entry = entry
            self.similar = similar

    @work(thread=True, exclusive=True, group="similar", exit_on_error=False)
    def _load_similar(self, entry: QueueEntry) -> None:
        """(A worker.) The approved memories it names: a manifest read per store and their files, never the queue."""
        try:
            named = self.ws.similar(entry.state, pending=False) + self.ws.other_store(entry.state)
            self.post_message(self.SimilarLoaded(entry, named))
        except MemoryReviewError as exc:
            self.post_message(self.LoadFailed(exc))

    def on_review_screen_similar_loaded(self, message: SimilarLoaded) -> None:
        if message.entry is self._detail_of:  # the cursor has not moved on meanwhile
            self._show_detail(message.entry, message.similar + self._pending_twins(message.entry, message.similar))

    def _pending_twins(self, entry: QueueEntry, approved: list[Memory]) -> list[Memory]:
        """The records pending candidates of the queue propose for the ids its flags name (no disk)."""
        state = entry.state
        wanted = {flag.split(":", 1)[1] for flag in state.flags if flag_kind(flag) == "similar-to"}
        wanted -= {m.id for m in approved}
        twins: dict[str, Memory] = {}
        for other in self.entries.values() if wanted else ():
            candidate = other.state.candidate
            if candidate.id == state.candidate.id or candidate.scope != state.candidate.scope:
                continue
            for change in candidate.changes:
                if change.after is not None and change.memory in wanted:
                    twins.setdefault(change.memory, change.after)
        return list(twins.values())

    def current(self) -> QueueEntry | None:
        """The entry under the cursor."""
        key = self.query_one("#queue", RowTable).highlighted_key
        return self.entries.get(key) if key else None

    # --- marking and filtering --------------------------------------------------------------

    def action_mark(self) -> None:
        entry = self.current()
        if entry is None:
            return
        self.marked.symmetric_difference_update({entry.id})
        table = self.query_one("#queue", RowTable)
        table.replace_row(self._row(entry.id))
        self._update_title(len(table.rows))
        table.action_cursor(1)
        self.refresh_bindings()

    # --- decisions --------------------------------------------------------------------------

    def targets(self) -> list[CandidateState]:
        """What a decision acts on: the marked candidates, else the one under the cursor."""
        if self.marked:
            return [self.entries[cid].state for cid in self.order if cid in self.marked]
        entry = self.current()
        return [entry.state] if entry else []

    def action_apply(self) -> None:
        targets = self.targets()
        if not targets:
            self.notify("Nothing to apply.", severity="warning")
            return
        flagged = [t for t in targets if t.flags]
        if not flagged:
            self._apply(targets)
            return
        clean = [t for t in targets if not t.flags]
        title = (
            "Apply a flagged candidate?"
            if len(targets) == 1
            else f"{len(flagged)} of the {len(targets)} marked candidates are flagged"
        )

        marked = {t.candidate.id for t in targets} if self.marked else set()

        def answered(answer: str | None) -> None:  # an apply consumes every mark it was asked about
            if answer == "clean" and clean:
                self._apply(clean, consumed=marked)
            elif answer == "all":
                self._apply(targets, consumed=marked)

        body = _flag_report(flagged, self.display_opts)
        self.app.push_screen(flagged_apply(title, body, clean=len(clean), total=len(targets)), answered)

    def _apply(self, states: list[CandidateState], *, consumed: frozenset[str] | set[str] = frozenset()) -> None:
        ids = {s.candidate.id for s in states} | consumed  # skipped flagged rows are unmarked too
        op = decide_apply(states, actor=self.review_app.actor)  # foreign rows are trusted (tui/foreign.py)
        self.review_app.commit(op, on_success=lambda: self._unmark(ids))

    def _unmark(self, ids: set[str]) -> None:
        self.marked -= ids
        self.refresh_rows()
        self.refresh_bindings()

    def describe_key(self, action: str) -> str | None:
        """What ``a`` and ``d`` act on now: the marked rows, when there are any."""
        if action in ("apply", "discard") and self.marked:
            return f"{action} {len(self.marked)} marked"
        return None

    def action_discard(self) -> None:
        targets = self.targets()
        if not targets:
            self.notify("Nothing to discard.", severity="warning")
            return
        names = ", ".join(sorted({m for t in targets for m in t.candidate.memory_ids()}))
        ids = {t.candidate.id for t in targets}

        def answered(reason: str | None) -> None:
            if reason is not None:
                op = decide_discard(targets, actor=self.review_app.actor, reason=reason)
                self.review_app.commit(op, on_success=lambda: self._unmark(ids))

        title = f"Discard {len(targets)} candidate{'s' if len(targets) > 1 else ''}?"
        self.app.push_screen(ReasonModal(title, f"about: {names}"), answered)

    def action_edit(self) -> None:
        entry = self.current()
        if entry is None:
            return
        if isinstance(entry.state, ForeignState):
            self.notify("A foreign memory is trusted (a) or refused (d) as it is.", severity="warning")
            return
        candidate = entry.state.candidate
        record = editable_record(candidate)
        if record is None:
            self.notify("This candidate deletes a memory; there is no record to edit.", severity="warning")
            return
        renamable = len(candidate.changes) == 1 and candidate.changes[0].before is None

        def edited(change: Edited | None) -> None:
            actor = self.review_app.actor
            if change is not None and change.scope is not None:
                self.review_app.commit(move_op(candidate, change.scope, change.record, actor=actor))
            elif change is not None and change.record is not None:
                self.review_app.commit(edit_op(candidate, change.record, actor=actor))

        title = f"Edit the proposed record ({candidate.op} in the {candidate.scope} store)"
        modal = EditModal(record, scope=candidate.scope, can_rename=renamable, title=title)
        self.app.push_screen(modal, edited)


def _flag_report(flagged: list[CandidateState], display) -> Text:
    out = Text()
    for state in flagged:
        out.append(", ".join(state.candidate.memory_ids()), style="bold")
        out.append(f" ({display.cid(state.candidate.id)})\n", style="dim")
        for flag in state.flags:
            out.append(f"  ⚠ {flag}\n", style="red")
    out.rstrip()
    return out
