"""The ``memory-review`` command line (docs/design.md §8).

Each command parses its flags, makes one :class:`~memory_review.workspace.Workspace`
call whose keyword arguments mirror them, and renders the result as text or,
with ``--json``, as JSON from the same models. Exit codes: 0 success, 1 an error
(message on stderr, store untouched), 2 a usage error. This module is one of the
two places that catch :class:`MemoryReviewError`; the other is the TUI.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from memory_review.errors import MemoryReviewError, StorageError, ValidationError, one_line_os_error
from memory_review.lazy import LazyModule

if TYPE_CHECKING:
    from memory_review.proposal import ProposedMemory
    from memory_review.workspace import Workspace

# Imported on first use (issue #16): `--help` builds the parser without the library behind the commands.
out = LazyModule("memory_review.cli_render")
_proposal = LazyModule("memory_review.proposal")
_record_io = LazyModule("memory_review.record_io")
_workspace = LazyModule("memory_review.workspace")


def current_actor() -> str:
    return _workspace.current_actor()


# The integrations are imported by the handlers that use them: `context`, the command an agent runs
# before every turn, must not pay for the hook, install, MCP and export modules (docs/performance.md).

EPILOG = """examples:
  memory-review init
  echo '{"op":"create","scope":"project","memory":{"id":"test-db","type":"convention",
         "description":"Tests use the real Postgres container","body":"Never mock the database."},
         "rationale":"user said so twice"}' | memory-review propose --file -
  memory-review list
  memory-review apply cand_01J...
  memory-review context --query "database tests"
