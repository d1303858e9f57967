"""A session's siblings: the same project's other sessions of one agent, read bounded (ADR 0046, 0050).

Where an agent keeps a project's sessions decides what a sibling is:

* Claude Code keeps every session of one project as ``<session-id>.jsonl`` side by side in one folder
  (``~/.claude/projects/<project>/``): the ``.jsonl`` files beside a hook's ``transcript_path``.
* Gemini CLI keeps a project's chats in one folder (``~/.gemini/tmp/<project hash>/chats/``):
  the ``session-*.json`` and ``session-*.jsonl`` files beside it (a subagent's, in a subfolder, are not;
  nor the ``.json`` a resumed session was copied from into its ``.jsonl``).
* Codex files every project's rollouts by date (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``): the
  rollouts of that tree, newest first by their dated names, whose first line (``session_meta``, read
  alone and bounded) gives a ``cwd`` that is the project's root or inside it; another project's rollout
  is passed over without a word, and at most :data:`MAX_CODEX_LOOKED` first lines are read.

Repetition across sessions is the heuristic's strongest durable signal (ADR 0033), and it can only be
counted where the sessions are read together. The folders are written by the agent, whose shell is
untrusted, so reading is bounded at every step: at most :data:`MAX_SIBLINGS` files (among at most
:data:`MAX_LISTED` names), only regular files (``lstat``: a link, a FIFO or a device is skipped, never
opened), each at most :data:`MAX_SIBLING_BYTES`, all of them at most :data:`MAX_TOTAL_BYTES`, no new file
started after :data:`TIME_BUDGET` seconds; each is read in its agent's format only (a text file is not a
"text" transcript here), and only the person's own turns are kept. A file that fails is skipped with the
reason, never raised: the caller records it.
"""

from __future__ import annotations

import os
import re
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import orjson

from memory_review.errors import MemoryReviewError
from memory_review.extract.readers import read_transcript
from memory_review.extract.sources import in_project, open_binary
from memory_review.extract.transcript import Transcript

SiblingAgent = Literal["claude-code", "codex", "gemini"]

MAX_SIBLINGS = 20
MAX_LISTED = 10_000  # names looked at in the folder; a folder of a million files is not read through
MAX_SIBLING_BYTES = 32 * 1024 * 1024
MAX_TOTAL_BYTES = 128 * 1024 * 1024
TIME_BUDGET = 30.0  # seconds; the worker is in the background, but it must end
SUFFIX = ".jsonl"
MAX_CODEX_LOOKED = 200  # Codex rollouts whose first line is read to find this project's
MAX_META_BYTES = 256 * 1024  # a session_meta line carries the instructions: long, but not this long
HOOK_BUDGET = 0.1  # seconds the Stop hook may spend asking whether a Codex rollout of the project exists
_DATED = (re.compile(r"^\d{4}$"), re.compile(r"^\d{2}$"), re.compile(r"^\d{2}$"))  # sessions/YYYY/MM/DD


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


def sibling_files(transcript: Path, limit: int = MAX_SIBLINGS, *, agent: SiblingAgent = "claude-code") -> list[Path]:
    """The session files beside ``transcript`` (not itself), newest first, at most ``limit``.

    Claude Code and Gemini: the folder's session names, sorted by ``lstat`` times (a link is listed, and
    later skipped with its reason, never followed). Codex: the dated tree's rollout names, every project's
    (which are this project's is read from each one's first line by :func:`read_siblings`).
    """
    if agent == "codex":
        return list(_codex_rollouts(transcript, limit))
    wanted = _is_gemini_chat if agent == "gemini" else _is_claude_session
    found: list[tuple[int, str]] = []
    try:
        with os.scandir(transcript.parent) as entries:
            for number, entry in enumerate(entries):
                if number >= MAX_LISTED:
                    break
                if wanted(entry.name) and not _same_session_file(entry.name, transcript.name):
                    found.append((_mtime(entry), entry.name))
    except OSError:
        return []  # no readable folder: no siblings (the session's own file was read already)
    found.sort(key=lambda pair: (-pair[0], pair[1]))
    return [transcript.parent / name for _mtime_ns, name in found[:limit]]


def _same_session_file(name: str, own: str) -> bool:
    # Gemini CLI resumes a legacy ``session-X.json`` by copying it to ``session-X.jsonl`` beside it: one session.
    return name == own or name + "l" == own or own + "l" == name


def _is_claude_session(name: str) -> bool:
    return name.endswith(SUFFIX)


def _is_gemini_chat(name: str) -> bool:
    return name.startswith("session-") and name.endswith((".json", SUFFIX))


def _mtime(entry: os.DirEntry[str]) -> int:
    try:
        return entry.stat(follow_symlinks=False).st_mtime_ns
    except OSError:
        return 0


