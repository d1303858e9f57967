"""A compaction moves the manifest and keeps the set: the read index follows it (ADR 0030, issue #15).

Before, every compaction (``Store.compact()``, a commit past the bound, a dead writer's recovery) left
the index naming the old manifest file: prompts took the full path and the next commit rebuilt the
index from every memory file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_review.lean import index as layout
from memory_review.proposal import parse_proposal
from memory_review.workspace import Workspace


def _proposal(n: int, scope: str = "project") -> dict:
    return {
        "op": "create",
        "scope": scope,
        "memory": {"id": f"fact-c{n}", "type": "fact", "description": f"Fact {n}", "body": f"Body {n}."},
        "rationale": "the user said so",
        "evidence": [{"quote": f"fact {n}", "session_id": "s0", "turn_id": "t1"}],
    }


def _approve(ws: Workspace, numbers: range, scope: str = "project") -> None:
    states = ws.propose([parse_proposal(_proposal(n, scope)) for n in numbers])
    ws.apply([s.candidate.id for s in states], actor="alice")


def _index_bytes(ws: Workspace, scope: str) -> bytes:
    return ws.read_index.path(ws.store(scope)).read_bytes()


def _loaded(ws: Workspace, scope: str) -> layout.IndexState:
    store = ws.store(scope)
    state = layout.load(ws.read_index.user_dir, store.root, store.scope)
    assert state is not None
    return state


def _rebuilt(ws: Workspace, scope: str) -> layout.IndexState:
    """What a rebuild from the store gives, written nowhere (the index file is put back as it was)."""
    store, path = ws.store(scope), ws.read_index.path(ws.store(scope))
    kept = path.read_bytes()
    with store.locked():
        state = ws.read_index.rebuild(store)
    path.write_bytes(kept)
    assert state is not None
    return state


def _same(found: layout.IndexState, rebuilt: layout.IndexState) -> None:
    assert (found.at, found.manifest, found.origin, found.sessions) == (
        rebuilt.at,
        rebuilt.manifest,
        rebuilt.origin,
        rebuilt.sessions,
    )
    assert found.entries == rebuilt.entries


@pytest.fixture
def ws(repo: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Workspace:
    for name in ("MEMORY_REVIEW_HOME", "MEMORY_REVIEW_ACTOR"):
        monkeypatch.setenv(name, env[name])
    workspace = Workspace(repo, Path(env["MEMORY_REVIEW_HOME"]))
    _approve(workspace, range(3))
    _approve(workspace, range(3, 5), scope="user")
    return workspace


@pytest.mark.parametrize("scope", ["project", "user"])
def test_compact_leaves_the_index_a_rebuild_would_write(ws: Workspace, scope: str) -> None:
    store = ws.store(scope)
    assert ws.read_index.current(store, store.view(load=False)) is not None
    manifest_before = store.manifest_path.read_bytes()
    store.compact()  # the public path
    assert store.manifest_path.read_bytes() != manifest_before  # it really moved the manifest
    assert ws.read_index.current(store, store.view(load=False)) is not None
    _same(_loaded(ws, scope), _rebuilt(ws, scope))


def test_a_commit_after_a_compaction_costs_one_delta_line(ws: Workspace) -> None:
    ws.project.compact()
    before = _index_bytes(ws, "project")
    _approve(ws, range(10, 11))
    after = _index_bytes(ws, "project")
    assert after.startswith(before)  # not rebuilt: the index was current after the compaction
    _same(_loaded(ws, "project"), _rebuilt(ws, "project"))


def test_a_compaction_by_a_commit_past_the_bound_keeps_the_index_current(ws: Workspace) -> None:
    ws.project.compact_after = 4
    _approve(ws, range(20, 26))  # one batch past the bound: the commit compacts
    store = ws.project
    assert not store.past_checkpoint(store.read_manifest())[1]  # compacted
    assert ws.read_index.current(store, store.view(load=False)) is not None
    _same(_loaded(ws, "project"), _rebuilt(ws, "project"))


def test_a_dead_writers_compaction_keeps_the_index_current(ws: Workspace) -> None:
    store = ws.project
    assert store.past_checkpoint(store.read_manifest())[1]  # a tail to compact
    store.unfinished_path.touch()  # a writer died after its commit point: the next lock holder compacts
    fresh = Workspace(ws.root, Path(ws.user.root))
    with fresh.project.transact():
        pass
    assert store.past_checkpoint(store.read_manifest())[1] == []
    assert fresh.read_index.current(store, store.view(load=False)) is not None
    _same(_loaded(fresh, "project"), _rebuilt(fresh, "project"))


def test_a_stale_index_stays_stale_through_a_compaction(ws: Workspace) -> None:
    """The observer moves only an index that described the store; any other is the next commit's rebuild."""
    store, path = ws.project, ws.read_index.path(ws.project)
    old = path.read_bytes()
    _approve(ws, range(30, 31))
    path.write_bytes(old)  # an index behind the log
    store.compact()
    assert path.read_bytes() == old
    assert ws.read_index.current(store, store.view(load=False)) is None
