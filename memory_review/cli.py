"""The ``memory-review`` command line (docs/design.md §8).

Each command is one declaration (``cli_command.command``, ADR 0043) in the module of its area:
``cli_review`` (the UI and the decisions on candidates), ``cli_stores`` (reading, inspecting and keeping
the stores) and ``cli_agents`` (hooks, install, MCP, export). This module derives the parser, every
command's help and the dispatch from those declarations. A handler makes one
:class:`~memory_review.workspace.Workspace` call whose keyword arguments mirror the flags, and its result
is rendered as text or, with ``--json``, as JSON from the same models. Exit codes: 0 success, 1 an error
(message on stderr, store untouched), 2 a usage error. This module is one of the places that catch
:class:`MemoryReviewError`; the others are the TUI, the hooks and the MCP server.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from memory_review import cli_agents, cli_review, cli_stores
from memory_review.cli_agents import HOOK_AGENTS, run_agent_hook
from memory_review.cli_command import COMMANDS, Command, LazyChoices
from memory_review.errors import MemoryReviewError, StorageError, one_line_os_error
from memory_review.lazy import LazyModule
from memory_review.resident.client import command_word
from memory_review.terminal import json_bytes, printable

# Imported on first use (issue #16): `--help` builds the parser without the library behind the commands.
out = LazyModule("memory_review.cli_render")
_workspace = LazyModule("memory_review.workspace")

EPILOG = """examples:
  memory-review init
  echo '{"op":"create","scope":"project","memory":{"id":"test-db","type":"convention",
         "description":"Tests use the real Postgres container","body":"Never mock the database."},
         "rationale":"user said so twice"}' | memory-review propose --file -
  memory-review list
  memory-review apply cand_01J...
  memory-review context --query "database tests"
