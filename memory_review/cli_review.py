"""The review cycle's commands: the UI, the demo, ``init``, ``propose`` and the decisions on candidates.

Each is one :func:`~memory_review.cli_command.command` declaration: help, example, arguments, handler
and renderer together (ADR 0043). The handlers make one :class:`~memory_review.workspace.Workspace` call
whose keyword arguments mirror the flags; the library behind them is imported on first use.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from memory_review.cli_command import CANDIDATE, IDS, REASON, arg, command, current_actor, read_file, scope
from memory_review.errors import ConflictError, ValidationError
from memory_review.lazy import LazyModule

if TYPE_CHECKING:
    from memory_review.models import DurableScope, Memory
    from memory_review.proposal import ProposedMemory
    from memory_review.workspace import CandidateState, Workspace

out = LazyModule("memory_review.cli_render")
_proposal = LazyModule("memory_review.proposal")
_record_io = LazyModule("memory_review.record_io")
_models = LazyModule("memory_review.models")


@command("review", help="open the review UI (the default)", example="memory-review review", render="render_nothing")
def _review(args, ws: Workspace):
    _launch_tui(ws)


@command(
    "demo",
    help="a throwaway workspace with realistic candidates, opened in the UI",
    example="memory-review demo --no-tui",
    render="render_demo",
    arguments=[
        arg("--no-tui", action="store_true", help="print the candidates instead of opening the UI"),
        arg("--dir", help="build the workspace here instead of a new temporary folder"),
    ],
)
def _demo(args, ws: Workspace):
    from memory_review.demo import build_demo

    workspace = build_demo(Path(args.dir) if args.dir else None)
    if not args.no_tui:
        _launch_tui(workspace)
    return out.Demo(workspace)


@command("init", help="create the user and project stores", example="memory-review init", render="render_init")
def _init(args, ws: Workspace):
    return out.InitResult(**ws.init(), gitignore=ws.ignore_project_store())


@command(
    "propose",
    help="propose memory changes from JSON (the agent's way in)",
    example="memory-review propose --file p.json",
    render="render_proposed",
    arguments=[
        arg(
            "--file",
            "-f",
            required=True,
            metavar="F",
            help="JSON proposal(s): an object, an array, or JSON Lines; '-' reads stdin",
        )
    ],
)
def _propose(args, ws: Workspace):
    raw = sys.stdin.buffer.read() if args.file == "-" else read_file(args.file)
    proposals = _proposal.parse_proposals(raw, where="stdin" if args.file == "-" else args.file)
    results = [out.ProposeResult.of(state) for state in ws.propose(proposals, session=args.session)]
    return results[0] if _proposal.is_one_object(raw) else results


@command(
    "list",
    help="pending candidates",
    example="memory-review list --json",
    render="render_list",
    arguments=[scope("only this store")],
)
def _list(args, ws: Workspace):
    return ws.list_candidates(scope=args.scope)


@command(
    "show",
    help="one candidate: diff, rationale, evidence, status",
    example="memory-review show cand_01J...",
    render="render_show",
    arguments=[CANDIDATE],
)
def _show(args, ws: Workspace):
    state = ws.show(args.id)
    return out.Shown(state, ws.similar(state), ws.other_store(state))


@command(
    "apply",
    help="apply candidates (one batch per store)",
    example="memory-review apply cand_01J... cand_01K...",
    render="render_events",
    arguments=[IDS],
)
def _apply(args, ws: Workspace):
    return ws.apply(args.ids, actor=current_actor())


@command(
    "discard",
    help="discard candidates",
    example="memory-review discard cand_01J... --reason 'one-off'",
    render="render_events",
    arguments=[IDS, REASON],
)
def _discard(args, ws: Workspace):
    return ws.discard(args.ids, actor=current_actor(), reason=args.reason)


@command(
    "edit",
    help="edit a candidate's proposed memory in $EDITOR, or move it to the other store (--scope)",
    example="memory-review edit cand_01J...   # or: memory-review edit cand_01J... --scope project",
    render="render_show",
    arguments=[
        CANDIDATE,
        arg("--from-file", metavar="F", help="take the edited memory file from F instead of $EDITOR"),
        scope(
            "move it: a new candidate in this store, this one discarded (opens no editor; --from-file still applies)"
        ),
    ],
)
def _edit(args, ws: Workspace):
    state = ws.show(args.id)
    record = next((c.after for c in state.candidate.changes if c.after is not None), None)
    if record is None:
        raise ValidationError(f"candidate {args.id} deletes a memory; there is no record to edit")
    if args.from_file:
        return _save(ws, state, _record_io.parse_memory(read_file(args.from_file), path=args.from_file), args.scope)
    if args.scope:
        return out.Moved(ws.move(args.id, args.scope, actor=current_actor()), replaced=args.id)
    return _edit_until_valid(ws, state, _record_io.render_memory(record))


@command(
    "revert",
    help="undo applied changes (one batch per store)",
    example="memory-review revert 12 14",
    render="render_event_or_events",
    arguments=[
        arg(
            "targets",
            nargs="+",
            metavar="SEQ|CANDIDATE",
            help="event seq(s), or id(s) of applied candidates; all in one batch per store, newest first",
        ),
        arg("--force", action="store_true", help="overwrite a newer change (recorded)"),
        scope("which store's log SEQ refers to (default: project)"),
    ],
)
def _revert(args, ws: Workspace):
    events = ws.revert_many(args.targets, actor=current_actor(), force=args.force, scope=args.scope)
    return events[0] if len(args.targets) == 1 else events  # one target: one event, as before


@command(
    "restore",
    help="undo applies or discards: the same candidates pending again (an applied one's memory "
    "reverted in the same batch)",
    example="memory-review restore cand_01J...",
    render="render_events",
    arguments=[
        IDS,
        arg("--force", action="store_true", help="revert an applied memory that changed since (recorded)"),
    ],
)
def _restore(args, ws: Workspace):
    return ws.restore(args.ids, actor=current_actor(), force=args.force)


@command(
    "delete",
    help="delete an approved memory (recorded, revertible)",
    example="memory-review delete old-fact",
    render="render_deleted",
    arguments=[arg("memory", metavar="MEMORY", help="memory id"), REASON, scope()],
)
def _delete(args, ws: Workspace):
    event = ws.delete(args.memory, actor=current_actor(), scope=args.scope, reason=args.reason)
    return out.Deleted(event, ws.uncovered(args.memory))


# --- the UI ------------------------------------------------------------------------------------


def _launch_tui(ws: Workspace) -> None:
    import signal

    from memory_review.tui.app import make_app  # lazily: only the CLI may import the UI, on use

    app = make_app(ws)
    previous = signal.signal(signal.SIGINT, _sigint_quits(app))
    try:
        app.run()
    finally:
        signal.signal(signal.SIGINT, previous)
    if app.not_run():
        print(
            "memory-review: quit before these ran (nothing of them was recorded): " + "; ".join(app.not_run()),
            file=sys.stderr,
        )


FINISHING = "memory-review: finishing the decision under way, then leaving (nothing is half done)"


def _sigint_quits(app):
    """A SIGINT handler for the UI's whole run: the first SIGINT quits as ``q`` does, later ones only say why
    the process is still there.

    Inside the UI ctrl+c is a key; SIGINT comes from ``kill`` or from ctrl+c once the UI has given the terminal
    back while a decision finishes (it is atomic, and its thread is joined before the process exits).
    Installed before ``app.run()``, this handler stands in for asyncio's, which cancels the main task on the
    first SIGINT and raises KeyboardInterrupt on the second wherever the wind-down happens to be: that printed
    a traceback. This one never raises; it schedules the quit on the UI's own loop. Printing is safe at any
    point: while the UI runs, Textual captures stderr.
    """
    import asyncio  # the UI's dependency anyway; not every command's

    said = False

    def on_sigint(signum, frame) -> None:
        nonlocal said
        if not app.closing.is_set():
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # the UI's loop is not running (not yet): Python's own ctrl+c
                raise KeyboardInterrupt from None
            loop.call_soon_threadsafe(app.quit_now)
        elif not said:
            said = True
            print(FINISHING, file=sys.stderr)

    return on_sigint


# --- edit: $EDITOR until the record is valid ---------------------------------------------------


def _proposed(edited) -> ProposedMemory:
    return _proposal.ProposedMemory(id=edited.id, type=edited.type, description=edited.description, body=edited.body)


EDIT_NOTE = "# memory-review: "
"""Lines the editor shows above the record after a failed save; they are never part of the record."""


def _edit_until_valid(ws: Workspace, state: CandidateState, data: bytes):
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
            return _save(ws, state, _record_io.parse_memory(text, path="edited memory"), None)
        except ValidationError as exc:
            problem, data = str(exc), text


def _save(ws: Workspace, state: CandidateState, edited: Memory, scope: DurableScope | None):
    """The edited record, when it changed, then a move to ``scope`` (else to the file's ``scope:``) when that
    is the other store (ADR 0154). Whether the candidate can move is checked first: a refusal saves nothing."""
    candidate = state.candidate
    target = scope or _models.durable_scope(edited.scope)  # a memory file may say "session": refused here
    if target != candidate.scope:
        candidate.movable_memory()
    current = next(c.after for c in candidate.changes if c.after is not None)
    if _proposed(edited) != _proposed(current):
        state = ws.edit(candidate.id, _proposed(edited), actor=current_actor())
    if target == candidate.scope:
        return state
    try:
        return out.Moved(ws.move(candidate.id, target, actor=current_actor()), replaced=candidate.id)
    except ConflictError as exc:
        raise ConflictError(f"{exc}; the edit is saved, the candidate stays where it was", hint=exc.hint) from exc


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
