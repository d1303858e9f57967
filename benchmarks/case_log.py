"""Reading the log: replay and verify against a raw orjson pass over the same file, and replay growth.

Each measurement runs in a fresh process (``benchmarks.child``) so its peak RSS is
its own: a 1M-event log must stream, not be loaded whole.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.build import ReplayLogWriter
from benchmarks.measure import Row, Series, median, run_child
from benchmarks.scale import Scale


def _best(task: str, path: Path, env: dict[str, str], runs: int) -> dict:
    """The median-time report of ``runs`` child runs of ``task`` (peak RSS: the largest seen)."""
    reports = [run_child(task, [str(path)], env) for _ in range(runs)]
    seconds = median([r["seconds"] for r in reports])
    return {"seconds": seconds, "rss_kb": max(r["rss_kb"] for r in reports), "events": reports[0]["events"]}


def _runs(scale: Scale) -> int:
    return 3 if scale.repeat >= 7 else 1


def log_rows(work: Path, scale: Scale, env: dict[str, str]) -> list[Row]:
    """Replay and verify of ``scale.log_events`` events, each against its raw floor."""
    path = work / "log" / "events.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    size = ReplayLogWriter().write(path, scale.log_events)
    runs = _runs(scale)
    raw, replay = _best("raw-loads", path, env, runs), _best("replay", path, env, runs)
    raw_sha, verify = _best("raw-verify", path, env, runs), _best("verify", path, env, runs)
    note = f"{scale.log_events:,} events, {size / 1e6:.0f} MB"
    return [
        Row(
            f"replay {scale.log_events:,} events",
            replay["seconds"],
            "orjson.loads of every line",
            raw["seconds"],
            "≤ 2× (≥ 0.5× raw rate)",
            2.0,
            note=f"{note}; peak RSS {replay['rss_kb'] / 1024:.0f} MB",
        ),
        Row(
            f"verify {scale.log_events:,} events",
            verify["seconds"],
            "orjson.loads + sha256 of every line",
            raw_sha["seconds"],
            "report",
            None,
            note=f"{note}; peak RSS {verify['rss_kb'] / 1024:.0f} MB",
        ),
    ]


def replay_growth(work: Path, scale: Scale, env: dict[str, str]) -> tuple[Series, list[Row]]:
    """Replay at each log size: seconds, peak RSS; linear means the per-event cost stays put."""
    series = Series("replay the log", "events in the log")
    raw_rss = 0
    for count in scale.growth_events:
        path = work / f"replay-{count}.jsonl"
        ReplayLogWriter().write(path, count)
        report = _best("replay", path, env, 1 if count >= 1_000_000 else _runs(scale))
        raw_rss = max(raw_rss, run_child("raw-loads", [str(path)], env)["rss_kb"])
        series.points.append((count, report["seconds"]))
        series.rss_kb.append(report["rss_kb"])
        path.unlink()
    return series, _linear_rows(series, raw_rss)


def _linear_rows(series: Series, raw_rss: int) -> list[Row]:
    (small, base), *rest = series.points
    rows = []
    for count, seconds in rest:
        per_event, per_base = seconds / count, base / small
        rows.append(
            Row(
                f"replay per event at {count:,} events",
                per_event,
                f"per event at {small:,}",
                per_base,
                "linear: ≤ 1.5×",
                1.5,
            )
        )
    count, rss = series.points[-1][0], series.rss_kb[-1]
    rows.append(
        Row(
            f"peak RSS replaying {count:,} events",
            rss / 1024,
            f"at {small:,} events",
            series.rss_kb[0] / 1024,
            "streams: ≤ 1.5×",
            1.5,
            unit="MB",
            note=f"a raw orjson pass over the largest log peaks at {raw_rss / 1024:.0f} MB",
        )
    )
    return rows
