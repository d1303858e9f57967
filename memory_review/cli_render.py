"""How CLI results look: plain text for people, JSON (from the same models) for scripts."""

from __future__ import annotations

import argparse
import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, is_dataclass
from typing import TYPE_CHECKING, Annotated, Any

import orjson
from pydantic import BaseModel, ConfigDict, PlainSerializer, RootModel, TypeAdapter

from memory_review.candidate import (
    FLAG_OVERRIDDEN,
    FLAG_OVERRIDES,
    FLAG_UNCOVERS,
    TIER_FLAGS,
    CandidateDocument,
    CandidateState,
    tier_flag_ids,
)
from memory_review.events import Event, encode_event
from memory_review.gitrepo import LogEntry
from memory_review.models import DurableScope, Memory, utc_now
from memory_review.record_io import memory_to_json
from memory_review.verified import NO_RECORD
from memory_review.verify import StoreReport

if TYPE_CHECKING:
    from memory_review.log_read import LoggedEvents


def to_json(result: Any) -> Any:
    """The JSON document a command prints with ``--json``: the result's own model, dumped by pydantic."""
    if isinstance(result, Event):
        return orjson.loads(encode_event(result))  # exactly as stored
    if isinstance(result, Memory):
        return memory_to_json(result)
    if hasattr(result, "document"):  # a result whose JSON flattens two records into one model (ADR 0043)
        return to_json(result.document())  # a model, or a list of them (``log``: events, raises wrapped)
    if isinstance(result, BaseModel):
        return result.model_dump(mode="json")
    if is_dataclass(result) and not isinstance(result, type):
        document = _adapter(type(result)).dump_python(result, mode="json")
        # A result that says whether all is well (verify, doctor, forget) says it first; it is not a field.
        if isinstance(getattr(type(result), "ok", None), property):
            return {"ok": getattr(result, "ok"), **document}  # noqa: B009 - mypy cannot see the property
        return document
    if isinstance(result, dict):
        return {str(k): to_json(v) for k, v in result.items()}
    if isinstance(result, (list, tuple)):
        return [to_json(item) for item in result]
    return result


@functools.cache
def _adapter(kind: type) -> TypeAdapter[Any]:
    """One ``TypeAdapter`` per result class: its fields, in order, are its JSON."""
    return TypeAdapter(kind)


@dataclass(frozen=True)
class InitResult:
    """``init``: which stores were new, and what happened to the project's ``.gitignore``."""

    project: bool
    user: bool
    gitignore: str

    @property
    def stores(self) -> dict[str, bool]:
        return {"project": self.project, "user": self.user}


def render_init(result: InitResult, args: argparse.Namespace) -> str:
    lines = [f"{scope} store: {'created' if new else 'already there'}" for scope, new in result.stores.items()]
    return "\n".join([*lines, _gitignore_line(result.gitignore)])


def _gitignore_line(status: str) -> str:
    if status in ("added", "created"):
        return f".gitignore: {status} .memory-review/ (the store travels through its own git refs)"
    return f".gitignore: {status}"


@dataclass(frozen=True)
class ProposeResult:
    """What ``propose --json`` prints for each proposal (docs/design.md §9): the id, plus any flags."""

    id: str
    op: str
    scope: DurableScope
    status: str
    flags: list[str]

    @classmethod
    def of(cls, state) -> ProposeResult:
        c = state.candidate
        return cls(id=c.id, op=c.op, scope=c.scope, status=state.status, flags=list(state.flags))


@dataclass(frozen=True)
class VerifyResult:
    """``verify --json``: ok, every problem, each store's report, and what wrote them."""

    ok: bool
    problems: list[str]
    stores: list[StoreReport]
    version: str
    store_format: int

    @classmethod
    def of(cls, reports: list[StoreReport], *, for_json: bool = True) -> VerifyResult:
        """``for_json``: the version is read (package metadata: importlib.metadata, email, zipfile … about
        a twentieth of a verify process); the text output does not show it, so it is left empty there."""
        from memory_review.version import store_format, tool_version

        problems = [f"{r.scope}: {p}" for r in reports for p in r.problems]
        version = tool_version() if for_json else ""
        return cls(all(r.ok for r in reports), problems, reports, version, store_format())


