"""The thirty-sixth round of the heuristic (ADR 0096): how every command of a kind is run is a convention said once.

Held-out 92's person says in two sessions "And only use nix develop --command to run all commands." and "Cargo
commands should be wrapped with nix develop --command."; held-out 84 has the same person's "we should run script via
nix develop --command …", held-out 31 another person's "run python commands through uv". None had a signal word.
"""

from __future__ import annotations

import pytest
from rounds_kit import said, user_transcript

from memory_review.extract.heuristic import extract


@pytest.mark.parametrize(
    "sentence",
    [
        "run python commands through uv",
        "Cargo commands should be wrapped with nix develop --command.",
        "And only use nix develop --command to run all commands.",
        "We have flake.nix at the root, so we should run script via nix develop --command bash -c '...'.",
        "Run all commands through docker compose exec app.",
        "Scripts must be run with bun, not node.",
    ],
)
def test_how_every_command_of_a_kind_is_run_is_a_convention(sentence: str) -> None:
    findings = extract(user_transcript(sentence))
    assert [(f.memory.type, f.scope, f.signal) for f in findings] == [("convention", "project", "run commands through")]


@pytest.mark.parametrize(
    "sentence",
    [
        "you should run the commands in the terminal",
        "Would you like to run the following command?",
        "run this script with python3",
        "run the script with sudo",
        "Run a script with python3 to check it.",
        "run one command with sudo",
        "I ran the commands through uv yesterday.",
        "This would allow investigators to run the scripts as many times as they please.",
    ],
)
def test_the_commands_at_hand_are_no_convention(sentence: str) -> None:
    assert said(sentence) == []
