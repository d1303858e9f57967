"""Fixtures for the extraction tests: the real transcripts folder and small transcript writers."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest


def _data_dir() -> Path:
    default = Path(__file__).resolve().parents[3] / ".." / "shared" / "data"
    return Path(os.environ.get("MEMORY_REVIEW_TEST_DATA", default)).resolve()


@pytest.fixture
def shared_data() -> Path:
    """The real test data folder (``MEMORY_REVIEW_TEST_DATA``), or skip when it is absent."""
    path = _data_dir()
    if not path.is_dir():
        pytest.skip(f"real test data not found at {path} (set MEMORY_REVIEW_TEST_DATA)")
    return path


@pytest.fixture
def transcripts_dir(shared_data: Path) -> Path:
    """The real transcripts folder."""
    path = shared_data / "transcripts"
    if not path.is_dir():
        pytest.skip(f"no transcripts folder in {shared_data}")
    return path


WriteSession = Callable[..., Path]


@pytest.fixture
def claude_session(tmp_path: Path) -> WriteSession:
    """Write a Claude Code JSONL session from ``(role, content)`` pairs; returns its path.

    A role of ``"tool"`` writes a user record holding a ``tool_result`` part, as Claude Code does.
    """

    def write(*messages: tuple[str, object], name: str = "session.jsonl", session: str = "sess_test") -> Path:
        lines = [orjson.dumps(_record(i, role, content, session)) for i, (role, content) in enumerate(messages)]
        path = tmp_path / name
        path.write_bytes(b"\n".join(lines) + b"\n")
        return path

    return write


def _record(number: int, role: str, content: object, session: str) -> dict[str, object]:
    kind = "user" if role == "tool" else role
    if role == "tool":
        content = [{"type": "tool_result", "tool_use_id": f"toolu_{number}", "content": content}]
    return {
        "type": kind,
        "uuid": f"u{number:03d}",
        "sessionId": session,
        "isSidechain": False,
        "timestamp": f"2026-01-01T10:{number // 60:02d}:{number % 60:02d}Z",
        "message": {"role": kind, "content": content},
    }
