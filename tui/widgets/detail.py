"""A scrollable pane that shows one rich renderable: the details of whatever is selected."""

from __future__ import annotations

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static


class DetailPane(VerticalScroll, can_focus=True):
    """Shows the details of the selected row; focusable so long diffs can be scrolled."""

    def compose(self) -> ComposeResult:
        yield Static("", classes="detail-body")

    def show(self, renderable: RenderableType) -> None:
        """Replace what is shown and scroll back to the top."""
        self.query_one(".detail-body", Static).update(renderable)
        self.scroll_home(animate=False)
