"""History commits at the cost of the change (docs/adr/0024): the log in append-only chunks, memory files
by shard, only what changed written; and histories written in the old one-``events.jsonl`` form still read."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from git_helpers import REF, Clone, Team, git, git_bytes, history_log, in_history

from memory_review.errors import StorageError
from memory_review.gitrepo import GitRepo, TreeEntry
from memory_review.history import HEAD_TRAILER, SEQ_TRAILER
from memory_review.history_log import CHUNK_BYTES, LOG_DIR, chunk_lines, log_lines, log_size, split_lines
from memory_review.history_tree import LocalLog, TreeBuilder
from memory_review.workspace import Workspace

BIG = "x" * 3_000  # a body that makes each apply add ~7 KB of log: a chunk closes every ~9 applies


def _chunks(root: Path, ref: str = REF) -> dict[str, str]:
    """Chunk name -> blob id in the ref's tip."""
    out = git("ls-tree", f"{ref}:{LOG_DIR}", cwd=root).splitlines()
    return {line.split("\t")[1]: line.split()[2] for line in out}


def _approve(ws: Workspace, clone: Clone, memory_id: str, body: str) -> None:
    ws.apply([clone.propose(memory_id, body)], actor=clone.name)
    assert ws.warnings == []


def test_cutting_a_log_whole_or_a_batch_at_a_time_gives_the_same_chunks() -> None:
    sizes = [10, CHUNK_BYTES - 20, 30, 5, 3 * CHUNK_BYTES, 7, CHUNK_BYTES, 1, 2, CHUNK_BYTES // 2] * 3
    lines = [b"a" * (size - 1) + b"\n" for size in sizes]
    whole = chunk_lines(lines, 1)
    assert b"".join(c.data for c in whole) == b"".join(lines)
    assert all(len(c.data) >= CHUNK_BYTES for c in whole[:-1])  # only the last may be short
    for batch in (1, 2, 3, 7):
        chunks = chunk_lines(lines[:batch], 1)
        done = batch
        while done < len(lines):
            open_chunk = chunks.pop()  # the open chunk and the next batch, as a commit extends it
            offset = open_chunk.first_seq - 1
            more = lines[offset : done + batch]
            chunks += chunk_lines(more, open_chunk.first_seq)
            done += batch
        assert chunks == whole


def test_closed_chunks_stay_the_same_blobs_and_a_commit_reads_only_the_tail(team: Team) -> None:
    ann = team["ann"]
    ws = ann.ws
    seen: dict[str, str] = {}
    for number in range(30):
        _approve(ws, ann, f"m-{number}", f"{BIG} {number}")
        chunks = _chunks(ann.root)
        *closed, _open = sorted(chunks)
        for name in closed:  # once closed, a chunk is the same blob in every later commit
            assert seen.setdefault(name, chunks[name]) == chunks[name]
    assert len(seen) >= 3
    assert history_log(ann.root) == ws.project.log_path.read_bytes()
    log_bytes = ws.project.log_path.stat().st_size
    last_read = ws.history["project"].local.reads[-1]
    assert last_read < CHUNK_BYTES + 3 * len(BIG) * 4 < log_bytes / 2  # the open chunk and the new lines


def test_an_apply_writes_one_shard_and_keeps_every_other_tree(team: Team) -> None:
    ann = team["ann"]
    ws = ann.ws
    for number in range(40):
        _approve(ws, ann, f"s-{number}", f"body {number}")
    before = {
        line.split("\t")[1]: line.split()[2] for line in git("ls-tree", f"{REF}:memory", cwd=ann.root).splitlines()
    }
    _approve(ws, ann, "s-new", "one more")
    after = {
        line.split("\t")[1]: line.split()[2] for line in git("ls-tree", f"{REF}:memory", cwd=ann.root).splitlines()
    }
    changed = {name for name in after if before.get(name) != after[name]}
    file = ws.project.current_manifest().memories["s-new"].file
    assert changed == {in_history(file).split("/")[1]}
    new_objects = git("rev-list", "--objects", f"{REF}~1..{REF}", cwd=ann.root).split("\n")
    # the commit, its tree, log/, the open chunk, memory/, one shard, the memory file, MEMORY.md
    assert len([line for line in new_objects if line]) <= 8


def test_the_tree_built_from_the_last_one_equals_one_built_whole(team: Team) -> None:
    ann = team["ann"]
    ws = ann.ws
    repo = GitRepo.open(ann.root)
    store = ws.project

    def check() -> None:
        tip = repo.ref_tip(REF)
        assert tip is not None
        whole = TreeBuilder(repo, store, store.current_manifest(), None).tree(
            LocalLog(store).since(repo, None, None), []
        )
        assert repo.tree_of(tip.commit) == whole

    for number in range(12):
        _approve(ws, ann, f"w-{number}", f"{BIG} {number}")
    check()
    cid = ann.propose("w-3", "changed")
    ws.apply([cid], actor="ann")
    check()
    ws.revert(cid, actor="ann")
    check()
    ws.delete("w-5", actor="ann")
    check()
    ws.discard([ann.propose("w-9", "no")], actor="ann", reason="noise")
    check()
    assert ws.warnings == []


# --- histories written in the old form (one events.jsonl, manifest.json, flat memory/) -------------


def _old_form_commit(clone: Clone, parent: str | None = None) -> str:
    """A history commit exactly as the previous version wrote it, built with plain git, put on the ref."""
    clone.ws.project.compact()  # that version's manifest was at the log head
    store = clone.root / ".memory-review"
    manifest = json.loads((store / "manifest.json").read_text())

    def blob(path: Path) -> str:
        return git("hash-object", "-w", "--no-filters", str(path), cwd=clone.root).strip()

    memory = "".join(
        f"100644 blob {blob(store / e['file'])}\t{e['file'].split('/')[1]}\n" for e in manifest["memories"].values()
    )
    top = "".join(
        f"100644 blob {blob(store / name)}\t{name}\n" for name in ("manifest.json", "MEMORY.md", "events.jsonl")
    )
    if memory:
        top += f"040000 tree {git('mktree', cwd=clone.root, stdin=memory.encode()).strip()}\tmemory\n"
    tree = git("mktree", cwd=clone.root, stdin=top.encode()).strip()
    message = (
        f"memory-review (project): an older version\n\nMemory-Review-Store: project\n"
        f"Memory-Review-Origin: {manifest['origin']}\n{SEQ_TRAILER}: {manifest['log_seq']}\n"
        f"{HEAD_TRAILER}: {manifest['log_head']}\n"
    )
    commit = git("commit-tree", tree, *(["-p", parent] if parent else []), "-m", message, cwd=clone.root).strip()
    git("update-ref", REF, commit, cwd=clone.root)
    return commit


def _without_history(ws: Workspace) -> Workspace:
    ws.project.observers.clear()  # as if written by the older version, which recorded its own commits
    return ws


def test_a_history_in_the_old_form_is_continued_read_synced_and_forgotten(team: Team) -> None:
    ann, ben = team.pair()
    ws = _without_history(ann.ws)
    ws.apply([ann.propose("old-one", "from the old version, with TOKEN-123 in it")], actor="ann")
    old = _old_form_commit(ann)
    repo = GitRepo.open(ann.root)
    assert log_lines(repo, old) == split_lines(ws.project.log_path.read_bytes())
    assert log_size(repo, old) == ws.project.log_path.stat().st_size
    assert ann.ws.history["project"].unrecorded() == []  # the old commit records the log: nothing lags

    ann.sync()  # the publication is read out of the old-form commit
    ben.sync()
    assert ben.bodies()["old-one"].startswith("from the old version")

    ann.approve("new-one", "from this version")
    message = git("log", "-1", "--format=%B", REF, cwd=ann.root)
    assert git("log", "-1", "--format=%P", REF, cwd=ann.root).split() == [old]
    assert "restarts" not in message and "+new-one" in message
    assert history_log(ann.root) == ann.ws.project.log_path.read_bytes()
    old_file = ann.ws.project.current_manifest().memories["old-one"].file
    assert git("rev-parse", f"{REF}:{in_history(old_file)}", cwd=ann.root) == git(
        "rev-parse", f"{old}:{old_file}", cwd=ann.root
    )  # the old blob, reused by name
    ann.sync()
    ben.sync()
    assert set(ben.bodies()) == {"old-one", "new-one"}

    result = ann.ws.forget(text="TOKEN-123", reason="a leaked token", actor="ann", dry_run=False)
    [outcome] = [s.git for s in result.stores if s.git and s.git.found]
    assert outcome.remaining == 0 and outcome.commits >= 2
    for commit in git("rev-list", REF, cwd=ann.root).split():
        tree = git("ls-tree", "-r", "--name-only", commit, cwd=ann.root).split()
        logs = [name for name in tree if name == "events.jsonl" or name.startswith("log/")]
        data = b"".join(git_bytes("show", f"{commit}:{name}", cwd=ann.root) for name in sorted(logs))
        assert b"TOKEN-123" not in data and data.endswith(b"\n")
    assert history_log(ann.root) == ann.ws.project.log_path.read_bytes()  # re-chained like the store's
    ann.assert_valid()


def test_log_git_lists_old_and_new_commits(team: Team) -> None:
    ann = team["ann"]
    ws = _without_history(ann.ws)
    ws.apply([ann.propose("one", "first")], actor="ann")
    _old_form_commit(ann)
    ann.approve("two", "second")
    done = ann.cli("log", "--git", "--json")
    assert done.returncode == 0, done.stderr
    subjects = [entry["message"].split("\n", 1)[0] for entry in json.loads(done.stdout)]
    assert "an older version" in subjects[1] and "+two" in subjects[0]


# --- a manifest behind the log by context builds only (reads never write the manifest, issue 15 §3) ---


def _manifest_behind(clone: Clone, ws: Workspace, then: str) -> bytes:
    """The manifest as it was before ``then`` ran (``context`` or ``propose``), put back over the new one."""
    manifest = ws.project.manifest_path
    saved = manifest.read_bytes()
    if then == "context":
        ws.context(session="sess-1")
        ws.context(session="sess-1", query="database")
    else:
        clone.propose("later", "not checkpointed")
    manifest.write_bytes(saved)
    return saved


def test_a_manifest_behind_only_by_context_builds_is_recorded_up_to_the_head(team: Team) -> None:
    ann = team["ann"]
    ws = ann.ws
    _approve(ws, ann, "one", "first")
    _manifest_behind(ann, ws, "context")
    history = ws.history["project"]
    with ws.project.locked():
        commit = history.record()
    assert commit is not None
    head = ws.project.log().head()
    assert f"{SEQ_TRAILER}: {head.seq}\n" in git("log", "-1", "--format=%B", REF, cwd=ann.root)
    assert history_log(ann.root) == ws.project.log_path.read_bytes()


def test_a_manifest_behind_by_changes_is_recorded_with_its_tail(team: Team) -> None:
    ann = team["ann"]
    ws = ann.ws
    ws.project.compact()
    saved = ws.project.manifest_path.read_bytes()
    _approve(ws, ann, "one", "first")  # in the tail past the manifest (docs/adr/0029)
    assert ws.project.manifest_path.read_bytes() == saved
    file = ws.project.current_manifest().memories["one"].file
    assert git_bytes("show", f"{REF}:{in_history(file)}", cwd=ann.root) == (ws.project.root / file).read_bytes()
    head = ws.project.log().head()
    assert f"{SEQ_TRAILER}: {head.seq}\n" in git("log", "-1", "--format=%B", REF, cwd=ann.root)


def test_one_tree_writer_writes_trees_that_hold_the_ones_before_and_names_a_bad_one(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", "--bare", str(tmp_path / "r.git")], check=True)
    repo = GitRepo.open(tmp_path / "r.git")
    blob = repo.hash_bytes(b"hello\n")
    with repo.tree_writer() as make_tree:
        inner = make_tree([TreeEntry("100644", "blob", blob, "a.md")])
        top = make_tree([TreeEntry("040000", "tree", inner, "memory"), TreeEntry("100644", "blob", blob, "MEMORY.md")])
        empty = make_tree([])
    # The same ids mktree gives one tree at a time, and git reads them back as written.
    assert inner == repo.make_tree([TreeEntry("100644", "blob", blob, "a.md")])
    assert empty == "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
    assert git_bytes("ls-tree", "-r", top, cwd=tmp_path / "r.git").decode().split() == [
        "100644",
        "blob",
        blob,
        "MEMORY.md",
        "100644",
        "blob",
        blob,
        "memory/a.md",
    ]
    with pytest.raises(StorageError, match="git mktree failed"), repo.tree_writer() as make_tree:
        make_tree([TreeEntry("100644", "blob", "0" * 39, "bad")])
