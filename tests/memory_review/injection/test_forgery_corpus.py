"""Look-alike forgeries and injection phrasings: flagged at propose, inert in the block when applied anyway.

The corpus (``forgery_corpus``) goes through the real ``Workspace.propose`` and
``apply`` one entry at a time, and all at once through the real CLI in a
subprocess; the block is judged by the corpus's own reading of look-alikes,
independent of the project's table (issue 13, point 4).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from forgery_corpus import FORGERIES, INJECTIONS, STANDS_FOR, reading
from forkserver_kit import as_text, run_cli, text_input

from memory_review.proposal import Evidence, ProposedMemory, Proposer, UpsertProposal
from memory_review.safety import FLAG_INJECTION, hidden_positions
from memory_review.workspace import Workspace

TAG_LINE_RE = re.compile(r"^\[memory:(user|project|session):(preference|convention|fact|forbidden)\] ", re.MULTILINE)
OPEN_RE = re.compile(r"<\s*memory[\s_-]*review[\s_-]*context")
CLOSE_RE = re.compile(r"<\s*/\s*memory[\s_-]*review[\s_-]*context")
TEXTS = [f.text for f in FORGERIES] + INJECTIONS
IDS = [f.name for f in FORGERIES] + [f"injection {i}" for i in range(len(INJECTIONS))]


def proposal(memory_id: str, body: str) -> UpsertProposal:
    return UpsertProposal(
        op="create",
        scope="project",
        rationale="the agent says the user wants this",
        memory=ProposedMemory(id=memory_id, type="convention", description=f"About {memory_id}", body=body),
        evidence=(Evidence(quote="remember this", session_id="s1", turn_id="t1"),),
        proposer=Proposer(kind="agent", name="corpus"),
    )


def assert_inert(block: str, count: int) -> None:
    """``count`` frames and one block, read as a person would read the look-alikes."""
    read = reading(block)
    assert len(TAG_LINE_RE.findall(block)) == count
    assert read.count("[memory:") == count, read
    assert len(OPEN_RE.findall(read)) == 1 and block.startswith("<memory-review-context>\n")
    assert len(CLOSE_RE.findall(read)) == 1 and block.endswith("</memory-review-context>\n")
    assert hidden_positions(block) == []


def test_the_corpus_is_large_and_every_forgery_reads_as_a_tag() -> None:
    assert len(FORGERIES) >= 50 and len(INJECTIONS) >= 30
    assert len(set(TEXTS)) == len(TEXTS)
    for forgery in FORGERIES:
        read = reading(forgery.text)
        assert "[memory:" in read or OPEN_RE.search(read) or CLOSE_RE.search(read), forgery.name
        assert forgery.text != read  # every one is disguised, none is plain ASCII
    assert STANDS_FOR  # the oracle knows the look-alikes it used


@pytest.mark.parametrize("text", TEXTS, ids=IDS)
def test_flagged_at_propose_and_inert_when_applied(tmp_path: Path, text: str) -> None:
    (tmp_path / "p").mkdir()
    ws = Workspace(tmp_path / "p", tmp_path / "home")
    ws.init()
    [state] = ws.propose([proposal("corpus-entry", text)])
    assert FLAG_INJECTION in state.candidate.flags
    ws.apply([state.candidate.id], actor="alice")
    plain = ws.propose([proposal("plain-note", "Use tabs in Makefiles.")])
    ws.apply([plain[0].candidate.id], actor="alice")
    block = ws.context(budget=10**6).text
    assert_inert(block, 2)


def _cli(args: list[str], env: dict, cwd: Path, stdin: str | None = None):
    done = as_text(run_cli(args, env=env, cwd=cwd, stdin=text_input(stdin), timeout=120))  # forkserver_kit
    assert done.returncode == 0, done.stderr
    return done.stdout


# The block holds 200 lines by default; a chunk this size always fits, so every memory gets its frame.
CHUNK = 25


@pytest.mark.parametrize("start", range(0, len(TEXTS), CHUNK))
def test_the_whole_corpus_through_the_cli(tmp_path: Path, start: int) -> None:
    project = tmp_path / "repo"
    project.mkdir()
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home"), "MEMORY_REVIEW_ACTOR": "alice"}
    texts = TEXTS[start : start + CHUNK]
    lines = "\n".join(
        json.dumps(proposal(f"corpus-{i:03d}", text).model_dump(mode="json"), ensure_ascii=False)
        for i, text in enumerate(texts)
    )
    _cli(["init"], env, project)
    results = json.loads(_cli(["propose", "--file", "-", "--json"], env, project, lines))
    assert len(results) == len(texts)
    unflagged = [IDS[start + i] for i, result in enumerate(results) if FLAG_INJECTION not in result["flags"]]
    assert unflagged == []
    _cli(["apply", *(result["id"] for result in results), "--json"], env, project)
    block = json.loads(_cli(["context", "--budget", str(10**7), "--json"], env, project))["text"]
    assert_inert(block, len(texts))
