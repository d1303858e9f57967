"""A virtual table: only the visible rows are ever rendered, so 10,000 rows cost what 30 do.

Textual's DataTable measures every cell of every row it is given, which takes
over a second for a queue of 10,000 candidates. This widget draws with the
Line API instead: rows are plain tuples of strings, column widths are fixed
(one or more flexible columns share what is left), and ``render_line`` turns
only the lines on screen into segments. It keeps a cursor, keeps it on the same
row key when the rows are replaced, and tells its parent by message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

Styler = Callable[[str], str]


@dataclass(frozen=True)
class Column:
    """A column: its header, a fixed width (None: share the rest), how to style a value, and
    the table width below which it is left out (narrow terminals keep the columns that matter)."""

    label: str
    width: int | None = None
    style: str = ""
    styler: Styler | None = None
    min_width: int = 8
    hide_below: int = 0
    live: bool = False
    """The cell holds a timestamp, shown through the table's ``live`` formatter when drawn (an age)."""
    fit: bool = False
    """A shared column that takes only what its longest value needs (an id a reviewer types), up to
    ``FIT_SHARE`` of the shared space, leaving the rest to the other shared columns."""

    def style_for(self, value: str) -> str:
        return self.styler(value) if self.styler else self.style


FIT_SHARE = 0.6
"""The most of the shared space a ``fit`` column takes when its values are long."""


@dataclass(frozen=True)
class Row:
    """One row: a unique key, one string per column, and a style for the whole row."""

    key: str
    cells: tuple[str, ...]
    style: str = ""


