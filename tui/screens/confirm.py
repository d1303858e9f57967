"""Small modal questions: pick one of a few choices, or give an optional reason.

Each modal dismisses with its answer (``None`` when cancelled with escape), so
the screen that asked decides what happens next; none of them touches a store.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static


@dataclass(frozen=True)
class Choice:
    """One button of a :class:`ChoiceModal`: the value it answers and how it looks."""

    value: str
    label: str
    variant: str = "default"


class ChoiceModal(ModalScreen[str | None]):
    """A question with a few answers; the first choice has the focus, escape cancels."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(self, title: str, body: Text | str, choices: Sequence[Choice]) -> None:
        super().__init__(classes="modal")
        self.title_text = title
        self.body = body
        self.choices = tuple(choices)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.body, classes="dialog-body")
            with Horizontal(classes="dialog-buttons"):
                for choice in self.choices:
                    yield Button(
                        choice.label,
                        id=f"choice-{choice.value}",
                        variant=choice.variant,
                        compact=True,
                    )

    def on_mount(self) -> None:
        self.query(Button).first().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(str(event.button.id).removeprefix("choice-"))

    def action_cancel(self) -> None:
        self.dismiss(None)


def confirm(title: str, body: Text | str, yes: str, *, danger: bool = False) -> ChoiceModal:
    """A yes/cancel question whose "yes" answer is ``"yes"``."""
    return ChoiceModal(
        title,
        body,
        [Choice("yes", yes, "error" if danger else "primary"), Choice("cancel", "Cancel")],
    )


class ReasonModal(ModalScreen[str | None]):
    """Asks for an optional reason; enter answers (maybe ""), escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self, title: str, body: str, placeholder: str = "reason (optional) — enter to confirm"
    ) -> None:
        super().__init__(classes="modal")
        self.title_text = title
        self.body = body
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.body, classes="dialog-body")
            yield Input(placeholder=self.placeholder, id="reason")
            yield Label("enter: confirm   escape: cancel", classes="dialog-hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
