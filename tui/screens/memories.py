"""The memories screen: approved memories of every durable tier, merged as injection will see them.

Rows come in injection priority order (``memory_review.injection``); a user
memory that a project memory with the same id overrides is listed after them,
dimmed. Which memories are in the block and which are dropped (and why) is what
``Workspace.context`` computes — the screen never re-states the budget rule — so
"N injected" is the number ``memory-review context`` puts in. ``d`` deletes
(confirmed, recorded), ``r`` reverts the last change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.message import Message

from memory_review.errors import MemoryReviewError
from memory_review.injection import ContextResult, merge_tiers, priority_order
from memory_review.models import Memory
from memory_review.tui.actions import delete_op, revert_last_change_op
from memory_review.tui.bulk import bulk_read
from memory_review.tui.format import memory_tag, safe
from memory_review.tui.render import memory_detail
from memory_review.tui.screens.base import FilteredScreen
from memory_review.tui.screens.confirm import confirm
from memory_review.tui.widgets.detail import DetailPane
from memory_review.tui.widgets.filter_bar import SYNTAX, FilterBar, matches
from memory_review.tui.widgets.row_table import Column, Row, RowTable

COLUMNS = (
    Column("#", 3, style="dim"),
    Column("tag", 27, style="cyan"),
    Column("id", None, style="bold", min_width=12, fit=True),
    Column("description", None, min_width=10),  # kept at 80 columns: it says what the memory is
    Column("age", 4, live=True),
    Column("source", 12, style="dim", hide_below=96),
    Column("tier", 9, styler=lambda t: "yellow" if t else ""),
)


@dataclass(frozen=True)
class MemoryEntry:
    """One row: the memory, its place in the block (None: not in it), and how tiers interact on its id.

    ``left_out`` says why an active memory is not in the block, as ``context`` reported
    it (``"budget"``), or ``"not injected"`` when ``context`` did not consider it at all.
    """

    memory: Memory
    rank: int | None
    overrides: Memory | None = None
    overridden_by: Memory | None = None
    left_out: str | None = None

    @property
    def key(self) -> str:
        return f"{self.memory.scope}:{self.memory.id}"


NOT_APPROVED_HERE = "not approved here"
"""Why a memory of the store is not injected when no person on this machine approved it (ADR 0021)."""


def merged_entries(
    user: list[Memory],
    project: list[Memory],
    context: ContextResult,
    approved: Collection[tuple[str, str]] | None = None,
) -> list[MemoryEntry]:
    """Active memories in priority order, each with its place in ``context`` (or why it is left out),
    then the user memories a project memory overrides. ``approved``: the (scope, id) pairs past the
    trust gate; any other memory is marked as not approved here (it waits in the review queue)."""
    by_scope = {"user": {m.id: m for m in user}, "project": {m.id: m for m in project}}
    place = {(m.scope, m.id): i + 1 for i, m in enumerate(context.included)}
    reason = {(m.scope, m.id): m.reason for m in context.dropped}
    entries = []
    for m in priority_order(merge_tiers(user, project, [])):
        rank = place.get((m.scope, m.id))
        entries.append(
            MemoryEntry(
                m,
                rank,
                overrides=by_scope["user"].get(m.id) if m.scope == "project" else None,
                left_out=None if rank else reason.get((m.scope, m.id), _unlisted(m, approved)),
            )
        )
    shadowed = [
        MemoryEntry(m, None, overridden_by=by_scope["project"][m.id])
        for m in sorted(user, key=lambda m: m.id)
        if m.id in by_scope["project"]
    ]
    return entries + shadowed


def _unlisted(memory: Memory, approved: Collection[tuple[str, str]] | None) -> str:
    if approved is not None and (memory.scope, memory.id) not in approved:
        return NOT_APPROVED_HERE
    return "not injected"


def block_summary(entries: list[MemoryEntry]) -> str:
    """``5 of 12 injected by `context` · 7 dropped (budget)``: the counts ``context`` reported."""
    active = [e for e in entries if e.overridden_by is None]
    injected = sum(1 for e in active if e.rank is not None)
    reasons = Counter(e.left_out for e in active if e.left_out)
    summary = f"{injected} of {len(active)} injected by `context`"
    if reasons:
        why = ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items()))
        summary += f" · {sum(reasons.values())} dropped ({why})"
    return summary


class MemoriesScreen(FilteredScreen):
    """Approved memories and their details."""

    table_id = "#memories"

    BINDINGS = [
        Binding("d", "delete", "Delete"),
        Binding("r", "revert", "Revert last change"),
        Binding("slash", "filter", "Filter"),
    ]

    class Loaded(Message):
        """The merged memories."""

        def __init__(self, entries: list[MemoryEntry]) -> None:
            super().__init__()
            self.entries = entries

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[str, MemoryEntry] = {}
        self.order: list[str] = []
        self.filter_text = ""

    def compose(self) -> ComposeResult:
        header, footer = self.chrome()
        yield header
        with Container(id="main"):
            yield RowTable(COLUMNS, id="memories", empty_text="loading…")
            yield DetailPane(id="detail")
        yield FilterBar(placeholder=f"filter memories: {SYNTAX}", id="filter")
        yield footer

    def on_mount(self) -> None:
        self.query_one("#memories", RowTable).focus()
        super().on_mount()

    @work(thread=True, exclusive=True, group="load-memories", exit_on_error=False)
    def load(self) -> None:
        try:
            with bulk_read() as read:
                user = self.ws.stored_memories("user")
                project = self.ws.stored_memories("project")
                read.kept = len(user) + len(project)
            # What `memory-review context` injects now (no session: nothing is recorded).
            context = self.ws.context()
            approved = {(m.scope, m.id) for m in self.ws.memories()}  # past the trust gate
        except MemoryReviewError as exc:
            self.post_message(self.LoadFailed(exc))
            return
        self.post_message(self.Loaded(merged_entries(user, project, context, approved)))

    def on_memories_screen_loaded(self, message: Loaded) -> None:
        self.entries = {e.key: e for e in message.entries}
        self.order = [e.key for e in message.entries]
        self.loaded = True
        self.refresh_rows()

    def refresh_rows(self) -> None:
        """Rebuild the rows (after a load or a change of filter)."""
        table = self.query_one("#memories", RowTable)
        if self.loaded:
            table.empty_text = self.empty_text(len(self.order), "no approved memories yet")
        shown = [
            k
            for k in self.order
            if matches(self._haystack(self.entries[k]), self.filter_text, _fields(self.entries[k]))
        ]
        table.set_rows([self._row(self.entries[k]) for k in shown])
        table.border_title = f"Memories · {block_summary(list(self.entries.values()))}"
        if not table.rows:
            self.query_one("#detail", DetailPane).show("")

    def _row(self, entry: MemoryEntry) -> Row:
        m = entry.memory
        tier = f"over {entry.overrides.scope}" if entry.overrides else ("shadowed" if entry.overridden_by else "")
        cells = (
            str(entry.rank or ("✗" if entry.left_out else "-")),
            memory_tag(m),
            m.id,
            safe(m.description),
            m.updated_at,  # live: shown as its age when drawn
            _source(m),
            tier,
        )
        return Row(entry.key, cells, style="dim" if entry.overridden_by or entry.left_out else "")

    @staticmethod
    def _haystack(entry: MemoryEntry) -> str:
        m = entry.memory
        return f"{memory_tag(m)} {m.id} {m.description} {m.body} {_source(m)}".lower()

    @on(RowTable.Highlighted, "#memories")
    def _show_memory(self, message: RowTable.Highlighted) -> None:
        entry = self.entries.get(message.key) if message.key else None
        if entry is not None:
            self.query_one("#detail", DetailPane).show(
                memory_detail(
                    entry.memory,
                    self.display_opts,
                    entry.overrides,
                    entry.overridden_by,
                    left_out=entry.left_out,
                )
            )

    def current(self) -> MemoryEntry | None:
        """The memory under the cursor."""
        key = self.query_one("#memories", RowTable).highlighted_key
        return self.entries.get(key) if key else None

    def action_delete(self) -> None:
        entry = self.current()
        if entry is None:
            return
        m = entry.memory
        op = delete_op(m.id, m.scope, actor=self.review_app.actor)
        body = (
            f"{memory_tag(m)} {m.id}\n{safe(m.description)}\n\n"
            "The deletion is recorded in the log and can be reverted (u, or from the history)."
        )
        self.app.push_screen(
            confirm(f"Delete the {m.scope} memory {m.id}?", body, "Delete", danger=True),
            lambda answer: self.review_app.commit(op) if answer == "yes" else None,
        )

    def action_revert(self) -> None:
        entry = self.current()
        if entry is None:
            return
        m = entry.memory
        op = revert_last_change_op(m.id, m.scope, actor=self.review_app.actor)
        body = f"{memory_tag(m)} {m.id} goes back to what it was before its last change (recorded)."
        self.app.push_screen(
            confirm(f"Revert the last change of {m.id}?", body, "Revert"),
            lambda answer: self.review_app.commit(op) if answer == "yes" else None,
        )


def _source(memory: Memory) -> str:
    sessions = [s.session_id for s in memory.sources if s.session_id]
    return sessions[0] if sessions else (memory.applied_by or "-")


def _fields(entry: MemoryEntry) -> dict[str, str]:
    """A memory's values for the filter's ``field:value`` terms."""
    m = entry.memory
    return {"type": m.type, "scope": m.scope, "memory": m.id}
