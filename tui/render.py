"""The detail panes' contents: a candidate, a memory, an event, a session step.

Each function turns library values into one rich renderable; hidden Unicode is
always made visible (``safety.visible_form``) because a reviewer must see
exactly what an agent would be given.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from memory_review.candidate import Candidate, tier_flag_ids
from memory_review.events import Event
from memory_review.history import raise_of
from memory_review.injection.render import render_frame, sanitize
from memory_review.models import Memory
from memory_review.safety import look_alike_form, look_alike_positions, visible_form
from memory_review.tui.format import (
    EVENT_STYLE,
    FLAG_WORDS,
    OP_STYLE,
    Display,
    diff_text,
    event_diff,
    flag_kind,
    frame_text,
    memory_tag,
    proposer_text,
    safe,
)
from memory_review.workspace import CandidateState


def heading(text: str) -> Text:
    """A section title inside a detail pane."""
    return Text(f"\n{text}", style="bold underline")


def _pairs(pairs: Iterable[tuple[str, str]]) -> Text:
    out = Text()
    for label, value in pairs:
        out.append(f"{label}: ", style="dim")
        out.append(f"{value}\n")
    out.rstrip()
    return out


def candidate_detail(state: CandidateState, display: Display, similar: Sequence[Memory] = ()) -> RenderableType:
    """Everything a reviewer needs: what, why, on what evidence, from whom, and every warning;
    ``similar``: what its flags name, shown beside the proposal: the near-duplicates of its own store
    (``similar-to:``) and the memories of the other store with its ids (``overrides:`` and the like)."""
    c = state.candidate
    parts: list[RenderableType] = [_candidate_title(c, display), warnings(state.flags)]
    if c.op == "update":  # what changes first: the words, without the file's bookkeeping lines
        parts += [heading("What changes"), diff_text(content_diff(c), display)]
    parts += [heading("Would remember" if c.op != "delete" else "Would forget"), proposed_text(c)]
    near = [m for m in similar if m.scope == c.scope]
    if near:
        parts += [heading("Already there, nearly the same"), similar_table(c, near)]
    parts += _other_store_parts(c, state.flags, [m for m in similar if m.scope != c.scope])
    parts += [heading("Why"), Text(safe(c.rationale))]
    parts += [heading("Evidence"), evidence_text(c)]
    parts += [heading("Diff (memory files)"), diff_text(c.diff, display)]
    return Group(*parts)


def _candidate_title(c: Candidate, display: Display) -> Text:
    out = Text()
    out.append(f"{c.op} ", style=f"bold {OP_STYLE.get(c.op, '')}")
    out.append(", ".join(c.memory_ids()), style="bold")
    out.append(f" in the {c.scope} store · priority {c.priority}\n")
    out.append(
        f"{display.cid(c.id)} · by {proposer_text(c)} · {display.when(c.created_at)} · session {c.session_id or '-'}",
        style="dim",
    )
    return out


def content_diff(c: Candidate) -> str:
    """The type, description and body each change rewrites, as a unified diff (no frontmatter stamps)."""
    out: list[str] = []
    for change in c.changes:
        if change.before is None or change.after is None:
            continue
        before, after = _content_lines(change.before), _content_lines(change.after)
        out += difflib.unified_diff(before, after, change.memory, change.memory, n=2, lineterm="")
    return "\n".join(out)


def _content_lines(memory: Memory) -> list[str]:
    return [f"type: {memory.type}", f"description: {memory.description}", "", *memory.body.splitlines()]


def similar_table(c: Candidate, similar: Sequence[Memory]) -> Table:
    """The proposal and each near-duplicate side by side: description, then body."""
    proposed = next((ch.after for ch in c.changes if ch.after is not None), None)
    table = Table(box=box.SIMPLE, expand=True, show_edge=False, pad_edge=False)
    table.add_column(f"proposed: {proposed.id if proposed else '-'}", ratio=1)
    for memory in similar:
        table.add_column(f"{memory.id} ({memory.scope} {memory.type})", ratio=1)
    row = [_said(proposed) if proposed else Text("-")] + [_said(m) for m in similar]
    table.add_row(*row)
    return table


TIER_HEADINGS = {
    "overrides": "No longer injected once applied: the user memory it overrides (same id)",
    "overridden-by": "Never injected while this is there: the project memory that overrides it (same id)",
    "uncovers": "Injected again once applied: the user memory it hides now (same id)",
}


def _other_store_parts(c: Candidate, flags: Sequence[str], other: Sequence[Memory]) -> list[RenderableType]:
    """Beside the proposal, each memory of the other store the merge by id makes it hide, or be hidden by."""
    by_id = {m.id: m for m in other}
    parts: list[RenderableType] = []
    for kind, title in TIER_HEADINGS.items():
        named = [by_id[mid] for mid in tier_flag_ids(f for f in flags if flag_kind(f) == kind) if mid in by_id]
        if named:
            parts += [heading(title), similar_table(c, named)]
    return parts


def _said(memory: Memory) -> Text:
    out = Text(safe(memory.description), style="bold")
    if memory.body and memory.body != memory.description:
        out.append(f"\n{safe(memory.body)}", style="")
    return out


def warnings(flags: Sequence[str]) -> Text:
    """Each flag spelled out, in red; "no warnings" when there are none."""
    if not flags:
        return Text("no warnings", style="green")
    out = Text()
    for flag in flags:
        out.append(f"⚠ {flag}: ", style="bold red")
        out.append(f"{FLAG_WORDS.get(flag_kind(flag), 'see the candidate')}\n", style="red")
    out.rstrip()
    return out


def proposed_text(c: Candidate) -> RenderableType:
    """Each note byte for byte as the agent will be given it once applied (a deletion: the note that goes).

    The notes come from the one renderer, ``injection.render.render_frame``, with no
    age (an applied memory is new), separated by a blank line as in the block.
    """
    out = Text()
    for change in c.changes:
        shown = change.after or change.before
        if shown is None:
            continue
        if out.plain:
            out.append("\n")
        out.append_text(frame_text(render_frame(shown), gone=change.after is None))
    out.rstrip()
    return Group(out, *(_as_stored(m) for m in _changed_by_sanitizing(c)))


def _changed_by_sanitizing(c: Candidate) -> list[Memory]:
    """The proposed records whose stored text is not what the note seems to say: invisibles, blank padding and
    forged tags the note leaves out or escapes, letters that imitate Latin ones (``руpi.org``)."""
    shown = [change.after for change in c.changes if change.after is not None]
    return [m for m in shown if any(_not_as_read(text) for text in (m.description, m.body))]


def _not_as_read(text: str) -> bool:
    return sanitize(text) != text.strip() or bool(look_alike_positions(text))


def _as_stored(memory: Memory) -> Text:
    out = Text(
        f"\n{memory.id} as stored (the note above leaves out or escapes part of it, "
        "or has letters of another script that look Latin):\n"
    )
    out.stylize("yellow")
    out.append(f"{_marked(memory.description)}\n{_marked(memory.body)}")
    out.rstrip()
    return out


def _marked(text: str) -> str:
    """Hidden characters as ``<U+200B>``, and each look-alike letter followed by its code point (``р<U+0440>``)."""
    return look_alike_form(safe(text))


def evidence_text(c: Candidate) -> Text:
    """Each quote with the session and turn it came from."""
    if not c.evidence:
        return Text("(no evidence given)", style="yellow")
    out = Text()
    for item in c.evidence:
        out.append(f"“{safe(item.quote)}”\n")
        out.append(f"   session {item.session_id or '?'}, turn {item.turn_id or '?'}\n", style="dim")
    return out


def memory_detail(
    memory: Memory,
    display: Display,
    overrides: Memory | None,
    overridden_by: Memory | None,
    *,
    left_out: str | None = None,
) -> RenderableType:
    """A memory as injection sees it: its note (the injected bytes), provenance and which tier wins."""
    title = Text()
    title.append(memory_tag(memory), style="bold cyan")
    title.append(f" {memory.id}", style="bold")
    parts: list[RenderableType] = [title, _tier_note(memory, overrides, overridden_by, left_out)]
    note = frame_text(render_frame(memory, display.now()))
    note.rstrip()
    parts += [heading("Injected as"), note]
    parts += [heading("Provenance"), _provenance(memory, display)]
    return Group(*parts)


def _tier_note(memory: Memory, overrides: Memory | None, overridden_by: Memory | None, left_out: str | None) -> Text:
    if overridden_by is not None:
        return Text(
            f"not injected: the {overridden_by.scope} memory with this id overrides it",
            style="yellow",
        )
    out = Text()
    if left_out is not None:
        why = LEFT_OUT_WORDS.get(left_out, left_out)
        out.append(f"not in the block `memory-review context` gives now: {why}\n", style="bold yellow")
    if overrides is not None:
        out.append(
            f"overrides the {overrides.scope} memory with this id ({safe(overrides.description)})",
            style="yellow",
        )
    elif left_out is None:
        out.append("injected as is (no other tier has this id)", style="dim")
    out.rstrip()
    return out


LEFT_OUT_WORDS = {
    "budget": "over the budget (the notes before it fill it; it goes in when they shrink or go)",
    "not selected": "the query did not select it",
    "not approved here": "no person on this machine approved it (a cloned, copied or synced store); "
    "trust or refuse it in the review queue",
}


def _provenance(memory: Memory, display: Display) -> Text:
    out = _pairs(
        [
            ("created", display.when(memory.created_at)),
            ("updated", display.when(memory.updated_at)),
            ("applied from", display.cid(memory.applied_from)),
            ("applied by", memory.applied_by or "-"),
        ]
    )
    if memory.sources:
        out.append("\nevidence:\n", style="dim")
    for source in memory.sources:
        out.append(f"“{safe(source.evidence)}”\n")
        out.append(f"   session {source.session_id or '?'}, turn {source.turn_id or '?'}\n", style="dim")
    return out


def event_detail(event: Event, scope: str, display: Display, before: Mapping | None = None) -> RenderableType:
    """One log event: who did what when, and the before → after of every memory it changed.

    ``before``: the record a ``candidate.edited`` replaced, which tells a raise (ADR 0050) from an edit.
    """
    title = Text()
    title.append(event.type, style=f"bold {EVENT_STYLE.get(event.type, '')}")
    title.append(f"  in the {scope} log, event {event.seq}\n")
    raised = raise_of(event, before)
    if raised is not None:
        title.append(f"{raised.describe()}: no person changed its text\n", style="bold")
    title.append_text(_pairs(_event_fields(event, display)))
    parts: list[RenderableType] = [title]
    if event.record is not None:
        parts += [heading("Why"), Text(safe(str(event.record.get("rationale", "-"))))]
        parts += [heading("Proposed change"), diff_text(str(event.record.get("diff", "")), display)]
    if event.changes:
        parts += [heading("Before → after"), diff_text(event_diff(event), display)]
    if event.context is not None:
        parts += [heading("Context recorded"), context_text(event.context)]
    return Group(*parts)


def _event_fields(event: Event, display: Display) -> list[tuple[str, str]]:
    fields = [("when", display.when(event.ts)), ("actor", visible_form(event.actor))]
    optional = [
        ("session", visible_form(event.session) if event.session else None),
        ("candidate", display.cid(event.candidate) if event.candidate else None),
        ("reason", visible_form(event.reason) if event.reason else None),
        ("reverts event", str(event.reverts) if event.reverts else None),
        ("forced", "yes — overwrote a newer change" if event.forced else None),
    ]
    return fields + [(k, v) for k, v in optional if v]


def _query_label(context: dict) -> str:
    """The prompt as the log names it: its sha256 (docs/adr/0018), or the raw text of an older log."""
    if context.get("query_sha256"):
        return f"sha256 {context['query_sha256']} ({context.get('query_chars', '?')} characters; not stored)"
    return str(context.get("query") or "(none: every memory, in priority order)")


def context_text(context: dict) -> Text:
    """A ``context.built`` record: the query, the budget and which memories (by id) went in."""
    out = Text()
    out.append_text(
        _pairs(
            [
                ("query", _query_label(context)),
                (
                    "budget",
                    f"{context.get('budget_bytes', '?')} bytes, {context.get('budget_lines', '?')} lines",
                ),
                ("sha256 of the block", str(context.get("sha256", "?"))),
            ]
        )
    )
    for item in context.get("included") or []:
        if isinstance(item, dict):
            out.append(f"\n[memory:{item.get('scope')}:{item.get('type')}] {item.get('id')}", style="cyan")
    return out


def rebuilt_context(text: str, matches: bool) -> RenderableType:
    """The exact block a session was given, rebuilt from the logs, and whether its hash matches."""
    verdict = (
        Text("rebuilt from the logs; sha256 matches the record ✓", style="green")
        if matches
        else Text("rebuilt from the logs, but its sha256 DIFFERS from the record", style="bold red")
    )
    return Group(heading("Context given to the session"), verdict, Text(safe(text) or "(empty block)"))


def memory_list(title: str, memories: Sequence[Memory]) -> RenderableType:
    """A titled list of memories with their tags."""
    out = Text()
    for memory in memories:
        out.append(memory_tag(memory), style="cyan")
        out.append(f" {memory.id}", style="bold")
        out.append(f" — {safe(memory.description)}\n")
    if not memories:
        out.append("(no memories)\n", style="dim")
    return Group(heading(title), out)