def _codex_rollouts(transcript: Path, limit: int) -> Iterator[Path]:
    """Rollout names of the dated tree ``transcript`` is in, newest first; nothing outside that layout."""
    day = transcript.parent
    folders = [day.parent.parent, day.parent, day]
    if not all(pattern.match(folder.name) for pattern, folder in zip(_DATED, folders, strict=True)):
        return  # not sessions/YYYY/MM/DD/: no tree to look in
    looked = [0]
    given = 0
    for folder in _dated_folders(day.parent.parent.parent, 0, looked):
        for name in _names(folder, _is_claude_session, looked):  # rollout-*.jsonl; any .jsonl: its first line decides
            if folder / name != transcript:
                yield folder / name
                given += 1
                if given >= limit:
                    return


def _dated_folders(parent: Path, depth: int, looked: list[int]) -> Iterator[Path]:
    """The YYYY/MM/DD folders under ``parent``, newest first (a link to a folder is never followed)."""
    for name in _names(parent, _DATED[depth].match, looked, folders=True):
        if depth == len(_DATED) - 1:
            yield parent / name
        else:
            yield from _dated_folders(parent / name, depth + 1, looked)


def _names(folder: Path, wanted: Callable[[str], object], looked: list[int], *, folders: bool = False) -> list[str]:
    """The wanted names in ``folder``, newest (greatest) first; ``looked`` counts against MAX_LISTED."""
    found: list[str] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if looked[0] >= MAX_LISTED:
                    break
                looked[0] += 1
                if wanted(entry.name) and (not folders or entry.is_dir(follow_symlinks=False)):
                    found.append(entry.name)
    except OSError:
        return []
    return sorted(found, reverse=True)


def read_siblings(
    transcript: Path,
    *,
    agent: SiblingAgent = "claude-code",
    project: Path | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Siblings:
    """Read the siblings of ``transcript`` within the budgets; a failing one is skipped with its reason.

    ``project`` (Codex): the project's root; only rollouts started there or below it are siblings.
    """
    result = Siblings()
    started = clock()
    total = 0
    codex = agent == "codex"
    for path in sibling_files(transcript, MAX_CODEX_LOOKED if codex else MAX_SIBLINGS, agent=agent):
        if len(result.transcripts) >= MAX_SIBLINGS:
            break
        if clock() - started > TIME_BUDGET:
            result.skipped.append(SkippedSibling(str(path), f"time budget of {TIME_BUDGET:.0f} s spent"))
            continue
        if codex:
            mine = _codex_in_project(path, project)
            if isinstance(mine, SkippedSibling):
                result.skipped.append(mine)
            if mine is not True:
                continue  # another project's rollout is none of this project's business: not recorded
        read = _read_one(path, MAX_TOTAL_BYTES - total, agent)
        if isinstance(read, SkippedSibling):
            result.skipped.append(read)
            continue
        sibling, size = read
        total += size
        result.transcripts.append(sibling)
    return result


def codex_sibling_may_exist(
    transcript: Path, project: Path, *, clock: Callable[[], float] = time.monotonic, budget: float = HOOK_BUDGET
) -> bool:
    """The Stop hook's question before it starts the worker: may a rollout of ``project`` be among the others?

    The same bounded look the worker takes (the same rollouts, newest first, at most MAX_CODEX_LOOKED
    first lines, regular files only, never through a link), stopping at the first that is ``project``'s.
    A rollout the worker would skip (a link, FIFO, an over-long or non-JSON first line) is no sibling it
    could read, so it starts nothing (the worker records it when it runs for a real one). Past ``budget``
    seconds the answer is yes, so the hook never waits on a slow disk: the worker, in the background, decides.
    """
    started = clock()
    for path in sibling_files(transcript, MAX_CODEX_LOOKED, agent="codex"):
        if _codex_in_project(path, project) is True or clock() - started > budget:
            return True
    return False


def _codex_in_project(path: Path, project: Path | None) -> bool | SkippedSibling:
    """Whether a rollout's ``session_meta`` ``cwd`` is ``project`` or inside it, from its first line alone."""
    first = _first_line(path)
    if isinstance(first, SkippedSibling) or project is None:
        return first if isinstance(first, SkippedSibling) else False
    try:
        record = orjson.loads(first)
    except orjson.JSONDecodeError:
        return SkippedSibling(str(path), "its first line is not JSON (a Codex rollout starts with session_meta)")
    payload = record.get("payload") if isinstance(record, dict) else None
    cwd = payload.get("cwd") if isinstance(payload, dict) and record.get("type") == "session_meta" else None
    if not isinstance(cwd, str) or not os.path.isabs(cwd):
        return False  # the older layout names no cwd: it cannot be told to be this project's
    return in_project(project)(cwd)


def _first_line(path: Path) -> bytes | SkippedSibling:
    """A file's first line, at most MAX_META_BYTES, opened only if it is a regular file (never a link)."""
    try:
        stream = open_binary(path, follow_links=False)
    except MemoryReviewError as exc:
        return SkippedSibling(str(path), f"not a regular file (a link, FIFO or device is never opened): {exc}")
    with stream:
        line = stream.readline(MAX_META_BYTES + 1)
    if len(line) > MAX_META_BYTES:
        return SkippedSibling(str(path), f"its first line is longer than {MAX_META_BYTES} bytes")
    return line


def _read_one(path: Path, budget: int, agent: SiblingAgent) -> tuple[Transcript, int] | SkippedSibling:
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
        transcript = read_transcript(path, format=agent)
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
