"""Consolidation: near-duplicate (or, past a threshold, related) memories merged by a candidate."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples
from workspace_kit import fresh_workspace

from memory_review.consolidate import (
    DEFAULT_THRESHOLD,
    MAX_GROUP,
    NEAR_DUPLICATE,
    RELATED,
    find_groups,
    merge_bodies,
    plan_consolidation,
    similarity,
)
from memory_review.errors import ValidationError
from memory_review.extract.textutil import tokens
from memory_review.models import Memory, Source
from memory_review.proposal import Evidence, ProposedMemory, UpsertProposal
from memory_review.record_io import memory_to_json
from memory_review.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]


def _memory(
    memory_id: str,
    body: str,
    *,
    kind: str = "forbidden",
    created: str = "2026-05-01T10:00:00Z",
    description: str | None = None,
) -> Memory:
    return Memory(
        id=memory_id,
        type=kind,
        scope="project",
        description=description or body[:60],
        body=body,
        created_at=created,
        updated_at=created,
        sources=(Source(session_id="s1", turn_id=f"t-{memory_id}", evidence=f"user: {body[:40]}"),),
    )


MOCK_A = _memory("forbidden-mock-db", "Never mock the database in tests.", created="2026-05-01T10:00:00Z")
MOCK_B = _memory(
    "forbidden-mock-database",
    "Do not mock the database in tests; use the pg_container fixture.",
    created="2026-05-02T10:00:00Z",
)
TABS = _memory("pref-tabs", "Indent with 4 spaces, never tabs.", kind="preference")
UV = _memory("conv-uv", "Install dependencies with uv, not pip.", kind="convention")
MOCK_CONVENTION = _memory("conv-mock-http", "Mock the database HTTP client in unit tests.", kind="convention")


# --------------------------------------------------------------------------- pure planning


def test_near_duplicates_group_and_unrelated_memories_are_untouched() -> None:
    planned = plan_consolidation([UV, MOCK_B, TABS, MOCK_A, MOCK_CONVENTION], scope="project")
    [proposal] = planned.proposals
    assert set(proposal.sources) == {"forbidden-mock-db", "forbidden-mock-database"}
    [result] = proposal.results
    assert result.id == "forbidden-mock-db"  # the oldest keeps its id and description
    assert result.description == MOCK_A.description
    assert "Never mock the database in tests." in result.body and "pg_container" in result.body
    touched = set(proposal.sources) | {r.id for r in proposal.results}
    assert not touched & {"pref-tabs", "conv-uv", "conv-mock-http"}
    assert proposal.proposer.name == "memory-review-consolidate" and proposal.priority == "low"
    assert "forbidden-mock-db" in proposal.rationale and "delete forbidden-mock-database" in proposal.rationale


def test_types_never_mix() -> None:
    assert similarity(MOCK_A, MOCK_CONVENTION) >= RELATED
    groups = find_groups([MOCK_A, MOCK_CONVENTION], scope="project", cut=RELATED)
    assert groups == []


def test_related_memories_merge_only_past_the_threshold() -> None:
    memories = [
        _memory(
            "conv-ruff-lint",
            "Lint Python code with ruff check before committing.",
            kind="convention",
        ),
        _memory(
            "conv-ruff-format",
            "Format Python code with ruff format and black before committing.",
            kind="convention",
            created="2026-05-03T10:00:00Z",
        ),
    ]
    score = similarity(*memories)
    assert RELATED <= score < NEAR_DUPLICATE
    assert plan_consolidation(memories, scope="project", threshold=3).proposals == []
    [proposal] = plan_consolidation(memories, scope="project", threshold=2).proposals
    assert "threshold 2" in proposal.rationale


def test_no_chaining_through_a_middle_memory() -> None:
    a = _memory("forbidden-a", "tabs indentation python files strict", created="2026-05-01T10:00:00Z")
    b = _memory("forbidden-b", "tabs indentation yaml files strict", created="2026-05-02T10:00:00Z")
    c = _memory("forbidden-c", "yaml anchors files strict ci", created="2026-05-03T10:00:00Z")
    assert similarity(a, b) >= RELATED and similarity(b, c) >= RELATED and similarity(a, c) < RELATED
    [group] = find_groups([a, b, c], scope="project", cut=RELATED)
    assert group.ids == {"forbidden-a", "forbidden-b"}


def test_groups_are_capped() -> None:
    many = [
        _memory(
            f"forbidden-m{i}",
            f"Never mock the database in tests, variant {i}.",
            created=f"2026-05-{i + 1:02d}T10:00:00Z",
        )
        for i in range(MAX_GROUP + 3)
    ]
    groups = find_groups(many, scope="project", cut=NEAR_DUPLICATE)
    assert [len(g.members) for g in groups] == [MAX_GROUP, 3]


def test_planning_is_deterministic_whatever_the_order() -> None:
    memories = [UV, MOCK_B, TABS, MOCK_A, MOCK_CONVENTION]
    expected = plan_consolidation(memories, scope="project", now="2026-06-01T00:00:00Z").proposals
    for seed in range(5):
        shuffled = memories[:]
        random.Random(seed).shuffle(shuffled)
        assert plan_consolidation(shuffled, scope="project", now="2026-06-01T00:00:00Z").proposals == expected


def test_exact_twins_under_two_ids_are_reported_not_proposed() -> None:
    twin = _memory("forbidden-twin", MOCK_A.body, description=MOCK_A.description)
    planned = plan_consolidation([MOCK_A, twin], scope="project")
    assert planned.proposals == [] and "say exactly the same" in planned.notes[0]


def test_a_merge_too_big_for_one_file_drops_its_newest_members() -> None:
    members = [
        _memory(
            f"forbidden-big{i}",
            f"Never mock the database. {' '.join(['detail'] * 180)} {i}",
            created=f"2026-05-{i + 1:02d}T10:00:00Z",
        )
        for i in range(3)
    ]
    [proposal] = plan_consolidation(members, scope="project").proposals
    assert proposal.sources == ("forbidden-big0", "forbidden-big1")
    alone = [
        _memory(
            f"forbidden-huge{i}",
            f"Never mock the database, cache or queue in tests. {' '.join(['detail'] * 700)} {i}",
        )
        for i in range(2)
    ]
    planned = plan_consolidation(alone, scope="project")
    assert planned.proposals == [] and "too long to merge" in planned.notes[0]


def test_a_group_already_named_is_not_proposed_again() -> None:
    known = frozenset({frozenset({"forbidden-mock-db", "forbidden-mock-database"})})
    planned = plan_consolidation([MOCK_A, MOCK_B], scope="project", known=known)
    assert planned.proposals == [] and "already proposed or discarded" in planned.notes[0]


@pytest.mark.parametrize("bad", [0, 1, -3, True, 2.5])
def test_threshold_must_be_a_count(bad: object) -> None:
    with pytest.raises(ValidationError, match="threshold"):
        plan_consolidation([MOCK_A], scope="project", threshold=bad)  # type: ignore[arg-type]


_LINES = st.lists(
    st.sampled_from(
        [
            "Never mock the database.",
            "Never mock the database in tests.",
            "Use the pg_container fixture.",
            "Run tests with uv.",
            "```",
            "",
            "- always run ruff",
            "Always run ruff before committing.",
        ]
    ),
    min_size=1,
    max_size=6,
).map("\n".join)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(_LINES, min_size=2, max_size=4))
def test_merging_loses_no_statement(texts: list[str]) -> None:
    merged = merge_bodies(texts)
    kept = [tokens(line) for line in merged.split("\n")]
    for text in texts:
        for line in text.split("\n"):
            bag = tokens(line)
            assert not bag or any(bag <= other for other in kept), line


# --------------------------------------------------------------------------- through the workspace


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return fresh_workspace(tmp_path)


def _approve(ws: Workspace, *items: tuple[str, str, str, str]) -> None:
    proposals = [
        UpsertProposal(
            op="create",
            scope=scope,
            rationale="said so",
            memory=ProposedMemory(id=memory_id, type=kind, description=body[:60], body=body),
            evidence=(Evidence(quote=body, session_id="s1", turn_id=f"t-{memory_id}"),),
        )
        for memory_id, kind, body, scope in items
    ]
    ws.apply([s.candidate.id for s in ws.propose(proposals)], actor="alice")


def _approved(ws: Workspace) -> dict[str, dict]:
    return {m.id: memory_to_json(m) for store in (ws.project, ws.user) for m in store.view().memories()}


def _seed(ws: Workspace) -> None:
    _approve(
        ws,
        ("forbidden-mock-db", "forbidden", MOCK_A.body, "project"),
        ("forbidden-mock-database", "forbidden", MOCK_B.body, "project"),
        ("conv-uv", "convention", UV.body, "project"),
        ("pref-tabs", "preference", TABS.body, "user"),
    )


def test_apply_and_revert_a_consolidation(ws: Workspace) -> None:
    _seed(ws)
    before = _approved(ws)
    summary = ws.propose_consolidation()
    [cid] = summary.proposed
    state = ws.show(cid)
    assert state.candidate.op == "consolidate" and state.candidate.scope == "project"
    assert {c.memory for c in state.candidate.changes} == {
        "forbidden-mock-db",
        "forbidden-mock-database",
    }
    assert ws.memories() and _approved(ws) == before  # proposing changes nothing

    [applied] = ws.apply([cid], actor="alice")
    after = _approved(ws)
    # Approved in one batch, the two share a timestamp: the smaller id is the older by rule.
    kept, gone = "forbidden-mock-database", "forbidden-mock-db"
    assert gone not in after and "pg_container" in after[kept]["body"]
    assert "Never mock the database in tests." in after[kept]["body"]
    assert {k: v for k, v in after.items() if not k.startswith("forbidden-")} == {
        k: v for k, v in before.items() if not k.startswith("forbidden-")
    }  # unrelated: byte-identical

    reverted = ws.revert(applied.seq, actor="alice")
    assert reverted.reverts == applied.seq
    assert _approved(ws) == before  # the sources are back exactly
    assert all(report.ok for report in ws.verify())


def test_rerun_and_discard_propose_nothing_new(ws: Workspace) -> None:
    _seed(ws)
    [cid] = ws.propose_consolidation().proposed
    again = ws.propose_consolidation()
    assert again.proposed == [] and again.notes
    ws.discard([cid], actor="alice", reason="keep them apart")
    assert ws.propose_consolidation().proposed == []


def test_scope_limits_the_stores_looked_at(ws: Workspace) -> None:
    _seed(ws)
    summary = ws.propose_consolidation(scope="user")
    assert summary.memories == {"user": 1} and summary.proposed == []
    assert DEFAULT_THRESHOLD == 10


def _cli(ws: Workspace, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, MEMORY_REVIEW_HOME=str(ws.user.root), PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "memory_review.cli", "--project", str(ws.root), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60,
    )


def test_cli_consolidate(ws: Workspace) -> None:
    _seed(ws)
    done = _cli(ws, "consolidate", "--json", "--threshold", "50")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["threshold"] == 50 and report["memories"] == {"project": 3, "user": 1}
    [group] = report["groups"]
    assert group["result"] == "forbidden-mock-database" and group["kind"] == "near-duplicate"
    text = _cli(ws, "consolidate")
    assert text.returncode == 0 and "nothing to consolidate" in text.stdout
    bad = _cli(ws, "consolidate", "--threshold", "1")
    assert bad.returncode == 1 and "threshold" in bad.stderr