class RowTable(ScrollView, can_focus=True):
    """A keyboard-driven table over any number of rows, drawn line by line."""

    BINDINGS = [
        Binding("up,k", "cursor(-1)", "Up", show=False),
        Binding("down,j", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "edge(0)", "First", show=False),
        Binding("end", "edge(1)", "Last", show=False),
        Binding("enter", "select", "Open", show=False),
    ]
    COMPONENT_CLASSES = {"row-table--header", "row-table--cursor", "row-table--empty"}
    DEFAULT_CSS = """
    RowTable { background: $surface; overflow-x: hidden; }
    RowTable > .row-table--header { background: $panel; color: $text; text-style: bold; }
    RowTable > .row-table--cursor { background: $accent 30%; }
    RowTable:focus > .row-table--cursor { background: $accent 60%; text-style: bold; }
    RowTable > .row-table--empty { color: $text-muted; text-style: italic; }
    """

    class Highlighted(Message):
        """The cursor moved to another row (``key`` is None when the table is empty)."""

        def __init__(self, table: RowTable, key: str | None) -> None:
            super().__init__()
            self.table = table
            self.key = key

        @property
        def control(self) -> RowTable:
            return self.table

    class Selected(Message):
        """Enter was pressed on a row."""

        def __init__(self, table: RowTable, key: str) -> None:
            super().__init__()
            self.table = table
            self.key = key

        @property
        def control(self) -> RowTable:
            return self.table

    def __init__(
        self,
        columns: Sequence[Column],
        *,
        empty_text: str = "nothing here",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.columns = tuple(columns)
        self.empty_text = empty_text
        self.rows: list[Row] = []
        self._index: dict[str, int] = {}
        self.cursor = 0
        self._reported: str | None | bool = False  # last key posted; False: nothing posted yet
        self._strips: LRUCache[tuple[Row, int, Style, int], Strip] = LRUCache(1024)
        self._width = 0
        self._tick = 0
        self._fitted: dict[int, int] = {}  # column index -> longest value of a ``fit`` column
        self.live: Callable[[str], str] | None = None
        """How a ``live`` column's timestamp is shown (set by the screen: the display's age)."""

    # --- data -----------------------------------------------------------------------------

    def set_rows(self, rows: Sequence[Row]) -> None:
        """Replace every row; the cursor stays on the same key when it is still there."""
        key = self.highlighted_key
        self.rows = list(rows)
        self._index = {row.key: i for i, row in enumerate(self.rows)}
        self._measure_fitted()
        self.cursor = self._index.get(key, min(self.cursor, max(len(self.rows) - 1, 0))) if key else 0
        self._resize_virtual()
        self.call_after_refresh(self._follow_cursor)  # once the new virtual height is laid out
        self.refresh()
        self._report()

    def replace_row(self, row: Row) -> None:
        """Change one row in place (same key), e.g. to show a mark."""
        index = self._index.get(row.key)
        if index is not None:
            old, self.rows[index] = self.rows[index], row
            if any(old.cells[i : i + 1] != row.cells[i : i + 1] for i in self._fitted):
                self._measure_fitted()  # a fitted cell changed (a mark changes only its own column)
            self.refresh()

    def _measure_fitted(self) -> None:
        fitted = {
            i: max((len(row.cells[i]) for row in self.rows if i < len(row.cells)), default=0)
            for i, column in enumerate(self.columns)
            if column.fit
        }
        if fitted != self._fitted:
            self._fitted = fitted
            self._strips.clear()  # cached lines were cut to the old widths

    @property
    def highlighted_key(self) -> str | None:
        """The key of the row under the cursor."""
        return self.rows[self.cursor].key if 0 <= self.cursor < len(self.rows) else None

    def move_to(self, key: str) -> None:
        """Put the cursor on ``key`` if it is shown."""
        if key in self._index:
            self._set_cursor(self._index[key])

    # --- actions --------------------------------------------------------------------------

    def action_cursor(self, delta: int) -> None:
        self._set_cursor(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        self._set_cursor(self.cursor + direction * max(self._visible_rows() - 1, 1))

    def action_edge(self, end: int) -> None:
        self._set_cursor(len(self.rows) - 1 if end else 0)

    def action_select(self) -> None:
        key = self.highlighted_key
        if key is not None:
            self.post_message(self.Selected(self, key))

    def on_click(self, event: events.Click) -> None:
        if event.y >= 1:
            self._set_cursor(int(self.scroll_offset.y) + event.y - 1)

    # --- cursor and scrolling -------------------------------------------------------------

    def _set_cursor(self, index: int) -> None:
        if not self.rows:
            return
        index = max(0, min(index, len(self.rows) - 1))
        if index != self.cursor:
            self.cursor = index
            self._follow_cursor()
            self.refresh()
        self._report()

    def _report(self) -> None:
        key = self.highlighted_key
        if key != self._reported:
            self._reported = key
            self.post_message(self.Highlighted(self, key))

    def _visible_rows(self) -> int:
        return max(self.scrollable_content_region.height - 1, 1)

    def _follow_cursor(self) -> None:
        top = int(self.scroll_offset.y)
        visible = self._visible_rows()
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + visible:
            self.scroll_to(y=self.cursor - visible + 1, animate=False, immediate=True)

    def _resize_virtual(self) -> None:
        # Width 0: rows are cut to the visible width when drawn, so there is no horizontal scroll.
        self.virtual_size = Size(0, len(self.rows) + 1)

    def on_resize(self, event: events.Resize) -> None:
        self._resize_virtual()
        self._follow_cursor()

    # --- drawing --------------------------------------------------------------------------

    def widths(self, total: int) -> list[int]:
        """Each column's width in a line of ``total`` cells (0: left out; one space between)."""
        shown = [c for c in self.columns if total >= c.hide_below]
        fixed = sum(c.width for c in shown if c.width is not None)
        flexible = [c for c in shown if c.width is None]
        spare = max(total - fixed - (len(shown) - 1), 0)
        widths = {id(c): c.width for c in shown if c.width is not None}
        for i, column in enumerate(self.columns):
            if column.fit and any(c is column for c in flexible) and len(flexible) > 1:
                cap = max(spare // len(flexible), int(spare * FIT_SHARE))
                widths[id(column)] = max(min(self._fitted.get(i, 0), cap), column.min_width)
                spare = max(spare - widths[id(column)], 0)
                flexible = [c for c in flexible if c is not column]
        share = spare // len(flexible) if flexible else 0
        widths.update({id(c): max(share, c.min_width) for c in flexible})
        if flexible:  # the last flexible column takes the rounding remainder
            widths[id(flexible[-1])] += max(spare - share * len(flexible), 0)
        return [widths.get(id(c), 0) for c in self.columns]

    def render_lines(self, crop: Region) -> list[Strip]:
        # Looking the region up costs more than drawing a cached line: do it once per repaint.
        self._width = self.scrollable_content_region.width
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self._width
        base = self.rich_style
        if y == 0:
            header = [(c.label, "") for c in self.columns]
            return self._line(header, width, base + self._component("row-table--header"), "")
        index = int(self.scroll_offset.y) + y - 1
        if not self.rows:
            text = f" {self.empty_text}" if y == 1 else ""
            return self._line([(text, "")], width, base + self._component("row-table--empty"), "", fill=True)
        if index >= len(self.rows):
            return Strip.blank(width, base)
        row = self.rows[index]
        on_cursor = index == self.cursor
        style = base + self._component("row-table--cursor") if on_cursor else base
        key = (row, width, style, self._tick)
        strip = self._strips.get(key)
        if strip is None:  # scrolling by one line draws one new line; the rest come from here
            cells = [
                (self._shown(column, value), column.style_for(value))
                for column, value in zip(self.columns, row.cells, strict=False)
            ]
            strip = self._strips[key] = self._line(cells, width, style, row.style, plain=on_cursor)
        return strip

    def _shown(self, column: Column, value: str) -> str:
        return self.live(value) if column.live and self.live and value else value

    def tick(self) -> None:
        """Draw the live cells again (ages move on): only the lines on screen are redrawn."""
        self._tick += 1
        self.refresh()

    def _component(self, name: str) -> Style:
        return self.get_component_rich_style(name, partial=True)

    def _line(
        self,
        cells: list[tuple[str, str]],
        width: int,
        style: Style,
        row_style: str,
        *,
        fill: bool = False,
        plain: bool = False,
    ) -> Strip:
        """One line of cells, each cut (with an ellipsis) or padded to its column's width.

        ``plain`` (the cursor bar): cells keep bold and dim but not their colours, which the bar's
        own colours would swallow; what they say is in their text (a flag's ⚠ and letters).
        """
        sizes = [width] if fill else self.widths(width)
        shown = [(cell, size) for cell, size in zip(cells, sizes, strict=False) if size > 0]
        extra = _style(row_style)
        cell_style_of = _attributes if plain else _style
        segments = []
        for i, ((value, cell_style), size) in enumerate(shown):
            segments.append(Segment(_fit(value, size), style + cell_style_of(cell_style) + extra))
            if i < len(shown) - 1:
                segments.append(Segment(" ", style + extra))
        return Strip(segments).crop_extend(0, width, style)


@lru_cache(maxsize=256)
def _style(definition: str) -> Style:
    return Style.parse(definition) if definition else Style.null()


@lru_cache(maxsize=256)
def _attributes(definition: str) -> Style:
    """A cell style without its colours (bold, dim, italic, underline stay)."""
    parsed = _style(definition)
    return Style(bold=parsed.bold, dim=parsed.dim, italic=parsed.italic, underline=parsed.underline)


def _fit(value: str, size: int) -> str:
    """``value`` on one line, exactly ``size`` cells wide: padded, or cut with an ellipsis."""
    text = value.replace("\n", " ")
    if cell_len(text) <= size:
        return set_cell_size(text, size)
    return set_cell_size(text, size - 1) + "…" if size > 1 else set_cell_size(text, size)
