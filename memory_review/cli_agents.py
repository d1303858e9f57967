"""The commands that connect agents: ``hook``, ``install``, ``uninstall``, ``mcp`` and ``export``; and
``resident``, which hands every command to a resident server (ADR 0060).

Each is one :func:`~memory_review.cli_command.command` declaration (ADR 0043). The integrations are
imported by the handlers that use them: ``context``, the command an agent runs before every turn, must
not pay for the hook, install, MCP and export modules (docs/performance.md).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from memory_review.cli_command import LazyChoices, arg, command

if TYPE_CHECKING:
    import argparse

    from memory_review.workspace import Workspace

HOOK_AGENTS = ("claude-code", "codex", "gemini")


def run_agent_hook(agent: str, *, project: str | None) -> int:
    """``memory-review hook AGENT``: the agent's hook on stdin and stdout; always exits 0."""
    from memory_review.lean.hook import hook_streams, run_hook  # the read index first; the full hook when undecided

    stdin, stdout = hook_streams()
    if agent == "claude-code":
        return run_hook(stdin, stdout, project=project)
    from memory_review.integrations import claude_hooks
    from memory_review.integrations.agents import agent_named

    return claude_hooks.run_hook(stdin, stdout, project=project, agent=agent_named(agent))


def _hook_before_the_workspace(args: argparse.Namespace) -> int | None:
    """An agent's hook and the background worker run here, before anything that could fail loudly."""
    if args.target in HOOK_AGENTS:
        return run_agent_hook(args.target, project=getattr(args, "project", None))
    if args.target == "worker":
        from memory_review.integrations.hook_worker import run_worker

        return run_worker(project=getattr(args, "project", None), session=getattr(args, "session", None))
    return None


@command(
    "hook",
    help="Claude Code hook: context on session start and prompts, candidates from transcripts; "
    "`hook errors` lists its failures",
    example="memory-review hook errors",
    render="render_hook_errors",
    arguments=[
        arg(
            "target",
            choices=[*HOOK_AGENTS, "errors", "worker"],
            metavar="claude-code|codex|gemini|errors",
            help="claude-code, codex, gemini: run as that agent's hook (JSON on stdin; always exits 0); "
            "errors: what went wrong inside hooks "
            "(worker: the background model extraction a hook starts; not for people)",
        )
    ],
    direct=_hook_before_the_workspace,
)
def _hook(args, ws: Workspace):
    from memory_review.integrations import claude_hooks

    return claude_hooks.hook_errors(ws)


def _install_arguments(p, *, with_command: bool = True) -> None:
    p.add_argument(
        "agent",
        choices=list(HOOK_AGENTS),
        metavar="claude-code|codex|gemini",
        help="the agent to hook into (codex: .codex/hooks.json, or $CODEX_HOME/hooks.json with --user; "
        "gemini: .gemini/settings.json, or ~/.gemini/settings.json with --user)",
    )
    # Here --project names the settings file, not the project root: this group takes the flag over
    # (the root can still be given before the command: memory-review --project DIR install ...).
    where = p.add_argument_group("which settings file (the last one given wins)", conflict_handler="resolve")
    where.add_argument(
        "--user",
        dest="settings",
        action="store_const",
        const="user",
        help="~/.claude/settings.json (every project; acts where `memory-review init` ran)",
    )
    where.add_argument(
        "--project",
        dest="settings",
        action="store_const",
        const="project",
        help="<project>/.claude/settings.json, shared with the team (the default)",
    )
    where.add_argument(
        "--local",
        dest="settings",
        action="store_const",
        const="local",
        help="<project>/.claude/settings.local.json, this machine only",
    )
    p.set_defaults(settings="project")
    if with_command:
        p.add_argument(
            "--command",
            dest="command_line",
            metavar="CMD",
            help="what the agent runs (default: memory-review hook AGENT, by full path when memory-review is "
            "not on PATH); it must run memory-review by its full path, or PYTHON -P -m memory_review, and end in "
            "'hook AGENT', which is how install and uninstall find it again",
        )
        p.add_argument(
            "--extractor",
            choices=["heuristic", "claude", "codex", "gemini"],
            help="what the Stop hooks extract with: claude, codex or gemini run that CLI in the "
            "background (your login, no tools); heuristic (offline) is what they use unless set",
        )
        p.add_argument(
            "--keep-auto-memory",
            action="store_true",
            help="leave Claude Code's own auto memory on (by default install turns it off: "
            "it remembers what nobody reviewed)",
        )


