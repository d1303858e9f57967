"""How big each benchmark runs: ``full`` is what the issue asks for, ``tiny`` keeps the smoke test to seconds."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Scale:
    """Sizes and repeat counts of one run."""

    name: str
    repeat: int  # samples per median
    apply_base: int  # memories in the store of the apply-one row
    batch: int  # candidates applied in one call
    batch_probe: int  # single applies measured next to the batch
    growth_memories: tuple[int, ...]  # store sizes of the apply/propose growth
    log_events: int  # events of the replay / verify row
    growth_events: tuple[int, ...]  # log sizes of the replay growth
    context_memories: int  # memories across user + project for `context`
    cli_runs: int  # process runs per median (CLI rows)
    ui_candidates: int  # pending candidates for the review UI
    ui_memories: int  # approved memories beside them
    ui_keys: int  # key presses measured
    session_memories: tuple[int, ...] = (1_000, 5_000)  # store sizes of `context --session`
    hook_memories: tuple[int, ...] = (100, 1_000, 5_000, 50_000)  # store sizes of the prompt hook process


FULL = Scale(
    "full",
    repeat=21,
    apply_base=100,
    batch=1_000,
    batch_probe=5,
    growth_memories=(100, 1_000, 10_000),
    log_events=100_000,
    growth_events=(10_000, 100_000, 1_000_000),
    context_memories=10_000,
    cli_runs=9,
    ui_candidates=10_000,
    ui_memories=2_000,
    ui_keys=20,
)

QUICK = Scale(
    "quick",
    repeat=7,
    apply_base=100,
    batch=200,
    batch_probe=3,
    growth_memories=(100, 1_000, 3_000),
    log_events=20_000,
    growth_events=(2_000, 20_000, 100_000),
    context_memories=2_000,
    cli_runs=5,
    ui_candidates=1_000,
    ui_memories=300,
    ui_keys=10,
    hook_memories=(100, 1_000, 5_000),
)

TINY = Scale(
    "tiny",
    repeat=3,
    apply_base=20,
    batch=20,
    batch_probe=2,
    growth_memories=(10, 30, 100),
    log_events=1_000,
    growth_events=(300, 1_000, 3_000),
    context_memories=100,
    cli_runs=1,
    ui_candidates=30,
    ui_memories=20,
    ui_keys=3,
    session_memories=(100,),
    hook_memories=(100,),
)

SCALES = {s.name: s for s in (FULL, QUICK, TINY)}
