"""Merging tiers (a later tier overrides an earlier one) and the priority order."""

from __future__ import annotations

import random

import pytest
from injection_helpers import NOW, MakeMemory

from memory_review.errors import ValidationError
from memory_review.injection import ContextRequest, build_context, merge_tiers, priority_order


def test_later_tier_overrides_earlier(mem: MakeMemory) -> None:
    user = [
        mem("style", "preference", "user", body="user says tabs"),
        mem("only-user", scope="user"),
    ]
    project = [mem("style", "preference", "project", body="project says spaces")]
    session = [mem("style", "preference", "session", body="session says 2 spaces")]

    merged = merge_tiers(user, project, session)

    # A session note, written by the agent with no review, takes no approved memory's place (session 39)
    assert [(m.id, m.scope) for m in merged] == [("only-user", "user"), ("style", "project")]
    assert merge_tiers(user, [], session)[1].body == "user says tabs"
    assert [m.id for m in merge_tiers([], [], session)] == ["style"]
    assert merge_tiers(user, project, [])[1].body == "project says spaces"
    assert merge_tiers(user, [], [])[1].body == "user says tabs"


def test_override_shows_only_the_winner_in_the_block(mem: MakeMemory) -> None:
    merged = merge_tiers(
        [mem("runner", "convention", "user", body="use unittest")],
        [mem("runner", "convention", "project", body="use pytest")],
        [],
    )
    text = build_context(merged, ContextRequest(now=NOW)).text
    assert "[memory:project:convention] About runner (id=runner)\nuse pytest\n" in text
    assert "unittest" not in text


def test_merge_rejects_wrong_scope_and_duplicates(mem: MakeMemory) -> None:
    with pytest.raises(ValidationError, match="scope 'project' in the user tier"):
        merge_tiers([mem("a", scope="project")], [], [])
    with pytest.raises(ValidationError, match="twice in the session tier"):
        merge_tiers([], [], [mem("a", scope="session"), mem("a", scope="session")])


def test_merge_result_does_not_depend_on_input_order(mem: MakeMemory) -> None:
    user = [mem(f"m{i}", scope="user") for i in range(20)]
    shuffled = user[:]
    random.Random(4).shuffle(shuffled)
    assert merge_tiers(user, [], []) == merge_tiers(shuffled, [], [])


def test_priority_order_groups_then_scope_then_recency_then_id(mem: MakeMemory) -> None:
    memories = [
        mem("fact-new", "fact", "session", updated_at="2026-07-05T00:00:00Z"),
        mem("pref-user", "preference", "user", updated_at="2026-07-05T00:00:00Z"),
        mem("conv-proj-old", "convention", "project", updated_at="2026-01-01T00:00:00Z"),
        mem("pref-proj-new", "preference", "project", updated_at="2026-06-01T00:00:00Z"),
        mem("conv-session", "convention", "session", updated_at="2025-01-01T00:00:00Z"),
        mem("forbid-user", "forbidden", "user", updated_at="2026-01-01T00:00:00Z"),
        mem("forbid-proj", "forbidden", "project", updated_at="2025-01-01T00:00:00Z"),
        mem("b-tie", "fact", "project", updated_at="2026-03-01T00:00:00Z"),
        mem("a-tie", "fact", "project", updated_at="2026-03-01T00:00:00Z"),
    ]
    expected = [
        "forbid-proj",
        "forbid-user",  # forbidden: project before user
        "conv-session",
        "pref-proj-new",
        "conv-proj-old",
        "pref-user",  # session, project (newest first), user
        "fact-new",
        "a-tie",
        "b-tie",  # facts last; equal time -> id
    ]
    for seed in range(5):
        shuffled = memories[:]
        random.Random(seed).shuffle(shuffled)
        assert [m.id for m in priority_order(shuffled)] == expected


def test_block_follows_priority_order(mem: MakeMemory) -> None:
    memories = [
        mem("zz-fact", "fact", "user"),
        mem("aa-pref", "preference", "user"),
        mem("mm-forbidden", "forbidden", "user"),
    ]
    text = build_context(memories, ContextRequest(now=NOW)).text
    positions = [text.index(f"id={name}") for name in ("mm-forbidden", "aa-pref", "zz-fact")]
    assert positions == sorted(positions)
