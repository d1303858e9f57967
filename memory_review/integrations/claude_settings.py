"""What ``install claude-code`` puts into a Claude Code settings object, and how it takes it out again.

Pure functions on the parsed JSON (no files). Three things are ours (ADR 0011, 0022):

* one hook group per event running ``memory-review hook claude-code``;
* ``"autoMemoryEnabled": false`` — Claude Code's own auto memory writes notes nobody reviews;
* ``permissions.deny`` rules such as ``Bash(memory-review apply *)``: the agent's shell is
  refused a person's commands.

Removal takes out exactly those. ``before`` (the settings as they were before install,
from the backup) says what the person already had: a deny rule or a value they had
themselves is kept, a container they had stays even when it ends up empty.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory_review.errors import ValidationError
from memory_review.integrations.agents import AGENTS

HOOK_ARGS = ("hook", "claude-code")
# Any agent's hook command is ours (a Codex install before ADR 0035 ran `hook claude-code`).
OUR_HOOK_ARGS = frozenset(agent.hook_args for agent in AGENTS.values())
AUTO_MEMORY = "autoMemoryEnabled"
# A person's commands (rules.require_person refuses an agent actor; these rules refuse the agent's shell).
PERSON_COMMANDS = (
    "apply",
    "discard",
    "edit",
    "revert",
    "restore",
    "delete",
    "forget",
    "trust",
    "sync",
    "verify --repair",
)
# What follows the program in each rule. argparse takes any unambiguous prefix of a flag
# (`verify --rep`), so `--repair` is matched as `--r...`, after any other options; `sync` and
# `trust` also run with no argument (a lone trailing ` *` matches nothing only in a one-`*` rule).
RULE_TAILS = (*(f"{c} *" for c in PERSON_COMMANDS if " " not in c), "verify *--r*", "sync", "trust")
CLI_MODULE = "memory_review.cli"


@dataclass(frozen=True)
class Wanted:
    """What install should leave in the settings: our hooks, our deny rules, auto memory off or not."""

    hooks: dict[str, dict[str, Any]]  # event -> our hook entry
    deny: tuple[str, ...]
    auto_memory_off: bool


@dataclass
class Stripped:
    """What removal found of ours."""

    events: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    auto_memory: bool = False  # our `false` was taken out (or put back to the person's own value)

    @property
    def found(self) -> bool:
        return bool(self.events or self.rules or self.auto_memory)


# --- what is ours ---------------------------------------------------------------------------------


def is_ours(entry: Any) -> bool:
    """Whether a hook entry runs ``memory-review hook <agent>`` (under any path)."""
    if not isinstance(entry, dict) or entry.get("type") != "command" or not isinstance(entry.get("command"), str):
        return False
    try:
        words = shlex.split(entry["command"])
    except ValueError:
        return False
    return tuple(words[-2:]) in OUR_HOOK_ARGS and _is_our_program(words[:-2])


# Python's flags that take no value, alone or combined; -P (no unsafe path) or -I (isolated, which implies it) among
# them keeps the working folder off sys.path
_NO_VALUE_FLAGS = re.compile(r"-[bBdEhiIOPqsSuvV]+")
_PYTHON = re.compile(r"python(?:\d+(?:\.\d+)*)?")


def reads_the_project_first(command: str) -> bool:
    """Whether a hook command of ours would import from the folder the agent runs it in (the project): ``python -m``
    without ``-P`` or ``-I`` puts that folder first on ``sys.path``, a relative program path is the project's own
    file, and a program that is not Python runs ``-m`` as it likes (ADR 0170)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    program = words[:-2]
    if not program or ("/" in program[0] and not program[0].startswith(("/", "~/", "$HOME/", "${HOME}/"))):
        return True  # a relative path to the program, memory-review's or Python's, is the project's own file
    if len(program) >= 3 and program[-2] == "-m":
        return not (_PYTHON.fullmatch(program[0].rsplit("/", 1)[-1]) and _keeps_the_folder_off(program[1:-2]))
    return False


def _keeps_the_folder_off(flags: list[str]) -> bool:
    """Whether Python's options before ``-m`` hold ``-P`` or ``-I`` (alone or combined with others that take no
    value); ``-W`` and ``-X`` take the next word as their value, so ``-W -P`` does not count, nor anything after
    ``--`` or a word that is no option."""
    safe, words = False, iter(flags)
    for flag in words:
        if flag in ("-W", "-X"):
            next(words, None)
        elif flag.startswith(("-W", "-X")) and len(flag) > 2:
            continue
        elif _NO_VALUE_FLAGS.fullmatch(flag):
            safe = safe or bool(set(flag) & {"P", "I"})
        else:
            return False
    return safe


def _is_our_program(words: list[str]) -> bool:
    if len(words) == 1:
        return Path(words[0]).name == "memory-review"
    return len(words) >= 3 and words[-2] == "-m" and words[-1] in (CLI_MODULE, "memory_review")


