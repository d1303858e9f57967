"""``docs/reliability.md``: the figures of one run, rendered from its suite results.

The headline table says, per suite, how many trials ran and the count of each
outcome that must be zero (lost, mixed, silent successes, leaked temp files,
deadlocks, invariant violations...). The sections below it break each suite down
by operation or scenario. Failures, if a run had any, are listed in full: the
document never rounds a failure away.
"""

from __future__ import annotations

import platform
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tools.reliability.hostile import HostileSuite, render_hostile
from tools.reliability.results import SuiteResult

FIXES: tuple[tuple[str, str], ...] = (
    (
        "A resolved candidate's file was removed after manifest.json moved on; a crash between the two left an "
        "applied or discarded candidate pending for good (and a discarded one could then be applied).",
        "test_a_resolved_candidate_never_outlives_a_crash_after_the_checkpoint",
    ),
    (
        "Only memory/ was swept for temp files: a crash inside the atomic replace of manifest.json, MEMORY.md or "
        "a candidate left a `.tmp-*` file in the store for good.",
        "test_temp_files_of_a_crashed_manifest_replace_are_collected",
    ),
    (
        "Recovery left a dead writer's torn log tail for the next append, so `verify` failed right after a "
        "crash although nothing was damaged; recovery now cuts it under the lock and verify recovers first.",
        "test_verify_passes_right_after_a_torn_append",
    ),
    (
        "After the commit point a failed candidate-file write is only a warning, but `list`/`show` read "
        "candidates/ alone: a reported success was not visible (new proposal missing, applied one pending).",
        "test_a_success_whose_candidate_files_failed_is_visible_at_once",
    ),
    (
        "`list` took a writer's in-flight (or a dead writer's) `.tmp-*-cand_*.json` for a candidate and raised "
        "UnsafePathError — while another process wrote, or for good after a crash in recovery's checkpoint.",
        "test_list_ignores_temp_candidate_files_and_recovery_collects_them",
    ),
    (
        "Leftovers were collected only when a commit happened, so a crash during recovery's own checkpoint "
        "left them until the next write; recovery now collects them itself.",
        "test_recovery_killed_after_its_checkpoint_leaves_nothing_behind",
    ),
    (
        "A write touching a memory whose file is missing leaked the store's internal exception (a traceback "
        'through the CLI); readers said "store kept changing" without naming the file.',
        "test_a_missing_memory_file_is_a_typed_error_naming_it",
    ),
    (
        "A session write is committed by its event and a failed session file after it is only a warning, but "
        "`session_memories()` read the file alone: the reported write was invisible until the next command.",
        "test_a_session_write_whose_file_failed_is_visible_at_once",
    ),
)
"""Bugs the suite found and their regression tests (tests/reliability/test_regressions.py)."""

MUST_BE_ZERO = (
    "failed",
    "lost",
    "phantom",
    "mixed states",
    "not rejected",
    "store changed",
    "silent successes",
    "leaked temp files",
    "deadlocks",
    "counterexamples",
    "other violations",
    "unrecoverable",
    "not-reached",
)


@dataclass(frozen=True)
class RunInfo:
    """Where and how the figures were made."""

    scale: str
    seconds: float
    jobs: int
    filesystem: str
    command: str


def filesystem_of(path: Path) -> str:
    """The filesystem type of the mount holding ``path`` (from /proc/mounts; 'unknown' elsewhere)."""
    try:
        mounts = [line.split()[1:3] for line in Path("/proc/mounts").read_text().splitlines()]
    except OSError:
        return "unknown"
    target = str(path.resolve())
    best = max(
        (m for m in mounts if target == m[0] or target.startswith(m[0].rstrip("/") + "/")),
        key=lambda m: len(m[0]),
        default=None,
    )
    return best[1] if best else "unknown"


def _n(value: int) -> str:
    return f"{value:,}"


def _zero_counts(result: SuiteResult) -> str:
    shown = [k for k in MUST_BE_ZERO if k in result.zero or result.counts.get(k)]
    return ", ".join(f"{result.counts.get(k, 0)} {k}" for k in shown)


