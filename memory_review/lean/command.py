"""``memory-review context`` on the per-prompt path (issue #16 point 2, ADR 0030): the read index, no CLI.

An agent may run ``memory-review context --query … --session …`` before every turn, as the hook does: a
fresh process each time. When the command line is one this module reads exactly (the global options
``--project`` and ``--session`` before or after ``context``; ``--query``, ``--budget``, ``--json``) it
answers from the read indexes with :func:`memory_review.lean.hook.block_for` — the same gates, the same
block, the same ``context.built`` line (one log append) — and prints what the full command prints, byte
for byte: the block on stdout (or the ``--json`` document), the line about what was left out on stderr.

Anything else is for :mod:`memory_review.cli` (``run`` answers None): an option spelled another way
(``--q``, ``-h``), a value argparse would refuse or read differently, no index that provably describes the
stores, a session with memories of its own. A failure of this path that is not a Fallback is logged to the
hook error log (``memory-review doctor`` lists it) and the full command answers.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import TextIO

from memory_review.lean import hook
from memory_review.lean.context import note
from memory_review.lean.files import Fallback
from memory_review.terminal import json_bytes

DEFAULT_BUDGET = 25_000  # ``context.DEFAULT_BUDGET``: the command's default, not the hook's
MAX_BUDGET = 2**63 - 1  # ``injection.result.MAX_COUNT``: a recorded count fits in 64 bits
_VALUED = {"--project", "--session", "--query", "--budget"}
_GLOBAL = {"--project", "--session"}


@dataclass
class Request:
    """What a ``context`` command line asks for."""

    project: str | None = None
    session: str | None = None
    query: str | None = None
    budget: int = DEFAULT_BUDGET
    json: bool = False


def parse(argv: list[str]) -> Request | None:
    """The request of a ``context`` command line this module reads exactly; None for any other."""
    if argv.count("context") != 1:
        return None
    command = argv.index("context")
    given: dict[str, str] = {}
    position = 0
    while position < len(argv):
        word = argv[position]
        name, equals, after = word.partition("=")
        value: str | None = after
        if position == command:
            position += 1
            continue
        if not equals:
            name, value = word, None
            if word in _VALUED:
                position += 1
                if position >= len(argv) or position == command or argv[position].startswith("-"):
                    return None  # argparse would refuse it, or read it another way
                value = argv[position]
        known = name in _VALUED if value is not None else name == "--json"
        if not known or name in given or (position < command and name not in _GLOBAL):
            return None  # unknown, said twice (argparse keeps the last), or a command option before the command
        given[name] = "" if value is None else value
        position += 1
    return _request(given)


def _request(given: dict[str, str]) -> Request | None:
    budget = DEFAULT_BUDGET
    if "--budget" in given:
        try:
            budget = int(given["--budget"])  # as argparse's ``type=int`` reads it
        except ValueError:
            return None
        if not 0 <= budget <= MAX_BUDGET:
            return None  # the full path names the problem
    if any(not given.get(name, "x") for name in ("--project", "--session")):
        return None
    return Request(given.get("--project"), given.get("--session"), given.get("--query"), budget, "--json" in given)


def run(argv: list[str], stdout: TextIO | None = None, stderr: TextIO | None = None) -> int | None:
    """Answer a ``context`` command line from the read indexes; None when the full command must."""
    request = parse(argv)
    if request is None:
        return None
    try:
        block = hook.block_for(
            hook.project_root(request.project, None),
            session=request.session,
            query=request.query,
            budget=request.budget,
            dropped=True,
        )
    except Fallback:
        return None
    except Exception as exc:  # noqa: BLE001 — a bug here: log it, and let the full command answer
        from memory_review.integrations import claude_hooks

        claude_hooks.record_error(claude_hooks.error_folder_for(None, request.project), exc)
        return None
    if block is None:
        return None  # no project store: the full command says what it says then
    return _print(block, request.json, stdout or sys.stdout, stderr or sys.stderr)


def _print(block, as_json: bool, stdout: TextIO, stderr: TextIO) -> int:
    """What ``cli._emit`` prints for a ``ContextResult``, and the status the full command ends with."""
    try:
        if as_json:
            document = {
                "text": block.text,
                "sha256": block.sha256,
                "included": block.included,
                "dropped": block.dropped,
            }
            stdout.flush()
            stdout.buffer.write(json_bytes(document))
            stdout.buffer.flush()
            return 0
        reasons = [item["reason"] for item in block.dropped]
        if reasons or not block.text:
            print(note(len(block.included), reasons), file=stderr)
        if block.text:
            print(block.text.rstrip("\n"), file=stdout)
        stdout.flush()
    except OSError as exc:
        # The reader went away (`memory-review context | head`): not an error of ours, and no traceback.
        # Anything else (`> /dev/full`) is said as cli.main says it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
        if not isinstance(exc, BrokenPipeError):
            from memory_review.errors import one_line_os_error

            print(f"memory-review: error: the output could not be written: {one_line_os_error(exc)}", file=stderr)
            return 1
    return 0
