"""``memory-review context`` on 10,000 memories (user + project) against a bare Python start-up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmarks.build import fill_store, trust_filled, workspace
from benchmarks.measure import Row, console_script, interleaved, median, run_process, timed
from benchmarks.scale import Scale

BASELINE = [sys.executable, "-c", "import pydantic, yaml, orjson"]
# The same, plus what any command that validates a file with pydantic pays: one model, built and used.
ONE_MODEL = [
    sys.executable,
    "-c",
    "import pydantic, yaml, orjson\nclass M(pydantic.BaseModel):\n    x: int\nM.model_validate({'x': 1})",
]


def context_rows(work: Path, scale: Scale, env: dict[str, str]) -> list[Row]:
    """The CLI call (plain and with a query) against the bare start-up, and the in-process build."""
    root = work / "context"
    ws = workspace(root)
    half = scale.context_memories // 2
    fill_store(ws.user, half)
    fill_store(ws.project, scale.context_memories - half, start=half)
    trust_filled(ws)
    # A real project: the CLI finds its root as the git top-level of the cwd, as an agent's hook would.
    subprocess.run(["git", "init", "-q", str(ws.root)], check=True)
    env = {**env, "MEMORY_REVIEW_HOME": str(ws.user.root)}

    def cli(*extra: str):
        return lambda: run_process([*console_script(), "context", *extra], env, cwd=ws.root)

    def bare() -> float:
        return run_process(BASELINE, env)

    note = f"{scale.context_memories:,} memories (user + project), no session"
    plain, floor = interleaved(cli(), bare, scale.cli_runs)
    query, floor_q = interleaved(cli("--query", "database migration tests"), bare, scale.cli_runs, warmup=0)
    model, _floor = interleaved(lambda: run_process(ONE_MODEL, env), bare, scale.cli_runs, warmup=0)
    build = median([timed(lambda: ws.context()) for _ in range(scale.repeat)])
    return [
        Row(
            "`memory-review context` (CLI process)",
            plain,
            "python -c 'import pydantic, yaml, orjson'",
            floor,
            "≤ 2×",
            2.0,
            note=note,
        ),
        Row(
            "`memory-review context` (CLI process)",
            plain,
            "bare start-up + one pydantic model validated",
            model,
            "report",
            None,
            note="the floor of any command that checks a file with pydantic",
        ),
        Row(
            "`memory-review context --query …` (CLI process)",
            query,
            "the same bare start-up",
            floor_q,
            "report",
            None,
            note=note,
        ),
        Row(
            "build the context in process (`Workspace.context`)",
            build,
            "the bare start-up",
            floor,
            "report",
            None,
            note="no process start-up; reads manifests and the injected bodies",
        ),
    ]