def render_proposed(results, args) -> str:
    results = results if isinstance(results, list) else [results]
    lines = []
    for r in results:
        flags = f"  [{', '.join(r.flags)}]" if r.flags else ""
        lines.append(f"proposed {r.id} ({r.op} {r.scope}){flags}")
    return "\n".join(lines) + f"\n{len(results)} candidate(s) waiting for review: run `memory-review`"


def render_list(states, args) -> str:
    if not states:
        return "no pending candidates"
    rows = [_list_row(state) for state in states]
    return "\n".join(rows) + f"\n{len(states)} pending"


def _list_row(state) -> str:
    c = state.candidate
    change = c.changes[0]
    record = change.after or change.before
    what = f"{record.type:<11} {change.memory}" if record else change.memory
    flags = f"  ! {', '.join(state.flags)}" if state.flags else ""
    desc = record.description if record else ""
    return f"{c.id}  {c.scope:<7} {c.op:<11} {what}  — {desc}{flags}"


@dataclass(frozen=True)
class Shown:
    """``show``: the candidate, what its ``similar-to:`` flags name, and the memories of the other store its
    ``overrides:``, ``overridden-by:`` and ``uncovers:`` flags name, as it stands now."""

    state: CandidateState
    similar: list[Memory]
    other_store: list[Memory] = field(default_factory=list)

    def document(self) -> ShownDocument:
        fields = dict(self.state.document())
        return ShownDocument.model_construct(  # checked records: no revalidation
            **fields, similar=self.similar, other_store=self.other_store
        )


class ShownDocument(CandidateDocument):
    """``show --json``: the candidate's document, then the memories it is similar to, then the memories of
    the other store with its ids (the merge by id hides one of each pair), as files say them."""

    similar: list[Annotated[Memory, PlainSerializer(memory_to_json)]]
    other_store: list[Annotated[Memory, PlainSerializer(memory_to_json)]] = []


@dataclass(frozen=True)
class Moved:
    """``edit --scope``: the new candidate in the other store (its JSON is ``edit``'s), and the one it replaces."""

    state: CandidateState
    replaced: str
    """The id of the candidate now discarded in its store."""

    def document(self) -> CandidateDocument:
        return self.state.document()

    def lines(self) -> list[str]:
        c = self.state.candidate
        return [
            f"moved to the {c.scope} store as {c.id}; {self.replaced} is discarded in its store "
            f"(to undo: `memory-review restore {self.replaced}` and `memory-review discard {c.id}`)",
            "",
        ]


def render_show(shown: Shown | Moved | Any, args) -> str:
    if isinstance(shown, Moved):
        return "\n".join(shown.lines()) + render_show(shown.state, args)
    state, similar, other = (
        (shown.state, shown.similar, shown.other_store) if isinstance(shown, Shown) else (shown, [], [])
    )
    c = state.candidate
    status = f"{state.status}: moved to candidate {state.moved_to}" if state.moved_to else state.status
    lines = [
        f"candidate {c.id}  ({status})",
        f"  op:        {c.op} ({c.scope})",
        f"  proposer:  {c.proposer.kind}:{c.proposer.name}" + (f" ({c.proposer.model})" if c.proposer.model else ""),
        f"  priority:  {c.priority}",
        f"  created:   {c.created_at}",
    ]
    if state.flags:
        lines.append(f"  WARNING:   {', '.join(state.flags)}")
    lines += ["", *_would_inject(c, state.flags, other), "rationale:", f"  {c.rationale}", ""]
    if c.evidence:
        lines.append("evidence:")
        for e in c.evidence:
            where = " ".join(
                x for x in (e.session_id and f"session {e.session_id}", e.turn_id and f"turn {e.turn_id}") if x
            )
            # every line of a quote marked as the quote's: a line of its own could pass for a rationale or a WARNING
            quoted = "\n".join(f"  > {line}" for line in (e.quote.splitlines() or [""]))
            lines.append(quoted + (f"  ({where})" if where else ""))
        lines.append("")
    lines += ["diff:", c.diff.rstrip("\n")]
    if similar:
        lines += ["", *similar_lines(c, similar)]
    return "\n".join(lines)


def similar_lines(candidate, similar: list[Memory]) -> list[str]:
    """Each near-duplicate beside what the candidate proposes: description, then body, two columns."""
    proposed = next((ch.after for ch in candidate.changes if ch.after is not None), None)
    lines = ["similar to what is already there (proposed | existing):"]
    for memory in similar:
        lines.append(f"  {(proposed.id if proposed else '-'):<38} | {memory.id} ({memory.scope} {memory.type})")
        left = [proposed.description, *proposed.body.splitlines()] if proposed else []
        right = [memory.description, *memory.body.splitlines()]
        for a, b in itertools.zip_longest(left[:8], right[:8], fillvalue=""):
            lines.append(f"  {a[:38]:<38} | {b[:38]}")
    return lines


