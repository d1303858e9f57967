"""Bounded input (issue 13, point 3): one proposal can never make the queue unreadable.

The limits of ``memory_review/limits.py`` are chosen so that the largest valid proposal yields a
candidate file under the reader limit; here that proposal is built for real and sent through the CLI,
and every over-size field is refused with one line, exit 1, and the store byte for byte unchanged.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest
from cli_kit import run, run_json

from memory_review import limits
from memory_review.models import Memory, Source
from memory_review.record_io import render_memory

BASE = {
    "op": "create",
    "scope": "project",
    "memory": {"id": "pref-tabs", "type": "preference", "description": "Tabs", "body": "Use tabs."},
    "rationale": "The user said so.",
    "evidence": [{"quote": "use tabs", "session_id": "s1", "turn_id": "t1"}],
}


def _store_digest(root: Path) -> dict[str, str]:
    store = root / ".memory-review"
    return {
        str(p.relative_to(store)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(store.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


def test_the_computed_worst_case_is_under_the_reader_limit() -> None:
    assert limits.candidate_bytes_bound() < limits.MAX_CANDIDATE_BYTES


# --- the maximal proposal, for real ---------------------------------------------------------------


def _fill(make, limit: int) -> int:
    """The largest n for which ``make(n)`` still renders within the memory file's limits."""
    low, high = 0, limit
    while low < high:
        mid = (low + high + 1) // 2
        try:
            render_memory(make(mid))
            low = mid
        except Exception:  # noqa: BLE001 - any refusal means "too big"
            high = mid - 1
    return low


def _max_record(
    memory_id: str, char: str, sources: tuple[Source, ...] = (), related: tuple[str, ...] = ("s1",)
) -> Memory:
    """A memory whose file is as full as it may be, with a body of ``char`` (JSON doubles ``"`` and ``\\``)."""

    def make(n: int) -> Memory:
        return Memory(
            id=memory_id,
            type="fact",
            scope="project",
            description=char * limits.MAX_DESCRIPTION_CHARS,
            created_at="2026-01-01T00:00:00Z",
            updated_at="2026-01-01T00:00:00Z",
            applied_from="cand_" + "0" * 26,
            applied_by="x" * limits.MAX_ACTOR_CHARS,
            sources=sources,
            related_sessions=related,
            body=char * n,
        )

    return make(_fill(make, limits.MAX_MEMORY_BYTES))


def _full_memory_proposal(memory_id: str) -> dict:
    record = _max_record(memory_id, '"', sources=(Source(session_id="s1", turn_id="t1", evidence="q"),))
    return {
        "op": "create",
        "scope": "project",
        "rationale": "seed",
        "memory": {"id": memory_id, "type": "fact", "description": record.description, "body": record.body},
        "evidence": [{"quote": "q", "session_id": "s1", "turn_id": "t1"}],
    }


def _maximal_consolidation(results: list[str], sources: list[str]) -> dict:
    """Every field at its limit, in the characters JSON makes longest."""
    worst = "\x01"  # six bytes in JSON: \u0001
    session = "S" * limits.MAX_SESSION_ID_CHARS
    # The newest MAX_SOURCES quotes become each result's sources: short, so the bodies can be full.
    kept = [{"quote": f"q{i}"} for i in range(limits.MAX_SOURCES)]
    dropped = [
        {
            "quote": worst * (limits.MAX_QUOTE_CHARS - 1) + str(i),
            "session_id": session,
            "turn_id": '"' * limits.MAX_TURN_ID_CHARS,
        }
        for i in range(limits.MAX_EVIDENCE_ITEMS - len(kept))
    ]
    kept_sources = tuple(Source(evidence=item["quote"]) for item in kept)
    return {
        "op": "consolidate",
        "scope": "project",
        "sources": sources,
        "results": [
            {
                "id": rid,
                "type": "fact",
                "description": "\\" * limits.MAX_DESCRIPTION_CHARS,
                "body": _max_record(rid, "\\", kept_sources, ("S" * 128, "s1")).body,
            }
            for rid in results
        ],
        "rationale": worst * limits.MAX_RATIONALE_CHARS,
        "evidence": dropped + kept,
        "proposer": {
            "kind": "agent",
            "name": '"' * limits.MAX_PROPOSER_NAME_CHARS,
            "model": '"' * limits.MAX_PROPOSER_MODEL_CHARS,
        },
        "session_id": session,
    }


