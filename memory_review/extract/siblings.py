"""A session's siblings: the same project's other Claude Code sessions, read bounded (ADR 0046).

Claude Code keeps every session of one project as ``<session-id>.jsonl`` side by side in one folder
(``~/.claude/projects/<project>/``), so the files beside a hook's ``transcript_path`` are that
project's earlier sessions. Repetition across sessions is the heuristic's strongest durable signal
(ADR 0033), and it can only be counted where the sessions are read together.

The folder is written by the agent, whose shell is untrusted, so reading is bounded at every step: at
most :data:`MAX_SIBLINGS` files (most recently modified first, among at most :data:`MAX_LISTED` names),
only regular files (``lstat``: a link, a FIFO or a device is skipped, never opened), each at most
:data:`MAX_SIBLING_BYTES`, all of them at most :data:`MAX_TOTAL_BYTES`, no new file started after
:data:`TIME_BUDGET` seconds; each is read as Claude Code records only (a text file is not a "text"
transcript here), and only the person's own turns are kept. A file that fails is skipped with the
reason, never raised: the caller records it.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memory_review.errors import MemoryReviewError
from memory_review.extract.readers import read_transcript
from memory_review.extract.transcript import Transcript

MAX_SIBLINGS = 20
MAX_LISTED = 10_000  # names looked at in the folder; a folder of a million files is not read through
MAX_SIBLING_BYTES = 32 * 1024 * 1024
MAX_TOTAL_BYTES = 128 * 1024 * 1024
TIME_BUDGET = 30.0  # seconds; the worker is in the background, but it must end
SUFFIX = ".jsonl"


@dataclass(frozen=True, slots=True)
class SkippedSibling:
    """A sibling file left out, and why (the caller records it in the hook error log)."""

    path: str
    reason: str


@dataclass
class Siblings:
    """The siblings read (the person's turns only) and those skipped."""

    transcripts: list[Transcript] = field(default_factory=list)
    skipped: list[SkippedSibling] = field(default_factory=list)


def sibling_files(transcript: Path, limit: int = MAX_SIBLINGS) -> list[Path]:
    """The ``.jsonl`` names beside ``transcript`` (not itself), most recently modified first, at most ``limit``.

    Sorted by ``lstat`` times: a link is listed (and later skipped with its reason), never followed.
    """
    found: list[tuple[int, str]] = []
    try:
        with os.scandir(transcript.parent) as entries:
            for number, entry in enumerate(entries):
                if number >= MAX_LISTED:
                    break
                if entry.name.endswith(SUFFIX) and entry.name != transcript.name:
                    found.append((_mtime(entry), entry.name))
    except OSError:
        return []  # no readable folder: no siblings (the session's own file was read already)
    found.sort(key=lambda pair: (-pair[0], pair[1]))
    return [transcript.parent / name for _mtime_ns, name in found[:limit]]


def _mtime(entry: os.DirEntry[str]) -> int:
    try:
        return entry.stat(follow_symlinks=False).st_mtime_ns
    except OSError:
        return 0


def read_siblings(transcript: Path, *, clock: Callable[[], float] = time.monotonic) -> Siblings:
    """Read the siblings of ``transcript`` within the budgets; a failing one is skipped with its reason."""
    result = Siblings()
    started = clock()
    total = 0
    for path in sibling_files(transcript):
        if clock() - started > TIME_BUDGET:
            result.skipped.append(SkippedSibling(str(path), f"time budget of {TIME_BUDGET:.0f} s spent"))
            continue
        read = _read_one(path, MAX_TOTAL_BYTES - total)
        if isinstance(read, SkippedSibling):
            result.skipped.append(read)
            continue
        sibling, size = read
        total += size
        result.transcripts.append(sibling)
    return result


def _read_one(path: Path, budget: int) -> tuple[Transcript, int] | SkippedSibling:
    try:
        before = os.lstat(path)
    except OSError as exc:
        return SkippedSibling(str(path), f"cannot stat: {exc.strerror}")
    if not stat.S_ISREG(before.st_mode):
        return SkippedSibling(str(path), "not a regular file (a link, FIFO or device is never opened)")
    if before.st_size > MAX_SIBLING_BYTES:
        return SkippedSibling(str(path), f"larger than {MAX_SIBLING_BYTES} bytes")
    if before.st_size > budget:
        return SkippedSibling(str(path), f"over the total budget of {MAX_TOTAL_BYTES} bytes")
    try:
        transcript = read_transcript(path, format="claude-code")
    except MemoryReviewError as exc:
        return SkippedSibling(str(path), str(exc))
    if _swapped(path, before):
        return SkippedSibling(str(path), "replaced while it was read")
    return user_only(transcript), before.st_size


def _swapped(path: Path, before: os.stat_result) -> bool:
    # The reader opens by name: a link put in its place after the lstat would have been followed.
    try:
        after = os.lstat(path)
    except OSError:
        return True
    return not stat.S_ISREG(after.st_mode) or (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino)


def user_only(transcript: Transcript) -> Transcript:
    """The transcript with only the person's own turns (the only ones any extractor trusts)."""
    return transcript.model_copy(update={"turns": transcript.user_turns()})


def own_sessions(transcript: Transcript) -> frozenset[str]:
    """Every session id the turns of ``transcript`` carry (a resumed file may carry an earlier one)."""
    return frozenset({transcript.session_id, *(transcript.session_of(turn) for turn in transcript.turns)})


def without_turns_of(sibling: Transcript, sessions: frozenset[str]) -> Transcript:
    """A sibling minus the turns of ``sessions`` (a resumed session copies its forerunner's records)."""
    turns = [turn for turn in sibling.turns if sibling.session_of(turn) not in sessions]
    return sibling.model_copy(update={"turns": turns})