def _would_inject(c, flags: Sequence[str] = (), other: Sequence[Memory] = ()) -> list[str]:
    """The notes the agent gets once ``c`` is applied, byte for byte (``render_frame``), unindented, and those
    it no longer gets. The tiers merge by id (docs/design.md §6): a note the other store's memory overrides is
    never injected, and the other store's memory an ``overrides:`` or ``uncovers:`` flag names goes or comes back."""
    from memory_review.injection.render import render_frame  # on use: most commands never render notes

    named = {kind: set(tier_flag_ids(f for f in flags if f.startswith(kind))) for kind in TIER_FLAGS}
    others = {m.id: m for m in other}
    hidden = named[FLAG_OVERRIDDEN]
    sections = (
        ("once applied, injected as:", [ch.after for ch in c.changes if ch.after and ch.memory not in hidden]),
        ("once applied, no longer injected:", [ch.before for ch in c.changes if ch.after is None and ch.before]),
        (
            "once applied, no longer injected (the user memory with the same id, which this overrides):",
            [others[mid] for mid in sorted(named[FLAG_OVERRIDES]) if mid in others],
        ),
        (
            "once applied, injected again (the user memory with the same id, which this hides now):",
            [others[mid] for mid in sorted(named[FLAG_UNCOVERS]) if mid in others],
        ),
        (
            "once applied, NOT injected (the project memory with the same id overrides it):",
            [ch.after for ch in c.changes if ch.after and ch.memory in hidden],
        ),
        (
            "injected instead (the project memory with the same id):",
            [others[mid] for mid in sorted(hidden) if mid in others],
        ),
    )
    lines = []
    for title, memories in sections:
        if memories:
            lines += [title, *"\n".join(render_frame(m) for m in memories).split("\n")]
    return lines


@dataclass(frozen=True)
class Deleted:
    """``delete``: its event (its JSON), and the user memory the deleted project one hid, injected again now."""

    event: Event
    uncovered: Memory | None = None

    def document(self) -> Event:
        return self.event


def render_deleted(deleted: Deleted, args) -> Printed:
    """The event; on stderr, the user memory of the same id that the merge by id lets through again."""
    back = deleted.uncovered
    note = f"memory-review: the user memory {back.id!r} is injected again (the deleted one hid it)" if back else ""
    return Printed(render_event(deleted.event, args), note)


def render_events(events: list[Event], args) -> str:
    return "\n".join(render_event(e, args) for e in events)


def render_event_or_events(result: Event | list[Event], args) -> str:
    return render_events(result, args) if isinstance(result, list) else render_event(result, args)


def render_event(event: Event, args) -> str:
    what = event.candidate or ""
    changed = ", ".join(c.memory for c in event.changes or ())
    if event.trust:  # memory.trusted / memory.refused name their memories; trust.remote its remote
        changed = (
            ", ".join(str(m.get("memory")) for m in event.trust.get("memories", ()))
            or f"remote {event.trust.get('remote')} {'on' if event.trust.get('trusted') else 'off'}"
        )
    extra = f" reverts {event.reverts}" if event.reverts else ""
    extra += " (forced)" if event.forced else ""
    reason = f" — {event.reason}" if event.reason else ""
    return f"#{event.seq} {event.type} {what} {changed}{extra}{reason}".replace("  ", " ").strip()


def render_memories(memories: list[Memory], args) -> str:
    """Every approved memory as the note the agent is given (``render_frame``, with its age),
    in injection priority order; ``context`` decides which of them fit its budget."""
    from memory_review.injection import priority_order
    from memory_review.injection.render import render_frame

    if not memories:
        return "no approved memories"
    now = utc_now()
    return "\n".join(render_frame(m, now) for m in priority_order(memories)).rstrip("\n")


class GitLog(RootModel):
    """``log --git``: a store's history commits, newest first."""

    # The root annotated here, not RootModel[list[LogEntry]]: a parametrised class is built at import.
    model_config = ConfigDict(defer_build=True)
    root: list[LogEntry]


