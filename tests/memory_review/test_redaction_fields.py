"""Redaction on every text field that is written (issue 13, point 2), through the real CLI.

Each field of a proposal, an edit and a person's reasons carries its own secret; afterwards no byte of
any of them is anywhere in the store (log, candidates, memory files, manifest, index), each candidate
that held one is flagged ``secret``, and a session id holding one is refused outright.
"""

from __future__ import annotations

import json
import secrets
import string
from pathlib import Path

import pytest
from cli_kit import run, run_json

from memory_review.models import Memory
from memory_review.record_io import render_memory


def _token() -> str:
    """A fresh GitHub token shape (``ghp_`` + 36 letters and digits), unique to one field."""
    alphabet = string.ascii_letters + string.digits
    return "ghp_" + "".join(secrets.choice(alphabet) for _ in range(32)) + "7aZ9"


FIELDS = (
    "description",
    "body",
    "rationale",
    "quote",
    "turn_id",
    "proposer_name",
    "proposer_model",
    "edit_description",
    "edit_body",
    "discard_reason",
    "delete_reason",
)


@pytest.fixture
def tokens() -> dict[str, str]:
    return {field: _token() for field in FIELDS}


def _proposal(memory_id: str, t: dict[str, str]) -> dict:
    return {
        "op": "create",
        "scope": "project",
        "memory": {
            "id": memory_id,
            "type": "fact",
            "description": f"The CI token is {t['description']}",
            "body": f"export GITHUB_TOKEN={t['body']}",
        },
        "rationale": f"the user pasted {t['rationale']}",
        "evidence": [{"quote": f"my token: {t['quote']}", "session_id": "s1", "turn_id": f"turn {t['turn_id']}"}],
        "proposer": {"kind": "agent", "name": f"bot {t['proposer_name']}", "model": f"m {t['proposer_model']}"},
    }


def _store_bytes(repo: Path, env: dict) -> bytes:
    roots = [repo / ".memory-review", Path(env["MEMORY_REVIEW_HOME"])]
    return b"".join(p.read_bytes() for root in roots for p in sorted(root.rglob("*")) if p.is_file())


def _leaked(repo: Path, env: dict, tokens: dict[str, str]) -> list[str]:
    data = _store_bytes(repo, env)
    return [field for field, token in tokens.items() if token.encode() in data or token[4:].encode() in data]


def test_a_secret_in_any_field_never_reaches_the_store(
    repo: Path, env: dict, tokens: dict[str, str], tmp_path: Path
) -> None:
    kept = run_json(["propose", "--file", "-"], env, repo, json.dumps(_proposal("ci-token", tokens)))
    dropped = run_json(["propose", "--file", "-"], env, repo, json.dumps(_proposal("other-token", tokens)))
    assert "secret" in kept["flags"]

    edited = Memory(
        id="ci-token",
        type="fact",
        scope="project",
        created_at="2026-01-01T00:00:00Z",
        updated_at="2026-01-01T00:00:00Z",
        description=f"Token {tokens['edit_description']}",
        body=f"It is {tokens['edit_body']}.",
    )
    (tmp_path / "edited.md").write_bytes(render_memory(edited))
    shown = run_json(["edit", kept["id"], "--from-file", str(tmp_path / "edited.md")], env, repo)
    assert "secret" in shown["flags"] and "[REDACTED:" in shown["changes"][0]["after"]["body"]

    run_json(["discard", dropped["id"], "--reason", f"contains {tokens['discard_reason']}"], env, repo)
    run_json(["apply", kept["id"]], env, repo)
    run_json(["delete", "ci-token", "--reason", f"leaked {tokens['delete_reason']}"], env, repo)

    assert _leaked(repo, env, tokens) == []
    log = run_json(["log"], env, repo)
    reasons = [e.get("reason") for e in log if e["type"] in ("candidate.discarded", "memory.deleted")]
    assert all(reason and "[REDACTED:" in reason for reason in reasons) and len(reasons) == 2
    created = next(e["record"] for e in log if e["type"] == "candidate.created")
    assert created["proposer"]["name"].startswith("bot [REDACTED:")
    assert created["evidence"][0]["turn_id"].startswith("turn [REDACTED:")
    assert run_json(["verify"], env, repo)["ok"] is True


def test_a_session_id_holding_a_secret_is_refused_not_stored(repo: Path, env: dict, tokens: dict[str, str]) -> None:
    proposal = _proposal("ci-token", tokens)
    for args, doc in (
        (["--session", tokens["quote"], "propose"], proposal),
        (["propose"], {**proposal, "session_id": tokens["quote"]}),
        (["propose"], {**proposal, "evidence": [{"quote": "q", "session_id": tokens["quote"]}]}),
    ):
        done = run([*args, "--file", "-"], env, repo, json.dumps(doc))
        assert done.returncode == 1 and "looks like a secret" in done.stderr
    assert not (repo / ".memory-review" / "candidates").exists() or not any(
        (repo / ".memory-review" / "candidates").iterdir()
    )
    assert _leaked(repo, env, tokens) == []


def test_every_reason_a_person_types_is_redacted(repo: Path, env: dict, tokens: dict[str, str]) -> None:
    """Session 38's review: forget's, trust's and refuse's reasons were logged as typed; forget is what a person
    runs after a leak, and its reason can name the next secret."""
    proposal = {
        **_proposal("staging-db", tokens),
        "memory": {
            "id": "staging-db",
            "type": "fact",
            "description": "d",
            "body": "the staging db answers to oldpw-4711",
        },
    }
    made = run_json(["propose", "--file", "-"], env, repo, json.dumps(proposal))
    run_json(["apply", made["id"]], env, repo)
    forgot = run(
        ["forget", "--pattern", "oldpw-4711", "--reason", f"leaked; new {tokens['description']}", "--yes"], env, repo
    )
    assert forgot.returncode == 0, forgot.stderr
    for trust_file in (Path(env["MEMORY_REVIEW_HOME"]) / "trust").iterdir():
        trust_file.unlink()  # as if the memory came from a clone: the person decides on it here
    run_json(["trust", "discard", "staging-db", "--reason", f"no {tokens['body']}"], env, repo)
    run_json(["trust", "apply", "staging-db", "--reason", f"yes {tokens['rationale']}"], env, repo)
    log = run_json(["log"], env, repo)
    reasons = [e["reason"] for e in log if e["type"] in ("store.forgotten", "memory.refused", "memory.trusted")]
    assert len(reasons) == 3 and all("[REDACTED:github-token]" in reason for reason in reasons)
    assert _leaked(repo, env, {k: tokens[k] for k in ("description", "body", "rationale")}) == []


def test_a_memory_id_or_a_context_session_holding_a_secret_is_refused(repo: Path, env: dict) -> None:
    slack = "xoxb-1234567890-1234567890123-abcdefghijklmnopqrstuvwx"  # lower case: a valid slug
    proposal = {"op": "create", "scope": "project", "memory": {"id": slack, "type": "fact", "description": "d"}}
    done = run(["propose", "--file", "-"], env, repo, json.dumps({**proposal, "rationale": "r"}))
    assert done.returncode == 1 and "looks like a secret (slack-token)" in done.stderr
    token = _token()
    for argv in (["--session", token, "context"], ["--session", token, "context", "--json"]):
        done = run(argv, env, repo)
        assert done.returncode == 1 and "looks like a secret (github-token)" in done.stderr
    assert slack.encode() not in _store_bytes(repo, env) and token[4:].encode() not in _store_bytes(repo, env)
