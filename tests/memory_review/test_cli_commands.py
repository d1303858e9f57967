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


def _outcome(parser: argparse.ArgumentParser, argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple:
    """What parsing ``argv`` gives: the namespace, or the exit code with what was printed."""
    try:
        return ("parsed", vars(parser.parse_args(argv)))
    except SystemExit as exc:
        printed = capsys.readouterr()
        return ("exit", exc.code, printed.out, printed.err)


def test_a_parser_built_for_the_chosen_command_parses_helps_and_fails_as_the_whole_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # main builds only the sub-parser of the command it runs (docs/adr/0048): nothing a person sees may differ.
    for declared in cli.commands():
        lines = [
            [declared.name, "--help"],
            ["--project", "/p", declared.name, "--help"],
            [declared.name, "--no-such-flag"],
            [declared.name],
            ["--session", "s1", declared.name, "--json", "x"],
            ["--project=/p", declared.name, "a", "b"],
        ]
        for argv in lines:
            assert cli.chosen_command(argv) == declared.name, argv
            whole = _outcome(cli.build_parser(), argv, capsys)
            chosen = _outcome(cli.build_parser(only=declared.name), argv, capsys)
            assert chosen == whole, (argv, chosen, whole)
    assert cli.build_parser(only="apply").format_usage() == cli.build_parser().format_usage()


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--help"],
        ["-h", "apply"],
        ["--version"],
        ["--proj", "/p", "apply"],
        ["--", "apply"],
        ["nope"],
        ["--project"],
    ],
)
def test_the_whole_parser_decides_any_other_command_line(argv: list[str]) -> None:
    assert cli.chosen_command(argv) is None
