"""Rewriting a log (forget): the chain is re-made, seqs stay, damage is refused, the swap is atomic."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import orjson
import pytest
from events_testkit import HISTORY, ORIGIN, STATES, TS, chain, fixed_clock, flip, line_offsets, run_child

from memory_review.events import EventDraft, EventLog, FaultPlan, LogConflictError, LogIntegrityError, faults, replay
from memory_review.events.rewrite import extend, rechain, replace_log

SECRET = "Postgres 16"


def _redact(fields: dict[str, Any], renamed: dict[str, str]) -> dict[str, Any]:
    return orjson.loads(orjson.dumps(fields).replace(SECRET.encode(), b"[forgotten]"))


def _keep(fields: dict[str, Any], renamed: dict[str, str]) -> dict[str, Any]:
    return fields


def _history(path: Path) -> EventLog:
    log = EventLog(path, origin=ORIGIN, clock=fixed_clock)
    for draft in HISTORY:
        log.append([draft])
    return log


def test_an_edit_that_changes_nothing_gives_the_same_bytes(log_path: Path) -> None:
    _history(log_path)
    result = rechain(log_path.read_bytes(), _keep, where=log_path)
    assert result.data == log_path.read_bytes()
    assert result.changed == [] and result.renamed == {} and result.first_changed is None


def test_a_redacted_log_keeps_its_seqs_chains_anew_and_replays(log_path: Path) -> None:
    log = _history(log_path)
    old = log_path.read_bytes()
    result = rechain(old, _redact, where=log_path)
    assert SECRET.encode() not in result.data and SECRET.encode() in old
    assert result.first_changed == 5  # fact-db is created at seq 5
    assert result.changed == [5, 11]  # created there, and its before-snapshot when deleted
    old_lines, new_lines = old.splitlines(keepends=True), result.data.splitlines(keepends=True)
    assert old_lines[:4] == new_lines[:4] and all(a != b for a, b in zip(old_lines[4:], new_lines[4:], strict=False))
    assert len(result.renamed) == len(old_lines) - 4
    replace_log(log_path, result.data, expect=log.head())
    report = log.verify()
    assert report.ok and report.head == result.head and report.events == len(HISTORY)
    state = replay(log.read(), at=10)
    assert state.memories["fact-db"]["body"] == "The database is [forgotten]."
    assert replay(log.read(), at=4).memories == STATES[4]


def test_appended_events_follow_the_rewritten_lines(log_path: Path) -> None:
    log = _history(log_path)
    note = EventDraft(type="store.recovered", actor="alice", reason="forgot a text")
    result = extend(rechain(log_path.read_bytes(), _redact, where=log_path), [note], origin=ORIGIN, ts=TS)
    (event,) = result.appended
    assert event.seq == len(HISTORY) + 1 and result.head.seq == event.seq
    replace_log(log_path, result.data, expect=log.head())
    assert log.verify().ok and log.get(event.seq).reason == "forgot a text"


def test_the_renames_reach_later_lines(log_path: Path) -> None:
    """A later line can name an earlier one by its hash (a sync version id): the edit sees the rename."""
    log = _history(log_path)
    old_hash_of_5 = _line_hash(log_path, 5)
    log.append([EventDraft(type="store.recovered", actor="system", reason=f"version {old_hash_of_5}")])
    seen: list[dict[str, str]] = []

    def rename(fields: dict[str, Any], renamed: dict[str, str]) -> dict[str, Any]:
        seen.append(dict(renamed))
        fields = _redact(fields, renamed)
        reason = fields.get("reason") or ""
        for old, new in renamed.items():
            reason = reason.replace(old, new)
        return {**fields, "reason": reason} if reason else fields

    result = rechain(log_path.read_bytes(), rename, where=log_path)
    replace_log(log_path, result.data, expect=log.head())
    assert log.get(len(HISTORY) + 1).reason == f"version {_line_hash(log_path, 5)}"
    assert old_hash_of_5 not in seen[4] and old_hash_of_5 in seen[-1]


def _line_hash(path: Path, seq: int) -> str:
    from memory_review.events import line_hash

    return line_hash(path.read_bytes().splitlines(keepends=True)[seq - 1])


def test_a_damaged_log_is_never_rewritten(log_path: Path) -> None:
    _history(log_path)
    flip(log_path, line_offsets(log_path)[6] + 12)
    with pytest.raises(LogIntegrityError) as caught:
        rechain(log_path.read_bytes(), _redact, where=log_path)
    assert caught.value.line in (7, 8)  # the bad line itself, or the next one whose prev no longer matches


def test_a_forged_chain_that_decodes_is_refused_too(log_path: Path) -> None:
    lines = chain(HISTORY[:3])
    lines[1] = chain(HISTORY[1:2], start_seq=2)[0]  # valid event, prev of GENESIS: the chain breaks
    log_path.write_bytes(b"".join(lines))
    with pytest.raises(LogIntegrityError, match="chain is broken"):
        rechain(log_path.read_bytes(), _keep, where=log_path)


def test_a_torn_tail_and_an_unfinished_batch_are_left_out(log_path: Path) -> None:
    log = _history(log_path)
    committed = log_path.read_bytes()
    batch = chain([HISTORY[-1], HISTORY[-1]], start_seq=len(HISTORY) + 1, prev=log.head().hash)
    first = orjson.loads(batch[0])
    first["more"] = True
    torn = orjson.dumps(first, option=orjson.OPT_SORT_KEYS) + b"\n" + b'{"v":1,"se'
    result = rechain(committed + torn, _keep, where=log_path)
    assert result.data == committed and result.head == log.head()


def test_an_edit_may_not_renumber(log_path: Path) -> None:
    _history(log_path)
    with pytest.raises(ValueError, match="may not change seq"):
        rechain(log_path.read_bytes(), lambda f, r: {**f, "seq": f["seq"] + 1}, where=log_path)


def test_an_edit_that_makes_an_invalid_event_is_refused(log_path: Path) -> None:
    _history(log_path)
    with pytest.raises(LogIntegrityError, match="not valid"):
        rechain(log_path.read_bytes(), lambda f, r: {**f, "type": "no.such"}, where=log_path)


def test_replace_refuses_a_log_that_moved(log_path: Path) -> None:
    log = _history(log_path)
    head = log.head()
    result = rechain(log_path.read_bytes(), _redact, where=log_path)
    log.append([HISTORY[-1]])
    before = log_path.read_bytes()
    with pytest.raises(LogConflictError):
        replace_log(log_path, result.data, expect=head)
    assert log_path.read_bytes() == before


@pytest.mark.parametrize(
    "point",
    [
        "log.rewrite.before_write",
        "log.rewrite.before_fsync",
        "log.rewrite.before_rename",
        "log.rewrite.dir.before_fsync",
    ],
)
def test_an_io_error_leaves_the_old_log_or_the_new_one_and_no_temp_file(log_path: Path, point: str) -> None:
    log = _history(log_path)
    old = log_path.read_bytes()
    result = rechain(old, _redact, where=log_path)
    faults.arm(FaultPlan(action="raise", point=point, errno=errno.EIO))
    with pytest.raises(OSError):
        replace_log(log_path, result.data, expect=log.head())
    faults.arm(None)
    assert log_path.read_bytes() == (result.data if point.startswith("log.rewrite.dir") else old)
    assert [p.name for p in log_path.parent.iterdir()] == [log_path.name]


CHILD_REPLACE = """
import sys
from pathlib import Path
import orjson
from memory_review.events import EventLog
from memory_review.events.rewrite import extend, rechain, replace_log
path = Path(sys.argv[1])
edit = lambda fields, renamed: orjson.loads(orjson.dumps(fields).replace(b"Postgres 16", b"[forgotten]"))
result = rechain(path.read_bytes(), edit, where=path)
replace_log(path, result.data, expect=EventLog(path, origin="0" * 16).head())
print("replaced")
"""


def _rewrite_points(tmp_path: Path) -> list[str]:
    path = tmp_path / "trace.jsonl"
    _history(path)
    trace = tmp_path / "trace.txt"
    done = run_child(CHILD_REPLACE, str(path), fault=FaultPlan(trace=str(trace)).model_dump_json())
    assert done.returncode == 0, done.stderr
    return [name for name in trace.read_text().split() if name.startswith("log.rewrite.")]


def test_a_crash_at_every_point_of_a_replace_leaves_the_old_log_or_the_new_one(tmp_path: Path) -> None:
    points = _rewrite_points(tmp_path)
    assert "log.rewrite.before_rename" in points and "log.rewrite.after_rename" in points
    renamed_at = points.index("log.rewrite.after_rename")
    for index, name in enumerate(points):
        path = tmp_path / f"kill-{index}" / "events.jsonl"
        path.parent.mkdir()
        _history(path)
        old = path.read_bytes()
        new = rechain(old, _redact, where=path).data
        done = run_child(CHILD_REPLACE, str(path), fault=FaultPlan(action="kill", point=name).model_dump_json())
        assert done.returncode == 137 and "replaced" not in done.stdout, (name, done.stderr)
        assert path.read_bytes() == (new if index >= renamed_at else old), name
        assert EventLog(path, origin=ORIGIN).verify().ok
