"""What ``sync`` lets leave the machine: reviewed events only, unless a person opts in (docs/adr/0018).

Machine A gets a prompt holding a GitHub token and an AWS secret (through the real
hook), a pending candidate, a discarded candidate, a hook error and an old-style
``context.built`` whose raw query holds a token. After ``sync``, every object on
the bare remote is read (``git cat-file --batch-all-objects``) and none of it is
there; with ``--share-pending`` the pending candidate is, and still nothing else.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

from git_helpers import Clone, Team, git

from memory_review.events import EventDraft
from memory_review.ids import new_candidate_id
from memory_review.rules import Plan
from memory_review.sync_publish import PUBLISHED_TRAILER

GITHUB_TOKEN = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
OLD_TOKEN = "ghp_0ldStyleQueryT0kenAAAAAAAAAAAAAAAAAAA"
PROMPT = f"PROMPT-MARKER deploy with {GITHUB_TOKEN} and aws_secret_access_key={AWS_SECRET}"
PENDING = "PENDING-MARKER not decided yet"
DISCARDED = "DISCARDED-MARKER a bad idea"
HOOK_ERROR = "HOOK-ERROR-MARKER"


def _remote_objects(team: Team) -> bytes:
    """Every object the bare remote holds, contents included."""
    return subprocess.run(
        ["git", "cat-file", "--batch-all-objects", "--batch"],
        cwd=team.remote,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout


def _hook(clone: Clone, payload: dict) -> subprocess.CompletedProcess:
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(clone.home), "MEMORY_REVIEW_ACTOR": clone.name}
    return subprocess.run(
        [sys.executable, "-m", "memory_review.cli", "hook", "claude-code"],
        cwd=clone.root,
        input=json.dumps(payload).encode(),
        env=env,
        capture_output=True,
        timeout=60,
        check=False,
    )


def _machine_a(team: Team) -> Clone:
    """ann's clone with one approved memory and every kind of text nobody reviewed."""
    ann = team["ann"]
    ann.approve("db-tests", "never mock the database")
    session = str(uuid.uuid4())
    base = {
        "session_id": session,
        "cwd": str(ann.root),
        "transcript_path": str(ann.root / f"{HOOK_ERROR}-missing.jsonl"),
    }
    assert _hook(ann, {**base, "hook_event_name": "UserPromptSubmit", "prompt": PROMPT}).returncode == 0
    assert _hook(ann, {**base, "hook_event_name": "Stop", "stop_hook_active": False}).returncode == 0
    assert HOOK_ERROR.encode() in (ann.ws.project.root / "hooks" / "errors.jsonl").read_bytes()
    ann.propose("maybe", PENDING)
    ann.ws.discard([ann.propose("nope", DISCARDED)], actor="ann", reason="DISCARD-REASON-MARKER")
    _legacy_context(ann, session)
    assert ann.ws.log(type="context.built")
    return ann


def _legacy_context(clone: Clone, session: str) -> None:
    """A ``context.built`` as a store written before docs/adr/0018 holds it: the raw prompt."""
    ws = clone.ws
    [event] = ws.log(type="context.built")[:1]
    context = {k: v for k, v in (event.context or {}).items() if not k.startswith("query_")}
    with ws.project.transact() as tx:
        ws.commit(
            tx,
            Plan(
                drafts=[
                    EventDraft(
                        type="context.built",
                        actor=f"agent:{session}",
                        session=session,
                        context={**context, "query": f"old {OLD_TOKEN}"},
                    )
                ]
            ),
        )
    assert OLD_TOKEN.encode() in ws.project.log_path.read_bytes()


NEVER = (GITHUB_TOKEN, AWS_SECRET, OLD_TOKEN, "PROMPT-MARKER", DISCARDED, "DISCARD-REASON-MARKER", HOOK_ERROR)


def test_only_reviewed_events_leave_the_machine(team: Team) -> None:
    ann = _machine_a(team)
    result = ann.sync()
    assert result.pushed
    objects = _remote_objects(team)
    assert b"never mock the database" in objects  # what was reviewed does travel
    for text in (*NEVER, PENDING):
        assert text.encode() not in objects, text
    ben = team["ben"]
    assert ben.sync().adopted == ("db-tests",)
    assert ben.bodies() == {"db-tests": "never mock the database"} and ben.pending() == []
    ben.assert_valid()
    ann.assert_valid()


