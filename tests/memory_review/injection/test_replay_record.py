"""What a ``context.built`` event keeps of the prompt (its sha256, never the text) and replay from it.

docs/adr/0018: replay rebuilds a block from the recorded selection (ids + sha256), so the
prompt is not needed; a log written before that (a raw ``query``) still reads and replays.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from memory_review.events import EventDraft
from memory_review.proposal import parse_proposals
from memory_review.rules import Plan
from memory_review.workspace import Workspace

NOW = "2026-11-30T12:00:00Z"
GITHUB_TOKEN = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
PROMPT = f"deploy with token {GITHUB_TOKEN} and aws_secret_access_key={AWS_SECRET} about packages"


def _workspace(tmp_path: Path) -> Workspace:
    (tmp_path / "p").mkdir()
    ws = Workspace(tmp_path / "p", tmp_path / "home")
    ws.init()
    for memory_id, body in (("pkg", "we use uv for packages"), ("db", "never mock the database")):
        doc = {
            "op": "create",
            "scope": "project",
            "rationale": "r",
            "memory": {"id": memory_id, "type": "fact", "description": f"{memory_id} note", "body": body},
        }
        [state] = ws.propose(parse_proposals(json.dumps(doc).encode()))
        ws.apply([state.candidate.id], actor="alice")
    return ws


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_prompt_is_recorded_as_its_hash_and_replays_from_the_selection(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    given = ws.context(session="s1", query=PROMPT, now=NOW)
    assert [item.id for item in given.included] == ["pkg"]  # the query selected one memory
    log = ws.project.log_path.read_bytes()
    for secret in (GITHUB_TOKEN, AWS_SECRET, "deploy with token"):
        assert secret.encode() not in log
    [event] = ws.log(type="context.built")
    assert event.context is not None and "query" not in event.context
    assert (event.context["query_sha256"], event.context["query_chars"]) == (_sha(PROMPT), len(PROMPT))
    [replayed] = ws.replay_session("s1")
    assert (replayed.text, replayed.sha256, replayed.matches) == (given.text, given.sha256, True)
    assert replayed.query_sha256 == _sha(PROMPT) and replayed.query is None


def test_a_huge_pasted_prompt_adds_a_line_of_constant_size(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    small = ws.project.log_path.stat().st_size
    ws.context(session="s1", query="packages", now=NOW)
    after_small = ws.project.log_path.stat().st_size
    ws.context(session="s1", query="packages " + "x" * 920_000, now=NOW)
    after_huge = ws.project.log_path.stat().st_size
    # The two lines differ only in their hashes, seq and timestamp: same length give or take digits.
    assert abs((after_huge - after_small) - (after_small - small)) < 16
    assert after_huge - after_small < 2_000
    assert all(r.matches for r in ws.replay_session("s1"))


def test_a_log_with_a_raw_query_still_replays(tmp_path: Path) -> None:
    """An event as a store written before docs/adr/0018 holds it: the prompt itself under ``query``."""
    ws = _workspace(tmp_path)
    given = ws.context(session="s1", query="packages", now=NOW)
    [new] = ws.log(type="context.built")
    legacy = {key: value for key, value in (new.context or {}).items() if not key.startswith("query_")}
    legacy["query"] = "packages"
    with ws.project.transact() as tx:
        ws.commit(tx, Plan(drafts=[EventDraft(type="context.built", actor="agent:s2", session="s2", context=legacy)]))
    [replayed] = ws.replay_session("s2")
    assert (replayed.text, replayed.matches) == (given.text, True)
    assert replayed.query == "packages" and replayed.query_sha256 == _sha("packages")
    assert ws.verify()[0].ok


def test_the_cli_replay_shows_the_hash_and_never_the_prompt(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home"), "MEMORY_REVIEW_ACTOR": "alice"}
    base = [sys.executable, "-m", "memory_review.cli", "--project", str(tmp_path / "p"), "--session", "s9"]
    built = subprocess.run(
        [*base, "context", "--query", PROMPT], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert built.returncode == 0, built.stderr
    replay = subprocess.run(
        [*base, "replay", "--json"], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert replay.returncode == 0, replay.stderr
    [entry] = json.loads(replay.stdout)
    assert entry["matches"] and entry["query_sha256"] == _sha(PROMPT) and entry["query"] is None
    assert GITHUB_TOKEN not in replay.stdout and GITHUB_TOKEN.encode() not in ws.project.log_path.read_bytes()
