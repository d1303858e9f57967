"""Near-duplicates at propose time: ``similar-to:<memory id>`` (issue 18; docs/adr/0034-review-near-duplicates.md).

A proposal that says (nearly) what an approved memory, or a pending candidate, of the same store
already says is flagged ``similar-to:<id>`` — the id of that memory, or of the memory the pending
candidate proposes — so the reviewer sees both side by side before accepting it twice. The
measure is consolidation's (:func:`memory_review.consolidate.similarity`, at the extraction
planner's :data:`~memory_review.extract.plan.NEAR_DUPLICATE`), any type.

It runs on the propose path, under the store lock, never on the per-prompt path. To keep it
cheap, approved memories are first compared by the description the manifest already lists
(no file read); only the few that share most of their words are read and compared whole.
Pending candidates are read from their files (the queue), at most :data:`MAX_PENDING_SCANNED`
of them: past that, a huge queue is not read again on every proposal, and only approved
memories and the proposal's own batch are compared.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from events.safe_fs import list_dir

from memory_review.candidate import Candidate
from memory_review.consolidate import similarity
from memory_review.extract.plan import NEAR_DUPLICATE
from memory_review.file_reads import storage_errors
from memory_review.extract.textutil import tokens
from memory_review.proposal import ConsolidateProposal, DeleteProposal, ProposedMemory, UpsertProposal
from memory_review.store import Store
from memory_review.store_view import StoreView

FLAG_SIMILAR = "similar-to:"
MAX_PENDING_SCANNED = 1_000
PREFILTER = 0.5
"""Share of a listed description's words the proposal must hold before the memory file is read."""


class Comparable(Protocol):
    id: str
    description: str
    body: str


def similar_flag(memory_id: str) -> str:
    return f"{FLAG_SIMILAR}{memory_id}"


def similar_ids(flags: Iterable[str]) -> list[str]:
    """The memory ids a candidate's ``similar-to:`` flags name."""
    return [f.removeprefix(FLAG_SIMILAR) for f in flags if f.startswith(FLAG_SIMILAR)]


class NearDuplicates:
    """What a store already says, for flagging the proposals of one ``propose`` call (and each other)."""

    def __init__(self, store: Store, view: StoreView) -> None:
        self.view = view
        self._pending: list[Comparable] = list(_pending_records(store))

    def flags(self, proposal: UpsertProposal | DeleteProposal | ConsolidateProposal) -> frozenset[str]:
        """``similar-to:<id>`` for the closest thing each proposed record nearly repeats (none: empty)."""
        proposed = _records(proposal)
        own = {record.id for record in proposed} | _touched(proposal)  # an approved memory it rewrites is no twin
        found = {self._closest(record, own) for record in proposed}
        return frozenset(similar_flag(memory_id) for memory_id in found if memory_id)

    def add(self, candidate: Candidate) -> None:
        """A candidate this call just proposed: later proposals of the batch are compared with it too."""
        self._pending += [change.after for change in candidate.changes if change.after is not None]

    def _closest(self, record: Comparable, own: set[str]) -> str | None:
        best: tuple[float, str] | None = None
        for other in self._others(record, own):
            score = similarity(record, other)
            if score >= NEAR_DUPLICATE and (best is None or score > best[0]):
                best = (score, other.id)
        return best[1] if best else None

    def _others(self, record: Comparable, own: set[str]) -> Iterator[Comparable]:
        yield from self._pending  # a pending proposal for the same id is a rival: flagged too
        words = tokens(f"{record.description}\n{record.body}")
        for memory_id in self.view.ids():
            if memory_id in own:
                continue
            entry = self.view.listed_entry(memory_id)
            listed = tokens(entry.description) if entry and entry.description else None
            if listed is not None and len(listed & words) < PREFILTER * len(listed):
                continue  # its headline barely overlaps: not read
            memory = self.view.memory(memory_id)
            if memory is not None:
                yield memory


def _records(proposal) -> list[ProposedMemory]:
    if isinstance(proposal, UpsertProposal):
        return [proposal.memory]
    if isinstance(proposal, ConsolidateProposal):
        return list(proposal.results)
    return []  # a deletion repeats nothing


def _touched(proposal) -> set[str]:
    """Memories the proposal itself changes: never "similar" to what it replaces or merges."""
    if isinstance(proposal, ConsolidateProposal):
        return set(proposal.sources)
    return set()


def _pending_records(store: Store) -> Iterator[Comparable]:
    with storage_errors(store.candidate_dir):  # a linked folder is refused as every reader refuses it
        count = sum(1 for name in list_dir(store.candidate_dir) if name.endswith(".json"))
    if count > MAX_PENDING_SCANNED:
        return
    for candidate in store.pending():
        yield from (change.after for change in candidate.changes if change.after is not None)