"""

AREAS = (cli_review, cli_stores, cli_agents)
"""The modules that declare the commands (importing one declares its commands), in the order ``--help``
lists them; within a module, in the order they are declared."""


def commands() -> list[Command]:
    """Every declared command, in the order ``--help`` lists them."""
    return [declared for area in AREAS for declared in COMMANDS if declared.handler.__module__ == area.__name__]


HOOK_ARGV = ("hook", "claude-code")
"""The command line ``install`` gives Claude Code: run before every prompt, so it skips building the parser
(``hook codex`` and ``hook gemini`` likewise)."""


# --- parser ------------------------------------------------------------------------------


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, from the declarations; every command has help and an example.

    ``only``: the parser with that one command's sub-parser (:func:`chosen_command`). It parses that
    command's line, and prints its help and errors, exactly as the whole parser does: the top level
    lists its commands as ``COMMAND`` (no choices in its usage), and a sub-parser's usage is its own.
    Each sub-parser costs argparse about half a millisecond (a formatter and gettext lookups per
    argument), ~30 of them a sixth of an ``apply``'s command time (docs/adr/0048).
    """
    parser = _Parser(
        prog="memory-review",
        description="Reviewed, revertible memory for LLM coding agents. With no command: the review UI.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _globals(parser)
    parser.add_argument("--version", action=_VersionAction, help="print the installed version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for declared in commands():
        if only is not None and declared.name != only:
            continue
        p = sub.add_parser(
            declared.name,
            help=declared.help,
            description=declared.help,
            epilog=f"example:\n  {declared.example}",
            formatter_class=_HelpFormatter,
        )
        _globals(p, suppress=True)
        p.add_argument("--json", action="store_true", help="print JSON for scripts")
        for add in declared.arguments:
            add(p)
    return parser


class _Parser(argparse.ArgumentParser):
    """argparse with its error line shown through :func:`printable`: "unrecognized arguments" quotes the words as
    given, so an escape sequence on the command line (an agent's shell builds them) would reach the terminal."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, printable(f"{self.prog}: error: {message}\n"))


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help that leaves lazy choices unloaded: argparse lists an argument's choices for a ``%(choices)s`` in
    its help even when the help has none, and loading those of ``extract --format`` imports the extract
    package (and pydantic with it). Every such help text names the choices in words."""

    def _expand_help(self, action: argparse.Action) -> str:
        if isinstance(action.choices, LazyChoices):
            action = copy.copy(action)
            action.choices = None
        return super()._expand_help(action)


class _VersionAction(argparse.Action):
    """``--version``: read from the package metadata only when asked (not on every start-up)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from memory_review.version import tool_version

        print(f"memory-review {tool_version()}")
        parser.exit()


def chosen_command(arguments: Sequence[str]) -> str | None:
    """The declared command ``arguments`` name, when the top level can be read without argparse: only
    ``--project``/``--session`` (with a value, or ``=value``) before it. Anything else before it — ``-h``,
    ``--version``, an abbreviated or unknown option, ``--`` — or no such command: None (the whole parser
    decides, and says what is wrong)."""
    word = command_word(list(arguments))
    return word if word is not None and _declared(word) is not None else None


def _globals(parser: argparse.ArgumentParser, *, suppress: bool = False) -> None:
    default = argparse.SUPPRESS if suppress else None
    parser.add_argument(
        "--project",
        metavar="DIR",
        default=default,
        help="project root (default: the git top-level of the current directory)",
    )
    parser.add_argument("--session", metavar="ID", default=default, help="the agent session to act for")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if len(arguments) == 2 and arguments[0] == "hook" and arguments[1] in HOOK_AGENTS:
        return run_agent_hook(arguments[1], project=None)
    parser = build_parser(only=chosen_command(arguments))
    args = parser.parse_args(arguments)
    declared = _declared(args.command or "review")
    if declared is None:
        parser.error(f"unknown command {args.command!r}")
    problem = declared.misuse(args) if declared.misuse else None
    if problem:
        parser.error(problem)
    if declared.direct is not None and (code := declared.direct(args)) is not None:
        return code
    try:
        ws = _workspace.Workspace.open(Path(args.project) if getattr(args, "project", None) else None)
        result = declared.handler(args, ws)
    except MemoryReviewError as exc:
        _report(exc, getattr(args, "json", False))
        return 1
    except OSError as exc:  # the disk refused something the library did not translate: one line, no trace
        _report(StorageError(one_line_os_error(exc), path=exc.filename, errno=exc.errno), getattr(args, "json", False))
        return 1
    try:
        _emit(result, args, declared.render)
        sys.stdout.flush()  # here, where a refusal is said, not at exit where it is a traceback
    except BrokenPipeError:
        # The reader went away (`memory-review log | head`): not an error of ours, and no traceback.
        _silence_stdout()
    except OSError as exc:  # `> /dev/full`, a quota: what ran stays done, and the person hears it was not shown
        _silence_stdout()
        unwritten = f"memory-review: error: the output could not be written: {one_line_os_error(exc)}"
        print(printable(unwritten), file=sys.stderr)
        return 1
    for warning in ws.warnings:
        print(printable(f"warning: {warning}"), file=sys.stderr)
    return 0 if getattr(result, "ok", True) else 1


def _silence_stdout() -> None:
    # What is left in the buffer would be written again at exit, failing there with a traceback.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _declared(name: str) -> Command | None:
    return next((declared for declared in commands() if declared.name == name), None)


def _emit(result: Any, args: argparse.Namespace, render: str) -> None:
    if getattr(args, "json", False):
        sys.stdout.buffer.write(json_bytes(out.to_json(result)))
        return
    text = getattr(out, render)(result, args)  # a str, or cli_render.Printed (stdout and a note for stderr)
    if isinstance(text, out.Printed):  # a note for people beside output for programs (context)
        text, note = text.stdout, text.stderr
        if note:
            print(printable(note), file=sys.stderr)
    if text:
        print(printable(text))


def _report(exc: MemoryReviewError, as_json: bool) -> None:
    message = f"memory-review: error: {exc}"
    if exc.hint:
        message += f"\n  hint: {exc.hint}"
    print(printable(message), file=sys.stderr)
    if as_json:
        error = {"error": {"type": type(exc).__name__, "message": str(exc), "hint": exc.hint or None}}
        sys.stdout.buffer.write(json_bytes(error, indent=False))


if __name__ == "__main__":
    sys.exit(main())