"""

Handler = Callable[[argparse.Namespace, "Workspace"], Any]
Renderer = Callable[[Any, argparse.Namespace], Any]
"""Text for a result: a str, or ``cli_render.Printed`` (stdout and a note for stderr)."""
COMMANDS: dict[str, tuple[Handler, str | Renderer]] = {}


def command(name: str, render: str | Renderer):
    """Register a handler and its text renderer (a function of ``cli_render``, by name) under a command name."""

    def register(handler: Handler) -> Handler:
        COMMANDS[name] = (handler, render)
        return handler

    return register


# --- handlers: one library call each ------------------------------------------------------


@command("init", "render_init")
def _init(args, ws: Workspace):
    return out.InitResult(stores=ws.init(), gitignore=ws.ignore_project_store())


@command("propose", "render_proposed")
def _propose(args, ws: Workspace):
    raw = sys.stdin.buffer.read() if args.file == "-" else _read_file(args.file)
    proposals = _proposal.parse_proposals(raw, where="stdin" if args.file == "-" else args.file)
    results = [out.ProposeResult.of(state) for state in ws.propose(proposals, session=args.session)]
    return results[0] if _proposal.is_one_object(raw) else results


@command("list", "render_list")
def _list(args, ws: Workspace):
    return ws.list_candidates(scope=args.scope)


@command("show", "render_show")
def _show(args, ws: Workspace):
    state = ws.show(args.id)
    return out.Shown(state, ws.similar(state))


@command("apply", "render_events")
def _apply(args, ws: Workspace):
    return ws.apply(args.ids, actor=current_actor())


@command("discard", "render_events")
def _discard(args, ws: Workspace):
    return ws.discard(args.ids, actor=current_actor(), reason=args.reason)


@command("edit", "render_show")
def _edit(args, ws: Workspace):
    state = ws.show(args.id)
    record = next((c.after for c in state.candidate.changes if c.after is not None), None)
    if record is None:
        raise ValidationError(f"candidate {args.id} deletes a memory; there is no record to edit")
    if args.from_file:
        return ws.edit(args.id, _proposed(_read_record(args.from_file)), actor=current_actor())
    return _edit_until_valid(ws, args.id, _record_io.render_memory(record))


@command("revert", "render_event_or_events")
def _revert(args, ws: Workspace):
    events = ws.revert_many(args.targets, actor=current_actor(), force=args.force, scope=args.scope)
    return events[0] if len(args.targets) == 1 else events  # one target: one event, as before


@command("restore", "render_events")
def _restore(args, ws: Workspace):
    return ws.restore(args.ids, actor=current_actor(), force=args.force)


@command("delete", "render_event")
def _delete(args, ws: Workspace):
    return ws.delete(args.memory, actor=current_actor(), scope=args.scope, reason=args.reason)


@command("memories", "render_memories")
def _memories(args, ws: Workspace):
    return ws.memories(session=args.session)


@command("log", "render_log")
def _log(args, ws: Workspace):
    if args.git:
        return out.GitLog(ws.git_log(scope=args.scope, limit=args.limit))
    return ws.log(scope=args.scope, session=args.session, type=args.type, memory=args.memory, candidate=args.candidate)


@command("sync", "render_sync")
def _sync(args, ws: Workspace):
    return ws.sync(args.remote, scope=args.scope, share_pending=args.share_pending)


@command("trust", "render_trust")
def _trust(args, ws: Workspace):
    if args.remote:
        return ws.trust_remote(args.remote, actor=current_actor(), trusted=not args.off, scope=args.scope)
    if args.moved_from:
        return ws.trust_moved(Path(args.moved_from), actor=current_actor())
    action = args.action or ("apply" if args.all else "list")
    if action == "list":
        return ws.foreign(scope=args.scope)
    if action == "apply":
        return ws.trust(args.ids, actor=current_actor(), scope=args.scope, everything=args.all, reason=args.reason)
    return ws.refuse(args.ids, actor=current_actor(), scope=args.scope, reason=args.reason)


@command("context", "render_context")
def _context(args, ws: Workspace):
    return ws.context(session=args.session, query=args.query, budget=args.budget)


@command("extract", "render_extract")
def _extract(args, ws: Workspace):
    paths = [Path(name) for name in args.transcript]
    return ws.extract(paths, format=args.format, session=args.session, extractor=args.extractor)


@command("import", "render_import")
def _import(args, ws: Workspace):
    return ws.import_memories(Path(args.path), format=args.format, scope=args.scope, codex_chain=args.codex_chain)


@command("consolidate", "render_consolidate")
def _consolidate(args, ws: Workspace):
    return ws.propose_consolidation(scope=args.scope, threshold=args.threshold)


@command("sessions", "render_sessions")
def _sessions(args, ws: Workspace):
    return ws.sessions()


@command("replay", "render_replay")
def _replay(args, ws: Workspace):
    if args.session:
        return ws.replay_session(args.session)
    return ws.replay(at=args.at, scope=args.scope)


@command("verify", "render_verify")
def _verify(args, ws: Workspace):
    return out.VerifyResult(ws.verify(repair=args.repair, apply=args.apply))


@command("doctor", "render_doctor")
def _doctor(args, ws: Workspace):
    from memory_review.doctor import diagnose

    return diagnose(ws)


@command("forget", "render_forget")
def _forget(args, ws: Workspace):
    text = None if args.pattern else _text_to_forget(args.text_from)
    return ws.forget(
        text=text,
        pattern=args.pattern,
        scope=args.scope,
        reason=args.reason,
        actor=current_actor(),
        dry_run=not args.yes,
    )


def _text_to_forget(source: str | None) -> str:
    """The text from stdin, a file or a prompt that does not echo: never from argv (``ps``, shell history)."""
    if source == "-":
        raw = sys.stdin.read()
    elif source:
        raw = _read_file(source).decode("utf-8", "replace")
    elif sys.stdin.isatty():
        import getpass  # noqa: PLC0415 - only this command prompts

        raw = getpass.getpass("text to forget (not shown): ")
    else:
        raise ValidationError("give the text with --text-from - (stdin) or --text-from FILE, or a --pattern")
    return raw[:-1] if raw.endswith("\n") else raw


@command("promote", "render_proposed")
def _promote(args, ws: Workspace):
    state = ws.promote(args.session_id, args.memory, scope=args.scope, actor=current_actor())
    return out.ProposeResult.of(state)


@command("hook", "render_hook_errors")
def _hook(args, ws: Workspace):
    # `hook claude-code|codex|gemini` never gets here: main() runs it before anything that could fail loudly.
    from memory_review.integrations import claude_hooks

    return claude_hooks.hook_errors(ws)


@command("install", "render_install")
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


@command("uninstall", "render_install")
def _uninstall(args, ws: Workspace):
    from memory_review.integrations import install

    return install.uninstall(ws, scope=args.settings, agent=args.agent)


@command("mcp", lambda result, args: "")
def _mcp(args, ws: Workspace):
    from memory_review.integrations import mcp_server

    # Without --project the server never takes the folder it was started in (ADR 0022): roots or
    # $CLAUDE_PROJECT_DIR name the project, or it works on the user store only.
    mcp_server.serve(ws, session=args.session, fixed_project=bool(getattr(args, "project", None)))


@command("export", "render_export")
def _export(args, ws: Workspace):
    from memory_review.integrations import export

    return export.export_memories(
        ws, format=args.format, output=Path(args.output) if args.output else None, scope=args.scope
    )


@command("demo", "render_demo")
def _demo(args, ws: Workspace):
    from memory_review.demo import build_demo

    workspace = build_demo(Path(args.dir) if args.dir else None)
    if not args.no_tui:
        _launch_tui(workspace)
    return workspace


@command("review", "render_nothing")
def _review(args, ws: Workspace):
    _launch_tui(ws)


def _launch_tui(ws: Workspace) -> None:
    from memory_review.tui.app import make_app  # lazily: only this module may import the UI

    app = make_app(ws)
    try:
        app.run()
    except KeyboardInterrupt:  # ctrl+c while the UI winds down: it was leaving anyway, no traceback
        # The decision under way is atomic and finishes before the process exits (its thread is joined);
        # another ctrl+c while it does would only print a traceback from that join.
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        print("memory-review: finishing the decision under way, then leaving (nothing is half done)", file=sys.stderr)
    if app.not_run():
        print(
            "memory-review: quit before these ran (nothing of them was recorded): " + "; ".join(app.not_run()),
            file=sys.stderr,
        )


# --- helpers -----------------------------------------------------------------------------


def _read_file(name: str) -> bytes:
    try:
        return Path(name).read_bytes()
    except OSError as exc:
        raise ValidationError(f"cannot read: {exc.strerror}", path=name) from exc


def _read_record(name: str):
    return _record_io.parse_memory(_read_file(name), path=name)


def _proposed(edited) -> ProposedMemory:
    return _proposal.ProposedMemory(id=edited.id, type=edited.type, description=edited.description, body=edited.body)


EDIT_NOTE = "# memory-review: "
"""Lines the editor shows above the record after a failed save; they are never part of the record."""


def _edit_until_valid(ws: Workspace, candidate_id: str, data: bytes):
    """Open $EDITOR on the record until the edit is valid; a file left unchanged or emptied changes nothing.

    A record that fails validation is opened again, with what was wrong on top (issue 18): the
    person's text is never thrown away because of a typo.
    """
    problem = None
    while True:
        text = _strip_notes(_edit_in_editor(_with_notes(data, problem)))
        if not text.strip() or text == data:
            raise ValidationError("the edit was left empty or unchanged; nothing changed")
        try:
            return ws.edit(
                candidate_id, _proposed(_record_io.parse_memory(text, path="edited memory")), actor=current_actor()
            )
        except ValidationError as exc:
            problem, data = str(exc), text


def _with_notes(data: bytes, problem: str | None) -> bytes:
    if problem is None:
        return data
    lines = [f"{EDIT_NOTE}not saved: {line}" for line in problem.splitlines()]
    lines.append(f"{EDIT_NOTE}fix the record below and save; empty the file to give up")
    return ("\n".join(lines) + "\n").encode() + data


def _strip_notes(data: bytes) -> bytes:
    lines = data.splitlines(keepends=True)
    while lines and lines[0].startswith(EDIT_NOTE.encode()):
        lines.pop(0)
    return b"".join(lines)


def _edit_in_editor(data: bytes) -> bytes:
    """The file's bytes after $VISUAL/$EDITOR (else vi) edited them; a failing editor is a one-line error."""
    import shlex  # noqa: PLC0415 - imported here: every other command's start-up skips them
    import subprocess  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    with tempfile.TemporaryDirectory(prefix="memory-review-edit-") as folder:
        path = Path(folder) / "memory.md"
        path.write_bytes(data)
        try:
            completed = subprocess.run([*shlex.split(editor), str(path)], check=False)
        except (OSError, ValueError) as exc:  # no such program, not executable, unbalanced quotes
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise ValidationError(
                f"could not start the editor {editor!r}: {reason}; nothing changed",
                hint="set $EDITOR to a program that edits a file, or use --from-file",
            ) from exc
        if completed.returncode != 0:
            raise ValidationError(f"editor {editor!r} exited with {completed.returncode}; nothing changed")
        return path.read_bytes()


