"""The help screen (``?``): every key of every screen, from one table that is also tested."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from memory_review.tui.widgets.filter_bar import SYNTAX

KEYMAP: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Everywhere",
        (
            ("1 2 3 4", "review queue · memories · history · sessions"),
            (
                "u",
                "undo the last action, named in the key bar (recorded: an apply or discard puts "
                "the same candidates back in the queue)",
            ),
            ("ctrl+r", "redo what u undid, named in the key bar (recorded: a redo of an apply applies them again)"),
            ("?", "this help"),
            ("/", f"filter, on every screen: {SYNTAX}"),
            ("q", "quit (every decision is already on disk)"),
            ("↑ ↓ j k", "move in a list (pgup pgdn home end jump)"),
            ("tab", "move between the list and the details"),
        ),
    ),
    (
        "Review",
        (
            ("a", "apply the marked candidates, or the one under the cursor"),
            ("d", "discard them, with an optional reason (kept in the log)"),
            ("e", "edit the proposed record (validated, recorded) or the store a new memory goes to"),
            ("space", "mark / unmark and move down"),
            ("/", "filter the queue (esc clears); the same syntax on every screen, below"),
            (
                "",
                "flagged candidates (⚠ then I injection, S secret, H hidden characters, U untrusted "
                "source, D discarded before, B stale base, C sync conflict, N near-duplicate, O hides a user "
                "memory, X hidden by a project memory, R brings a user memory back, P blank padding, L look-alike "
                "letters) stay pending on enter",
            ),
            ("A", "(shift+a) in that question: apply the flagged candidates too"),
        ),
    ),
    (
        "Memories",
        (
            ("d", "delete the memory (asks first; recorded, revertible)"),
            ("r", "revert the memory's last change"),
            ("/", "filter (the same syntax)"),
            ("", "# is the note's place in the block `context` gives now; ✗: left out (budget)"),
        ),
    ),
    (
        "History",
        (
            ("r", "revert the selected change (a forced revert is offered on conflict)"),
            ("/", "filter (the same syntax)"),
        ),
    ),
    (
        "Sessions",
        (
            ("enter", "step through the selected session"),
            ("n p", "next / previous step"),
            ("escape", "back to the list of sessions"),
        ),
    ),
)


def help_table() -> Table:
    """The key table, one section per screen."""
    table = Table(show_header=False, box=None, padding=(0, 2, 0, 0), expand=True)
    table.add_column("key", style="bold cyan", no_wrap=True, min_width=10)
    table.add_column("what it does", ratio=1)
    for section, keys in KEYMAP:
        table.add_row(Text(section, style="bold underline"), "")
        for key, text in keys:
            table.add_row(key, text)
        table.add_row("", "")
    return table


class HelpScreen(ModalScreen[None]):
    """Every key, grouped by screen; escape, ? or q closes it."""

    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help"):
            yield Label("memory-review — keys", classes="dialog-title")
            yield Static(help_table())

    def action_close(self) -> None:
        self.dismiss(None)
