"""The deny rules install writes keep the agent's shell from running a person's commands.

Claude Code's matcher is modelled from its permissions reference: a rule ``Bash(spec)`` matches
a command when ``spec`` does, ``*`` standing for any text and a lone trailing `` *`` also matching
nothing; a compound command (``&&``, ``||``, ``;``, ``|``) is denied when any part is.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

from project_kit import Project

from memory_review.integrations.claude_settings import PERSON_COMMANDS, is_our_rule

VENV_EXE = str(Path(sys.executable).with_name("memory-review"))
DENIED = [
    "memory-review apply cand_01J0000000000000000000000",
    "memory-review apply cand_a cand_b",
    "memory-review --project . apply cand_a",
    "memory-review --json discard cand_a --reason x",
    "memory-review edit cand_a --from-file x.md",
    "memory-review revert 12 --force",
    "memory-review delete old-fact",
    "memory-review forget some-memory",
    "memory-review trust",
    "memory-review sync",
    "memory-review sync origin",
    "memory-review verify --repair",
    "memory-review verify --json --repair",
    "memory-review verify --rep",
    "memory-review --project . verify --repair",
    "cd /tmp && memory-review apply cand_a",
    "true; memory-review --project /x sync",
    "python -m memory_review.cli apply cand_a",
    "python3 -m memory_review.cli --project . discard cand_a",
    f"{VENV_EXE} apply cand_a",
]
ALLOWED = [
    "memory-review list",
    "memory-review show cand_a",
    "memory-review verify",
    "memory-review memories --json",
    "memory-review log --session s1",
    "memory-review propose --file p.json",
    "git status",
]


def _matches(spec: str, command: str) -> bool:
    if spec.endswith(" *") and spec.count("*") == 1:
        pattern = re.escape(spec[:-2]) + "( .*)?"
    else:
        pattern = ".*".join(re.escape(part) for part in spec.split("*"))
    return re.fullmatch(pattern, command) is not None


def _denied(rules: list[str], command: str) -> bool:
    parts = [p.strip() for p in re.split(r"&&|\|\||;|\|", command)]
    specs = [rule[len("Bash(") : -1] for rule in rules if rule.startswith("Bash(")]
    return any(_matches(spec, part) for part in parts for spec in specs)


def _installed_rules(project: Project, *extra: str) -> list[str]:
    done = project.run("install", "claude-code", "--local", *extra)
    assert done.returncode == 0, done.stderr
    assert b"permissions.deny" in done.stdout
    return json.loads((project.root / ".claude" / "settings.local.json").read_text())["permissions"]["deny"]


def test_every_person_command_is_denied_and_readers_are_not(project: Project) -> None:
    rules = _installed_rules(project, "--command", shlex.join([VENV_EXE, "hook", "claude-code"]))
    assert all(is_our_rule(rule) for rule in rules)
    for command in DENIED:
        assert _denied(rules, command), command
    for command in ALLOWED:
        assert not _denied(rules, command), command
    covered = {word for rule in rules for word in PERSON_COMMANDS if f" {word.split()[0]} *" in rule}
    assert covered == set(PERSON_COMMANDS)


def test_uninstall_takes_out_exactly_our_rules(project: Project) -> None:
    settings = project.root / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    theirs = {"permissions": {"deny": ["Bash(curl *)", "Read(./secrets/**)"], "allow": ["Bash(make *)"]}}
    original = json.dumps(theirs, indent=2).encode() + b"\n"
    settings.write_bytes(original)
    _installed_rules(project)
    edited = json.loads(settings.read_text())
    edited["permissions"]["deny"].insert(1, "Bash(git push *)")  # the person adds one of their own
    settings.write_text(json.dumps(edited, indent=2) + "\n")

    done = project.json("uninstall", "claude-code", "--local")
    assert done["action"] == "removed" and done["deny_rules"] > 0
    left = json.loads(settings.read_text())
    assert left["permissions"] == {
        "deny": ["Bash(curl *)", "Bash(git push *)", "Read(./secrets/**)"],
        "allow": ["Bash(make *)"],
    }


def test_rules_of_other_tools_are_not_ours() -> None:
    assert is_our_rule("Bash(memory-review apply *)")
    assert is_our_rule("Bash('/home/a b/bin/memory-review' * sync *)")
    assert is_our_rule("Bash(python3 -m memory_review.cli verify *--r*)")
    for rule in (
        "Bash(other-tool apply *)",
        "Bash(memory-review list *)",
        "Read(./.env)",
        "Bash(memory-review apply)",
        "Bash(npm run apply *)",
        42,
        "Bash(memory-review-extra apply *)",
    ):
        assert not is_our_rule(rule), rule