def render_log(events: LoggedEvents | GitLog, args) -> str:
    """``log``: one line per event; a raise says so (ADR 0050), from the raises ``Workspace.log`` found."""
    if isinstance(events, GitLog):
        return render_git_log(events, args)
    if not events:
        return "no events"
    raised = events.raises  # ADR 0050: a raise is not an edit
    return "\n".join(
        f"{e.ts}  {e.actor:<16} "
        + (f"#{e.seq} {e.candidate} {raised[e.seq].describe()}" if e.seq in raised else render_event(e, args))
        for e in events
    )


def render_git_log(log: GitLog, args) -> str:
    if not log.root:
        return f"no git history for the {args.scope} store (refs/memory-review/{args.scope})"
    blocks = []
    for e in log.root:
        merge = f"  (merges {len(e.parents) - 1} replica commit(s))" if len(e.parents) > 1 else ""
        blocks.append(
            f"commit {e.commit}{merge}\nAuthor: {e.author} <{e.email}>\nDate:   {e.date}\n\n"
            + "\n".join(f"    {line}" for line in e.message.splitlines())
        )
    return "\n\n".join(blocks)


def render_sync(results, args) -> str:
    return "\n".join(_sync_lines(r) for r in results)


def _sync_lines(r) -> str:
    if r.status != "synced":
        return f"{r.scope} store: skipped ({r.reason})"
    lines = [
        f"{r.scope} store via {r.remote}: {len(r.replicas)} other clone(s); "
        + ("pushed" if r.pushed else "nothing new to push")
    ]
    lines += [f"  took in: {', '.join(r.adopted)}"] if r.adopted else []
    lines += [f"  CONFLICT: {cid} waits for your review (`memory-review show {cid}`)" for cid in r.conflicts]
    lines += [f"  closed {cid}: settled elsewhere" for cid in r.closed]
    lines += [f"  waiting: {', '.join(r.waiting)} (other clones disagree; nothing taken)"] if r.waiting else []
    lines += [f"  left out replica {s}" for s in r.skipped_replicas]
    if not (r.adopted or r.conflicts or r.closed or r.waiting):
        lines.append("  up to date")
    return "\n".join(lines)


@dataclass(frozen=True)
class Printed:
    """Text for stdout and a note for stderr: a hook or pipe reading stdout gets only the block."""

    stdout: str
    stderr: str = ""


def render_context(result, args) -> Printed:
    """The block, exactly, on stdout; how many memories were left out, and why, on stderr."""
    text = result.text.rstrip("\n") if result.text else ""
    return Printed(text, context_note(result) if result.dropped or not text else "")


def context_note(result) -> str:
    """``3 injected, 7 dropped: 5 over budget (--budget), 2 not selected by the query``."""
    from memory_review.lean.context import note

    return note(len(result.included), [item.reason for item in result.dropped])


def render_extract(summary, args) -> str:
    lines = [
        f"{summary.source} ({summary.format}, session {summary.session}): {summary.user_turns} user turns",
        f"  found {summary.found}, proposed {len(summary.proposed)}, "
        f"skipped {summary.skipped_duplicates} as duplicates, flagged {summary.flagged}",
    ]
    if summary.other_projects:
        lines.append(f"  {summary.other_projects} prompt(s) of other projects in it, not read")
    if summary.failure:
        lines.append(f"  warning: {summary.failure}")
    if summary.unsupported:
        names = ", ".join(summary.unsupported[:5]) + (", …" if len(summary.unsupported) > 5 else "")
        lines.append(f"  dropped {len(summary.unsupported)} the model proposed that nothing you said backs: {names}")
    if summary.not_proposed:
        most = len(summary.proposed)
        lines.append(f"  {summary.not_proposed} more not proposed (one run proposes at most {most}): run it again")
    lines += [f"  {cid}" for cid in summary.proposed]
    lines += [f"  raised {cid}: said again in another session, priority high" for cid in summary.raised]
    if summary.proposed or summary.raised:
        lines.append("review them with `memory-review`")
    return "\n".join(lines)


def render_import(summary, args) -> str:
    lines = [
        f"{summary.source} ({', '.join(summary.formats)}): {len(summary.files)} file(s) read",
        f"  found {summary.found}, proposed {len(summary.proposed)}, "
        f"skipped {summary.skipped_duplicates} as duplicates, flagged {summary.flagged}",
    ]
    lines += [f"  merged {summary.merged} repeated piece(s) into others"] if summary.merged else []
    lines += [f"  too large to store, left out: {', '.join(summary.too_large)}"] if summary.too_large else []
    lines += [f"  note: {note}" for note in summary.notes]
    lines += [f"  {cid}" for cid in summary.proposed]
    if summary.proposed:
        lines.append("review them with `memory-review`")
    return "\n".join(lines)


