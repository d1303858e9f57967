"""The bad-input corpus: each hostile input gets a clear typed error (or a flag) and leaves the store unchanged.

A case prepares a copy of the template (planting damage where the case is
about a damaged store), snapshots every byte under the trial folder — both
stores, the project, and a sibling ``outside/`` folder that symlink attacks aim
at — then feeds its input through the library or the CLI. It passes when:

- the expected :class:`MemoryReviewError` subclass was raised (through the CLI:
  exit status 1 and that type in the ``--json`` error), and its message names
  what was wrong; or, for prompt injection, the candidate carries the flag;
- the snapshot afterwards is identical (for injection: durable memory is; the
  candidate is the one thing a proposal adds).

The cases themselves are in :mod:`tools.reliability.corpus_cases`.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson

from memory_review.errors import MemoryReviewError
from tools.reliability.results import SuiteResult, timed
from tools.reliability.scenario import Context, Trial, copy_trial
from tools.reliability.state import snapshot_diff, tree_snapshot


@dataclass(frozen=True)
class Outcome:
    """What feeding one input did: the error type raised (or None) and its message, or a note."""

    error: str | None
    message: str = ""
    unchanged_paths: tuple[str, ...] | None = None
    """None: the whole trial must be byte-for-byte unchanged; else only these relative paths."""
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class Case:
    """One hostile input: where it goes, what must come back, and how to plant it."""

    name: str
    category: str
    act: Callable[[Trial, Context], Outcome]
    expect: str | None
    """The error type expected, by name (``None``: no error; the case checks a flag or a safe parse)."""
    mentions: str = ""
    """A piece of text the error message must contain (the field, file or line at fault)."""
    setup: Callable[[Trial, Context], None] | None = None


CASES: list[Case] = []


def case(
    name: str,
    category: str,
    *,
    expect: str | None,
    mentions: str = "",
    setup: Callable[[Trial, Context], None] | None = None,
) -> Callable[[Callable[[Trial, Context], Outcome]], Callable[[Trial, Context], Outcome]]:
    """Register a case (decorator on its ``act`` function)."""

    def register(act: Callable[[Trial, Context], Outcome]) -> Callable[[Trial, Context], Outcome]:
        CASES.append(Case(name, category, act, expect, mentions, setup))
        return act

    return register


def raised(call: Callable[[], object]) -> Outcome:
    """Run a library call; the outcome names the MemoryReviewError it raised (an untyped one is a finding)."""
    try:
        call()
    except MemoryReviewError as exc:
        return Outcome(type(exc).__name__, str(exc))
    except Exception as exc:  # noqa: BLE001 — anything untyped reaching the caller is what we look for
        return Outcome(f"untyped {type(exc).__name__}", str(exc))
    return Outcome(None)


@contextlib.contextmanager
def _environ(**values: str) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def cli(trial: Trial, *args: str, stdin: bytes = b"") -> Outcome:
    """Run ``memory-review --project P ARGS --json`` in this process; the outcome is its JSON error."""
    from memory_review.cli import main  # the CLI module: imported only by the cases that use it

    err = io.StringIO()
    stdout = _BinaryStdout()
    with (
        _environ(MEMORY_REVIEW_HOME=str(trial.home), MEMORY_REVIEW_ACTOR="reliability-tester"),
        contextlib.redirect_stdout(stdout),
        contextlib.redirect_stderr(err),
        _stdin(stdin),
    ):
        code = main(["--project", str(trial.project), *args, "--json"])
    return _cli_outcome(code, stdout.buffer.getvalue(), err.getvalue())


class _BinaryStdout(io.StringIO):
    """A stdout with a ``buffer`` (the CLI writes JSON bytes there)."""

    def __init__(self) -> None:
        super().__init__()
        self.buffer = io.BytesIO()


@contextlib.contextmanager
def _stdin(data: bytes) -> Iterator[None]:
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    try:
        yield
    finally:
        sys.stdin = saved


def _cli_outcome(code: int, stdout: bytes, stderr: str) -> Outcome:
    if code == 0:
        return Outcome(None, stderr)
    lines = [line for line in stdout.splitlines() if line.startswith(b'{"error"')]
    if code == 1 and not lines and stdout.startswith(b"{"):
        report = orjson.loads(stdout)  # `verify --json`: {"ok": false, "problems": [...]}
        return Outcome("verify failed" if report.get("ok") is False else "exit 1", "\n".join(report["problems"]))
    if code != 1 or not lines:
        return Outcome(f"exit {code}", stderr, problems=(f"CLI exit {code} without a JSON error: {stderr[-300:]}",))
    error = orjson.loads(lines[-1])["error"]
    return Outcome(error["type"], error["message"])


# --- running --------------------------------------------------------------------------------


def run_case(item: Case, template: Path, ctx: Context, dest: Path) -> list[str]:
    """Feed one case to a fresh copy; every problem found (empty: rejected cleanly, nothing changed)."""
    trial = copy_trial(template, dest)
    (trial.root / "outside").mkdir()
    (trial.root / "outside" / "secret.md").write_text("not yours\n")
    if item.setup is not None:
        item.setup(trial, ctx)
    before = tree_snapshot(trial.root)
    outcome = item.act(trial, ctx)
    problems = list(outcome.problems) + _error_problems(item, outcome)
    after = tree_snapshot(trial.root)
    if outcome.unchanged_paths is not None:
        before = {p: v for p, v in before.items() if _within(p, outcome.unchanged_paths)}
        after = {p: v for p, v in after.items() if _within(p, outcome.unchanged_paths)}
    problems += [f"STORE CHANGED: {line}" for line in snapshot_diff(before, after)]
    return problems


def _within(path: str, prefixes: tuple[str, ...]) -> bool:
    return any(path == p or path.startswith(p.rstrip("/") + "/") for p in prefixes)


def _error_problems(item: Case, outcome: Outcome) -> list[str]:
    if outcome.error != item.expect:
        return [
            f"NOT REJECTED as expected: wanted {item.expect or 'no error'}, got {outcome.error}: "
            f"{outcome.message[:300]}"
        ]
    if item.mentions and item.mentions not in outcome.message:
        return [f"NOT REJECTED clearly: the message does not name {item.mentions!r}: {outcome.message[:300]}"]
    return []


def _outcome_name(item: Case) -> str:
    if item.expect is not None:
        return "rejected"
    return "flagged" if item.category == "prompt injection" else "accepted safely"


def run_corpus(template: Path, ctx: Context, workdir: Path, *, cases: list[Case] | None = None) -> SuiteResult:
    """Every case of the corpus (importing the cases registers them)."""
    from tools.reliability import corpus_cases  # noqa: F401 — registers CASES

    result = SuiteResult("bad-input corpus", zero=("not rejected", "store changed", "other violations"))
    with timed(result):
        for number, item in enumerate(cases if cases is not None else CASES):
            dest = workdir / f"case{number}"
            problems = run_case(item, template, ctx, dest)
            result.record(item.category, _outcome_name(item), problems, trial=f"bad input {item.name!r} ({dest})")
            if not problems:
                shutil.rmtree(dest, ignore_errors=True)
            result.notes.append(f"{item.category}: {item.name} → {item.expect or _outcome_name(item)}")
    return result
