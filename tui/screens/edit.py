"""The in-app editor for a candidate's proposed record, and the store it goes to.

The form is validated with the library's own ``ProposedMemory`` model before it
is handed back, so an invalid edit is shown in the form and never saved; the
screen that opened it then records the edit as ``candidate.edited``, and a new
store as a move (``Workspace.move``, ADR 0154).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError as PydanticValidationError
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static, TextArea

from memory_review.models import MEMORY_TYPES, DurableScope, Memory, durable_scope
from memory_review.proposal import ProposedMemory
from memory_review.tui.screens.confirm import Choice, ChoiceModal

_EPOCH = "2000-01-01T00:00:00Z"
_STORES = "user: all your projects · project: this one"


@dataclass(frozen=True)
class Edited:
    """What a saved form changed: the record (None: as it was) and the store (None: the same one)."""

    record: ProposedMemory | None
    scope: DurableScope | None


class EditModal(ModalScreen[Edited | None]):
    """Edit id and store (new memories only), type, description and body; ctrl+s saves, escape cancels
    (asking first when the form was changed). The description opens with the cursor at its end, unselected."""

    BINDINGS = [Binding("ctrl+s", "save", "Save"), Binding("escape", "cancel", "Cancel")]

    def __init__(self, record: ProposedMemory, *, scope: DurableScope, can_rename: bool, title: str) -> None:
        super().__init__(classes="modal")
        self.record = record
        self.scope = scope
        self.can_rename = can_rename  # a new memory: its id and its store are the person's to choose
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog editor"):
            yield Label(self.title_text, classes="dialog-title")
            with Horizontal(classes="field"):
                yield Label("id", classes="field-label")
                yield Input(
                    self.record.id,
                    id="edit-id",
                    disabled=not self.can_rename,
                    compact=True,
                    select_on_focus=False,
                )
                yield Label("type", classes="field-label short")
                yield Select(
                    [(t, t) for t in MEMORY_TYPES],
                    value=self.record.type,
                    allow_blank=False,
                    id="edit-type",
                    compact=True,
                )
            with Horizontal(classes="field"):
                yield Label("store", classes="field-label")
                yield Select(
                    [(s, s) for s in ("user", "project")],
                    value=self.scope,
                    allow_blank=False,
                    id="edit-scope",
                    disabled=not self.can_rename,
                    compact=True,
                )
                yield Label(_STORES, classes="field-hint")
            with Horizontal(classes="field"):
                yield Label("description", classes="field-label")
                yield Input(
                    self.record.description,
                    id="edit-description",
                    compact=True,
                    placeholder="one line: what to remember",
                    select_on_focus=False,  # a first keystroke must not wipe the description
                )
            yield Label("body", classes="field-label")
            yield TextArea(self.record.body, id="edit-body", soft_wrap=True)
            yield Static("", id="edit-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save  ctrl+s", id="save", variant="primary", compact=True)
                yield Button("Cancel  esc", id="cancel", compact=True)

    def on_mount(self) -> None:
        description = self.query_one("#edit-description", Input)
        description.focus()
        description.cursor_position = len(description.value)  # at the end, nothing selected

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_save() if event.button.id == "save" else self.action_cancel()

    def action_save(self) -> None:
        try:
            record = self.current()
        except PydanticValidationError as exc:
            self.query_one("#edit-error", Static).update(_describe(exc))
            return
        scope = durable_scope(str(self.query_one("#edit-scope", Select).value))
        edited = Edited(None if record == self.record else record, None if scope == self.scope else scope)
        self.dismiss(None if edited == Edited(None, None) else edited)

    def current(self) -> ProposedMemory:
        """The form as a validated record (raises pydantic's ValidationError when it is not one)."""
        record = ProposedMemory.model_validate(
            {
                "id": self.query_one("#edit-id", Input).value.strip(),
                "type": self.query_one("#edit-type", Select).value,  # a blank Select is refused here
                "description": self.query_one("#edit-description", Input).value,
                "body": self.query_one("#edit-body", TextArea).text,
            }
        )
        # The stored record is stricter than the proposal (one non-blank line of description):
        # check it the same way now, so the form says what is wrong instead of the store.
        Memory(**record.model_dump(), scope="project", created_at=_EPOCH, updated_at=_EPOCH)
        return record

    def changed(self) -> bool:
        """Whether the form differs from the record it opened with (valid or not)."""
        now = (
            self.query_one("#edit-id", Input).value.strip(),
            self.query_one("#edit-type", Select).value,
            self.query_one("#edit-description", Input).value,
            self.query_one("#edit-body", TextArea).text,
            self.query_one("#edit-scope", Select).value,
        )
        return now != (self.record.id, self.record.type, self.record.description, self.record.body, self.scope)

    def action_cancel(self) -> None:
        """Escape: close at once when nothing changed; else ask, with "Keep editing" focused."""
        if not self.changed():
            self.dismiss(None)
            return

        def answered(answer: str | None) -> None:
            if answer == "drop":
                self.dismiss(None)

        self.app.push_screen(
            ChoiceModal(
                "Throw away your edits?",
                "The changes in this form are not saved yet.",
                [Choice("keep", "Keep editing", "primary"), Choice("drop", "Throw them away", "error")],
                hint="enter or esc: keep editing",
            ),
            answered,
        )


def _describe(exc: PydanticValidationError) -> str:
    parts = []
    for error in exc.errors(include_url=False):
        field = ".".join(str(p) for p in error["loc"]) or "record"
        parts.append(f"{field}: {str(error['msg']).removeprefix('Value error, ')}")
    return "Not saved — " + "; ".join(parts)