# --- parser ------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The whole command line; every command has help and an example."""
    parser = argparse.ArgumentParser(
        prog="memory-review",
        description="Reviewed, revertible memory for LLM coding agents. With no command: the review UI.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _globals(parser)
    parser.add_argument("--version", action=_VersionAction, help="print the installed version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text, example, configure in SUBCOMMANDS:
        p = sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=f"example:\n  {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        _globals(p, suppress=True)
        p.add_argument("--json", action="store_true", help="print JSON for scripts")
        configure(p)
    return parser


class _VersionAction(argparse.Action):
    """``--version``: read from the package metadata only when asked (not on every start-up)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from memory_review.version import tool_version

        print(f"memory-review {tool_version()}")
        parser.exit()


def _globals(parser: argparse.ArgumentParser, *, suppress: bool = False) -> None:
    default = argparse.SUPPRESS if suppress else None
    parser.add_argument(
        "--project",
        metavar="DIR",
        default=default,
        help="project root (default: the git top-level of the current directory)",
    )
    parser.add_argument("--session", metavar="ID", default=default, help="the agent session to act for")


def _scope(p, help_text="which store (default: look in project, then user)"):
    p.add_argument("--scope", choices=["user", "project"], help=help_text)


def _cfg_propose(p):
    p.add_argument(
        "--file",
        "-f",
        required=True,
        metavar="F",
        help="JSON proposal(s): an object, an array, or JSON Lines; '-' reads stdin",
    )


def _cfg_ids(p):
    p.add_argument("ids", nargs="+", metavar="ID", help="candidate id(s)")


def _cfg_discard(p):
    _cfg_ids(p)
    p.add_argument("--reason", help="why (kept in the log)")


def _cfg_show(p):
    p.add_argument("id", metavar="ID", help="candidate id")


def _cfg_edit(p):
    _cfg_show(p)
    p.add_argument("--from-file", metavar="F", help="take the edited memory file from F instead of $EDITOR")


def _cfg_revert(p):
    p.add_argument(
        "targets",
        nargs="+",
        metavar="SEQ|CANDIDATE",
        help="event seq(s), or id(s) of applied candidates; all in one batch per store, newest first",
    )
    p.add_argument("--force", action="store_true", help="overwrite a newer change (recorded)")
    _scope(p, "which store's log SEQ refers to (default: project)")


def _cfg_restore(p):
    _cfg_ids(p)
    p.add_argument("--force", action="store_true", help="revert an applied memory that changed since (recorded)")


def _cfg_delete(p):
    p.add_argument("memory", metavar="MEMORY", help="memory id")
    p.add_argument("--reason", help="why (kept in the log)")
    _scope(p)


def _cfg_log(p):
    p.add_argument("--scope", choices=["user", "project"], default="project", help="which store's log")
    p.add_argument(
        "--git", action="store_true", help="the git history instead (refs/memory-review/<scope>; also `git log <ref>`)"
    )
    p.add_argument("--limit", type=int, default=50, metavar="N", help="with --git: the newest N commits")
    p.add_argument("--type", help="only this event type, e.g. candidate.applied")
    p.add_argument("--memory", help="only events touching this memory id")
    p.add_argument("--candidate", help="only events of this candidate")


def _cfg_replay(p):
    p.add_argument("--at", type=int, metavar="SEQ", help="state right after event SEQ")
    p.add_argument("--scope", choices=["user", "project"], default="project", help="which store")


def _cfg_trust(p):
    p.add_argument(
        "action",
        nargs="?",
        choices=["list", "apply", "discard"],
        help="list (default): memories no one here approved; apply: trust them; discard: never",
    )
    p.add_argument("ids", nargs="*", metavar="ID", help="memory id(s)")
    p.add_argument("--all", action="store_true", help="apply: every memory still waiting")
    p.add_argument(
        "--remote",
        metavar="NAME",
        help="let teammates' approvals that arrive by `sync` through git remote NAME count here",
    )
    p.add_argument("--off", action="store_true", help="with --remote: stop letting them count")
    p.add_argument(
        "--moved-from", metavar="DIR", help="this project was moved from DIR: keep what you trusted or refused there"
    )
    p.add_argument("--reason", help="why (kept in the log)")
    _scope(p, "only this store (default: both)")


def _cfg_context(p):
    p.add_argument("--query", help="select at most 5 memories relevant to this text (forbidden ones always)")
    p.add_argument(
        "--budget",
        type=int,
        metavar="BYTES",
        help="size limit of the block (default 25000); stdout gets the block alone, and stderr "
        "says how many memories were left out and why",
    )


class _LazyChoices:
    """Choices loaded when argparse first needs them: building the parser must not import every command's
    module (the extract package alone costs ~60 ms of each `memory-review context` call)."""

    def __init__(self, load: Callable[[], Sequence[str]]) -> None:
        self._load = load

    def __contains__(self, value: object) -> bool:
        return value in self._load()

    def __iter__(self):
        return iter(self._load())


def _transcript_formats() -> list[str]:
    from memory_review.extract import FORMATS

    return sorted(FORMATS)


def _cfg_extract(p):
    p.add_argument(
        "transcript",
        metavar="TRANSCRIPT",
        nargs="+",
        help="Claude Code session JSONL (or JSON array), Codex rollout JSONL, Gemini CLI session JSON, "
        "{role, content} JSONL, aider history, text; several session files are read as one run, so a "
        "rule said in two of them counts as repeated",
    )
    # A metavar, so argparse does not list (load) the choices while building the parser.
    p.add_argument(
        "--format",
        choices=_LazyChoices(_transcript_formats),
        metavar="FORMAT",
        help="skip auto-detection: claude-code, codex, gemini, jsonl, aider or text",
    )
    p.add_argument(
        "--extractor",
        choices=["heuristic", "model", "claude", "codex", "gemini"],
        default="heuristic",
        help="heuristic (offline, the default); claude, codex or gemini: that agent CLI headless, no "
        "tools (found on PATH, or $MEMORY_REVIEW_CLAUDE_CLI ...); model: an OpenAI-compatible or "
        "Anthropic endpoint from MEMORY_REVIEW_LLM_*",
    )


def _import_formats() -> list[str]:
    from memory_review.importers import FORMATS

    return list(FORMATS)


def _cfg_import(p):
    p.add_argument(
        "path",
        metavar="PATH",
        help="CLAUDE.md / AGENTS.md / GEMINI.md, a Claude Code auto-memory folder (MEMORY.md), "
        "a Cursor rule (.mdc) or .cursor/rules, a Cline memory-bank folder, or a project folder "
        "holding them",
    )
    p.add_argument(
        "--format",
        choices=_LazyChoices(_import_formats),
        metavar="FORMAT",
        help="skip auto-detection: claude-md, claude-memory, cursor or cline",
    )
    p.add_argument(
        "--codex-chain",
        action="store_true",
        help="PATH is the folder a Codex session works in: import the AGENTS.md files Codex reads "
        "there, from the project root down (AGENTS.override.md, else AGENTS.md, one per folder)",
    )
    _scope(p, "propose every memory for this store (default: by file: project, or user for personal ones)")


def _cfg_consolidate(p):
    _scope(p, "only this store (default: both)")
    p.add_argument(
        "--threshold",
        type=int,
        metavar="N",
        help="from N approved memories in a store, also merge related ones, not only near-duplicates (default 10)",
    )


def _cfg_verify(p):
    p.add_argument(
        "--repair",
        action="store_true",
        help="show how repair would fold what is provably committed (the log, then the git history) "
        "and rebuild manifest, memory files, MEMORY.md and candidates from it; changes nothing",
    )
    p.add_argument(
        "--apply",
        action="store_true",
        help="with --repair: do it, after backing the store's files up to <store>/backups/",
    )


def _cfg_forget(p):
    what = p.add_mutually_exclusive_group()
    what.add_argument(
        "--text-from",
        metavar="FILE|-",
        help="read the text to forget from FILE or stdin (-); without it, a prompt that does "
        "not echo. Never give a secret on the command line: ps and shell history keep it",
    )
    what.add_argument("--pattern", metavar="REGEX", help="forget every match of a regular expression instead")
    p.add_argument("--reason", required=True, help="why (recorded; must not contain the text)")
    _scope(p, "only this store (default: both)")
    p.add_argument(
        "--yes", action="store_true", help="rewrite for real (without it: only report what would be rewritten)"
    )


def _cfg_promote(p):
    p.add_argument("session_id", metavar="SESSION")
    p.add_argument("memory", metavar="MEMORY")
    p.add_argument("--scope", choices=["user", "project"], required=True, help="target store")


def _cfg_demo(p):
    p.add_argument("--no-tui", action="store_true", help="print the candidates instead of opening the UI")
    p.add_argument("--dir", help="build the workspace here instead of a new temporary folder")


def _none(p):
    return None


def _cfg_sync(p):
    p.add_argument("remote", nargs="?", metavar="REMOTE", help="git remote to sync through (default: origin)")
    _scope(p, "only this store (default: every store whose repository has REMOTE)")
    p.add_argument(
        "--share-pending",
        action="store_true",
        help="also push your pending proposals (each candidate's full record: the memory it would "
        "write, rationale, evidence quotes, proposer, session id) where everyone who can read "
        "the remote sees them. Without it only reviewed events leave this machine: applies "
        "with the candidates they approved, reverts, deletes, sync merges. Prompts, discarded "
        "proposals and hook errors are never pushed",
    )


def _cfg_hook(p):
    p.add_argument(
        "target",
        choices=[*HOOK_AGENTS, "errors", "worker"],
        metavar="claude-code|codex|gemini|errors",
        help="claude-code, codex, gemini: run as that agent's hook (JSON on stdin; always exits 0); "
        "errors: what went wrong inside hooks "
        "(worker: the background model extraction a hook starts; not for people)",
    )


def _cfg_install(p, *, with_command: bool = True):
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
            help="what Claude Code runs (default: memory-review hook claude-code, by full path "
            "when memory-review is not on PATH)",
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


def _export_formats() -> list[str]:
    from memory_review.integrations.export import FORMATS

    return sorted(FORMATS)


def _cfg_export(p):
    p.add_argument(
        "--format",
        required=True,
        choices=_LazyChoices(_export_formats),
        metavar="FORMAT",
        help="agents-md: AGENTS.md, claude-md: CLAUDE.md, cursor-rules: .cursor/rules/memory-review.mdc",
    )
    p.add_argument("--output", metavar="FILE", help="write this file instead of the format's default")
    p.add_argument(
        "--scope",
        choices=["project", "user", "all"],
        default="project",
        help="whose memories: project (the default: these files are usually committed), user (your own), or all",
    )


SUBCOMMANDS = [
    ("review", "open the review UI (the default)", "memory-review review", _none),
    (
        "demo",
        "a throwaway workspace with realistic candidates, opened in the UI",
        "memory-review demo --no-tui",
        _cfg_demo,
    ),
    ("init", "create the user and project stores", "memory-review init", _none),
    (
        "propose",
        "propose memory changes from JSON (the agent's way in)",
        "memory-review propose --file p.json",
        _cfg_propose,
    ),
    ("list", "pending candidates", "memory-review list --json", lambda p: _scope(p, "only this store")),
    ("show", "one candidate: diff, rationale, evidence, status", "memory-review show cand_01J...", _cfg_show),
    ("apply", "apply candidates (one batch per store)", "memory-review apply cand_01J... cand_01K...", _cfg_ids),
    ("discard", "discard candidates", "memory-review discard cand_01J... --reason 'one-off'", _cfg_discard),
    ("edit", "edit a candidate's proposed memory in $EDITOR", "memory-review edit cand_01J...", _cfg_edit),
    ("revert", "undo applied changes (one batch per store)", "memory-review revert 12 14", _cfg_revert),
    (
        "restore",
        "undo applies or discards: the same candidates pending again (an applied one's memory "
        "reverted in the same batch)",
        "memory-review restore cand_01J...",
        _cfg_restore,
    ),
    ("delete", "delete an approved memory (recorded, revertible)", "memory-review delete old-fact", _cfg_delete),
    ("memories", "approved memories as injection sees them", "memory-review memories --json", _none),
    ("log", "the event log (--session ID: only that session)", "memory-review log --type candidate.applied", _cfg_log),
    (
        "trust",
        "memories no person on this machine approved (a cloned, copied or synced store): review, trust or refuse them",
        "memory-review trust apply conv-pnpm",
        _cfg_trust,
    ),
    (
        "context",
        "the block of approved memories to put in the prompt (--session records it)",
        "memory-review --session S1 context --query 'database tests'",
        _cfg_context,
    ),
    (
        "extract",
        "propose candidates found in an agent session transcript (never memory)",
        "memory-review extract ~/.claude/projects/x/session.jsonl",
        _cfg_extract,
    ),
    (
        "import",
        "propose candidates from existing memory files: CLAUDE.md, AGENTS.md, Cursor rules, Cline, "
        "Claude Code auto memory (never memory)",
        "memory-review import CLAUDE.md",
        _cfg_import,
    ),
    (
        "consolidate",
        "propose merging near-duplicate (or, past a threshold, related) approved memories",
        "memory-review consolidate --threshold 10",
        _cfg_consolidate,
    ),
    ("sessions", "sessions seen in the logs", "memory-review sessions", _none),
    (
        "replay",
        "rebuild past state from the log (--at SEQ), or a session's contexts (--session ID)",
        "memory-review replay --at 12",
        _cfg_replay,
    ),
    ("verify", "check manifest, files and the log's chain", "memory-review verify --repair --apply", _cfg_verify),
    (
        "doctor",
        "what to know when something is off: versions, stores, trust, installed hooks, recent hook errors, verify",
        "memory-review doctor --json",
        _none,
    ),
    (
        "forget",
        "take a text (a leaked secret) out of the stores, their log and git history, recorded (a person's command)",
        "memory-review forget --text-from - --reason 'leaked token' --yes",
        _cfg_forget,
    ),
    (
        "sync",
        "share approved memory through a git remote: fetch teammates' changes, merge, push yours",
        "memory-review sync origin",
        _cfg_sync,
    ),
    (
        "promote",
        "propose moving a session memory to user/project",
        "memory-review promote S1 tabs --scope user",
        _cfg_promote,
    ),
    (
        "hook",
        "Claude Code hook: context on session start and prompts, candidates from transcripts; "
        "`hook errors` lists its failures",
        "memory-review hook errors",
        _cfg_hook,
    ),
    (
        "install",
        "add memory-review's hooks to Claude Code's settings.json (idempotent, backed up)",
        "memory-review install claude-code --project",
        _cfg_install,
    ),
    (
        "uninstall",
        "remove exactly the hooks `install` added",
        "memory-review uninstall claude-code --project",
        lambda p: _cfg_install(p, with_command=False),
    ),
    (
        "mcp",
        "MCP server on stdio: agents propose and read memory, never approve (needs the mcp extra)",
        "claude mcp add memory-review -- memory-review mcp",
        _none,
    ),
    (
        "export",
        "write approved memories into a marked section of AGENTS.md, CLAUDE.md or a Cursor rule",
        "memory-review export --format agents-md",
        _cfg_export,
    ),
]


HOOK_AGENTS = ("claude-code", "codex", "gemini")
HOOK_ARGV = ("hook", "claude-code")
"""The command line ``install`` gives Claude Code: run before every prompt, so it skips building the parser
(``hook codex`` and ``hook gemini`` likewise)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if len(arguments) == 2 and arguments[0] == "hook" and arguments[1] in HOOK_AGENTS:
        return _run_agent_hook(arguments[1], project=None)
    parser = build_parser()
    args = parser.parse_args(arguments)
    name = args.command or "review"
    if name not in COMMANDS:
        parser.error(f"unknown command {name!r}")
    if name == "verify" and args.apply and not args.repair:
        parser.error("--apply goes with --repair: memory-review verify --repair --apply")
    if name == "hook" and args.target in HOOK_AGENTS:
        return _run_agent_hook(args.target, project=getattr(args, "project", None))
    if name == "hook" and args.target == "worker":
        from memory_review.integrations.hook_worker import run_worker

        return run_worker(project=getattr(args, "project", None), session=getattr(args, "session", None))
    handler, render = COMMANDS[name]
    try:
        ws = _workspace.Workspace.open(Path(args.project) if getattr(args, "project", None) else None)
        result = handler(args, ws)
    except MemoryReviewError as exc:
        _report(exc, getattr(args, "json", False))
        return 1
    except OSError as exc:  # the disk refused something the library did not translate: one line, no trace
        _report(StorageError(one_line_os_error(exc), path=exc.filename, errno=exc.errno), getattr(args, "json", False))
        return 1
    try:
        _emit(result, args, getattr(out, render) if isinstance(render, str) else render)
    except BrokenPipeError:
        # The reader went away (`memory-review log | head`): not an error of ours, and no traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    for warning in ws.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return 0 if getattr(result, "ok", True) else 1


def _run_agent_hook(agent: str, *, project: str | None) -> int:
    if agent == "claude-code":
        from memory_review.lean.hook import run_hook  # the read index first; the full hook when it cannot decide

        return run_hook(sys.stdin.buffer, sys.stdout, project=project)
    from memory_review.integrations import claude_hooks
    from memory_review.integrations.agents import agent_named

    return claude_hooks.run_hook(sys.stdin.buffer, sys.stdout, project=project, agent=agent_named(agent))


def _emit(result: Any, args: argparse.Namespace, render: Renderer) -> None:
    if getattr(args, "json", False):
        sys.stdout.buffer.write(orjson.dumps(out.to_json(result), option=orjson.OPT_INDENT_2) + b"\n")
        return
    text = render(result, args)
    if isinstance(text, out.Printed):  # a note for people beside output for programs (context)
        text, note = text.stdout, text.stderr
        if note:
            print(note, file=sys.stderr)
    if text:
        print(text)


def _report(exc: MemoryReviewError, as_json: bool) -> None:
    message = f"memory-review: error: {exc}"
    if exc.hint:
        message += f"\n  hint: {exc.hint}"
    print(message, file=sys.stderr)
    if as_json:
        error = {"error": {"type": type(exc).__name__, "message": str(exc), "hint": exc.hint or None}}
        sys.stdout.buffer.write(orjson.dumps(error) + b"\n")


if __name__ == "__main__":
    sys.exit(main())
