"""Near-duplicates at propose time: ``similar-to:<memory id>`` (issue 18; docs/adr/0034-near-duplicates.md).

A proposal that says (nearly) what an approved memory, or a pending candidate, of the same store
already says is flagged ``similar-to:<id>`` — the id of that memory, or of the memory the pending
candidate proposes — so the reviewer sees both side by side before accepting it twice. The
measure is consolidation's (:func:`memory_review.consolidate.similarity`, at the extraction
planner's :data:`~memory_review.extract.plan.NEAR_DUPLICATE`), any type.

It runs on the propose path, under the store lock, never on the per-prompt path. To keep it
cheap, approved memories are indexed by the description the manifest already lists (no file
read); only the few that share most of their words are read and compared whole.
Pending candidates are read from their files (the queue), at most :data:`MAX_PENDING_SCANNED`
of them: past that, a huge queue is not read again on every proposal, and only approved
memories and the proposal's own batch are compared.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from memory_review.candidate import FLAG_SIMILAR, Candidate, CandidateChange
from memory_review.consolidate import Comparable, memory_bag, similarity
from memory_review.events.safe_fs import list_dir
from memory_review.extract.plan import NEAR_DUPLICATE
from memory_review.file_reads import storage_errors
from memory_review.proposal import ConsolidateProposal, DeleteProposal, ProposedMemory, UpsertProposal
from memory_review.store import Store
from memory_review.store_view import StoreView

MAX_PENDING_SCANNED = 1_000
PREFILTER = 0.5
"""Share of the shorter text's words two texts must share before they are compared in full."""
MAX_WORK = 200_000
"""Index entries one ``propose`` call may visit (a fraction of a second); past it, the rest of
its proposals are not compared (a bulk import of near-identical texts)."""
RARE_WORDS = 3
MAX_COMPARED = 5
WORD = re.compile(r"\w{3,}")


def similar_flag(memory_id: str) -> str:
    return f"{FLAG_SIMILAR}{memory_id}"


def similar_ids(flags: Iterable[str]) -> list[str]:
    """The memory ids a candidate's ``similar-to:`` flags name."""
    return [f.removeprefix(FLAG_SIMILAR) for f in flags if f.startswith(FLAG_SIMILAR)]


class NearDuplicates:
    """What a store already says, for flagging the proposals of one ``propose`` call (and each other).

    Each text is cut once into its words (a plain regex, :func:`_words`) in an inverted index. A
    proposal looks up only its :data:`RARE_WORDS` rarest words, keeps the texts that share at least
    half of the shorter one's words, and compares at most :data:`MAX_COMPARED` of those in full;
    :data:`MAX_WORK` bounds what one call spends however alike a bulk import is.
    """

    def __init__(self, store: Store, view: StoreView, *, skip: str | None = None) -> None:
        """``skip``: a pending candidate left out of the comparison (the one being edited: not its own twin)."""
        self.view = view
        self.work = 0
        # (id, record or None: read on a hit, words, an approved memory)
        self._texts: list[tuple[str, Comparable | None, frozenset[str], bool]] = []
        self._postings: dict[str, list[int]] = {}
        self._bags: dict[int, tuple[Comparable, frozenset[str]]] = {}
        for record in _pending_records(store, skip):
            self._index(record.id, record, _words(record))
        for memory_id in view.ids():  # approved: by the headline the manifest lists, read on a hit
            entry = view.listed_entry(memory_id)
            if entry is not None and entry.description:
                self._index(memory_id, None, _words_of(entry.description), approved=True)
                continue
            memory = view.memory(memory_id)  # past the checkpoint: the fold of the log's tail has it
            if memory is not None:
                self._index(memory_id, memory, _words(memory), approved=True)

    def flags(self, proposal: UpsertProposal | DeleteProposal | ConsolidateProposal) -> frozenset[str]:
        """``similar-to:<id>`` for the closest thing each proposed record nearly repeats (none: empty)."""
        proposed = _records(proposal)
        own = {record.id for record in proposed} | _touched(proposal)  # an approved memory it rewrites is no twin
        return self._flags_of(proposed, own)

    def edit_flags(self, changes: Sequence[CandidateChange]) -> frozenset[str]:
        """``similar-to:<id>`` for the records of an edited candidate, as :meth:`flags` for its proposal."""
        return self._flags_of([c.after for c in changes if c.after is not None], {c.memory for c in changes})

    def _flags_of(self, proposed: Sequence[Comparable], own: set[str]) -> frozenset[str]:
        found = {self._closest(record, own) for record in proposed}
        return frozenset(similar_flag(memory_id) for memory_id in found if memory_id)

    def add(self, candidate: Candidate) -> None:
        """A candidate this call just proposed: later proposals of the batch are compared with it too."""
        for change in candidate.changes:
            if change.after is not None:
                self._index(change.after.id, change.after, _words(change.after))

    def _index(
        self, memory_id: str, record: Comparable | None, words: frozenset[str], *, approved: bool = False
    ) -> None:
        number = len(self._texts)
        self._texts.append((memory_id, record, words, approved))
        for word in words:
            self._postings.setdefault(word, []).append(number)

    def _closest(self, record: Comparable, own: set[str]) -> str | None:
        best: tuple[float, str] | None = None
        mine = memory_bag(record)
        for other in self._likely(record, own):
            bags = {record.id: mine, other.id: self._bag(other)} if other.id != record.id else None
            score = similarity(record, other, bags)
            if score >= NEAR_DUPLICATE and (best is None or score > best[0]):
                best = (score, other.id)
        return best[1] if best else None

    def _bag(self, other: Comparable) -> frozenset[str]:
        key = id(other)  # each stored text (or memory read on a hit) is cut into words once
        if key not in self._bags:
            self._bags[key] = (other, memory_bag(other))  # the object is kept alive with its bag
        return self._bags[key][1]

    def _likely(self, record: Comparable, own: set[str]) -> list[Comparable]:
        """Up to MAX_COMPARED texts that share at least half of the shorter one's words, most shared first."""
        words = _words(record)
        rare = sorted(words, key=lambda w: len(self._postings.get(w, ())))[:RARE_WORDS]
        seen = {n for w in rare for n in self._postings.get(w, ())}
        self.work += len(seen)
        if self.work > MAX_WORK:
            return []
        scored = []
        for number in seen:
            memory_id, _stored, other_words, approved = self._texts[number]
            shared = len(words & other_words)
            if shared >= PREFILTER * min(len(words), len(other_words)) and not (approved and memory_id in own):
                scored.append((shared, number))
        found = []
        for _shared, number in sorted(scored, reverse=True)[:MAX_COMPARED]:
            memory_id, stored, _, _approved = self._texts[number]
            other = stored if stored is not None else self.view.memory(memory_id)
            if other is not None:
                found.append(other)
        return found


def _words(record: Comparable) -> frozenset[str]:
    return _words_of(f"{record.description}\n{record.body}")


def _words_of(text: str) -> frozenset[str]:
    """Lower-case words of three letters or more: cheap, for finding what to compare (not the measure)."""
    return frozenset(WORD.findall(text.lower()))


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


def _pending_records(store: Store, skip: str | None) -> Iterator[Comparable]:
    with storage_errors(store.candidate_dir):  # a linked folder is refused as every reader refuses it
        count = sum(1 for name in list_dir(store.candidate_dir) if name.endswith(".json"))
    if count > MAX_PENDING_SCANNED:
        return
    for candidate in store.pending():
        if candidate.id != skip:
            yield from (change.after for change in candidate.changes if change.after is not None)
