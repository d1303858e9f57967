"""The commands that read, inspect and keep the stores, and those that propose from elsewhere.

``memories``, ``log``, ``trust``, ``context``, ``extract``, ``import``, ``consolidate``, ``sessions``,
``replay``, ``verify``, ``doctor``, ``forget``, ``sync`` and ``promote``: each one
:func:`~memory_review.cli_command.command` declaration (ADR 0043), in the order ``--help`` lists them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from memory_review.cli_command import REASON, LazyChoices, arg, command, current_actor, read_file, scope
from memory_review.errors import ValidationError
from memory_review.lazy import LazyModule

if TYPE_CHECKING:
    from memory_review.models import DurableScope
    from memory_review.workspace import Workspace

out = LazyModule("memory_review.cli_render")


@command(
    "memories",
    help="approved memories as injection sees them",
    example="memory-review memories --json",
    render="render_memories",
)
def _memories(args, ws: Workspace):
    return ws.memories(session=args.session)


@command(
    "log",
    help="the event log (--session ID: only that session)",
    example="memory-review log --type candidate.applied",
    render="render_log",
    arguments=[
        arg("--scope", choices=["user", "project"], default="project", help="which store's log"),
        arg(
            "--git",
            action="store_true",
            help="the git history instead (refs/memory-review/<scope>; also `git log <ref>`)",
        ),
        arg("--limit", type=int, default=50, metavar="N", help="with --git: the newest N commits"),
        arg("--type", help="only this event type, e.g. candidate.applied"),
        arg("--memory", help="only events touching this memory id"),
        arg("--candidate", help="only events of this candidate"),
    ],
)
def _log(args, ws: Workspace):
    if args.git:
        return out.GitLog(ws.git_log(scope=args.scope, limit=args.limit))
    return ws.log(scope=args.scope, session=args.session, type=args.type, memory=args.memory, candidate=args.candidate)


@command(
    "trust",
    help="memories no person on this machine approved (a cloned, copied or synced store): review, trust or refuse them",
    example="memory-review trust apply conv-pnpm@1f0c2d9e8a7b",
    render="render_trust_versions",
    arguments=[
        arg(
            "action",
            nargs="?",
            choices=["list", "apply", "discard"],
            help="list (default): memories no one here approved; apply: trust them; discard: never",
        ),
        arg(
            "ids",
            nargs="*",
            metavar="ID",
            help="memory id(s); apply: ID@VERSION as `trust list` shows it trusts that version or nothing",
        ),
        arg(
            "--all",
            action="store_true",
            help="apply: every memory still waiting that no flag holds (a flagged one, one that would hide a "
            "memory of the other store, and one an unreviewed apply wrote must be named)",
        ),
        arg(
            "--remote",
            metavar="NAME",
            help="let teammates' approvals that arrive by `sync` through git remote NAME count here",
        ),
        arg("--off", action="store_true", help="with --remote: stop letting them count"),
        arg(
            "--moved-from",
            metavar="DIR",
            help="this project was moved from DIR: keep what you trusted or refused there",
        ),
        REASON,
        scope("only this store (default: both)"),
    ],
)
def _trust(args, ws: Workspace):
    if args.remote:
        return ws.trust_remote(args.remote, actor=current_actor(), trusted=not args.off, scope=args.scope)
    if args.moved_from:
        return ws.trust_moved(Path(args.moved_from), actor=current_actor())
    action = args.action or ("apply" if args.all else "list")
    if action == "list":
        return ws.foreign(scope=args.scope)
    if action == "apply":
        from memory_review.trust_review import trusted_versions
        from memory_review.workspace import DURABLE

        events = ws.trust(args.ids, actor=current_actor(), scope=args.scope, everything=args.all, reason=args.reason)
        # What was trusted, read back to be shown: a bare ID takes whatever version is current (F8, session 39).
        scopes: list[DurableScope] = [args.scope] if args.scope else [s for s in DURABLE if ws.has_store(s)]
        return trusted_versions(events, (m for s in scopes for m in ws.stored_memories(s)))
    return ws.refuse(args.ids, actor=current_actor(), scope=args.scope, reason=args.reason)


@command(
    "context",
    help="the block of approved memories to put in the prompt (--session records it)",
    example="memory-review --session S1 context --query 'database tests'",
    render="render_context",
    arguments=[
        arg("--query", help="select at most 5 memories relevant to this text (forbidden ones always)"),
        arg(
            "--budget",
            type=int,
            metavar="BYTES",
            help="size limit of the block (default 25000); stdout gets the block alone, and stderr "
            "says how many memories were left out and why",
        ),
    ],
)
def _context(args, ws: Workspace):
    return ws.context(session=args.session, query=args.query, budget=args.budget)


def _transcript_formats() -> list[str]:
    from memory_review.extract import FORMATS

    return sorted(FORMATS)


@command(
    "extract",
    help="propose candidates found in an agent session transcript (never memory)",
    example="memory-review extract ~/.claude/projects/x/session.jsonl",
    render="render_extract",
    arguments=[
        arg(
            "transcript",
            metavar="TRANSCRIPT",
            nargs="+",
            help="Claude Code session JSONL (or JSON array), Claude Code's prompt history "
            "(~/.claude/history.jsonl: this project's prompts only), Codex rollout JSONL, Gemini CLI session "
            "JSON, {role, content} JSONL, aider history, a Markdown chat export (SpecStory, Cursor, Windsurf, "
            "Antigravity, Cline, Claude.ai/ChatGPT exporters, Gemini share), text; several session files are read as "
            "one run, so a rule said in two of them counts as repeated",
        ),
        # A metavar, so argparse does not list (load) the choices while building the parser.
        arg(
            "--format",
            choices=LazyChoices(_transcript_formats),
            metavar="FORMAT",
            help="skip auto-detection: claude-code, claude-history, codex, gemini, jsonl, aider, chat-export or text",
        ),
        arg(
            "--extractor",
            choices=["heuristic", "model", "claude", "codex", "gemini"],
            default="heuristic",
            help="heuristic (offline, the default); claude, codex or gemini: that agent CLI headless, no "
            "tools (found on PATH, or $MEMORY_REVIEW_CLAUDE_CLI ...); model: an OpenAI-compatible or "
            "Anthropic endpoint from MEMORY_REVIEW_LLM_*. A model reads a long history in several calls, "
            "each up to 60,000 characters of what the user said",
        ),
    ],
)
def _extract(args, ws: Workspace):
    paths = [Path(name) for name in args.transcript]

    def progress(batch: int, batches: int) -> None:
        # A long history takes several calls of a minute or more each: say which one is running.
        print(f"asking {args.extractor}: batch {batch} of {batches} of the statements", file=sys.stderr, flush=True)

    return ws.extract(paths, format=args.format, session=args.session, extractor=args.extractor, progress=progress)


def _import_formats() -> list[str]:
    from memory_review.importers import FORMATS

    return list(FORMATS)


@command(
    "import",
    help="propose candidates from existing memory files: CLAUDE.md, AGENTS.md, Cursor rules, Cline, "
    "Claude Code auto memory (never memory)",
    example="memory-review import CLAUDE.md",
    render="render_import",
    arguments=[
        arg(
            "path",
            metavar="PATH",
            help="CLAUDE.md / AGENTS.md / GEMINI.md, a Claude Code auto-memory folder (MEMORY.md), "
            "a Cursor rule (.mdc) or .cursor/rules, a Cline memory-bank folder, or a project folder "
            "holding them",
        ),
        arg(
            "--format",
            choices=LazyChoices(_import_formats),
            metavar="FORMAT",
            help="skip auto-detection: claude-md, claude-memory, cursor or cline",
        ),
        arg(
            "--codex-chain",
            action="store_true",
            help="PATH is the folder a Codex session works in: import the AGENTS.md files Codex reads "
            "there, from the project root down (AGENTS.override.md, else AGENTS.md, one per folder)",
        ),
        scope("propose every memory for this store (default: by file: project, or user for personal ones)"),
    ],
)
def _import(args, ws: Workspace):
    return ws.import_memories(Path(args.path), format=args.format, scope=args.scope, codex_chain=args.codex_chain)


@command(
    "consolidate",
    help="propose merging near-duplicate (or, past a threshold, related) approved memories",
    example="memory-review consolidate --threshold 10",
    render="render_consolidate",
    arguments=[
        scope("only this store (default: both)"),
        arg(
            "--threshold",
            type=int,
            metavar="N",
            help="from N approved memories in a store, also merge related ones, not only near-duplicates (default 10)",
        ),
    ],
)
def _consolidate(args, ws: Workspace):
    return ws.propose_consolidation(scope=args.scope, threshold=args.threshold)


@command("sessions", help="sessions seen in the logs", example="memory-review sessions", render="render_sessions")
def _sessions(args, ws: Workspace):
    return ws.sessions()


@command(
    "replay",
    help="rebuild past state from the log (--at SEQ), or a session's contexts (--session ID)",
    example="memory-review replay --at 12",
    render="render_replay",
    arguments=[
        arg("--at", type=int, metavar="SEQ", help="state right after event SEQ"),
        arg("--scope", choices=["user", "project"], default="project", help="which store"),
    ],
)
def _replay(args, ws: Workspace):
    if args.session:
        return ws.replay_session(args.session)
    return ws.replay(at=args.at, scope=args.scope)


def _apply_without_repair(args) -> str | None:
    if args.apply and not args.repair:
        return "--apply goes with --repair: memory-review verify --repair --apply"
    return None


@command(
    "verify",
    help="check manifest, files and the log's chain",
    example="memory-review verify --repair --apply",
    render="render_verify",
    arguments=[
        arg(
            "--repair",
            action="store_true",
            help="show how repair would fold what is provably committed (the log, then the git history) "
            "and rebuild manifest, memory files, MEMORY.md and candidates from it; changes nothing",
        ),
        arg(
            "--apply",
            action="store_true",
            help="with --repair: do it, after backing the store's files up to <store>/backups/",
        ),
        arg(
            "--full",
            action="store_true",
            help="read every line of the log again; without it, a store this machine verified clean before "
            "is walked only past what that verify proved, when the log still begins with those exact bytes "
            "(every file is checked either way)",
        ),
    ],
    misuse=_apply_without_repair,
)
def _verify(args, ws: Workspace):
    return out.VerifyResult.of(ws.verify(repair=args.repair, apply=args.apply, full=args.full), for_json=args.json)


@command(
    "doctor",
    help="what to know when something is off: versions, stores, trust, installed hooks, recent hook errors, verify",
    example="memory-review doctor --json",
    render="render_doctor",
)
def _doctor(args, ws: Workspace):
    from memory_review.doctor import diagnose

    return diagnose(ws)


def _forget_arguments(p) -> None:
    what = p.add_mutually_exclusive_group()
    what.add_argument(
        "--text-from",
        metavar="FILE|-",
        help="read the text to forget from FILE or stdin (-); without it, a prompt that does "
        "not echo. Never give a secret on the command line: ps and shell history keep it",
    )
    what.add_argument("--pattern", metavar="REGEX", help="forget every match of a regular expression instead")


@command(
    "forget",
    help="take a text (a leaked secret) out of the stores, their log and git history, recorded (a person's command)",
    example="memory-review forget --text-from - --reason 'leaked token' --yes",
    render="render_forget",
    arguments=[
        _forget_arguments,
        arg("--reason", required=True, help="why (recorded; must not contain the text)"),
        scope("only this store (default: both)"),
        arg("--yes", action="store_true", help="rewrite for real (without it: only report what would be rewritten)"),
    ],
)
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
        raw = read_file(source).decode("utf-8", "replace")
    elif sys.stdin.isatty():
        import getpass  # noqa: PLC0415 - only this command prompts

        raw = getpass.getpass("text to forget (not shown): ")
    else:
        raise ValidationError("give the text with --text-from - (stdin) or --text-from FILE, or a --pattern")
    return raw[:-1] if raw.endswith("\n") else raw


@command(
    "sync",
    help="share approved memory through a git remote: fetch teammates' changes, merge, push yours",
    example="memory-review sync origin",
    render="render_sync",
    arguments=[
        arg("remote", nargs="?", metavar="REMOTE", help="git remote to sync through (default: origin)"),
        scope("only this store (default: every store whose repository has REMOTE)"),
        arg(
            "--share-pending",
            action="store_true",
            help="also push your pending proposals (each candidate's full record: the memory it would "
            "write, rationale, evidence quotes, proposer, session id) where everyone who can read "
            "the remote sees them. Without it only reviewed events leave this machine: applies "
            "with the candidates they approved, reverts, deletes, sync merges. Prompts, discarded "
            "proposals and hook errors are never pushed",
        ),
    ],
)
def _sync(args, ws: Workspace):
    return ws.sync(args.remote, scope=args.scope, share_pending=args.share_pending)


@command(
    "promote",
    help="propose moving a session memory to user/project",
    example="memory-review promote S1 tabs --scope user",
    render="render_proposed",
    arguments=[
        arg("session_id", metavar="SESSION"),
        arg("memory", metavar="MEMORY"),
        arg("--scope", choices=["user", "project"], required=True, help="target store"),
    ],
)
def _promote(args, ws: Workspace):
    state = ws.promote(args.session_id, args.memory, scope=args.scope, actor=current_actor())
    return out.ProposeResult.of(state)
