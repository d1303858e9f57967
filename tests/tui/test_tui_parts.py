"""The UI's pure parts: formatting, filters, undo proposals, the virtual table on 10,000 rows."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from textual.app import App, ComposeResult

from memory_review.injection import ContextRequest, build_context, merge_tiers
from memory_review.injection.render import render_frame
from memory_review.models import Memory
from memory_review.tui.actions import delete_op, discard_op, edit_op, editable_record
from memory_review.tui.format import Display, age_text, flag_marks, frame_text, parse_ts
from memory_review.tui.screens.memories import block_summary, merged_entries
from memory_review.tui.widgets.filter_bar import matches, parse_filter
from memory_review.tui.widgets.row_table import Column, Row, RowTable
from memory_review.workspace import Workspace


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (-5, "0s"),
        (0, "0s"),
        (59, "59s"),
        (60, "1m"),
        (3599, "59m"),
        (3600, "1h"),
        (86399, "23h"),
        (86400, "1d"),
        (47 * 86400 + 5, "47d"),
    ],
)
def test_age_text(seconds: float, text: str) -> None:
    assert age_text(seconds) == text


def test_display_ages_and_masks_from_its_clock() -> None:
    now = datetime(2026, 5, 18, 12, 0, tzinfo=UTC)
    display = Display(clock=lambda: now, id_display=lambda cid: "cand_X", time_display=lambda ts: "T")
    assert display.age("2026-05-18T11:55:00Z") == "5m"
    assert display.age("2026-05-18T11:59:59.500000Z") == "0s"
    assert display.when("2026-05-17T12:00:00Z") == "T (1d ago)"
    text = 'applied_from: "cand_01M8Q1TQ3P2CJYJK7V98SH48VJ"\ncreated_at: "2026-05-18T10:30:00Z"'
    assert display.in_text(text) == 'applied_from: "cand_X"\ncreated_at: "T"'
    assert Display().in_text(text) == text  # by default a diff is shown exactly as stored


def test_parse_ts_accepts_both_precisions() -> None:
    assert parse_ts("2026-05-18T10:30:00Z") == datetime(2026, 5, 18, 10, 30, tzinfo=UTC)
    assert parse_ts("2026-05-18T10:30:00.250000Z").microsecond == 250000


def test_flag_marks_are_stable_letters() -> None:
    assert flag_marks(["secret", "possible-prompt-injection"]) == "⚠IS"
    assert flag_marks(["stale-base", "previously-discarded", "new-kind"]) == "⚠?DB"
    assert flag_marks(["similar-to:conv-pnpm", "untrusted-source"]) == "⚠NU"
    assert flag_marks([]) == ""


def test_filters() -> None:
    assert parse_filter("type:applied Memory:Conv words here") == (
        {"type": "applied", "memory": "conv"},
        ["words", "here"],
    )
    assert parse_filter("url:x") == ({}, ["url:x"])  # unknown fields are plain words
    assert matches("project fact staging url", "staging FACT")
    assert not matches("project fact staging url", "staging user")
    assert matches("anything", "   ")
    row = {"scope": "user", "type": "fact", "memory": "fact-ci-token"}
    assert matches("user fact fact-ci-token ci", "scope:user ci", row)
    assert not matches("user fact fact-ci-token ci project", "scope:project", row)  # the field, not the text
    assert matches("a project row", "scope:project")  # a row without that field: its text


def test_undo_of_a_discard_restores_every_kind_of_candidate(scenario: Workspace) -> None:
    """Undoing a discard puts each kind of candidate back with the same id and record (ADR 0032)."""
    states = scenario.list_candidates()
    assert {s.candidate.op for s in states} >= {"create", "update", "delete"}
    outcome = discard_op([s.candidate for s in states], actor="tester", reason=None).run(scenario)
    assert outcome.undo is not None and outcome.undo.label == f"undo discard of {len(states)}"
    assert scenario.list_candidates() == []
    outcome.undo.run(scenario)
    again = {s.candidate.id: s for s in scenario.list_candidates()}
    assert {cid: s.candidate for cid, s in again.items()} == {s.candidate.id: s.candidate for s in states}
    assert all("previously-discarded" not in s.flags for s in again.values())


def test_undo_and_redo_of_an_edit_and_a_delete_alternate_their_labels(scenario: Workspace) -> None:
    """Each step's outcome carries the next one: edit -> undo edit -> redo edit -> undo edit (all recorded)."""
    state = next(s for s in scenario.list_candidates() if s.candidate.op == "create")
    record = editable_record(state.candidate)
    assert record is not None
    edited = record.model_copy(update={"description": "Edited once"})
    step = edit_op(state.candidate, edited, actor="tester")
    labels, descriptions = [], []
    for _ in range(4):
        outcome = step.run(scenario)
        descriptions.append(editable_record(scenario.show(state.candidate.id).candidate).description)
        assert outcome.undo is not None
        step = outcome.undo
        labels.append(step.label)
    assert labels == ["undo edit", "redo edit", "undo edit", "redo edit"]
    assert descriptions == ["Edited once", record.description, "Edited once", record.description]
    assert len(scenario.log(type="candidate.edited", candidate=state.candidate.id)) == 4
    memory = scenario.memories()[0]
    step = delete_op(memory.id, memory.scope, actor="tester")
    labels = []
    for _ in range(3):
        step = step.run(scenario).undo
        labels.append(" ".join(step.label.split()[:2]))  # "undo delete project event 14"
    assert labels == ["undo delete", "redo delete", "undo delete"]
    assert memory.id not in {m.id for m in scenario.memories()}  # delete, undo, redo: deleted again
    assert [p for r in scenario.verify() for p in r.problems] == []


