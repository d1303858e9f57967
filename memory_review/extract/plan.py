"""Planning: which findings become proposals, and which are duplicates — pure, no store access.

For each finding, in order:

1. findings that say the same thing within one run collapse into one (evidence merged);
2. equal (normalised text) to a pending candidate or an approved memory → skipped;
3. the same id as an approved memory, or a near-duplicate of one (high word overlap)
   → an ``update`` of that memory, so the reviewer sees a diff instead of a twin;
4. a near-duplicate of a pending candidate → skipped (the reviewer already has it);
5. anything else → a ``create``.

Identical to a discarded candidate adds the ``previously-discarded`` flag. Because the
decision only depends on the findings and the three sets, running the same transcript
again with the previous run's proposals pending proposes nothing new.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import Field, field_serializer

from memory_review.extract.finding import FLAG_UNTRUSTED, Finding, Redactions, rule_bag, within_evidence_bytes
from memory_review.extract.heuristic import PROPOSER
from memory_review.extract.textutil import FILE_NAME, BagIndex, normalize, overlap
from memory_review.models import DurableScope, Memory, Strict
from memory_review.proposal import Evidence, Priority, ProposedMemory, Proposer, UpsertProposal
from memory_review.safety import redact_within

FLAG_PREVIOUSLY_DISCARDED = "previously-discarded"
NEAR_DUPLICATE = 0.6
RESTATED_AT_MOST = 4  # times the words of the shorter wording
# One rule about one file said in other words in one run ("Always append prompts to the end of ai-prompts.txt.", "Yes,
# always update ai-prompts.txt with every prompt", held-out 69, ADR 0088): the file named in both, and this share of
# the shorter wording's words in the other
SAME_FILE_SHARE = 0.75
SAME_FILE_GROUPS = 8  # the groups a file's name finds, so that a message of many rules about one file stays linear
_RANK: dict[str, int] = {"low": 0, "medium": 1, "high": 2}


class PlannedProposal(Strict):
    """A proposal ready for the store, with the flags its candidate must carry."""

    proposal: UpsertProposal
    flags: frozenset[str] = frozenset()
    finding: Finding

    @field_serializer("flags")
    def _sorted_flags(self, flags: frozenset[str]) -> list[str]:
        return sorted(flags)  # set order varies between runs; JSON output must not


class SkippedFinding(Strict):
    """A finding left out because the reviewer already has it; says which record it matched."""

    finding: Finding
    reason: str
    matched_id: str


class ExtractionPlan(Strict):
    """The outcome of planning: what to propose, what was a duplicate, and counts for the summary."""

    found: int = Field(ge=0)
    proposals: list[PlannedProposal]
    skipped_duplicates: list[SkippedFinding]
    flagged: int = Field(ge=0)


@dataclass(frozen=True)
class _Known:
    id: str
    description: str
    texts: frozenset[str]
    bag: frozenset[str]
    type: str
    scope: DurableScope | None = None
    files: frozenset[str] = frozenset()


def plan(
    findings: Sequence[Finding],
    *,
    approved: Sequence[Memory],
    pending: Sequence[ProposedMemory | Memory],
    discarded: Sequence[ProposedMemory | Memory],
    proposer: Proposer = PROPOSER,
) -> ExtractionPlan:
    """Decide, for every finding, to propose a create, an update, or nothing."""
    collapsed = collapse(findings)
    mine = [_known_finding(finding) for finding in collapsed]
    durable = _Lookup([_known(m, _durable(m.scope)) for m in approved if _durable(m.scope)], mine)
    waiting = _Lookup([_known(m) for m in pending], mine)
    rejected = frozenset().union(*(_known(m).texts for m in discarded))
    proposals: list[PlannedProposal] = []
    skipped: list[SkippedFinding] = []
    for number, finding in enumerate(collapsed):
        decided = _decide(finding, mine[number], number, durable, waiting, rejected, proposer)
        if isinstance(decided, PlannedProposal):
            proposals.append(decided)
        else:
            skipped.append(decided)
    flagged = sum(1 for planned in proposals if planned.flags)
    return ExtractionPlan(found=len(findings), proposals=proposals, skipped_duplicates=skipped, flagged=flagged)


def collapse(findings: Sequence[Finding]) -> list[Finding]:
    """Merge findings of one run that say the same thing; the first keeps its wording.

    Each finding joins the first group it is near, as comparing it with every group in order would; only the groups
    that share its id, a text or a rare word are compared, since one hostile message of a thousand rules made that
    minutes (ADR 0080). A group's wording, and so what it is compared by, never changes as it merges.

    A finding given again (the heuristic gives one object for a wording said a thousand times in a message) joins
    the group it joined before: every group it was compared with then, and found no nearer, is still there and still
    as far, and the lookups only grow.
    """
    made: dict[int, _Known] = {}  # by the finding object: a wording given again is read once
    for finding in findings:
        if id(finding) not in made:
            made[id(finding)] = _known_finding(finding)
    known = [made[id(finding)] for finding in findings]
    index = BagIndex([k.bag for k in known], NEAR_DUPLICATE, contained=RESTATED_AT_MOST)
    by_id: dict[str, list[int]] = {}
    by_text: dict[str, list[int]] = {}
    by_file: dict[str, list[int]] = {}
    groups: dict[int, Finding] = {}  # by the position of the finding that leads the group
    redactions = Redactions()  # a group's quotes and rationale are redacted again at each merge
    joined: dict[int, int] = {}  # the group each finding object joined or led, by the object
    for position, (finding, me) in enumerate(zip(findings, known, strict=True)):
        if (before := joined.get(id(finding))) is not None:
            groups[before] = _merge(groups[before], finding, redactions)
            continue
        candidates = index.candidates(position) | set(by_id.get(me.id, ()))
        candidates.update(c for text in me.texts for c in by_text.get(text, ()))
        candidates.update(c for name in me.files for c in by_file.get(name, ()))
        leader = next(
            (c for c in sorted(candidates) if _same_trust(groups[c], finding) and _near(known[c], me)),
            None,
        )
        joined[id(finding)] = position if leader is None else leader
        if leader is not None:
            groups[leader] = _merge(groups[leader], finding, redactions)
            continue
        groups[position] = finding
        index.add(position)
        by_id.setdefault(me.id, []).append(position)
        for text in me.texts:
            by_text.setdefault(text, []).append(position)
        for name in me.files:
            if len(named := by_file.setdefault(name, [])) < SAME_FILE_GROUPS:
                named.append(position)
    return list(groups.values())


def _decide(
    finding: Finding,
    me: _Known,
    number: int,
    durable: _Lookup,
    waiting: _Lookup,
    rejected: frozenset[str],
    proposer: Proposer,
) -> PlannedProposal | SkippedFinding:
    flags = finding.flags | ({FLAG_PREVIOUSLY_DISCARDED} if me.texts & rejected else frozenset())
    if twin := waiting.sharing_a_text(me):
        return SkippedFinding(finding=finding, reason="already pending review", matched_id=twin.id)
    if twin := durable.sharing_a_text(me):
        return SkippedFinding(finding=finding, reason="already remembered", matched_id=twin.id)
    if target := durable.closest(number):
        return _planned(finding, flags, proposer, target)
    if twin := waiting.closest(number):
        return SkippedFinding(finding=finding, reason="near-duplicate of a pending candidate", matched_id=twin.id)
    return _planned(finding, flags, proposer, None)


class _Lookup:
    """Known memories, in their order, found by a text, by id, or nearest by word overlap: each finding of a run looks
    only at the ones that share its text, its id or a rare word with it (ADR 0080), as comparing with all would."""

    def __init__(self, known: list[_Known], probes: list[_Known]) -> None:
        self._known = known
        self._probes = probes
        self._by_text: dict[str, int] = {}
        self._by_id: dict[str, int] = {}
        for position, memory in enumerate(known):
            self._by_id.setdefault(memory.id, position)
            for text in memory.texts:
                self._by_text.setdefault(text, position)
        self._index = BagIndex([k.bag for k in known] + [p.bag for p in probes], NEAR_DUPLICATE)
        for position in range(len(known)):
            self._index.add(position)

    def sharing_a_text(self, me: _Known) -> _Known | None:
        """The first known memory whose body or description is one of this finding's."""
        positions = [self._by_text[text] for text in me.texts if text in self._by_text]
        return self._known[min(positions)] if positions else None

    def closest(self, number: int) -> _Known | None:
        """The known memory with the id of the run's finding ``number``, else the one whose words overlap it most (at
        least the cut)."""
        me = self._probes[number]
        if (same_id := self._by_id.get(me.id)) is not None:
            return self._known[same_id]
        candidates = sorted(self._index.candidates(len(self._known) + number))
        scored = [(overlap(me.bag, self._known[c].bag), self._known[c]) for c in candidates]
        best = max(scored, key=lambda pair: pair[0], default=(0.0, None))
        return best[1] if best[0] >= NEAR_DUPLICATE else None


