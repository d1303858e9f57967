"""Near-duplicates flagged at propose time (issue 18): ``similar-to:<id>`` against approved and pending."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from workspace_kit import fresh_workspace

from memory_review.proposal import parse_proposals
from memory_review.workspace import Workspace

ACTOR = "alice"


def doc(memory_id: str, description: str, body: str = "", scope: str = "project", op: str = "create") -> dict:
    return {
        "op": op,
        "scope": scope,
        "rationale": "the user said so",
        "memory": {"id": memory_id, "type": "convention", "description": description, "body": body},
    }


def flags_of(ws: Workspace, *docs: dict) -> list[tuple[str, ...]]:
    return [s.flags for s in ws.propose(parse_proposals(json.dumps(list(docs)).encode()))]


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    workspace = fresh_workspace(tmp_path, "project")
    [state] = workspace.propose(
        parse_proposals(
            json.dumps(doc("conv-pnpm", "Use pnpm, not npm, for every package command", "Run pnpm install.")).encode()
        )
    )
    workspace.apply([state.candidate.id], actor=ACTOR)
    return workspace


def test_a_near_copy_of_an_approved_memory_is_flagged_with_its_id(ws: Workspace) -> None:
    [flags] = flags_of(ws, doc("pkg-manager", "Use pnpm not npm for every package command", "Run pnpm install."))
    assert "similar-to:conv-pnpm" in flags


def test_a_near_copy_of_a_pending_candidate_is_flagged_and_so_is_a_twin_in_the_same_batch(ws: Workspace) -> None:
    [first] = flags_of(ws, doc("test-db", "Integration tests run against the Postgres container"))
    assert not any(f.startswith("similar-to:") for f in first)
    [later] = flags_of(ws, doc("tests-postgres", "Integration tests run against the Postgres test container"))
    assert "similar-to:test-db" in later
    one, two = flags_of(
        ws,
        doc("lint-a", "Run ruff check before every commit in this repository"),
        doc("lint-b", "Run ruff check before every commit in this repo"),
    )
    assert "similar-to:lint-a" in two and not any(f.startswith("similar-to:") for f in one)


def test_different_texts_other_stores_and_the_memory_being_updated_are_not_similar(ws: Workspace) -> None:
    unrelated, other_store, update = flags_of(
        ws,
        doc("indent", "Indent Python with four spaces"),
        doc("user-pnpm", "Use pnpm, not npm, for every package command", scope="user"),
        doc("conv-pnpm", "Use pnpm, not npm, for every package command", "Run pnpm install; never yarn."),
    )
    for flags in (unrelated, other_store, update):
        assert not any(f.startswith("similar-to:") for f in flags), flags


def test_show_puts_the_similar_text_beside_the_proposal(ws: Workspace) -> None:
    from memory_review import cli_render

    [state] = ws.propose(
        parse_proposals(
            json.dumps(doc("pkg-manager", "Use pnpm not npm for every package command", "Run pnpm install.")).encode()
        )
    )
    shown = ws.show(state.candidate.id)
    [twin] = ws.similar(shown)
    assert twin.id == "conv-pnpm"
    text = cli_render.render_show(cli_render.Shown(shown, [twin]), None)
    [header] = [line for line in text.splitlines() if "conv-pnpm (project convention)" in line]
    assert header.lstrip().startswith("pkg-manager")  # side by side: the proposal left, the memory right
    assert any(
        "Use pnpm not npm for every" in line and "| Use pnpm, not npm, for every" in line for line in text.splitlines()
    )