def render_consolidate(summary, args) -> str:
    counts = ", ".join(f"{scope} {n}" for scope, n in summary.memories.items())
    lines = [f"approved memories: {counts} (threshold {summary.threshold})"]
    for group, cid in zip(summary.groups, summary.proposed, strict=True):
        lines.append(
            f"  {cid}  {group['scope']}: {', '.join(group['sources'])} -> {group['result']} "
            f"({group['kind']}, overlap {group['similarity']:.0%})"
        )
    lines += [f"  note: {note}" for note in summary.notes]
    lines.append("review them with `memory-review`" if summary.proposed else "nothing to consolidate")
    return "\n".join(lines)


def render_sessions(sessions, args) -> str:
    if not sessions:
        return "no sessions in the logs"
    return "\n".join(
        f"{s.session}  {s.events} events  {s.first_ts} .. {s.last_ts}  "
        + ", ".join(f"{k}×{v}" for k, v in sorted(s.types.items()))
        for s in sessions
    )


def render_replay(result, args) -> str:
    if isinstance(result, dict):
        at = f"after event {args.at}" if args.at else "now"
        lines = [f"{args.scope} store {at}: {len(result)} memories"]
        lines += [f"  [{m.type}] {m.id} — {m.description}" for m in result.values()]
        return "\n".join(lines)
    return "\n\n".join(f"--- event {c.seq} ({c.ts}) sha256 {c.sha256}{_replay_note(c)}\n{c.text}" for c in result)


def _replay_note(context) -> str:
    if getattr(context, "forgotten", None) is not None:
        return f" (changed by forget, event {context.forgotten}: shown as redacted)"
    return "" if context.matches else " (DOES NOT MATCH what was recorded)"


def render_verify(result, args) -> str:
    lines = []
    for r in result.stores:
        status = "ok" if r.ok else f"{len(r.problems)} problem(s)"
        lines.append(
            f"{r.scope} store {r.root}: {status} ({r.events} events, {r.memories} memories, {r.pending} pending)"
        )
        if not getattr(r, "plan", []) and not r.repaired and r.walk_note not in ("", NO_RECORD):
            lines.append(f"  {r.walk} verify: {r.walk_note}")
        lines += [f"  repaired: {p}" for p in r.repaired]
        lines += [f"  would: {p}" for p in getattr(r, "plan", [])]
        if getattr(r, "plan", []):
            lines.append("  (a dry run: nothing was changed; `memory-review verify --repair --apply` does it)")
        lines += [f"  note: {n}" for n in getattr(r, "notes", [])]
        lines += [f"  - {p}" for p in r.problems]
    return "\n".join(lines)


def render_doctor(report, args) -> str:
    lines = [f"memory-review {report.version} · Python {report.python} · store format {report.store_format}"]
    for check in report.checks:
        lines.append(f"{'ok' if check.ok else '!!'}  {check.name}: {check.detail}")
        if check.advice:
            lines.append(f"    {check.advice}")
    lines.append(
        "nothing is off" if report.ok else f"{sum(not c.ok for c in report.checks)} thing(s) to look at (marked !!)"
    )
    return "\n".join(lines)


def render_nothing(result, args) -> str:
    """Commands whose output is the terminal UI itself (``review``)."""
    return ""


@dataclass(frozen=True)
class Demo:
    """``demo``: the throwaway workspace it built (and, unless ``--no-tui``, opened)."""

    workspace: Any

    def document(self) -> DemoDocument:
        ws = self.workspace
        candidates = [state.document() for state in ws.list_candidates()]
        root, user = str(ws.root), str(ws.store_dir("user"))
        return DemoDocument(root=root, user_store=user, reopen=reopen_command(ws), candidates=candidates)


class DemoDocument(BaseModel):
    """``demo --json``: where the workspace is, how to open it again, and its pending candidates."""

    model_config = ConfigDict(defer_build=True)  # built for `demo --json`, not at every command's import

    root: str
    user_store: str
    reopen: str
    candidates: list[CandidateDocument]