def deny_rules(programs: Iterable[str]) -> tuple[str, ...]:
    """The ``Bash(...)`` deny rules for every person's command, run through each of ``programs``.

    Claude Code matches a rule against each part of a compound command, and ``prefix *`` also
    matches ``prefix`` alone; ``prefix * apply *`` catches global options before the command.
    """
    rules: dict[str, None] = {}
    for program in programs:
        for tail in RULE_TAILS:
            rules[f"Bash({program} {tail})"] = None
            rules[f"Bash({program} * {tail})"] = None
    return tuple(rules)


def is_our_rule(rule: Any) -> bool:
    """Whether a deny rule has the shape :func:`deny_rules` makes (for any program path)."""
    if not isinstance(rule, str) or not rule.startswith("Bash(") or not rule.endswith(")"):
        return False
    inner = rule[len("Bash(") : -1]
    for tail in RULE_TAILS:
        for middle in (f" * {tail}", f" {tail}"):
            if inner.endswith(middle):
                try:
                    return _is_our_program(shlex.split(inner[: -len(middle)]))
                except ValueError:
                    return False
    return False


def programs_for(hook_command: str, *, extra: Iterable[str] = ()) -> list[str]:
    """Every way the agent's shell could name this tool: the bare name, the hook's program, python -m."""
    found = ["memory-review"]
    words = shlex.split(hook_command)
    if len(words) > 2 and tuple(words[-2:]) in OUR_HOOK_ARGS:
        found.append(shlex.join(words[:-2]))
    found.extend(extra)
    modules = [CLI_MODULE] + (["memory_review"] if _has_main_module() else [])
    found.extend(f"{python} -m {module}" for python in ("python", "python3") for module in modules)
    return list(dict.fromkeys(p for p in found if p))


def _has_main_module() -> bool:
    try:
        return importlib.util.find_spec("memory_review.__main__") is not None
    except (ImportError, ValueError):
        return False


# --- merge ----------------------------------------------------------------------------------------


def merge_settings(data: dict[str, Any], wanted: Wanted, *, before: dict[str, Any]) -> dict[str, Any]:
    """``data`` with our hooks, deny rules and auto-memory setting as ``wanted`` says."""
    merged = _copy(data)
    hooks = _object(merged, "hooks")
    for event, entry in wanted.hooks.items():
        _merge_event(_list(hooks, event, "hooks"), entry)
    if wanted.deny:  # none for an agent without Claude Code's permissions (Codex's hooks.json)
        deny = _list(_object(merged, "permissions"), "deny", "permissions")
        keep = set(wanted.deny) | set(_before_deny(before))
        deny[:] = [rule for rule in deny if not is_our_rule(rule) or rule in keep]  # a moved install: old paths go
        deny.extend(rule for rule in wanted.deny if rule not in deny)
    if wanted.auto_memory_off:
        merged[AUTO_MEMORY] = False
    else:
        _restore_auto_memory(merged, before)
    return merged


def _merge_event(groups: list[Any], wanted: dict[str, Any]) -> None:
    ours = [(g, e) for g in groups if isinstance(g, dict) for e in _hook_list(g) if is_ours(e)]
    if not ours:
        groups.append({"hooks": [wanted]})
        return
    ours[0][1].update(wanted)  # a moved install or new timeouts: update ours in place
    for group, extra in ours[1:]:  # duplicates (e.g. copied by hand) would run the hook twice
        group["hooks"].remove(extra)
        if not group["hooks"]:
            groups.remove(group)


def has_our_hooks(data: dict[str, Any]) -> bool:
    """Whether any hook entry of ours is in ``data`` (then install ran on this file before)."""
    return any(True for _ in _our_entries(data))


def our_hook_commands(data: dict[str, Any]) -> list[str]:
    """The distinct command lines of our hook entries in ``data`` (what ``doctor`` checks still runs)."""
    return sorted({entry["command"] for entry in _our_entries(data)})


def _our_entries(data: dict[str, Any]) -> Iterator[Any]:
    hooks = data.get("hooks")
    for groups in hooks.values() if isinstance(hooks, dict) else ():
        for group in groups if isinstance(groups, list) else ():
            if isinstance(group, dict):
                yield from (e for e in _hook_list(group) if is_ours(e))


# --- strip ----------------------------------------------------------------------------------------


def strip_settings(data: dict[str, Any], *, before: dict[str, Any] | None) -> tuple[dict[str, Any], Stripped]:
    """``data`` without what is ours; containers only we filled are dropped unless ``before`` had them."""
    stripped = _copy(data)
    found = Stripped()
    had = before or {}
    found.events = _strip_hooks(stripped, had)
    found.rules = _strip_rules(stripped, had)
    found.auto_memory = _restore_auto_memory(stripped, had)
    return stripped, found


