"""The ``/`` filter line: hidden until asked for, live as you type, escape clears it."""

from __future__ import annotations

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input


class FilterBar(Input):
    """An input that filters a list; the parent handles ``Input.Changed`` and ``FilterBar.Done``."""

    BINDINGS = [Binding("escape", "clear", "Clear filter")]

    class Done(Message):
        """The person left the filter (enter keeps it, escape clears it)."""

    def __init__(self, *, placeholder: str, id: str | None = None) -> None:
        super().__init__(placeholder=placeholder, id=id)
        self.display = False

    def reveal(self) -> None:
        """Show the bar and put the cursor in it."""
        self.display = True
        self.focus()

    def action_clear(self) -> None:
        self.value = ""
        self.display = False
        self.post_message(self.Done())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.display = bool(self.value)
        self.post_message(self.Done())


def matches(haystack: str, query: str) -> bool:
    """Every whitespace-separated word of ``query`` occurs in ``haystack`` (case-insensitive)."""
    return all(word in haystack for word in query.lower().split())
