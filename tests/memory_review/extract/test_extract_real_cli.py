"""The real agent CLIs, when a person points the suite at them (docs/adr/0051): without a login each must fail
the way its parser expects, with the CLI's own words, never as an unreadable reply.

``MEMORY_REVIEW_REAL_AGENT_CLIS=DIR`` names a folder holding ``claude``, ``codex`` and ``gemini`` (for example
``node_modules/.bin`` after ``npm install @anthropic-ai/claude-code @openai/codex @google/gemini-cli``). Each
runs with a fresh ``HOME``, so no login of the person's is used and nothing of theirs is read or written.
Without the variable these tests are skipped: the suite installs no npm package and uses no network.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memory_review.extract.cli_config import CliConfig
from memory_review.extract.model_extractor import extract_with_agent_cli
from memory_review.extract.readers import read_transcript

REAL = os.environ.get("MEMORY_REVIEW_REAL_AGENT_CLIS")
pytestmark = pytest.mark.skipif(not REAL, reason="MEMORY_REVIEW_REAL_AGENT_CLIS names no folder of real agent CLIs")

NOT_LOGGED_IN = {
    "claude": ("cli-error", "claude reported an error: Not logged in"),
    "gemini": ("cli-error", "gemini reported an error: Please set an Auth method"),
}


@pytest.fixture
def fresh_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "CODEX_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.mark.parametrize("agent", sorted(NOT_LOGGED_IN))
def test_without_a_login_the_cli_says_so_in_its_own_words(agent: str, fresh_home: Path, claude_session) -> None:
    program = Path(str(REAL)) / agent
    if not os.access(program, os.X_OK):
        pytest.skip(f"no {agent} in {REAL}")
    session = claude_session(("user", "Never mock the database in tests, use the test container."))
    result = extract_with_agent_cli(read_transcript(session), CliConfig(agent=agent, program=str(program), timeout=120))
    kind, said = NOT_LOGGED_IN[agent]
    assert result.failure is not None and result.findings == []
    assert (result.failure.kind, result.failure.message[: len(said)]) == (kind, said), result.failure


def test_codex_without_a_login_or_network_is_stopped_and_says_what_it_last_reported(
    fresh_home: Path, claude_session
) -> None:
    program = Path(str(REAL)) / "codex"
    if not os.access(program, os.X_OK):
        pytest.skip(f"no codex in {REAL}")
    session = claude_session(("user", "Never mock the database in tests, use the test container."))
    result = extract_with_agent_cli(
        read_transcript(session), CliConfig(agent="codex", program=str(program), timeout=15)
    )
    assert result.failure is not None and result.findings == []
    assert result.failure.kind in ("timeout", "truncated", "cli-error"), result.failure
    assert "it last reported:" in result.failure.message or result.failure.kind == "cli-error", result.failure