def _strip_hooks(data: dict[str, Any], before: dict[str, Any]) -> list[str]:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    had = before.get("hooks")
    had_events = set(had) if isinstance(had, dict) else set()
    touched = [
        event
        for event, groups in list(hooks.items())
        if _strip_event(hooks, event, groups, keep_empty=event in had_events)
    ]
    if touched and not hooks and not isinstance(had, dict):
        del data["hooks"]
    return touched


def _strip_event(hooks: dict[str, Any], event: str, groups: Any, *, keep_empty: bool) -> bool:
    if not isinstance(groups, list):
        return False
    found = False
    for group in [g for g in groups if isinstance(g, dict)]:
        kept = [e for e in _hook_list(group) if not is_ours(e)]
        if len(kept) != len(_hook_list(group)):
            found = True
            if kept:
                group["hooks"] = kept
            else:
                groups.remove(group)
    if found and not groups and not keep_empty:
        del hooks[event]
    return found


def put_back_hooks(data: dict[str, Any], before: dict[str, Any]) -> list[str]:
    """Put the hook entries of ours that ``before`` held (a teammate's, found by install) back into ``data``, which
    was stripped of ours: each where it stood, as it was. The events where any went back.

    A group of ours alone goes back at its place among the groups kept; an entry that shared a group with others
    goes back into that group when the group is still there as it was, else into a group of its own at that place.
    """
    had = before.get("hooks")
    hooks = data.get("hooks", {})
    if not isinstance(had, dict) or not isinstance(hooks, dict):
        return []
    touched = []
    for event, groups in had.items():
        current = hooks.get(event, [])
        if isinstance(groups, list) and any(map(_ours_in, groups)) and isinstance(current, list):
            _put_back_event(current, groups)
            hooks[event] = current
            touched.append(event)
    if touched:
        data["hooks"] = hooks  # the person may have taken the whole key out since
    return touched


def _put_back_event(current: list[Any], groups: list[Any]) -> None:
    for at, group in enumerate(groups):  # ``at``: where the group stands in ``current`` too, once ours are back
        if _ours_in(group):
            copied = _copy(group)
            theirs = {**copied, "hooks": [e for e in copied["hooks"] if not is_ours(e)]}
            if theirs["hooks"] and at < len(current) and current[at] == theirs:
                current[at]["hooks"] = copied["hooks"]  # the group they shared, still as it was
            elif theirs["hooks"]:
                current.insert(min(at, len(current)), {**copied, "hooks": [e for e in copied["hooks"] if is_ours(e)]})
            else:
                current.insert(min(at, len(current)), copied)


def _ours_in(group: Any) -> bool:
    return isinstance(group, dict) and any(is_ours(e) for e in _hook_list(group))


def _strip_rules(data: dict[str, Any], before: dict[str, Any]) -> list[str]:
    permissions = data.get("permissions")
    deny = permissions.get("deny") if isinstance(permissions, dict) else None
    if not isinstance(deny, list):
        return []
    theirs = set(_before_deny(before))
    removed = [rule for rule in deny if is_our_rule(rule) and rule not in theirs]
    if not removed:
        return []
    deny[:] = [rule for rule in deny if rule not in removed]
    had = before.get("permissions")
    assert isinstance(permissions, dict)
    if not deny and not (isinstance(had, dict) and "deny" in had):
        del permissions["deny"]
    if not permissions and not isinstance(had, dict):
        del data["permissions"]
    return removed


def _restore_auto_memory(data: dict[str, Any], before: dict[str, Any]) -> bool:
    """Put back the person's own auto-memory value where ours (``false``) stands; whether it did."""
    if data.get(AUTO_MEMORY) is not False or before.get(AUTO_MEMORY) is False:
        return False
    if AUTO_MEMORY in before:
        data[AUTO_MEMORY] = before[AUTO_MEMORY]
    else:
        del data[AUTO_MEMORY]
    return True


def _before_deny(before: dict[str, Any]) -> list[Any]:
    permissions = before.get("permissions")
    deny = permissions.get("deny") if isinstance(permissions, dict) else None
    return deny if isinstance(deny, list) else []


# --- shapes ---------------------------------------------------------------------------------------


def _copy(data: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(data))  # a deep copy that keeps key order


def _object(parent: dict[str, Any], key: str) -> dict[str, Any]:
    value = parent.setdefault(key, {})
    if not isinstance(value, dict):
        raise ValidationError(f'"{key}" is not an object; fix the settings file first', field=key)
    return value


def _list(parent: dict[str, Any], key: str, where: str) -> list[Any]:
    value = parent.setdefault(key, [])
    if not isinstance(value, list):
        raise ValidationError(f'"{where}.{key}" is not a list; fix the settings file first', field=key)
    return value


def _hook_list(group: dict[str, Any]) -> list[Any]:
    hooks = group.get("hooks")
    return hooks if isinstance(hooks, list) else []
