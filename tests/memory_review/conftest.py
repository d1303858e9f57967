"""Fixtures of the core tests: a CLI environment and a git repository whose stores ``init`` made."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_kit import cli_env, git_repo


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment a CLI run gets: its own home, user store and no agent settings."""
    return cli_env(tmp_path)


@pytest.fixture
def repo(tmp_path: Path, env: dict) -> Path:
    """A git repository at ``tmp_path/repo`` whose stores ``init`` made."""
    return git_repo(tmp_path / "repo", env)
