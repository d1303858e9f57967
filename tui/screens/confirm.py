"""Small modal questions: pick one of a few choices, or give an optional reason.

Each modal dismisses with its answer (``None`` when cancelled with escape), so
the screen that asked decides what happens next; none of them touches a store.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static
from textual.widgets.button import ButtonVariant


@dataclass(frozen=True)
class Choice:
    """One button of a :class:`ChoiceModal`: the value it answers and how it looks.

    A ``key`` choice is deliberate: it never takes the focus (so enter, or tab then
    enter, cannot pick it) and answers only to its own key (or a click).
    """

    value: str
    label: str
    variant: ButtonVariant = "default"
    key: str | None = None


class ChoiceModal(ModalScreen[str | None]):
    """A question with a few answers; the first focusable choice has the focus, escape cancels."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("left", "app.focus_previous", show=False),
        Binding("right", "app.focus_next", show=False),
    ]

    def __init__(self, title: str, body: Text | str, choices: Sequence[Choice], hint: str = "") -> None:
        super().__init__(classes="modal")
        self.title_text = title
        self.body = body
        self.choices = tuple(choices)
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.body, classes="dialog-body")
            if self.hint:
                yield Label(self.hint, classes="dialog-hint")
            with Horizontal(classes="dialog-buttons"):
                for choice in self.choices:
                    button = Button(
                        choice.label,
                        id=f"choice-{choice.value}",
                        variant=choice.variant,
                        compact=True,
                    )
                    button.can_focus = choice.key is None
                    yield button

    def on_mount(self) -> None:
        focusable = [b for b in self.query(Button) if b.can_focus]
        if focusable:
            focusable[0].focus()

    def on_key(self, event: events.Key) -> None:
        for choice in self.choices:
            if choice.key is not None and event.character == choice.key:
                event.stop()
                self.dismiss(choice.value)
                return

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

    def __init__(self, title: str, body: str, placeholder: str = "reason (optional) — enter to confirm") -> None:
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


APPLY_FLAGGED_KEY = "A"
"""Shift+a: the one key that applies a flagged candidate (``a`` then enter never does)."""


def flagged_apply(title: str, body: Text | str, *, clean: int, total: int) -> ChoiceModal:
    """The question before applying flagged candidates; enter (the default) keeps them pending.

    With ``clean`` unflagged candidates among ``total``, enter applies those and keeps the
    flagged ones pending; applying the flagged too takes :data:`APPLY_FLAGGED_KEY`.
    """
    first = (
        Choice("clean", f"Apply the {clean} unflagged", "primary")
        if clean
        else Choice("cancel", "Keep it pending" if total == 1 else "Keep them pending", "primary")
    )
    every = "anyway" if total == 1 else f"all {total}"
    choices = [
        first,
        *([Choice("cancel", "Cancel")] if clean else []),
        Choice("all", f"{APPLY_FLAGGED_KEY}: apply {every}", "error", key=APPLY_FLAGGED_KEY),
    ]
    default = "apply the unflagged only" if clean else "keep pending"
    hint = f"enter: {default} · esc: cancel · shift+a: apply {'all' if total > 1 else 'anyway'}"
    return ChoiceModal(title, body, choices, hint=hint)
