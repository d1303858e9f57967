"""Fixtures for git history and sync: a real bare remote and clones of it, all in ``tmp_path``.

Every git process here (ours and the test's own) runs with a fixed identity and with
the machine's git configuration switched off, so no test depends on how the machine is set up.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from git_helpers import Team, git

from memory_review.events import faults


@pytest.fixture(autouse=True)
def _git_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A fixed git identity, no system or global git config, and no fault left armed."""
    for name in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{name}_NAME", "Test Person")
        monkeypatch.setenv(f"GIT_{name}_EMAIL", "test@example.invalid")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("MEMORY_REVIEW_ACTOR", "alice")
    monkeypatch.setenv("MEMORY_REVIEW_HOME", str(tmp_path / "default-home"))
    monkeypatch.delenv("MEMORY_REVIEW_FAULT", raising=False)
    faults.arm(None)
    yield
    faults.arm(None)


@pytest.fixture(scope="session")
def _seeded_remote(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bare remote with one commit on ``main``, built once and copied by each test."""
    root = tmp_path_factory.mktemp("seed")
    remote = root / "remote.git"
    env = {
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "Seed",
        "GIT_AUTHOR_EMAIL": "seed@example.invalid",
        "GIT_COMMITTER_NAME": "Seed",
        "GIT_COMMITTER_EMAIL": "seed@example.invalid",
    }
    with pytest.MonkeyPatch.context() as patch:
        for key, value in env.items():
            patch.setenv(key, value)
        git("init", "-q", "--bare", "-b", "main", str(remote), cwd=root)
        seed = root / "work"
        git("init", "-q", "-b", "main", str(seed), cwd=root)
        (seed / "README.md").write_text("# a project\n")
        (seed / "src").mkdir()
        (seed / "src" / "app.py").write_text("print('hi')\n")
        git("add", "README.md", "src/app.py", cwd=seed)
        git("commit", "-q", "-m", "initial", cwd=seed)
        git("push", "-q", str(remote), "main", cwd=seed)
    return remote


@pytest.fixture
def team(tmp_path: Path, _seeded_remote: Path) -> Team:
    """A bare remote of the project and its clones ``ann``, ``ben``, ``cat`` (cloned when first used)."""
    remote = tmp_path / "remote.git"
    shutil.copytree(_seeded_remote, remote)
    return Team(tmp_path, remote, ["ann", "ben", "cat"])