def _planned(finding: Finding, flags: frozenset[str], proposer: Proposer, target: _Known | None) -> PlannedProposal:
    memory, scope, rationale = finding.memory, finding.scope, finding.rationale
    if target is not None:
        memory = memory.model_copy(update={"id": target.id})
        scope = target.scope or scope
        rationale = redact_within(f'{rationale} Updates memory {target.id}, which says: "{target.description}".', 2000)
    proposal = UpsertProposal(
        op="update" if target else "create",
        scope=scope,
        memory=memory,
        rationale=rationale,
        evidence=finding.evidence,
        proposer=proposer,
        priority=finding.priority,
        session_id=finding.evidence[0].session_id,
    )
    return PlannedProposal(proposal=proposal, flags=flags, finding=finding)


def _durable(scope: str) -> DurableScope | None:
    # Session memories live and die with their session: never a dedup target.
    if scope == "user":
        return "user"
    return "project" if scope == "project" else None


def _known(memory: ProposedMemory | Memory, scope: DurableScope | None = None) -> _Known:
    texts = frozenset(t for t in (normalize(memory.body), normalize(memory.description)) if t)
    said = memory.body or memory.description
    bag = rule_bag(said)  # what an update is for
    files = frozenset(name.lower() for name in FILE_NAME.findall(said))
    return _Known(
        id=memory.id, description=memory.description, texts=texts, bag=bag, type=memory.type, scope=scope, files=files
    )


