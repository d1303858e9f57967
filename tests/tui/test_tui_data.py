"""Loading the queue: the reader pauses the cycle collector and always restores it; the first load
arrives in parts and ends as the whole queue would."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest
from tui_helpers import app_for, loaded, settle, wait_until

import memory_review.pending_files
import memory_review.tui.bulk
import memory_review.tui.data
import memory_review.tui.screens.review
from memory_review.tui.data import PendingReader
from memory_review.tui.screens.review import ReviewScreen
from memory_review.workspace import Workspace


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    """Whatever a test does, the process leaves it with the collector on and nothing frozen."""
    yield
    gc.unfreeze()
    gc.enable()


def _pass(reader: PendingReader) -> list[str]:
    with reader.reading():
        assert not gc.isenabled()
        return [s.candidate.id for chunk in reader.chunks(size=2) for s in chunk]


def test_a_pass_pauses_the_collector_and_turns_it_back_on(scenario: Workspace) -> None:
    reader = PendingReader(scenario)
    assert _pass(reader) == [s.candidate.id for s in scenario.list_candidates()]
    assert gc.isenabled()
    assert reader.decoded == 6
    _pass(reader)
    assert reader.decoded == 0  # every file came from the cache


def test_a_collector_someone_turned_off_stays_off(scenario: Workspace) -> None:
    gc.disable()
    _pass(PendingReader(scenario))
    assert not gc.isenabled()


def test_a_failing_pass_still_turns_the_collector_back_on(scenario: Workspace) -> None:
    reader = PendingReader(scenario)
    with pytest.raises(RuntimeError), reader.reading():
        raise RuntimeError("the worker died")
    assert gc.isenabled()
    assert not reader.lock.locked()


def test_overlapping_passes_leave_it_on_only_when_the_last_one_ends(scenario: Workspace) -> None:
    first_in, second_done = threading.Event(), threading.Event()
    seen: list[bool] = []

    def first() -> None:
        with PendingReader(scenario).reading():
            first_in.set()
            second_done.wait(10)
            seen.append(gc.isenabled())  # the other pass ended first: still paused for this one

    thread = threading.Thread(target=first)
    thread.start()
    first_in.wait(10)
    _pass(PendingReader(scenario))
    second_done.set()
    thread.join(10)
    assert seen == [False]
    assert gc.isenabled()


def test_a_bulk_pass_freezes_what_it_loaded(scenario: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    reader = PendingReader(scenario)
    monkeypatch.setattr(memory_review.tui.bulk, "FREEZE_AFTER", 7)
    _pass(reader)  # 6 files: not a bulk pass
    assert gc.get_freeze_count() == 0
    monkeypatch.setattr(memory_review.tui.bulk, "FREEZE_AFTER", 6)
    _pass(PendingReader(scenario))
    assert gc.get_freeze_count() > 0
    assert gc.isenabled()


def test_the_first_chunk_is_small_so_the_first_rows_show_early(
    scenario: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memory_review.pending_files, "FIRST_CHUNK", 2)
    assert [len(chunk) for chunk in PendingReader(scenario).chunks(size=3)] == [2, 3, 1]
    assert [len(chunk) for chunk in PendingReader(scenario).chunks(size=1)] == [1] * 6 + [0]


@pytest.mark.asyncio
async def test_the_first_load_comes_in_parts_and_equals_a_whole_reload(
    scenario: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    chunks = PendingReader.chunks
    monkeypatch.setattr(PendingReader, "chunks", lambda self, size=2: chunks(self, size))
    monkeypatch.setattr(memory_review.tui.screens.review, "PROGRESS_EVERY", 1)
    parts: list[tuple[int, bool, bool]] = []
    handle = ReviewScreen.on_review_screen_loaded

    def record(screen: ReviewScreen, message: ReviewScreen.Loaded) -> None:
        parts.append((len(message.entries), message.replace, message.final))
        handle(screen, message)

    monkeypatch.setattr(ReviewScreen, "on_review_screen_loaded", record)
    app = app_for(scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: loaded(app), what="the queue")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        assert parts == [(2, True, False), (2, False, False), (2, False, False), (0, False, True)]
        first = (list(screen.order), dict(screen.entries))
        screen.reload()
        await settle(pilot)
        assert parts[-1] == (6, True, True)  # a later pass sends the queue whole
        assert screen.order == first[0]
        assert all(screen.entries[cid] is entry for cid, entry in first[1].items())  # reused
    library = sorted(scenario.list_candidates(), key=lambda s: first[1][s.candidate.id].key)
    assert first[0] == [s.candidate.id for s in library]
