"""Merging one memory costs work linear in the versions its heads descend from (ADR 0170 decision 4).

A replica declares its version graph as it likes (``sync.merged`` nodes are untrusted input), so
the shapes here are forged ones: heads sharing thousands of versions that do not descend from each
other, and many heads on one long chain. The work is counted as version look-ups of the real
:class:`Graph` (no clock: the machine is shared); the merge must be the one the rules define, which
a reference written the slow, obvious way checks on random graphs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_review.errors import IntegrityError
from memory_review.events import EventDraft, EventLog
from memory_review.sync_merge import MAX_DISCARD_WALK, ROOT, Graph, Head, Knowledge, Node, know, merge_memory
from memory_review.sync_replicas import read_log

MEMORY = "m"


class CountingGraph(Graph):
    """The real graph, counting how often a version is looked up (the unit of a merge's work)."""

    lookups = 0

    def node(self, memory: str, vid: str) -> Node | None:
        self.lookups += 1
        return super().node(memory, vid)


def _known(nodes: dict[str, Node]) -> Knowledge:
    known = Knowledge()
    for vid, node in nodes.items():
        known.add(MEMORY, vid, node)
    return known


def _head(vid: str, origin: str) -> Head:
    return Head(vid, {"type": "fact", "description": vid, "body": vid}, origin)


def test_heads_sharing_thousands_of_unrelated_versions_merge_in_linear_work() -> None:
    n = 1500
    shared = {f"a{i}": Node((ROOT,), "base") for i in range(n)}  # none descends from another
    parents = tuple(shared)
    one = _known({**shared, "h0": Node(parents, "base")})  # unchanged since the base
    two = _known({**shared, "h1": Node(parents, "theirs")})
    graph = CountingGraph([Knowledge(), one, two])
    outcome = merge_memory(MEMORY, graph, Head(ROOT, None, ""), [_head("h0", "o1"), _head("h1", "o2")])
    assert outcome.kind == "adopt" and outcome.node is not None
    assert outcome.node.parents == ("h0", "h1") and outcome.node.key == "theirs"
    assert graph.lookups < 20 * n  # the pairwise walk looked versions up about 2·n² times


def test_many_heads_on_one_long_chain_merge_in_linear_work() -> None:
    length, heads = 400, 80
    chain = {f"c{i}": Node((f"c{i - 1}" if i else ROOT,), f"k{i}") for i in range(length)}
    top = f"c{length - 1}"
    local = _known(chain)
    replicas = [_known({f"h{r}": Node((top,), f"mine-{r}")}) for r in range(heads)]
    graph = CountingGraph([local, *replicas])
    theirs = [_head(f"h{r}", f"o{r}") for r in range(heads)]
    outcome = merge_memory(MEMORY, graph, Head(top, None, ""), theirs)
    assert outcome.kind == "waiting"  # eighty different changes since the chain's top: nobody wins
    assert graph.lookups < 20 * (length + heads)  # each pair of heads walked the chain: ~heads²·length


def test_a_forged_cycle_among_the_heads_waits_instead_of_crashing() -> None:
    local = _known({"A": Node((ROOT,), "ka")})
    forged = _known({"B": Node(("C", "A"), "kb"), "C": Node(("B",), "kc")})
    outcome = merge_memory(MEMORY, Graph([local, forged]), Head("A", None, ""), [_head("B", "o1"), _head("C", "o2")])
    assert outcome.kind == "waiting"


def _discarding_log(tmp_path: Path, length: int, discards: int) -> list:
    """A log adopting the top of a ``length``-version chain, then discarding ``discards`` conflicts on it."""
    ids = [hashlib.sha256(f"v{i}".encode()).hexdigest() for i in range(length)]
    nodes = [{"memory": "m", "id": v, "parents": [ids[i - 1] if i else ROOT], "key": "k"} for i, v in enumerate(ids)]
    conflicts = [
        {"memory": "m", "candidate": f"cand_{i:026d}", "ours": ids[-1], "theirs": f"{i:064x}"} for i in range(discards)
    ]
    sync = {"nodes": nodes, "conflicts": conflicts, "adopt": [{"memory": "m", "id": ids[-1]}]}
    drafts = [EventDraft(type="sync.merged", actor="x", sync=sync)]
    drafts += [EventDraft(type="candidate.discarded", actor="x", candidate=c["candidate"]) for c in conflicts]
    path = tmp_path / "forged.jsonl"
    EventLog(path, origin="00000000000000aa").append(drafts)
    return list(read_log(path.read_bytes().splitlines(keepends=True), where="forged"))


def test_keep_mine_discards_walking_a_long_chain_again_and_again_refuse_the_log(tmp_path: Path) -> None:
    # each discard ("keep mine") walks the whole chain: length x discards versions, past the bound
    log = _discarding_log(tmp_path, 3000, MAX_DISCARD_WALK // 3000 + 50)
    with pytest.raises(IntegrityError, match="forged log"):
        know(log)


def test_a_few_keep_mine_discards_are_versions_both_sides_adopt(tmp_path: Path) -> None:
    known = know(_discarding_log(tmp_path, 50, 3))
    head = known.head("m")
    assert set(known.nodes["m"][head].parents) >= {f"{2:064x}"}  # the last one has seen theirs


# --- the rules, written the slow way, on random graphs ---------------------------------------------


def _lineage(nodes: dict[str, Node], vid: str) -> set[str]:
    seen, stack = {vid}, [vid]
    while stack:
        node = nodes.get(stack.pop())
        for parent in node.parents if node else ():
            if parent not in seen:
                seen.add(parent)
                stack.append(parent)
    return seen


def _reference_tips(nodes: dict[str, Node], ids: Sequence[str]) -> list[str]:
    return [i for i in ids if not any(j != i and i in _lineage(nodes, j) for j in ids)]


def _reference_base(nodes: dict[str, Node], heads: Sequence[str]) -> str | None:
    common = set.intersection(*[_lineage(nodes, h) for h in heads])
    nearest = [c for c in common if not any(c != d and c in _lineage(nodes, d) for d in common)]
    keys = {nodes[c].key if c in nodes else ("absent" if c == ROOT else None) for c in nearest}
    return keys.pop() if len(keys) == 1 else None


@st.composite
def _dags(draw: st.DrawFn) -> tuple[dict[str, Node], list[str]]:
    size = draw(st.integers(1, 12))
    nodes: dict[str, Node] = {}
    for i in range(size):
        earlier = [ROOT, *nodes, "unknown"]  # a parent the graph never declared is allowed too
        parents = draw(st.lists(st.sampled_from(earlier), min_size=1, max_size=3))
        nodes[f"v{i}"] = Node(tuple(parents), draw(st.sampled_from(["k1", "k2", "k3"])))
    heads = draw(st.lists(st.sampled_from([ROOT, *nodes]), min_size=1, max_size=5, unique=True))
    return nodes, sorted(heads)


@settings(max_examples=300, deadline=None)
@given(_dags())
def test_tips_and_base_are_the_rules_own(dag: tuple[dict[str, Node], list[str]]) -> None:
    nodes, heads = dag
    graph = Graph([_known(nodes)])
    tips = graph.tips(MEMORY, heads)
    assert tips == _reference_tips(nodes, heads)
    reference = {**nodes, ROOT: Node((), "absent")}
    assert graph.base_key(MEMORY, tips) == _reference_base(reference, tips)
