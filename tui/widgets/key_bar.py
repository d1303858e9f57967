"""A two-line footer: this screen's keys on the first line, the keys that work everywhere below.

A screen or the app may name a key by what it would do now (``describe_key``: "apply 3 marked",
"undo apply of 3"), and the app's busy text leads the second line while a decision runs.

Textual's one-line Footer cannot hold the review keys and the screen keys
(``1``–``4``, ``u``, ``?``, ``q``) in 80 columns; every one of them is part of
the key contract, so all must be visible.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.widget import Widget


class KeyBar(Widget):
    """The active key bindings, grouped: the screen's first, then the app's."""

    COMPONENT_CLASSES = {"key-bar--key", "key-bar--description"}
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 2; background: $panel; }
    KeyBar > .key-bar--key { color: $accent; text-style: bold; }
    KeyBar > .key-bar--description { color: $text; }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: object) -> None:
        self.refresh()

    def lines(self) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """(key, description) pairs as shown: the screen's and focused widgets', then the app's.

        A line wider than the bar gives up live descriptions ("redo apply of 3" -> "Redo"), the
        last first, so every key of the contract stays visible at 80 columns.
        """
        local: list[tuple[str, str, str]] = []
        app: list[tuple[str, str, str]] = []
        seen: set[str] = set()
        for node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if not binding.show or not enabled or binding.action in seen:
                continue
            seen.add(binding.action)
            key = self.app.get_key_display(binding)
            live = _described(node, binding.action) or binding.description
            (app if isinstance(node, App) else local).append((key, live, binding.description))
        busy = self.busy()
        lead = len(f" ⏳ {busy} ") if busy else 0
        width = self.size.width or 10_000  # not laid out yet: nothing to fit
        return _fit(local, width), _fit(app, width - lead)

    def busy(self) -> str | None:
        """What the app says is under way (a decision past its busy threshold), if anything."""
        return getattr(self.app, "busy", None)

    def render(self) -> Text:
        key_style = self.get_component_rich_style("key-bar--key")
        text_style = self.get_component_rich_style("key-bar--description")
        out = Text(no_wrap=True, overflow="ellipsis")
        if self.is_attached and self.app.screen is not self.screen:  # a dialog is on top: these keys sleep
            out.append(" a dialog is open: its keys are in it · esc closes it", style=text_style + Style(dim=True))
            return out
        for number, pairs in enumerate(self.lines()):
            if number:
                out.append("\n")
                busy = self.busy()
                if busy:
                    out.append(f" ⏳ {busy} ", style="bold reverse")
            for key, description in pairs:
                out.append(f" {key} ", style=key_style)
                out.append(f"{description} ", style=text_style)
        return out


def _fit(keys: list[tuple[str, str, str]], width: int) -> list[tuple[str, str]]:
    """(key, live, own) triples -> (key, description), live ones shortened from the end until they fit."""
    shown = [[key, live, own] for key, live, own in keys]
    for entry in reversed(shown):
        if sum(len(k) + len(d) + 3 for k, d, _ in shown) <= width:
            break
        entry[1] = entry[2]
    return [(key, description) for key, description, _ in shown]


def _described(node: object, action: str) -> str | None:
    """A node's live description of one of its keys ("apply 3 marked"), if it gives one."""
    describe = getattr(node, "describe_key", None)
    return describe(action) if callable(describe) else None