def _known_finding(finding: Finding) -> _Known:
    return _known(finding.memory, finding.scope)


def _near(left: _Known, right: _Known) -> bool:
    if left.id == right.id or left.texts & right.texts:
        return True
    if (left.type == "forbidden") != (right.type == "forbidden"):
        return False  # "always indent with tabs" and "never indent with tabs in Makefiles" in one run: both shown
    return overlap(left.bag, right.bag) >= NEAR_DUPLICATE or _restated(left.bag, right.bag) or _same_file(left, right)


def _restated(left: frozenset[str], right: frozenset[str]) -> bool:
    """One rule said again in the same run, shorter or longer: "Always use rustup" and "Always use rustup to run Rust
    commands" (held-out 50). All the words of the shorter, and at most a few more, are in the longer."""
    short, long = sorted((left, right), key=len)
    return bool(short) and short <= long and len(long) <= RESTATED_AT_MOST * len(short)


def _same_file(left: _Known, right: _Known) -> bool:
    """One rule about one file in other words: "Always append prompts to the end of ai-prompts.txt." and "Yes, always
    update ai-prompts.txt with every prompt" name it both, and most words of the shorter are in the other."""
    if not left.files & right.files:
        return False
    short, long = sorted((left.bag, right.bag), key=len)
    return bool(short) and len(short & long) >= SAME_FILE_SHARE * len(short)


def _same_trust(left: Finding, right: Finding) -> bool:
    # The user's statement must never pick up an "untrusted-source" flag by merging.
    return (FLAG_UNTRUSTED in left.flags) == (FLAG_UNTRUSTED in right.flags)


def _merge(group: Finding, other: Finding, redactions: Redactions | None = None) -> Finding:
    """The group with the other finding's quotes, flags, turns and priority; ``redactions`` is the run's."""
    redactions = redactions or Redactions()
    evidence = _merged_evidence(group.evidence, other.evidence, redactions)
    named = {e.turn_id for e in group.evidence}  # a turn named once, however many of its quotes are merged in
    turns = [turn for turn in dict.fromkeys(e.turn_id for e in other.evidence) if turn and turn not in named]
    rationale = group.rationale + (f" Also said in turn {', '.join(turns)}." if turns else "")
    priority: Priority = max(group.priority, other.priority, key=lambda p: _RANK[p])
    sessions = {e.session_id for e in (*group.evidence, *other.evidence) if e.session_id}
    if len(sessions) >= 2:  # said again in another session: the strongest durable signal
        priority = "high"
        if "sessions" not in group.rationale:
            rationale += f" Said in {len(sessions)} sessions."
    return group.model_copy(
        update={
            "evidence": evidence,
            "flags": group.flags | other.flags,
            "rationale": redactions.redact_within(rationale, 2000),
            "priority": priority,
        }
    )


def _merged_evidence(
    first: tuple[Evidence, ...], second: tuple[Evidence, ...], redactions: Redactions
) -> tuple[Evidence, ...]:
    merged = list(first)
    for item in second:
        if item not in merged:
            merged.append(item)
    # as many quotes as the memory file holds, as a rule said in several sessions keeps (ADR 0073)
    return tuple(merged[: within_evidence_bytes([(e.quote, e.session_id, e.turn_id) for e in merged], redactions)])
