"""The durable file primitives: what they write, what they fsync, and what a fault leaves behind."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from events_testkit import run_child

from memory_review.events import (
    TEMP_PREFIX,
    FaultPlan,
    arm,
    atomic_replace,
    fsync_dir,
    is_temp_file,
    points_hit,
    remove_file,
    write_new_file,
)
from memory_review.events.durable import write_new_files

OLD, NEW = b"old contents\n", b"new contents, longer than the old ones\n"


class _FsyncSpy:
    """Records which kind of file each fsync was for (directory or regular)."""

    def __init__(self) -> None:
        self.kinds: list[str] = []
        self.real = os.fsync

    def __call__(self, fd: int) -> None:
        self.kinds.append("dir" if os.path.isdir(f"/proc/self/fd/{fd}") else "file")
        self.real(fd)


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> _FsyncSpy:
    spy = _FsyncSpy()
    monkeypatch.setattr(os, "fsync", spy)
    return spy


def _leftovers(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if is_temp_file(name))


def test_write_new_file_writes_and_fsyncs(tmp_path: Path, fsyncs: _FsyncSpy) -> None:
    path = tmp_path / "m.md"
    write_new_file(path, NEW)
    assert path.read_bytes() == NEW and fsyncs.kinds == ["file"]


def test_write_new_file_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "m.md"
    path.write_bytes(OLD)
    with pytest.raises(FileExistsError):
        write_new_file(path, NEW)
    assert path.read_bytes() == OLD


def test_atomic_replace_replaces_and_syncs_file_then_directory(tmp_path: Path, fsyncs: _FsyncSpy) -> None:
    path = tmp_path / "manifest.json"
    path.write_bytes(OLD)
    atomic_replace(path, NEW)
    assert path.read_bytes() == NEW and fsyncs.kinds == ["file", "dir"]
    assert _leftovers(tmp_path) == []
    atomic_replace(tmp_path / "fresh.json", OLD)
    assert (tmp_path / "fresh.json").read_bytes() == OLD


def test_atomic_replaces_can_share_one_directory_fsync(tmp_path: Path, fsyncs: _FsyncSpy) -> None:
    atomic_replace(tmp_path / "MEMORY.md", OLD, sync_dir=False)
    atomic_replace(tmp_path / "manifest.json", NEW, sync_dir=False)
    fsync_dir(tmp_path)
    assert fsyncs.kinds == ["file", "file", "dir"]
    assert (tmp_path / "MEMORY.md").read_bytes() == OLD and (tmp_path / "manifest.json").read_bytes() == NEW
    assert _leftovers(tmp_path) == []


def test_remove_file_syncs_the_directory_even_when_missing(tmp_path: Path, fsyncs: _FsyncSpy) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(OLD)
    remove_file(path)
    remove_file(path)
    assert not path.exists() and fsyncs.kinds == ["dir", "dir"]


def test_fsync_dir(tmp_path: Path, fsyncs: _FsyncSpy) -> None:
    fsync_dir(tmp_path)
    assert fsyncs.kinds == ["dir"]
    with pytest.raises(NotADirectoryError):
        fsync_dir(Path(__file__))


def test_temp_names_are_recognisable() -> None:
    assert TEMP_PREFIX == ".tmp"
    assert is_temp_file(".tmp-0123456789abcdef-manifest.json")
    assert not is_temp_file("manifest.json")


# --- an OSError at every point: typed error, old-or-new content, no temp file left -----------


def _record(operation: Callable[[], Any]) -> list[str]:
    arm(FaultPlan(action="record"))
    operation()
    hit = points_hit()
    arm(None)
    return hit


def _each_fault(
    tmp_path: Path, mode: str, setup: Callable[[Path], None], operation: Callable[[Path], Any]
) -> list[tuple[str, Path]]:
    """Run ``operation`` once per point with an OSError injected there; return (point, path)."""
    probe = tmp_path / "probe" / "target"
    probe.parent.mkdir()
    setup(probe)
    points = _record(lambda: operation(probe))
    results = []
    for nth, name in enumerate(points, 1):
        path = tmp_path / f"{mode}-{nth}" / "target"
        path.parent.mkdir()
        setup(path)
        arm(FaultPlan(action="raise", nth=nth, mode=mode, errno=errno.EIO))
        with pytest.raises(OSError) as caught:
            operation(path)
        arm(None)
        assert caught.value.errno == errno.EIO
        assert _leftovers(path.parent) == [], name
        results.append((name, path))
    return results


@pytest.mark.parametrize("mode", ["once", "from"])
def test_atomic_replace_under_faults(tmp_path: Path, mode: str) -> None:
    results = _each_fault(tmp_path, mode, lambda p: p.write_bytes(OLD), lambda p: atomic_replace(p, NEW))
    names = [name for name, _ in results]
    assert names == [
        "durable.atomic_replace.before_open",
        "durable.atomic_replace.before_write",
        "durable.atomic_replace.after_write",
        "durable.atomic_replace.before_fsync",
        "durable.atomic_replace.after_fsync",
        "durable.atomic_replace.before_rename",
        "durable.atomic_replace.after_rename",
        "durable.atomic_replace.dir.before_fsync",
        "durable.atomic_replace.dir.after_fsync",
    ]
    renamed = names.index("durable.atomic_replace.after_rename")
    for index, (name, path) in enumerate(results):
        assert path.read_bytes() == (NEW if index >= renamed else OLD), name


@pytest.mark.parametrize("mode", ["once", "from"])
def test_write_new_file_under_faults_leaves_no_half_file(tmp_path: Path, mode: str) -> None:
    results = _each_fault(tmp_path, mode, lambda p: None, lambda p: write_new_file(p, NEW))
    assert len(results) == 5
    for name, path in results:
        assert not path.exists(), name  # an error means no file: a retry will not hit FileExistsError


def _many(path: Path) -> list[tuple[Path, bytes]]:
    return [(path.with_name(f"m-{i}.md"), NEW + bytes([48 + i])) for i in range(3)]


def test_write_new_files_writes_and_fsyncs_each_and_reports_existing(tmp_path: Path, fsyncs: _FsyncSpy) -> None:
    files = _many(tmp_path / "x")
    files[1][0].write_bytes(OLD)
    assert write_new_files(files) == [files[1][0]]
    assert [p.read_bytes() for p, _ in files] == [files[0][1], OLD, files[2][1]]
    assert fsyncs.kinds == ["file", "file"]


def test_write_new_files_passes_its_fault_points_in_one_order(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = _record(lambda: write_new_files(_many(tmp_path / "a" / "x")))
    second = _record(lambda: write_new_files(_many(tmp_path / "b" / "x")))
    assert first == second
    assert first.count("durable.write_new.before_fsync") == 3 and first[-1] == "durable.write_new.after_fsync"


@pytest.mark.parametrize("mode", ["once", "from"])
def test_write_new_files_under_faults_leaves_no_file(tmp_path: Path, mode: str) -> None:
    results = _each_fault(tmp_path, mode, lambda p: None, lambda p: write_new_files(_many(p)))
    assert len(results) == 3 * 5
    for name, path in results:
        assert not [p for p, _ in _many(path) if p.exists()], name


def test_write_new_files_raises_a_failed_fsync_and_removes_every_file(tmp_path: Path, monkeypatch) -> None:
    real, calls = os.fsync, []

    def second_fails(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(errno.EIO, "Input/output error")
        real(fd)

    monkeypatch.setattr(os, "fsync", second_fails)
    files = _many(tmp_path / "x")
    with pytest.raises(OSError) as caught:
        write_new_files(files)
    assert caught.value.errno == errno.EIO and len(calls) == 3
    assert not [p for p, _ in files if p.exists()]


@pytest.mark.parametrize("mode", ["once", "from"])
def test_remove_file_under_faults(tmp_path: Path, mode: str) -> None:
    results = _each_fault(tmp_path, mode, lambda p: p.write_bytes(OLD), remove_file)
    names = [name for name, _ in results]
    assert names == [
        "durable.remove.before_unlink",
        "durable.remove.after_unlink",
        "durable.remove.dir.before_fsync",
        "durable.remove.dir.after_fsync",
    ]
    for name, path in results:
        assert path.exists() == (name == "durable.remove.before_unlink"), name


# --- a crash at every point of atomic_replace ------------------------------------------------

CHILD_REPLACE = """
import sys
from pathlib import Path
from memory_review.events.durable import atomic_replace
atomic_replace(Path(sys.argv[1]), sys.argv[2].encode())
"""


def test_a_crash_at_every_point_of_atomic_replace(tmp_path: Path) -> None:
    new = "new contents, longer than the old ones\n"
    probe = tmp_path / "probe"
    probe.write_bytes(OLD)
    points = _record(lambda: atomic_replace(probe, new.encode()))
    for index, name in enumerate(points):
        path = tmp_path / f"kill-{index}" / "manifest.json"
        path.parent.mkdir()
        path.write_bytes(OLD)
        done = run_child(
            CHILD_REPLACE,
            str(path),
            new,
            fault=FaultPlan(action="kill", point=name).model_dump_json(),
        )
        assert done.returncode == 137, (name, done.stderr)
        assert path.read_bytes() in (OLD, new.encode()), name  # whole old or whole new, never a mix
        for leftover in _leftovers(path.parent):  # a crash may leave a temp file; it is never the target
            assert (path.parent / leftover).read_bytes() in (
                b"",
                new.encode()[: len(new) // 2],
                new.encode(),
            )


def test_a_torn_temp_write_leaves_the_target_whole(tmp_path: Path) -> None:
    path = tmp_path / "manifest.json"
    path.write_bytes(OLD)
    plan = FaultPlan(action="partial", point="durable.atomic_replace.before_write")
    done = run_child(CHILD_REPLACE, str(path), NEW.decode(), fault=plan.model_dump_json())
    assert done.returncode == 137, done.stderr
    assert path.read_bytes() == OLD
    (leftover,) = _leftovers(tmp_path)
    assert (tmp_path / leftover).read_bytes() == NEW[: len(NEW) // 2]