def render_demo(demo: Demo, args) -> str:
    workspace = demo.workspace
    if not args.no_tui:  # after the UI: where the throwaway workspace is, and how to open it again
        return f"demo workspace kept at {workspace.root.parent}\nreopen it: {reopen_command(workspace)}"
    states = workspace.list_candidates()
    reopen = f"open it: {reopen_command(workspace)}"
    return (
        f"demo workspace: {workspace.root}\n"
        f"  (user store: {workspace.store_dir('user')})\n\n"
        + render_list(states, args)
        + f"\n\ntry: memory-review --project {workspace.root} show {states[0].candidate.id}\n{reopen}"
        if states
        else f"demo workspace: {workspace.root}\n{reopen}"
    )


def reopen_command(workspace) -> str:
    """The exact command that opens the review UI on ``workspace`` again (its user store included)."""
    import shlex  # noqa: PLC0415 - only the demo needs it

    home, project = shlex.quote(str(workspace.store_dir("user"))), shlex.quote(str(workspace.root))
    return f"MEMORY_REVIEW_HOME={home} memory-review --project {project} review"


def render_hook_errors(entries, args) -> str:
    if not entries:
        return "no hook errors"
    return "\n".join(
        f"{e.ts}  {e.agent:<11} {e.event or '-':<16} {e.session or '-'}  {e.error}: {e.message}" for e in entries
    )


def _gemini_switch_lines(switch: str | None) -> list[str]:
    """Gemini CLI's hooks-system switch: install reads it and never writes it (ADR 0041)."""
    lines = [f"  Gemini CLI's hooks system: {switch or 'not read'}"]
    if not (switch or "").startswith("on"):
        lines.append(
            "  YOU must turn it on, or these hooks never run: /settings → Enable Hooks System (`/hooks panel` "
            'shows it), or in settings.json "hooksConfig": {"enabled": true} ("tools": {"enableHooks": true} '
            "in older versions; newer ones have it on by default). Gemini has no deny rules to add"
        )
    return lines


def render_install(result, args) -> str:
    lines = [f"{result.agent}: {result.action} — {result.settings}"]
    if result.edited:
        lines.append(f"  edited the link's target in place: {result.edited}")
    installing = args.command == "install"
    if installing:
        lines += _install_lines(result, args)
    elif result.action != "not-installed":
        lines.append(
            f"  took out: hooks on {', '.join(result.events) or 'no event'}, "
            f"{result.deny_rules} deny rule(s)" + (", autoMemoryEnabled" if result.auto_memory else "")
        )
    if result.backup:
        lines.append(f"  backup of the file before install: {result.backup}")
    if result.gitignore:
        lines.append(f"  {_gitignore_line(result.gitignore)}")
    return "\n".join(lines)


def _install_lines(result, args) -> list[str]:
    lines = [f"  hooks: {', '.join(result.events)} run `{result.command}`"]
    if result.deny_rules:
        lines.append(
            f"  permissions.deny: {result.deny_rules} rules keep the agent's shell from running a person's "
            "commands (apply, discard, edit, revert, delete, forget, trust, sync, verify --repair)"
        )
    if result.agent == "codex":
        lines.append(
            "  Codex runs hooks once you trust them (it asks), and only with hooks on in config.toml "
            "([features] hooks, on by default in recent versions); Codex has no deny rules to add"
        )
    if result.agent == "gemini":
        lines += _gemini_switch_lines(result.hooks_switch)
    if result.auto_memory == "off":
        lines.append(
            "  autoMemoryEnabled: false — Claude Code's own auto memory is off: it stores notes nobody "
            "reviewed (--keep-auto-memory leaves it on)"
        )
    if result.auto_memory_folder:
        lines.append(
            f"  existing auto memory kept at {result.auto_memory_folder}: review it with "
            f"`memory-review import {result.auto_memory_folder}`"
        )
    if result.extractor and result.extractor != "heuristic":
        lines.append(
            f"  extraction: the Stop hooks ask `{result.extractor}` in the background (your login, no tools); "
            "failures: `memory-review hook errors`"
        )
    elif result.extractor:
        lines.append("  extraction: the offline heuristic")
    if result.store_created:
        lines.append("  created the project store (.memory-review/)")
    if args.settings == "user" and result.action in ("installed", "updated"):
        lines.append("  the hooks act in projects that have a store: run `memory-review init` in each")
    return lines


