"""One declaration per command (issue 19, ADR 0043): every command is declared with its help, example,
arguments, handler and renderer, and the parser, the help and the dispatch come from those declarations."""

from __future__ import annotations

import argparse
import inspect

import pytest

from memory_review import cli, cli_render
from memory_review.cli_command import COMMANDS, command


def test_every_command_is_declared_with_help_an_example_a_handler_and_a_renderer() -> None:
    assert len(cli.commands()) == len(COMMANDS) > 0  # none declared in a module outside cli.AREAS
    for declared in cli.commands():
        assert declared.help.strip() and declared.example.strip(), declared.name
        assert "memory-review" in declared.example, declared.name
        assert callable(getattr(cli_render, declared.render, None)), (declared.name, declared.render)
        assert list(inspect.signature(declared.handler).parameters) == ["args", "ws"], declared.name
        assert all(callable(add) for add in declared.arguments), declared.name


def test_the_parser_has_exactly_the_declared_commands_with_their_help() -> None:
    parser = cli.build_parser()
    [sub] = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    assert list(sub.choices) == [declared.name for declared in cli.commands()]
    for declared in cli.commands():
        text = sub.choices[declared.name].format_help()
        assert declared.help in " ".join(text.split()), declared.name
        assert f"example:\n  {declared.example}" in text, declared.name


@pytest.mark.parametrize(("help_text", "example"), [("", "memory-review x"), ("does x", " "), ("  ", "")])
def test_a_command_without_help_or_example_is_refused(help_text: str, example: str) -> None:
    before = list(COMMANDS)
    with pytest.raises(ValueError, match="help and an example"):
        command("not-a-command", help=help_text, example=example, render="render_nothing")
    assert before == COMMANDS


def test_a_command_is_declared_once() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        command("init", help="again", example="memory-review init", render="render_init")
