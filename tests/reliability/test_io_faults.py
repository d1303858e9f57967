"""The I/O error matrix: OSError (ENOSPC, EIO, EACCES) at call N for every N, once and from N on."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from scale_kit import FULL

from tools.reliability.crash import Prepared
from tools.reliability.iofaults import durable_index, io_trial, run_io_matrix
from tools.reliability.scenario import OPERATIONS


@pytest.mark.parametrize("op", list(OPERATIONS))
def test_every_call_failing_gives_a_typed_error_or_a_visible_success(
    prepared: Prepared, tmp_path: Path, op: str
) -> None:
    result = run_io_matrix(tmp_path, ops=[op], all_errnos=FULL, prep=prepared)
    assert result.failures == []
    assert result.counts["silent successes"] == 0 and result.counts["leaked temp files"] == 0
    assert result.counts["error→before"] > 0 and result.counts["success→after"] > 0
    assert result.row(op)["once"] == result.row(op)["from"] == len(prepared.traces[op]) * (3 if FULL else 1)


@pytest.mark.parametrize(
    "point", ["log.append.before_fsync", "log.append.after_fsync", "durable.write_new.before_fsync"]
)
@pytest.mark.parametrize("code", [errno.EIO, errno.ENOSPC])
def test_an_fsync_error_is_never_retried_into_success(
    prepared: Prepared, tmp_path: Path, point: str, code: int
) -> None:
    trace = prepared.traces["apply"]
    n = trace.index(point) + 1
    assert n - 1 <= durable_index(trace)
    outcome, problems = io_trial(prepared, "apply", n, "once", code, tmp_path / "t")
    assert (outcome, problems) == ("error→before", [])
