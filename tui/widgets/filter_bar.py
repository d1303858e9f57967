"""The ``/`` filter line: hidden until asked for, live as you type, escape clears it; one syntax
(:data:`SYNTAX`) on every screen."""

from __future__ import annotations

from collections.abc import Mapping

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


FIELDS = ("type", "scope", "memory", "session", "op", "flag")
"""The ``name:value`` terms every screen's filter takes (a screen without such a field looks in the row)."""
SYNTAX = "words that must all appear, and field:value terms (" + " ".join(f"{f}:" for f in FIELDS) + ")"
"""The one filter syntax, as the help and every filter line say it."""


def parse_filter(text: str) -> tuple[dict[str, str], list[str]]:
    """``type:applied memory:foo words`` -> ({"type": "applied", "memory": "foo"}, ["words"])."""
    fields, words = {}, []
    for token in text.lower().split():
        name, sep, value = token.partition(":")
        if sep and name in FIELDS and value:
            fields[name] = value
        else:
            words.append(token)
    return fields, words


def matches(haystack: str, query: str, fields: Mapping[str, str] | None = None) -> bool:
    """Whether a row passes the filter ``query``: each ``field:value`` term is in the row's field of
    that name (lower case; a field the row does not have: anywhere in ``haystack``), and every
    other word is in ``haystack`` (the row's lower-case search text)."""
    terms, words = parse_filter(query)
    have = fields or {}
    return all(value in have.get(name, haystack) for name, value in terms.items()) and all(
        word in haystack for word in words
    )
