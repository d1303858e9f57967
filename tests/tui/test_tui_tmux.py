"""The UI in a real terminal: ``scripts/tmux_demo_check.sh`` drives the demo under tmux."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from tui_helpers import ROOT

SCRIPT = ROOT / "scripts" / "tmux_demo_check.sh"


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed; the real-terminal check needs it")
def test_demo_under_tmux() -> None:
    env = {**os.environ, "MEMORY_REVIEW_PYTHON": sys.executable}
    done = subprocess.run(
        ["bash", str(SCRIPT)],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert "tmux_demo_check: ok" in done.stdout
