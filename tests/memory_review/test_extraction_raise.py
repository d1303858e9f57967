"""Repetition across sessions raises a pending candidate (ADR 0050): real session files, real stores.

A rule proposed from one session, then said again in another, is the same candidate raised — priority
high, the new session's quote added — as a ``candidate.edited`` by the proposer. Never an approved memory
or a discarded candidate, never lower, bounded, idempotent; ``verify``'s reviewed-record rule holds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from workspace_kit import fresh_workspace

from memory_review.events import Change
from memory_review.extract.plan import SkippedFinding
from memory_review.extract.repetition import pending_ref, raises
from memory_review.limits import MAX_EVIDENCE_ITEMS
from memory_review.reviewed import unreviewed_applies
from memory_review.workspace import Workspace

RULE_A = "From now on, always run `make lint` before you commit in this repo."
RULE_B = "Remember: always run `make lint` before you commit in this repo."
RULE_C = "Always run make lint before you commit in this repo, please."
ACTOR = "heuristic:memory-review-heuristic"


def session(folder: Path, session_id: str, *texts: str) -> Path:
    """A Claude Code session file: one user record per text, each answered by the assistant."""
    lines = []
    for number, text in enumerate(texts, 1):
        user = {"role": "user", "content": text}
        lines.append({"type": "user", "uuid": f"{session_id}-u{number}", "sessionId": session_id, "message": user})
        answer = {"role": "assistant", "content": [{"type": "text", "text": "Done."}]}
        lines.append(
            {"type": "assistant", "uuid": f"{session_id}-a{number}", "sessionId": session_id, "message": answer}
        )
    path = folder / f"{session_id}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return fresh_workspace(tmp_path)


@pytest.fixture
def sessions(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "sessions"
    folder.mkdir()
    return {
        "a": session(folder, "sess-a", RULE_A),
        "b": session(folder, "sess-b", "Thanks.", RULE_B),
        "c": session(folder, "sess-c", RULE_C),
    }


def _only(ws: Workspace):
    [state] = ws.list_candidates()
    return state.candidate


def test_said_again_in_another_session_raises_the_pending_candidate(ws: Workspace, sessions) -> None:
    first = ws.extract(sessions["a"])
    [cid] = first.proposed
    created = _only(ws)
    assert created.priority == "medium" and [e.session_id for e in created.evidence] == ["sess-a"]

    again = ws.extract(sessions["b"])
    assert again.proposed == [] and again.raised == [cid]
    raised = _only(ws)
    assert raised.id == cid and raised.priority == "high"
    assert [(e.session_id, e.quote) for e in raised.evidence] == [("sess-a", RULE_A), ("sess-b", RULE_B)]
    assert "Said again in session sess-b." in raised.rationale
    [change], [before] = raised.changes, created.changes
    assert change.after is not None and before.after is not None
    kept = ("id", "type", "description", "body")  # what the memory says is never touched by a raise
    assert {k: getattr(change.after, k) for k in kept} == {k: getattr(before.after, k) for k in kept}
    assert [s.session_id for s in change.after.sources] == ["sess-a", "sess-b"]
    assert change.after.related_sessions == ("sess-a", "sess-b")
    [edited] = ws.log(type="candidate.edited", candidate=cid)
    assert edited.actor == ACTOR  # the proposer, in the log the reviewer reads
    assert edited.record is not None and edited.record["priority"] == "high"

    seq = ws.log()[-1].seq
    assert ws.extract(sessions["b"]).raised == []  # the same session found twice adds nothing
    assert ws.extract(sessions["a"]).raised == []
    assert ws.log()[-1].seq == seq

    third = ws.extract(sessions["c"])  # already high: never lowered, the new quote added
    assert third.raised == [cid]
    assert _only(ws).priority == "high"
    assert [e.session_id for e in _only(ws).evidence] == ["sess-a", "sess-b", "sess-c"]


def test_several_files_in_one_run_raise_once_with_each_new_session(ws: Workspace, sessions) -> None:
    [cid] = ws.extract(sessions["a"]).proposed
    summary = ws.extract([sessions["b"], sessions["c"]])
    assert summary.proposed == [] and summary.raised == [cid]
    assert [e.session_id for e in _only(ws).evidence] == ["sess-a", "sess-b", "sess-c"]
    assert [e.type for e in ws.log(candidate=cid)] == ["candidate.created", "candidate.edited"]


def test_applying_a_raised_candidate_writes_the_raised_record_and_verify_holds(ws: Workspace, sessions) -> None:
    [cid] = ws.extract(sessions["a"]).proposed
    ws.extract(sessions["b"])
    [applied] = ws.apply([cid], actor="alice")
    [memory] = ws.memories()
    assert [s.session_id for s in memory.sources] == ["sess-a", "sess-b"]
    assert all(report.problems == [] for report in ws.verify())

    # The rule it must still hold to: the apply writes the *last* record, the raise's, not the first one.
    created, edited = ws.log(candidate=cid)[:2]
    assert created.record is not None and edited.type == "candidate.edited"
    [change] = applied.changes or ()
    assert change.after is not None
    first_after = {
        **created.record["changes"][0]["after"],
        **{k: change.after[k] for k in ("applied_by", "applied_from")},
    }
    stale = applied.model_copy(update={"changes": (Change(memory=change.memory, before=None, after=first_after),)})
    assert list(unreviewed_applies([created, edited, applied])) == []
    [found] = unreviewed_applies([created, edited, stale])
    assert "content other than the reviewed record" in found.why


def test_an_approved_memory_is_never_touched(ws: Workspace, sessions) -> None:
    [cid] = ws.extract(sessions["a"]).proposed
    ws.apply([cid], actor="alice")
    before = [(m.id, m.sources, m.updated_at) for m in ws.memories()]
    seq = ws.log()[-1].seq
    summary = ws.extract(sessions["b"])
    assert summary.proposed == [] and summary.raised == []
    assert ws.log()[-1].seq == seq
    assert [(m.id, m.sources, m.updated_at) for m in ws.memories()] == before


def test_a_discarded_candidate_stays_discarded(ws: Workspace, sessions) -> None:
    [cid] = ws.extract(sessions["a"]).proposed
    ws.discard([cid], actor="alice", reason="not a rule here")
    summary = ws.extract(sessions["b"])
    assert summary.raised == []
    assert [e.type for e in ws.log(candidate=cid)] == ["candidate.created", "candidate.discarded"]
    [again] = ws.list_candidates()  # extract proposes a discarded text again, flagged, as before
    assert "previously-discarded" in again.flags
    assert ws.extract(sessions["c"]).raised == []  # and repetition does not push that one up either
    assert ws.show(again.candidate.id).candidate.priority == again.candidate.priority


def test_a_candidate_resolved_before_the_raise_is_left_alone(ws: Workspace, sessions) -> None:
    [cid] = ws.extract(sessions["a"]).proposed
    quotes = _only(ws).evidence
    ws.apply([cid], actor="alice")
    assert ws.raise_candidates([(cid, quotes)], actor=ACTOR) == []
    assert [e.type for e in ws.log(candidate=cid)] == ["candidate.created", "candidate.applied"]


def test_extract_as_a_command_says_what_it_raised(ws: Workspace, sessions, tmp_path: Path) -> None:
    [cid] = ws.extract(sessions["a"]).proposed
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home")}
    argv = [sys.executable, "-m", "memory_review.cli", "--project", str(ws.root), "extract"]
    done = subprocess.run([*argv, str(sessions["b"])], capture_output=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode()
    assert f"raised {cid}: said again in another session, priority high" in done.stdout.decode()
    done = subprocess.run([*argv, "--json", str(sessions["b"])], capture_output=True, env=env, timeout=120, check=False)
    assert done.returncode == 0 and json.loads(done.stdout)["raised"] == []  # found again: nothing to add


# --- the pure decision ---------------------------------------------------------------------------------


def _skipped(ws: Workspace, path: Path) -> list[SkippedFinding]:
    from memory_review.extract import extract, plan, read_transcript
    from memory_review.extraction import known_records

    known = known_records(ws)
    findings = extract(read_transcript(path))
    return plan(findings, approved=known.approved, pending=known.pending, discarded=known.discarded).skipped_duplicates


def test_the_evidence_list_never_grows_past_its_limit(ws: Workspace, sessions) -> None:
    [cid] = ws.extract(sessions["a"]).proposed
    candidate = _only(ws)
    skipped = _skipped(ws, sessions["b"])
    memories = candidate.memory_ids()

    def ref(evidence: int, priority: str = "medium"):
        quotes = candidate.evidence * evidence
        return pending_ref(cid, memories=memories, evidence=quotes, session_id="sess-a", priority=priority, flags=())  # type: ignore[arg-type]

    [room] = raises(skipped, [ref(MAX_EVIDENCE_ITEMS - 1)])
    assert [e.session_id for e in room.evidence] == ["sess-b"]
    [full] = raises(skipped, [ref(MAX_EVIDENCE_ITEMS)])
    assert full.evidence == ()  # full: the priority is still raised, no quote added
    assert raises(skipped, [ref(MAX_EVIDENCE_ITEMS, "high")]) == []  # full and high: nothing to do


def test_no_raise_without_a_known_session_or_from_an_untrusted_finding(ws: Workspace, sessions) -> None:
    [cid] = ws.extract(sessions["a"]).proposed
    candidate = _only(ws)
    skipped = _skipped(ws, sessions["b"])
    memories = candidate.memory_ids()
    nowhere = pending_ref(cid, memories=memories, evidence=(), session_id=None, priority="medium", flags=())
    assert raises(skipped, [nowhere]) == []  # an agent's proposal with no session: "another" means nothing
    known = pending_ref(
        cid, memories=memories, evidence=candidate.evidence, session_id=None, priority="medium", flags=()
    )
    untrusted = [
        s.model_copy(update={"finding": s.finding.model_copy(update={"flags": {"untrusted-source"}})}) for s in skipped
    ]
    assert raises(untrusted, [known]) == []
    assert [p.candidate for p in raises(skipped, [known])] == [cid]


def test_two_raisers_deciding_from_the_same_view_quote_a_session_once_and_stay_bounded(ws: Workspace, sessions) -> None:
    """What the store re-decides under its lock: a second process that planned the same session (another
    turn of it) adds nothing, and quotes past the evidence limit are left out."""
    from memory_review.proposal import Evidence

    [cid] = ws.extract(sessions["a"]).proposed
    first = Evidence(quote=RULE_B, session_id="sess-b", turn_id="sess-b-u2")
    other_turn = Evidence(quote=RULE_B + " Really.", session_id="sess-b", turn_id="sess-b-u3")
    assert ws.raise_candidates([(cid, (first,))], actor=ACTOR) == [cid]
    assert ws.raise_candidates([(cid, (other_turn,))], actor=ACTOR) == []  # sess-b is quoted already
    many = tuple(Evidence(quote=RULE_C, session_id=f"sess-{n:02d}", turn_id="t1") for n in range(12))
    assert ws.raise_candidates([(cid, many)], actor=ACTOR) == [cid]
    evidence = _only(ws).evidence
    assert len(evidence) == MAX_EVIDENCE_ITEMS
    assert [e.session_id for e in evidence[:2]] == ["sess-a", "sess-b"]
    assert ws.raise_candidates([(cid, many)], actor=ACTOR) == []  # full and high: nothing to write
    assert all(report.problems == [] for report in ws.verify())