def render_export(result, args) -> str:
    what = "unchanged" if not result.changed else ("created" if result.created else "updated")
    line = f"{result.path}: {what} ({result.memories} approved {result.scope} memories, format {result.format})"
    if result.imports:
        line += f"\n  it imports {result.imports} (@{result.imports}): Claude Code reads only CLAUDE.md once it exists"
    return line


FORGET_LIMITS = """forget cannot reach copies outside this machine's stores: a remote you synced to (until the
command above takes your publication down), clones and fetches of teammates (each must run forget too),
backups, and the agent's own transcripts. Rotate the secret: treat it as known."""


def render_forget(result, args) -> str:
    lines = []
    for store in result.stores:
        found = ", ".join(f"{place} {count}" for place, count in store.found.items()) or "nothing"
        lines.append(f"{store.scope} store {store.root}: found {found}")
        lines += _forget_steps(store) if not result.dry_run and store.found else []
    if result.dry_run:
        lines.append("dry run: nothing changed; run again with --yes to rewrite")
    else:
        lines.append(FORGET_LIMITS)
    return "\n".join(lines)


def _forget_steps(store) -> list[str]:
    first = f" (first seq {store.events[0]}; every later line re-chained)" if store.events else ""
    lines = [f"  rewrote the text of {len(store.events)} event(s){first}; recorded as event {store.event}"]
    if store.contexts:
        lines.append(
            f"  {len(store.contexts)} recorded context(s) showed it: `replay --session` reports them "
            "as changed by this forget"
        )
    if store.git is not None:
        git = store.git
        lines.append(
            f"  git: {git.commits} commit(s) written again on {', '.join(git.rewritten) or 'no ref'}"
            + (f", deleted {', '.join(git.deleted)}" if git.deleted else "")
            + f"; reflogs expired and unreachable objects pruned in {git.repository}"
        )
    lines += [f"  to take down what you published: {hint}" for hint in store.push_hint]
    still = ", ".join(f"{place} {count}" for place, count in store.remaining.items())
    lines.append(f"  STILL THERE: {still}" if still else "  nothing in this store holds it any more")
    return lines


def render_trust(result, args) -> str:
    """``trust list``: the foreign memories; a decision: the events that record it."""
    if args.remote or args.all or args.moved_from or args.action in ("apply", "discard"):
        return render_events(result, args) if result else "nothing to decide"
    if not result:
        return "nothing waiting: every memory here was approved on this machine"
    rows = [_foreign_row(f) for f in result]
    count = f"{len(result)} memor{'y' if len(result) == 1 else 'ies'}"
    return "\n".join(rows) + (
        f"\n{count} not approved on this machine, so not injected: "
        "`memory-review trust apply ID` trusts one, `discard` refuses it"
    )


def _foreign_row(f) -> str:
    flags = f"  ! {', '.join(f.flags)}" if f.flags else ""
    return f"{f.scope:<7} {f.memory.type:<11} {f.id}  — {f.memory.description}  [{f.source}]{flags}"


def render_trust_versions(result, args) -> str:
    """``trust``: what a person decides on, shown as it is injected (session 39's review F8). ``trust list``: each
    waiting memory under its ``ID@VERSION``, with its note; ``trust apply``: its events, then each note it trusted.
    Anything else as :func:`render_trust`."""
    from memory_review.injection.render import render_frame
    from memory_review.trust_review import Trusted, pinned

    def note(memory: Memory) -> list[str]:
        return [f"    {line}" for line in render_frame(memory).rstrip("\n").split("\n")]

    if isinstance(result, Trusted):
        lines = [render_trust(result.events, args)]
        for memory, sha in result.versions:
            lines += [f"trusted {memory.scope} {pinned(memory.id, sha)}, injected as:", *note(memory)]
        return "\n".join(lines)
    if args.remote or args.all or args.moved_from or args.action in ("apply", "discard") or not result:
        return render_trust(result, args)
    lines = []
    for f in result:
        flags = f"  ! {', '.join(f.flags)}" if f.flags else ""
        lines += [f"{f.scope:<7} {f.memory.type:<11} {f.pinned}  [{f.source}]{flags}", *note(f.memory)]
    count = f"{len(result)} memor{'y' if len(result) == 1 else 'ies'}"
    return "\n".join(lines) + (
        f"\n{count} not approved on this machine, so not injected: `memory-review trust apply ID@VERSION` trusts "
        "the version shown (a bare ID: whatever version is current then), `discard ID` refuses it"
    )
