"""The merge rules alone (no git, no disk): fast-forward, agreed merges, conflicts, bystanders; the
outcome never depends on the order replicas are read in, and clones that keep syncing converge."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples

from memory_review.errors import ValidationError
from memory_review.events import GENESIS, Change, Event
from memory_review.sync_merge import (
    ABSENT,
    ROOT,
    Graph,
    Head,
    Knowledge,
    Node,
    content_key,
    know,
    merge_id,
    merge_memory,
    sync_record,
)

M = "memo"


def record(body: str) -> dict:
    return {"id": M, "type": "fact", "scope": "project", "description": "d", "body": body}


def graph(**nodes: tuple[tuple[str, ...], str | None]) -> Graph:
    known = Knowledge()
    for vid, (parents, body) in nodes.items():
        known.add(M, vid, Node(parents, content_key(record(body)) if body is not None else ABSENT))
    return Graph([known])


def head(vid: str, body: str | None, origin: str = "r") -> Head:
    return Head(vid, record(body) if body is not None else None, origin)


def test_content_key_sees_only_what_a_reader_sees() -> None:
    stamped = {**record("x"), "applied_by": "ann", "updated_at": "2026-01-01T00:00:00Z"}
    assert content_key(stamped) == content_key(record("x")) != content_key(record("y"))
    assert content_key(None) == ABSENT


def test_merge_ids_are_deterministic() -> None:
    assert merge_id(M, ["b", "a"]) == merge_id(M, ["a", "b"]) != merge_id("other", ["a", "b"])


def test_a_newer_version_is_a_fast_forward_and_an_older_one_is_kept() -> None:
    g = graph(a=((ROOT,), "one"), b=(("a",), "two"))
    assert merge_memory(M, g, head(ROOT, None, ""), [head("a", "one")]).kind == "adopt"
    out = merge_memory(M, g, head("a", "one", ""), [head("b", "two")])
    assert (out.kind, out.head.id, out.node) == ("adopt", "b", None)
    assert merge_memory(M, g, head("b", "two", ""), [head("a", "one")]).kind == "keep"


def test_concurrent_equal_content_merges_the_same_way_on_both_sides() -> None:
    g = graph(base=((ROOT,), "old"), a=(("base",), "same"), b=(("base",), "same"))
    left = merge_memory(M, g, head("a", "same", ""), [head("b", "same", "ben")])
    right = merge_memory(M, g, head("b", "same", ""), [head("a", "same", "ann")])
    assert left.kind == right.kind == "adopt"
    assert left.head.id == right.head.id == merge_id(M, ["a", "b"])
    assert left.node == right.node == Node(("a", "b"), content_key(record("same")))


def test_when_only_one_side_changed_since_the_base_its_change_wins() -> None:
    # "o" says the same as the base (e.g. a revert), "t" changed it: take t's content, on both sides.
    g = graph(base=((ROOT,), "v0"), o=(("base",), "v0"), t=(("base",), "v1"))
    left = merge_memory(M, g, head("o", "v0", ""), [head("t", "v1", "ben")])
    right = merge_memory(M, g, head("t", "v1", ""), [head("o", "v0", "ann")])
    assert left.head.id == right.head.id and left.head.record["body"] == right.head.record["body"] == "v1"


def test_both_sides_changed_differently_is_a_conflict_on_each_side() -> None:
    g = graph(base=((ROOT,), "v0"), o=(("base",), "mine"), t=(("base",), "theirs"))
    left = merge_memory(M, g, head("o", "mine", ""), [head("t", "theirs", "ben")])
    right = merge_memory(M, g, head("t", "theirs", ""), [head("o", "mine", "ann")])
    assert (left.kind, left.head.id, right.kind, right.head.id) == ("conflict", "t", "conflict", "o")


def test_two_creations_of_one_id_with_different_content_conflict() -> None:
    g = graph(a=((ROOT,), "mine"), b=((ROOT,), "theirs"))
    assert merge_memory(M, g, head("a", "mine", ""), [head("b", "theirs")]).kind == "conflict"


def test_a_bystander_waits_for_the_others_to_agree() -> None:
    g = graph(base=((ROOT,), "v0"), t1=(("base",), "one"), t2=(("base",), "two"))
    out = merge_memory(M, g, head("base", "v0", ""), [head("t1", "one", "a"), head("t2", "two", "b")])
    assert out.kind == "waiting"


def test_the_order_replicas_are_read_in_never_matters() -> None:
    g = graph(base=((ROOT,), "v0"), a=(("base",), "x"), b=(("base",), "x"), c=(("a",), "x"), d=(("base",), "v0"))
    heads = [head("a", "x", "1"), head("b", "x", "2"), head("c", "x", "3"), head("d", "v0", "4")]
    outcomes = [merge_memory(M, g, head("base", "v0", ""), list(p)) for p in itertools.permutations(heads)]
    assert all(out == outcomes[0] for out in outcomes)
    assert outcomes[0].head.id == merge_id(M, ["b", "c", "d"]) and outcomes[0].head.record["body"] == "x"


def _event(seq: int, kind: str, *, candidate: str | None = None, changes=None, sync=None) -> Event:
    return Event(
        type=kind,
        actor="ann",
        candidate=candidate,
        changes=changes,
        sync=sync,
        seq=seq,
        prev=GENESIS,
        ts="2026-01-01T00:00:00.000000Z",
        origin="0" * 16,
    )


def test_a_log_knows_its_versions_and_keep_mine_is_a_version_with_both_parents() -> None:
    created = Change(memory=M, before=None, after=record("mine"))
    sync = {
        "nodes": [{"memory": M, "id": "t", "parents": [ROOT], "key": content_key(record("theirs"))}],
        "conflicts": [
            {"memory": M, "candidate": "c1", "ours": "l1", "theirs": "t"},
            {"memory": M, "candidate": "c2", "ours": "l1", "theirs": "t"},
        ],
        "closed": ["c2"],
    }
    lines = [
        (_event(1, "candidate.applied", candidate="c0", changes=(created,)), "l1"),
        (_event(2, "sync.merged", sync=sync), "l2"),
        (_event(3, "candidate.discarded", candidate="c2"), "l3"),  # closed by sync: no version
        (_event(4, "candidate.discarded", candidate="c1"), "l4"),
    ]  # a person keeps theirs out
    known = know(lines)
    assert known.nodes[M]["l1"] == Node((ROOT,), content_key(record("mine")))
    assert "l3" not in known.nodes[M]
    assert known.nodes[M]["l4"] == Node(("l1", "t"), content_key(record("mine")))
    assert known.head(M) == "l4" and known.records[M] == record("mine") and known.conflicts == {}


def test_applying_a_conflict_candidate_records_both_parents() -> None:
    sync = {
        "nodes": [{"memory": M, "id": "t", "parents": [ROOT], "key": "k"}],
        "conflicts": [{"memory": M, "candidate": "c1", "ours": ROOT, "theirs": "t"}],
    }
    taken = Change(memory=M, before=None, after=record("theirs"))
    known = know(
        [
            (_event(1, "sync.merged", sync=sync), "l1"),
            (_event(2, "candidate.applied", candidate="c1", changes=(taken,)), "l2"),
        ]
    )
    assert known.nodes[M]["l2"].parents == (ROOT, "t")


def test_a_sync_object_with_unknown_fields_is_refused() -> None:
    with pytest.raises(ValidationError, match="sync.extra"):
        sync_record({"extra": 1}, where="event 3")


# --- convergence: clones that author, sync and resolve in any order end up at the same version ------

_ops = st.lists(st.tuples(st.sampled_from(["author", "sync"]), st.integers(0, 2), st.sampled_from("xyz")), max_size=14)


class _Clone:
    def __init__(self) -> None:
        self.known = Knowledge()
        self.count = 0

    def author(self, name: str, body: str) -> None:
        self.count += 1
        vid = f"{name}{self.count}"
        self.known.add(M, vid, Node((self.known.head(M),), content_key(record(body))))
        self.known.move(M, vid, record(body))

    def sync(self, name: str, others: list[_Clone]) -> None:
        g = Graph([self.known, *(o.known for o in others)])
        ours = Head(self.known.head(M), self.known.records.get(M), "")
        theirs = [Head(o.known.head(M), o.known.records.get(M), "o") for o in others if M in o.known.current]
        out = merge_memory(M, g, ours, theirs)
        for memory, nodes in g.nodes.items():
            for vid, node in nodes.items():
                self.known.add(memory, vid, node)
        if out.kind == "adopt":
            if out.node:
                self.known.add(M, out.head.id, out.node)
            self.known.move(M, out.head.id, out.head.record)
        elif out.kind == "conflict":  # the person here takes theirs: a version with both parents
            self.count += 1
            vid = f"{name}{self.count}"
            self.known.add(M, vid, Node((ours.id, out.head.id), content_key(out.head.record)))
            self.known.move(M, vid, out.head.record)


@settings(max_examples=examples(60), deadline=None)
@given(_ops)
def test_clones_that_keep_syncing_converge(ops: list[tuple[str, int, str]]) -> None:
    clones = [_Clone() for _ in range(3)]
    names = "abc"
    for op, who, body in ops:
        if op == "author":
            clones[who].author(names[who], body)
        else:
            clones[who].sync(names[who], [c for i, c in enumerate(clones) if i != who])
    for _round in range(4):
        for i, clone in enumerate(clones):
            clone.sync(names[i], [c for j, c in enumerate(clones) if j != i])
    assert len({c.known.head(M) for c in clones}) == 1
    assert len({content_key(c.known.records.get(M)) for c in clones}) == 1
