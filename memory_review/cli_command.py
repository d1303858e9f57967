"""One declaration per command (issue 19, ADR 0043): its help, example, arguments, handler and renderer.

A command is declared once, by decorating its handler with :func:`command` in one of the ``cli_*``
modules of its area (``cli_review``, ``cli_stores``, ``cli_agents``); :mod:`memory_review.cli` derives the
parser, each command's help and the dispatch from :data:`COMMANDS`, in declaration order (the order
``memory-review --help`` lists them).

Declaring must stay cheap: ``--help`` imports every declaring module, and must not import the library
behind the commands (``tests/memory_review/test_cli_startup.py``). So a handler reaches the library
through :class:`~memory_review.lazy.LazyModule` or an import in its body, and its renderer is named, not
imported: a function of :mod:`memory_review.cli_render`, looked up after the handler ran.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from memory_review.errors import ValidationError
from memory_review.lazy import LazyModule

if TYPE_CHECKING:
    from memory_review.workspace import Workspace

_workspace = LazyModule("memory_review.workspace")

Handler = Callable[[argparse.Namespace, "Workspace"], Any]
"""One library call for the parsed command line; its result is rendered as text or JSON."""
Argument = Callable[[argparse.ArgumentParser], object]
"""Adds one argument (or a group of them) to a command's parser."""


class Command(NamedTuple):
    """Everything about one command; ``memory-review NAME --help`` shows ``help`` and ``example``."""

    name: str
    help: str
    example: str
    handler: Handler
    render: str
    """The name of the function of ``cli_render`` that turns the result into text (``--json`` needs none)."""
    arguments: Sequence[Argument] = ()
    misuse: Callable[[argparse.Namespace], str | None] | None = None
    """A combination of flags argparse cannot refuse by itself: the usage error to exit 2 with, or None."""
    direct: Callable[[argparse.Namespace], int | None] | None = None
    """Runs before the workspace opens: an exit code ends the command there (a hook that must never fail
    loudly), None goes on to the handler."""


COMMANDS: list[Command] = []
"""Every command, in the order they are declared (their modules are imported by ``cli``, in order)."""


def command(
    name: str,
    *,
    help: str,
    example: str,
    render: str,
    arguments: Sequence[Argument] = (),
    misuse: Callable[[argparse.Namespace], str | None] | None = None,
    direct: Callable[[argparse.Namespace], int | None] | None = None,
) -> Callable[[Handler], Handler]:
    """Declare the command ``name`` with the handler this decorates."""
    if not help.strip() or not example.strip():
        raise ValueError(f"command {name!r} needs help and an example: `memory-review {name} --help` shows them")
    if any(declared.name == name for declared in COMMANDS):
        raise ValueError(f"command {name!r} is declared twice")

    def declare(handler: Handler) -> Handler:
        COMMANDS.append(Command(name, help, example, handler, render, tuple(arguments), misuse, direct))
        return handler

    return declare


def arg(*flags: str, **options: Any) -> Argument:
    """One ``add_argument`` call, as data: ``arg("--reason", help="why")``."""

    def add(parser: argparse.ArgumentParser) -> object:
        return parser.add_argument(*flags, **options)

    return add


def scope(help: str = "which store (default: look in project, then user)") -> Argument:
    """``--scope user|project``, with what it means for this command."""
    return arg("--scope", choices=["user", "project"], help=help)


IDS = arg("ids", nargs="+", metavar="ID", help="candidate id(s)")
CANDIDATE = arg("id", metavar="ID", help="candidate id")
REASON = arg("--reason", help="why (kept in the log)")


class LazyChoices:
    """Choices loaded when argparse first needs them: building the parser must not import every command's
    module (the extract package alone costs ~60 ms of each `memory-review context` call)."""

    def __init__(self, load: Callable[[], Sequence[str]]) -> None:
        self._load = load

    def __contains__(self, value: object) -> bool:
        return value in self._load()

    def __iter__(self):
        return iter(self._load())


# --- what several handlers use ----------------------------------------------------------------


def current_actor() -> str:
    """The person at the keyboard, for the ``actor`` of their decisions."""
    return _workspace.current_actor()


def read_file(name: str) -> bytes:
    """A file named on the command line; one that cannot be read is a one-line error."""
    try:
        return Path(name).read_bytes()
    except OSError as exc:
        raise ValidationError(f"cannot read: {exc.strerror}", path=name) from exc