def test_memories_merge_marks_the_override_and_what_context_dropped(scenario: Workspace) -> None:
    user = scenario.user.view().memories()
    project = scenario.project.view().memories()
    shadow = user[0].model_copy(update={"scope": "project"})
    merged = merge_tiers(user, [*project, shadow], [])
    now = "2026-12-01T00:00:00Z"
    full = build_context(merged, ContextRequest(now=now)).text
    # Room for the first two notes only, to the byte: the third is dropped for the budget.
    third = full.index("\n[memory:", full.index("\n[memory:", full.index("\n[memory:") + 1) + 1)
    budget = len((full[:third] + "</memory-review-context>\n").encode())
    context = build_context(merged, ContextRequest(now=now, budget_bytes=budget))
    entries = merged_entries(user, [*project, shadow], context)
    assert [e.rank for e in entries] == [1, 2, None, None]  # two in the block, one dropped, the shadowed
    assert [e.left_out for e in entries] == [None, None, "budget", None]
    overridden = [e for e in entries if e.overridden_by is not None]
    assert [e.memory.scope for e in overridden] == ["user"]
    winner = next(e for e in entries if e.memory is shadow)
    assert winner.overrides == user[0]
    assert block_summary(entries) == "2 of 3 injected by `context` · 1 dropped (1 budget)"


def test_row_table_widths_share_the_rest() -> None:
    table = RowTable([Column("a", 4), Column("b", None), Column("c", None, min_width=3), Column("d", 2)])
    assert table.widths(40) == [4, 15, 16, 2]  # 40 - 6 fixed - 3 gaps = 31, split 15 + 16
    narrow = table.widths(10)  # too narrow: minimum widths win (the row is cut when drawn)
    assert narrow[0] == 4 and narrow[1] == 8 and narrow[2] >= 3 and narrow[3] == 2
    hiding = RowTable([Column("a", 4), Column("b", None), Column("c", 5, hide_below=30)])
    assert hiding.widths(40) == [4, 29, 5] and hiding.widths(20) == [4, 15, 0]


class _TableApp(App[None]):
    def compose(self) -> ComposeResult:
        yield RowTable([Column("#", 6), Column("text", None)], id="t")


@pytest.mark.asyncio
async def test_row_table_handles_ten_thousand_rows() -> None:
    app = _TableApp()
    async with app.run_test(size=(60, 20)) as pilot:
        table = app.query_one(RowTable)
        table.set_rows([Row(f"k{i}", (str(i), f"row {i}")) for i in range(10_000)])
        table.focus()
        await pilot.pause()
        await pilot.press("end")
        assert table.highlighted_key == "k9999"
        assert table.scroll_offset.y > 9_000
        await pilot.press("pageup", "up")
        assert table.cursor == 9999 - (table._visible_rows() - 1) - 1
        table.set_rows([Row(f"k{i}", (str(i), f"row {i}")) for i in range(5_000, 10_000)])
        await pilot.pause()
        assert table.scroll_offset.y <= table.cursor < table.scroll_offset.y + table._visible_rows()
        assert table.highlighted_key == f"k{9999 - (table._visible_rows() - 1) - 1}"  # same row kept
        await pilot.press("home")
        assert table.highlighted_key == "k5000" and table.scroll_offset.y == 0
        table.set_rows([])
        assert table.highlighted_key is None


class _FitApp(App[None]):
    def compose(self) -> ComposeResult:
        yield RowTable([Column("#", 2), Column("id", None, fit=True), Column("text", None)], id="t")


@pytest.mark.asyncio
async def test_a_fit_column_shows_whole_ids_and_gives_the_rest_away() -> None:
    app = _FitApp()
    async with app.run_test(size=(60, 10)):
        table = app.query_one(RowTable)
        table.set_rows([Row("a", ("1", "short-id", "text")), Row("b", ("2", "x" * 20, "text"))])
        assert table.widths(60) == [2, 20, 36]  # 60 - 2 fixed - 2 gaps = 56: the id needs 20
        table.set_rows([Row("a", ("1", "x" * 100, "text"))])
        assert table.widths(60) == [2, 33, 23]  # a long id takes at most 60% of the shared space
        table.replace_row(Row("a", ("1", "id", "text")))
        assert table.widths(60) == [2, 8, 48]  # never below its minimum width


@pytest.mark.parametrize(
    ("description", "body"),
    [
        ("Never mock the database in tests", "Use the test container."),
        ("Same text", "Same text"),
        ("Ends like a trailer (id=other)", ""),
        ("\u200b", "only a body"),
        ("Two\u2028lines", "b\nc"),
    ],
)
def test_frame_text_colours_the_note_and_keeps_its_bytes(description: str, body: str) -> None:
    memory = Memory(
        id="m-1",
        type="forbidden",
        scope="project",
        description=description,
        body=body,
        created_at="2026-01-01T00:00:00Z",
        updated_at="2026-01-01T00:00:00Z",
    )
    frame = render_frame(memory, "2026-03-01T00:00:00Z")
    shown = frame_text(frame)
    assert shown.plain == frame and frame_text(frame, gone=True).plain == frame
    assert shown.plain.endswith(
        "(id=m-1; this memory is 59 days old)\n" + (f"{body}\n" if body != description.strip() and body else "")
    )
    dim = [shown.plain[s.start : s.end] for s in shown.spans if s.style == "dim"]
    assert dim == [" (id=m-1; this memory is 59 days old)"]