def _table(header: list[str], rows: Iterable[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def headline(results: list[SuiteResult]) -> list[str]:
    """The summary table: one line per suite."""
    rows = [
        [r.name, _n(r.trials), _zero_counts(r) or "—", f"{r.seconds:.0f}s", "ok" if r.ok else "**FAILED**"]
        for r in results
    ]
    return _table(["suite", "trials", "measured, must be zero", "time", "result"], rows)


def breakdown(result: SuiteResult) -> list[str]:
    """One table per suite: a row per operation, crash state, scenario or input category."""
    columns = sorted({k for row in result.rows.values() for k in row}, key=_column_order)
    # An outcome every trial had (e.g. "run", "killed") repeats the trials column: leave it out.
    columns = [
        c for c in columns if c == "trials" or any(row.get(c, 0) != row["trials"] for row in result.rows.values())
    ]
    rows = [[key] + [_n(row.get(c, 0)) for c in columns] for key, row in result.rows.items()]
    lines = [f"## {result.name}", "", *_table([""] + columns, rows), ""]
    lines += [f"- {note}" for note in result.notes]
    if result.failures:
        lines += ["", f"**{len(result.failures)} failures:**", ""] + [f"- `{f[:500]}`" for f in result.failures]
    return lines + [""]


def _column_order(name: str) -> tuple[int, str]:
    first = ("points", "trials", "kill", "partial", "once", "from", "before", "after")
    return (first.index(name) if name in first else len(first) + (name in MUST_BE_ZERO), name)


def render(results: list[SuiteResult], info: RunInfo, intro: str, hostile: list[HostileSuite] | None = None) -> str:
    """The whole document (``hostile``: the hostile suites' section, when they were read)."""
    total = sum(r.trials for r in results)
    failed = sum(len(r.failures) for r in results) + sum(s.counts()["failed"] for s in hostile or ())
    lines = [
        "# Reliability figures",
        "",
        intro,
        "",
        f"This run: `{info.command}` — scale **{info.scale}**, {_n(total)} trials in "
        f"{info.seconds / 60:.1f} minutes, {info.jobs} parallel children, Python {platform.python_version()} "
        f"on {platform.system()} {platform.machine()}, trial folders on **{info.filesystem}**. "
        f"{'No failures.' if not failed else f'**{failed} failures** (listed below).'}",
        "",
        *headline(results),
        "",
    ]
    for result in results:
        lines += breakdown(result)
    lines += ["## Bugs this suite found (each fixed, each with a regression test)", ""]
    lines += [f"{i}. {text} — `{test}`" for i, (text, test) in enumerate(FIXES, 1)]
    if hostile is not None:
        lines += ["", *render_hostile(hostile)]
    return "\n".join(lines + ["", CHAIN, REPAIR, LIMITS]) + "\n"


CHAIN = """## What the log's hash chain proves, and what it cannot (ADR 0025)

- Each line's `prev` is the sha256 of the line before it. Changing, removing, reordering or inserting a
  committed line breaks the chain at the next line, and `verify` names it.
- The chain has no key. Anyone who can write `events.jsonl` — whoever controls the repository, a remote,
  an agent with a shell — can append correctly chained lines, or rewrite the whole log into a new valid
  chain, and recompute every hash. The chain alone cannot say who wrote a line, or that a log is the one
  this machine wrote.
- So `verify` also checks what the events mean: every `candidate.applied` writes exactly the record a
  person reviewed (the `candidate.created` or latest `candidate.edited` of that candidate, earlier in the
  same log; only the apply's own stamps differ), touches exactly the memories it names and deletes
  exactly those it deletes; every pending candidate file is its logged record; every session file is its
  fold; the manifest and memory files are the log's replay. An apply that fails this is flagged (`never
  served`), listed by `trust list` as `unreviewed`, never taken by `trust --all`, by a trusted remote or by
  the adoption of an old user store, and a replica holding one is refused by `sync`.
- What this machine did is kept where the repository cannot write. `<user store>/trust/<key>.head`
  anchors the log head this machine last committed; a log that no longer extends it (rolled back, cut,
  rewritten) is flagged by `verify` ("this log was rewritten") and nothing of that store is served until a
  person runs `verify --repair`, which anchors the log as it is then. What is served is decided by the
  trust ledger beside it: only versions a person here approved, and not a version a person here later
  replaced or deleted (revoked from the seq of that commit), so a forged line cannot bring one back.
- Limits. A correctly chained apply of a pending candidate exactly as proposed passes the meaning check
  (the log cannot say who clicked *apply*); it is still never served, as no person here approved it. A
  process running as the person can write the user store too (anchor and ledger), like any of their
  files: out of scope. A crash between a commit point and the anchor's write leaves the anchor one commit
  behind (the log still extends it); a crash before the revocation write leaves the replaced version
  trusted. The per-prompt gate compares heads only (cheap): a rewrite that leaves the log longer than the
  anchor is found by `verify`, and served only as far as the ledger trusts its versions. `sync.merged`
  and `memory.reverted` are not matched against a review (a replica is checked on its own log before the
  merge; a revert's `before` is checked against the replay); their versions are served only if the
  ledger trusts them, and a sync adoption does not revoke the version it replaces.
"""


REPAIR = """## repair never loses (issue 15 §6, docs/adr/0024)

Built for real: git projects cloned from a bare remote and a project that is not a repository, the CLI
as processes (120 s timeout). Tests: `tests/memory_review/git/test_repair.py`.

| damage | before | `verify --repair --apply` now |
|---|---|---|
| `events.jsonl` deleted, git project, a proposal made after the last history commit | deleted every memory and candidate, said ok | log restored from `refs/memory-review/project`, the proposal logged again from its file, 2 memories + 1 pending kept, backup, `store.recovered` |
| `events.jsonl` deleted, no git history | deleted everything | refuses in one line naming the memories; nothing changed, no backup |
| only the proposal's line lost, no git history | dropped the pending candidate | logged again from its file |
| last line (an apply) altered, still chained | blessed the altered line | refuses (git: "disagree from seq 4"; plain: "never blesses") |
| last line (a discard) lost | resurrected the candidate | git: restored, stays discarded; plain: refuses ("may have been applied or discarded") |
| a line in the middle damaged, git project | integrity error, no repair | restored from the history, later local lines kept |

`verify --repair` alone prints the plan (`would: …`) and changes nothing (the tests compare every file).
"""


LIMITS = """## What these figures do not show

- A killed process is not a power cut. Everything a dead process wrote is still in the page cache,
  so these trials cannot see a missing `fsync`; the code's fsync discipline (file, then directory,
  before the commit point) is checked by reading it and by the fault points around every fsync, not
  by pulling a plug. LevelDB-style "drop unsynced bytes" simulation is not done.
- One machine, one filesystem (named above), Linux. No network filesystems, no Windows.
- Injected `OSError`s fire at the fault points of `events.durable` and `events.log` (every write,
  fsync, rename, unlink, truncate); reads are not failed.
- Concurrency runs use one store on one machine; the lock is `filelock` (fcntl on Linux).
"""