def test_share_pending_shares_the_pending_candidate_and_nothing_else(team: Team) -> None:
    ann = _machine_a(team)
    [result] = ann.ws.sync(scope="project", actor="ann", share_pending=True)
    assert result.pushed and ann.ws.warnings == []
    objects = _remote_objects(team)
    assert PENDING.encode() in objects
    for text in NEVER:
        assert text.encode() not in objects, text
    assert team["ben"].sync().adopted == ("db-tests",) and team["ben"].pending() == []


def test_the_cli_flag_says_what_it_shares(team: Team) -> None:
    ann = team["ann"]
    done = ann.cli("sync", "--help")
    assert done.returncode == 0
    assert "--share-pending" in done.stdout and "pending proposals" in done.stdout
    ann.approve("x", "1")
    ann.propose("maybe", PENDING)
    shared = ann.cli("sync", "origin", "--scope", "project", "--share-pending", "--json")
    assert shared.returncode == 0, shared.stderr
    assert PENDING.encode() in _remote_objects(team)


def test_the_publication_is_its_own_chain_and_carries_no_local_history(team: Team) -> None:
    ann = team["ann"]
    ann.approve("x", "1")
    ann.propose("maybe", PENDING)
    ann.sync()
    ann.approve("y", "2")
    ann.sync()
    origin = ann.ws.project.read_manifest().origin
    ref = f"refs/memory-review/replicas/project/{origin}"
    published = git("log", "--format=%H %P%n%B", ref, cwd=team.remote)
    assert published.count(f"{PUBLISHED_TRAILER}: reviewed") == 2
    local = set(git("rev-list", "refs/memory-review/project", cwd=ann.root).split())
    on_remote = set(git("rev-list", ref, cwd=team.remote).split())
    assert local.isdisjoint(on_remote)
    assert ann.sync().pushed is False  # nothing new: nothing pushed
    log = git("cat-file", "blob", f"{ref}:events.jsonl", cwd=team.remote)
    assert '{"gap":' in log and PENDING not in log


def test_a_secret_in_a_pending_record_is_left_out_even_when_sharing(team: Team) -> None:
    """Defence in depth: a record written before redaction caught it (built here through the commit path)."""
    ann = team["ann"]
    ann.approve("x", "1")
    cid = ann.propose("leaky", "fine text")
    ws = ann.ws
    [state] = [s for s in ws.list_candidates() if s.candidate.id == cid]
    leaky = state.candidate.model_copy(update={"id": new_candidate_id(), "rationale": f"use {GITHUB_TOKEN}"})
    with ws.project.transact() as tx:
        ws.commit(
            tx,
            Plan(
                drafts=[
                    EventDraft(
                        type="candidate.created",
                        actor="agent:old",
                        candidate=leaky.id,
                        record=leaky.model_dump(mode="json"),
                    )
                ]
            ),
        )
    [result] = ws.sync(scope="project", actor="ann", share_pending=True)
    assert result.pushed and any("not shared" in w for w in result.warnings)
    objects = _remote_objects(team)
    assert GITHUB_TOKEN.encode() not in objects and b"fine text" in objects


def test_a_secret_in_a_reviewed_line_withholds_the_push(team: Team) -> None:
    ann = team["ann"]
    ann.approve("x", "1")
    ann.sync()
    ws = ann.ws
    cid = ann.propose("leaky", "fine text")
    [state] = [s for s in ws.list_candidates() if s.candidate.id == cid]
    leaky = state.candidate.model_copy(update={"id": new_candidate_id(), "rationale": f"use {GITHUB_TOKEN}"})
    with ws.project.transact() as tx:
        ws.commit(
            tx,
            Plan(
                drafts=[
                    EventDraft(
                        type="candidate.created",
                        actor="agent:old",
                        candidate=leaky.id,
                        record=leaky.model_dump(mode="json"),
                    )
                ]
            ),
        )
    ws.apply([leaky.id], actor="ann")
    [result] = ws.sync(scope="project", actor="ann")
    assert result.pushed is False
    assert any("looks like a secret" in w and "nothing was pushed" in w for w in result.warnings)
    assert GITHUB_TOKEN.encode() not in _remote_objects(team)