def test_the_maximal_proposal_yields_a_candidate_every_reader_accepts(repo: Path, env: dict) -> None:
    results = [f"result-{i}" for i in range(limits.MAX_CONSOLIDATE_RESULTS)]
    sources = [f"source-{i}" for i in range(limits.MAX_CONSOLIDATE_SOURCES)]
    seeded = run_json(
        ["propose", "--file", "-"], env, repo, json.dumps([_full_memory_proposal(m) for m in results + sources])
    )
    run_json(["apply", *(s["id"] for s in seeded)], env, repo)
    full = [len(p.read_bytes()) for p in (repo / ".memory-review" / "memory").iterdir()]
    assert len(full) == len(results + sources) and min(full) > limits.MAX_MEMORY_BYTES - 64

    created = run_json(["propose", "--file", "-"], env, repo, json.dumps(_maximal_consolidation(results, sources)))
    size = (repo / ".memory-review" / "candidates" / f"{created['id']}.json").stat().st_size
    assert size <= limits.candidate_bytes_bound() < limits.MAX_CANDIDATE_BYTES
    listed = run_json(["list"], env, repo)
    assert [c["id"] for c in listed] == [created["id"]] and len(listed[0]["changes"]) == len(results + sources)
    assert run(["show", created["id"]], env, repo).returncode == 0
    assert run_json(["verify"], env, repo)["ok"] is True
    assert run_json(["discard", created["id"]], env, repo)[0]["type"] == "candidate.discarded"


# --- over the limits: one line, exit 1, nothing written ---------------------------------------------


def _with(path: str, value) -> dict:
    proposal = copy.deepcopy(BASE)
    *parents, last = path.split(".")
    node = proposal
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    node[last] = value
    return proposal


OVER_SIZE = {
    "evidence items (the 605-quote MCP proposal)": ("evidence", [{"quote": "q" * 1000}] * 605),
    "quote": ("evidence.0.quote", "q" * (limits.MAX_QUOTE_CHARS + 1)),
    "turn id": ("evidence.0.turn_id", "t" * (limits.MAX_TURN_ID_CHARS + 1)),
    "turn id with a newline": ("evidence.0.turn_id", "t1\nt2"),
    "evidence session id": ("evidence.0.session_id", "s" * (limits.MAX_SESSION_ID_CHARS + 1)),
    "rationale": ("rationale", "r" * (limits.MAX_RATIONALE_CHARS + 1)),
    "proposer model": ("proposer", {"kind": "agent", "name": "a", "model": "m" * 101}),
    "proposer name": ("proposer", {"kind": "agent", "name": "n" * 101}),
    "multi-line proposer name": ("proposer", {"kind": "agent", "name": "a\nb"}),
    "description": ("memory.description", "d" * (limits.MAX_DESCRIPTION_CHARS + 1)),
    "body": ("memory.body", "b" * (limits.MAX_BODY_CHARS + 1)),
    "session id with ..": ("session_id", "../../../etc"),
    "evidence session id with ..": ("evidence.0.session_id", "../../../etc"),
    "session id holding a secret": ("session_id", "ghp_" + "a1B2" * 9),
}


@pytest.mark.parametrize("case", sorted(OVER_SIZE))
def test_an_over_size_field_is_refused_with_one_line_and_nothing_written(repo: Path, env: dict, case: str) -> None:
    before = _store_digest(repo)
    done = run(["propose", "--file", "-"], env, repo, json.dumps(_with(*OVER_SIZE[case])))
    assert done.returncode == 1
    message = done.stderr.strip()
    assert message.startswith("memory-review: error: ") and "\n" not in message and "Traceback" not in message
    assert "ghp_" not in message or case != "session id holding a secret"
    assert _store_digest(repo) == before


def test_too_many_consolidation_sources_or_results_are_refused(repo: Path, env: dict) -> None:
    before = _store_digest(repo)
    many = {
        "op": "consolidate",
        "scope": "project",
        "rationale": "merge",
        "sources": [f"m{i}" for i in range(limits.MAX_CONSOLIDATE_SOURCES + 1)],
        "results": [BASE["memory"]],
    }
    done = run(["propose", "--file", "-"], env, repo, json.dumps(many))
    assert done.returncode == 1 and "sources" in done.stderr
    many = {**many, "sources": ["m1"], "results": [dict(BASE["memory"], id=f"r{i}") for i in range(5)]}
    done = run(["propose", "--file", "-"], env, repo, json.dumps(many))
    assert done.returncode == 1 and "results" in done.stderr
    assert _store_digest(repo) == before


def test_a_batch_with_one_over_size_proposal_writes_none(repo: Path, env: dict) -> None:
    before = _store_digest(repo)
    batch = [BASE, _with("rationale", "r" * (limits.MAX_RATIONALE_CHARS + 1))]
    done = run(["propose", "--file", "-"], env, repo, json.dumps(batch))
    assert done.returncode == 1 and "stdin[1]: create.rationale" in done.stderr
    assert _store_digest(repo) == before


def test_a_person_s_over_long_reason_is_refused(repo: Path, env: dict) -> None:
    created = run_json(["propose", "--file", "-"], env, repo, json.dumps(BASE))
    before = _store_digest(repo)
    done = run(["discard", created["id"], "--reason", "r" * (limits.MAX_REASON_CHARS + 1)], env, repo)
    assert done.returncode == 1 and "reason" in done.stderr
    assert _store_digest(repo) == before
