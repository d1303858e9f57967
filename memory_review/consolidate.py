"""Consolidation proposals: merge approved memories that say (nearly) the same thing, reviewed.

Per durable store, deterministically (memories taken oldest first, ties by id):

* **near-duplicates** — memories of one type whose words overlap by at least
  :data:`NEAR_DUPLICATE` (the extraction planner's cut; see :func:`similarity`) — are
  always grouped;
* when a store holds ``threshold`` approved memories or more (default
  :data:`DEFAULT_THRESHOLD`), **related** ones (overlap of at least :data:`RELATED`) are
  grouped too, to keep the injected block small.

A group is the oldest ungrouped memory (the *anchor*) and every other ungrouped memory
of its type that is that close *to the anchor* (no chaining, so a memory is never
pulled in by a friend of a friend), at most :data:`MAX_GROUP` of them. Each group
becomes one ``consolidate`` proposal: the merged result keeps the anchor's id and
description, its body is every member's lines with the ones another line already says
dropped, and the other members are deleted. Memories in no group are never touched.
A group a pending or discarded consolidation already named is not proposed again, and
one whose merge would not fit a memory file loses its newest members until it does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from memory_review.errors import ValidationError
from memory_review.extract.finding import rule_bag
from memory_review.extract.plan import NEAR_DUPLICATE
from memory_review.extract.textutil import normalize, overlap, tokens
from memory_review.models import DurableScope, Memory, utc_now
from memory_review.proposal import ConsolidateProposal, Evidence, ProposedMemory, Proposer
from memory_review.record_io import render_memory
from memory_review.rules import proposed_record

if TYPE_CHECKING:
    from memory_review.store import Store
    from memory_review.workspace import Workspace

DEFAULT_THRESHOLD = 10
RELATED = 0.4
MAX_GROUP = 5
MIN_CONTAINED = 3
CONTAINED = 0.9
MAX_EVIDENCE = 5
MAX_BODY_CHARS = 4096  # a proposed body's limit; the file's byte limit is checked after
PROPOSER = Proposer(kind="heuristic", name="memory-review-consolidate")
_PLACEHOLDER_CANDIDATE = "cand_" + "0" * 26
_ACTOR_ROOM = "x" * 64  # room for the applying person's name, stamped at apply time


@dataclass(frozen=True)
class Group:
    """Memories of one store and type that say nearly the same (``near-duplicate``) or related."""

    scope: DurableScope
    members: tuple[Memory, ...]
    kind: str
    similarity: float

    @property
    def ids(self) -> frozenset[str]:
        """The ids of the members."""
        return frozenset(m.id for m in self.members)


@dataclass
class ConsolidationPlan:
    """The proposals for one store, their groups, and why other groups were left out."""

    proposals: list[ConsolidateProposal] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class ConsolidationSummary:
    """What ``consolidate`` did: memories per store, groups proposed, candidates, notes. Its fields, in
    order, are the ``consolidate --json`` document (``cli_render.to_json``)."""

    threshold: int
    memories: dict[str, int] = field(default_factory=dict)
    groups: list[dict[str, Any]] = field(default_factory=list)
    proposed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- the store side


def propose_consolidation(
    ws: Workspace, *, scope: DurableScope | None = None, threshold: int = DEFAULT_THRESHOLD
) -> ConsolidationSummary:
    """Propose a ``consolidate`` candidate for every group in the stores (one batch)."""
    check_threshold(threshold)
    summary = ConsolidationSummary(threshold=threshold)
    proposals: list[ConsolidateProposal] = []
    scopes: list[DurableScope] = [scope] if scope else ["project", "user"]
    for store in [ws.store(s) for s in scopes]:
        memories = store.view().memories()
        durable: DurableScope = "user" if store.scope == "user" else "project"
        planned = plan_consolidation(memories, scope=durable, threshold=threshold, known=_named_before(store))
        summary.memories[store.scope] = len(memories)
        summary.groups += [_group_json(g, p) for g, p in zip(planned.groups, planned.proposals, strict=True)]
        summary.notes += planned.notes
        proposals += planned.proposals
    if proposals:
        summary.proposed = [state.candidate.id for state in ws.propose(proposals)]
    return summary


def check_threshold(threshold: int) -> int:
    """``threshold`` if it is a usable pile-up size (2 or more)."""
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 2:
        raise ValidationError(f"threshold must be a whole number of at least 2, not {threshold!r}", field="threshold")
    return threshold


def _named_before(store: Store) -> frozenset[frozenset[str]]:
    """Member sets of the consolidations pending or discarded in ``store``: not to propose again."""
    from memory_review.discarded import discarded_candidates

    candidates = [*store.pending(), *discarded_candidates(store)]
    return frozenset(frozenset(c.memory_ids()) for c in candidates if c.op == "consolidate")


def _group_json(group: Group, proposal: ConsolidateProposal) -> dict[str, Any]:
    return {
        "scope": group.scope,
        "kind": group.kind,
        "similarity": round(group.similarity, 3),
        "sources": list(proposal.sources),
        "result": proposal.results[0].id,
    }


# --------------------------------------------------------------------------- pure planning


def plan_consolidation(
    memories: Sequence[Memory],
    *,
    scope: DurableScope,
    threshold: int = DEFAULT_THRESHOLD,
    known: frozenset[frozenset[str]] = frozenset(),
    now: str | None = None,
) -> ConsolidationPlan:
    """The consolidations one store's approved ``memories`` call for (pure; see the module)."""
    check_threshold(threshold)
    cut = RELATED if len(memories) >= threshold else NEAR_DUPLICATE
    planned = ConsolidationPlan()
    for group in find_groups(memories, scope=scope, cut=cut):
        if group.ids in known:
            planned.notes.append(f"{scope}: {', '.join(sorted(group.ids))} already proposed or discarded")
            continue
        proposal, group, problem = _fitting_proposal(group, len(memories), threshold, now or utc_now())
        if proposal is None:
            planned.notes.append(f"{scope}: {', '.join(m.id for m in group.members)} {problem}")
            continue
        planned.proposals.append(proposal)
        planned.groups.append(group)
    return planned