@command(
    "install",
    help="add memory-review's hooks to Claude Code's settings.json (idempotent, backed up)",
    example="memory-review install claude-code --project",
    render="render_install",
    arguments=[_install_arguments],
)
def _install(args, ws: Workspace):
    from memory_review.integrations import install

    return install.install(
        ws,
        scope=args.settings,
        command=args.command_line,
        keep_auto_memory=args.keep_auto_memory,
        extractor=args.extractor,
        agent=args.agent,
    )


@command(
    "uninstall",
    help="remove exactly the hooks `install` added",
    example="memory-review uninstall claude-code --project",
    render="render_install",
    arguments=[lambda p: _install_arguments(p, with_command=False)],
)
def _uninstall(args, ws: Workspace):
    from memory_review.integrations import install

    return install.uninstall(ws, scope=args.settings, agent=args.agent)


@command(
    "mcp",
    help="MCP server on stdio: agents propose and read memory, never approve (needs the mcp extra)",
    example="claude mcp add memory-review -- memory-review mcp",
    render="render_nothing",
)
def _mcp(args, ws: Workspace):
    from memory_review.integrations import mcp_server

    # Without --project the server never takes the folder it was started in (ADR 0022): roots or
    # $CLAUDE_PROJECT_DIR name the project, or it works on the user store only.
    mcp_server.serve(ws, session=args.session, fixed_project=bool(getattr(args, "project", None)))


def _export_formats() -> list[str]:
    from memory_review.integrations.export import FORMATS

    return sorted(FORMATS)


@command(
    "export",
    help="write approved memories into a marked section of AGENTS.md, CLAUDE.md or a Cursor rule",
    example="memory-review export --format agents-md",
    render="render_export",
    arguments=[
        arg(
            "--format",
            required=True,
            choices=LazyChoices(_export_formats),
            metavar="FORMAT",
            help="agents-md: AGENTS.md, claude-md: CLAUDE.md, cursor-rules: .cursor/rules/memory-review.mdc",
        ),
        arg("--output", metavar="FILE", help="write this file instead of the format's default"),
        arg(
            "--scope",
            choices=["project", "user", "all"],
            default="project",
            help="whose memories: project (the default: these files are usually committed), user (your own), or all",
        ),
    ],
)
def _export(args, ws: Workspace):
    from memory_review.integrations import export

    return export.export_memories(
        ws, format=args.format, output=Path(args.output) if args.output else None, scope=args.scope
    )


def _resident_now(args: argparse.Namespace) -> int:
    """``resident on|off|status`` runs before any workspace opens: it is about this machine, not a store's
    content, and ``off`` must work whatever state a store is in."""
    from memory_review.errors import MemoryReviewError, one_line_os_error
    from memory_review.resident import control
    from memory_review.terminal import json_bytes

    try:
        if args.action == "on":
            state = control.turn_on(idle_seconds=args.idle)
        elif args.action == "off":
            state = control.turn_off()
        else:
            state = control.status()
    except (MemoryReviewError, OSError) as exc:
        message = one_line_os_error(exc) if not isinstance(exc, MemoryReviewError) else str(exc)
        print(f"memory-review: error: {message}", file=sys.stderr)
        return 1
    if args.json:
        sys.stdout.buffer.write(json_bytes(state.model_dump()))
    elif not state.on:
        print(f"resident: off ({state.folder} absent): every command starts its own interpreter")
    else:
        running = f"running, pid {state.pid}" if state.running else "not running (the next command starts it)"
        print(f"resident: on ({state.folder}): server {running}; exits after {state.idle_seconds} s idle")
    return 0


@command(
    "resident",
    help="on this machine, hand commands to a resident server that has the library loaded "
    "(faster start; docs/adr/0060): on, off or status",
    example="memory-review resident on",
    render="render_nothing",
    arguments=[
        arg("action", choices=["on", "off", "status"], help="on: switch it on; off: stop it and switch it off"),
        arg("--idle", type=int, metavar="SECONDS", help="with on: the server exits after this long idle (1800)"),
    ],
    direct=_resident_now,
)
def _resident(args, ws: Workspace):  # never reached: _resident_now answers first
    return None