def find_groups(memories: Sequence[Memory], *, scope: DurableScope, cut: float) -> list[Group]:
    """Groups around each anchor (oldest first) of same-type memories ``cut`` similar to it."""
    ordered = sorted(memories, key=lambda m: (m.created_at, m.id))
    bags = {m.id: memory_bag(m) for m in ordered}
    grouped: set[str] = set()
    groups: list[Group] = []
    for anchor in ordered:
        if anchor.id in grouped:
            continue
        close = [
            (similarity(anchor, m, bags), m)
            for m in ordered
            if m.id != anchor.id and m.id not in grouped and m.type == anchor.type
        ]
        members = [m for score, m in close if score >= cut][: MAX_GROUP - 1]
        if members:
            score = min(s for s, m in close if m in members)
            kind = "near-duplicate" if score >= NEAR_DUPLICATE else "related"
            groups.append(Group(scope, (anchor, *members), kind, score))
            grouped.update({anchor.id, *(m.id for m in members)})
    return groups


class Comparable(Protocol):
    """What :func:`similarity` reads of a memory (an approved one, or the record a candidate proposes)."""

    @property
    def id(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def body(self) -> str: ...


def similarity(left: Comparable, right: Comparable, bags: dict[str, frozenset[str]] | None = None) -> float:
    """How much two memories say the same: 1.0 for equal texts, else word overlap.

    The overlap is Jaccard, or containment when the smaller memory's words (at least
    :data:`MIN_CONTAINED` of them) are nearly all (:data:`CONTAINED`) in the other:
    "never mock the database in tests" is redundant next to a memory that says that *and*
    which fixture to use, although the longer one's extra words keep their Jaccard low.
    """
    if normalize(_text(left)) == normalize(_text(right)):
        return 1.0
    first = bags[left.id] if bags else memory_bag(left)
    second = bags[right.id] if bags else memory_bag(right)
    smaller = min(len(first), len(second))
    contained = len(first & second) / smaller if smaller >= MIN_CONTAINED else 0.0
    return max(overlap(first, second), contained if contained >= CONTAINED else 0.0)


def _text(memory: Comparable) -> str:
    return memory.body or memory.description


def memory_bag(memory: Comparable) -> frozenset[str]:
    """The words :func:`similarity` compares (kept by callers that compare one memory many times)."""
    return rule_bag(f"{memory.description}\n{memory.body}")  # as the extraction planner compares


# --------------------------------------------------------------------------- merging


def _fitting_proposal(
    group: Group, count: int, threshold: int, now: str
) -> tuple[ConsolidateProposal | None, Group, str]:
    """The merge of the largest prefix of ``group`` that fits one file, or why there is none."""
    members = list(group.members)
    while len(members) >= 2:
        trial = Group(group.scope, tuple(members), group.kind, group.similarity)
        if len(merge_bodies([_text(m) for m in members])) <= MAX_BODY_CHARS:
            proposal = merge_proposal(trial, count=count, threshold=threshold)
            if proposal is None:
                return (
                    None,
                    trial,
                    "say exactly the same under different ids; delete the extra ones",
                )
            if _fits(trial, proposal, now):
                return proposal, trial, ""
        members.pop()  # the newest member waits for a later round
    return None, group, "are too long to merge into one memory file"


def merge_proposal(group: Group, *, count: int, threshold: int) -> ConsolidateProposal | None:
    """The proposal merging ``group``; ``None`` when every member already says the merge."""
    anchor = group.members[0]
    body = merge_bodies([_text(m) for m in group.members])
    target = next(
        (m for m in group.members if (m.type, m.description, m.body) != (anchor.type, anchor.description, body)),
        None,
    )
    if target is None:
        return None
    result = ProposedMemory(id=target.id, type=anchor.type, description=anchor.description, body=body)
    return ConsolidateProposal(
        op="consolidate",
        scope=group.scope,
        sources=tuple(m.id for m in group.members),
        results=(result,),
        rationale=_rationale(group, target.id, count, threshold),
        evidence=_evidence(group.members),
        proposer=PROPOSER,
        priority="low",
    )


def merge_bodies(texts: Sequence[str]) -> str:
    """Every text's lines in order, less the lines whose words another kept line already says."""
    lines = [(i, line, _line_bag(line)) for i, text in enumerate(texts) for line in text.split("\n")]
    kept: list[list[str]] = [[] for _ in texts]
    for position, (i, line, bag) in enumerate(lines):
        if not bag or not _said_elsewhere(position, bag, lines):
            kept[i].append(line)
    blocks = ["\n".join(block).strip("\n") for block in kept if any(_line_bag(line) for line in block)]
    return "\n\n".join(blocks)


def _line_bag(line: str) -> frozenset[str]:
    return tokens(line)


def _said_elsewhere(position: int, bag: frozenset[str], lines: list[tuple[int, str, frozenset[str]]]) -> bool:
    for other, (_, _, other_bag) in enumerate(lines):
        if other == position or not other_bag:
            continue
        if bag < other_bag or (bag == other_bag and other < position):
            return True
    return False


def _evidence(members: Sequence[Memory]) -> tuple[Evidence, ...]:
    found: list[Evidence] = []
    for memory in members:
        source = memory.sources[0] if memory.sources else None
        item = (
            Evidence(quote=source.evidence, session_id=source.session_id, turn_id=source.turn_id)
            if source
            else Evidence(quote=f"{memory.id}: {memory.description}")
        )
        if item not in found:
            found.append(item)
    return tuple(found[:MAX_EVIDENCE])


def _rationale(group: Group, result_id: str, count: int, threshold: int) -> str:
    ids = [m.id for m in group.members]
    deleted = [i for i in ids if i != result_id]
    why = "say nearly the same thing" if group.kind == "near-duplicate" else "are about the same thing"
    pile = (
        f"The {group.scope} store holds {count} approved memories (threshold {threshold}). "
        if group.kind == "related"
        else ""
    )
    return (
        f"{pile}{len(ids)} {group.members[0].type} memories {why} (word overlap with the oldest at "
        f"least {group.similarity:.0%}): {', '.join(ids)}. Merge them into {result_id} and delete "
        f"{', '.join(deleted)}; no other memory is touched."
    )[:2000]


def _fits(group: Group, proposal: ConsolidateProposal, now: str) -> bool:
    result = proposal.results[0]
    before = next(m for m in group.members if m.id == result.id)
    try:
        record = proposed_record(before, result, proposal, group.scope, _PLACEHOLDER_CANDIDATE, now)
        render_memory(record.model_copy(update={"applied_by": _ACTOR_ROOM}))
    except ValidationError:
        return False
    return True
