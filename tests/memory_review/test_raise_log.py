"""``log --json`` and ``log --session`` know a raise (ADR 0050, "Later"), through the command as a process.

A repeated rule raising a pending candidate is stored as a ``candidate.edited`` by the proposer, carrying
the candidate's first session. ``log --json`` gives such an event, as stored, a ``raised`` object (what
``log``'s text says); every other event is its stored line. ``log --session B`` lists the raises found
again in ``B`` too, in log order, once, and still lists them under the candidate's own first session.
Everything here runs the real CLI on real session files: the extractions, a person's edit, the reads.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_kit import cli_env, git_repo, run, run_json
from test_extraction_raise import ACTOR, RULE_A, RULE_B, RULE_C, session

NPM = "In this repo we never use npm; always use pnpm instead."


class Story:
    """A project where the lint rule (from sess-a) was raised in sess-b, found again in sess-c and sess-d
    (already high), and then edited by alice; sess-c also proposed a rule of its own (the npm one), which
    alice applied."""

    def __init__(self, tmp_path: Path) -> None:
        self.env = cli_env(tmp_path)
        self.root = git_repo(tmp_path / "p", self.env)
        folder = tmp_path / "sessions"
        folder.mkdir()
        first = self.extract(session(folder, "sess-a", RULE_A))
        [self.cid] = first["proposed"]
        assert self.extract(session(folder, "sess-b", "Thanks.", RULE_B))["raised"] == [self.cid]
        both = self.extract(session(folder, "sess-c", "Thanks.", RULE_B, NPM))
        [self.npm] = both["proposed"]
        assert both["raised"] == [self.cid]
        assert self.extract(session(folder, "sess-d", RULE_C))["raised"] == [self.cid]
        editor = tmp_path / "editor.py"
        editor.write_text(
            "import sys,pathlib; p=pathlib.Path(sys.argv[1]); "
            "p.write_text(p.read_text().replace('in this repo.\\n', 'in this repo. Also `make test`.\\n'))"
        )
        edited = run(["edit", self.cid], {**self.env, "EDITOR": f"{sys.executable} {editor}"}, self.root)
        assert edited.returncode == 0, edited.stderr
        assert run(["apply", self.npm], self.env, self.root).returncode == 0

    def extract(self, path: Path) -> dict:
        return run_json(["extract", str(path)], self.env, self.root)

    def log(self, *args: str) -> list[dict]:
        return run_json(["log", *args], self.env, self.root)

    def text(self, *args: str) -> list[str]:
        done = run(["log", *args], self.env, self.root)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    def stored(self) -> list[dict]:
        lines = (self.root / ".memory-review" / "events.jsonl").read_bytes().splitlines()
        return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def story(tmp_path_factory: pytest.TempPathFactory) -> Story:
    return Story(tmp_path_factory.mktemp("raise_log"))


def _raised(proposer: str, changed: bool, *sessions: str) -> dict:
    return {"proposer": proposer, "priority": "high", "priority_changed": changed, "sessions": list(sessions)}


def test_json_marks_each_raise_and_nothing_else(story: Story) -> None:
    log = story.log()
    edits = [(e["seq"], e["actor"], e.get("raised")) for e in log if e["type"] == "candidate.edited"]
    assert [(actor, raised) for _seq, actor, raised in edits] == [
        (ACTOR, _raised(ACTOR, True, "sess-b")),
        (ACTOR, _raised(ACTOR, False, "sess-c")),  # already high: only the quote was added
        (ACTOR, _raised(ACTOR, False, "sess-d")),
        ("alice", None),  # a person's edit is an edit: no "raised" key at all
    ]
    assert [e for e in log if "raised" in e and e["type"] != "candidate.edited"] == []


def test_json_of_every_event_is_its_stored_line_and_a_raise_adds_one_key_last(story: Story) -> None:
    log, stored = story.log(), story.stored()
    assert len(log) == len(stored) == 7
    assert any(e["type"] == "candidate.applied" and e["changes"][0]["before"] is None for e in log)
    for entry, line in zip(log, stored, strict=True):
        raised = {"raised": entry["raised"]} if "raised" in entry else {}
        assert entry == {**line, **raised}
        assert list(entry) == [*line, *raised]  # the keys in the stored order (sorted), "raised" after them


def test_session_lists_the_raises_found_in_it(story: Story) -> None:
    def seqs(*args: str) -> list[int]:
        return [e["seq"] for e in story.log(*args)]

    by_seq = {e["seq"]: e for e in story.log()}
    [b_raise, c_raise, d_raise] = [s for s, e in by_seq.items() if "raised" in e]
    [npm_created] = [s for s, e in by_seq.items() if e["type"] == "candidate.created" and e["candidate"] == story.npm]
    [npm_applied] = [s for s, e in by_seq.items() if e["type"] == "candidate.applied"]
    assert npm_created < c_raise < npm_applied  # sess-c proposed its own rule, then raised the lint one
    assert seqs("--session", "sess-b") == [b_raise]
    assert seqs("--session", "sess-c") == [npm_created, c_raise, npm_applied]  # log order, each once
    assert seqs("--session", "sess-d") == [d_raise]
    # still listed under the candidate's own first session, where the events say they are, once each
    assert all(by_seq[s]["session"] == "sess-a" for s in (b_raise, c_raise, d_raise))
    assert seqs("--session", "sess-a") == [s for s, e in by_seq.items() if e.get("session") == "sess-a"]
    assert {b_raise, c_raise, d_raise} <= set(seqs("--session", "sess-a"))
    [entry] = story.log("--session", "sess-b")
    assert entry == by_seq[b_raise] and entry["raised"]["sessions"] == ["sess-b"]


def test_session_with_other_filters(story: Story) -> None:
    def seqs(*args: str) -> list[int]:
        return [e["seq"] for e in story.log(*args)]

    raises = [e["seq"] for e in story.log() if "raised" in e]
    assert seqs("--session", "sess-c", "--type", "candidate.edited") == [raises[1]]
    assert [e["candidate"] for e in story.log("--session", "sess-c", "--type", "candidate.created")] == [story.npm]
    assert seqs("--session", "sess-c", "--candidate", story.cid) == [raises[1]]
    assert "candidate.edited" not in [e["type"] for e in story.log("--session", "sess-c", "--candidate", story.npm)]
    assert seqs("--session", "sess-b", "--memory", "conv-run-lint-before-commit") == []  # a raise changes no memory
    assert seqs("--session", "nobody") == []


def test_text_of_session_says_raised_and_the_filtered_json_knows_the_record_before(story: Story) -> None:
    [line] = story.text("--session", "sess-b")
    assert line.endswith(f"{story.cid} raised to high by {ACTOR} (found again in session sess-b)")
    [c_line] = [line for line in story.text("--session", "sess-c") if story.cid in line]
    assert c_line.endswith(f"{story.cid} found again in session sess-c by {ACTOR} (already high)")
    # --type leaves out the record each edit replaced; the raise is still read against it
    edits = story.log("--type", "candidate.edited")
    assert [e.get("raised", {}).get("sessions") for e in edits] == [["sess-b"], ["sess-c"], ["sess-d"], None]
    [alice] = [line for line in story.text("--type", "candidate.edited") if "alice" in line]
    assert "candidate.edited" in alice and "raised" not in alice


def test_sessions_lists_a_session_that_only_raised_a_candidate(story: Story) -> None:
    # sess-b and sess-d left no event of their own: each only raised the lint rule (found again there)
    by_session = {s["session"]: s for s in run_json(["sessions"], story.env, story.root)}
    assert by_session["sess-b"]["events"] == 1 and by_session["sess-b"]["types"] == {"candidate.edited": 1}
    assert by_session["sess-d"]["events"] == 1
    assert by_session["sess-c"]["events"] == 3  # its own rule proposed and applied, and the raise
    own_a = [e for e in story.stored() if e.get("session") == "sess-a"]
    assert by_session["sess-a"]["events"] == len(own_a)  # the raises still count where they are stored, once


def test_the_ui_story_of_a_session_shows_the_raise_found_in_it(story: Story) -> None:
    from memory_review.tui.screens.sessions import session_story
    from memory_review.workspace import Workspace

    ws = Workspace(story.root, Path(story.env["MEMORY_REVIEW_HOME"]))
    [step] = session_story(ws, "sess-b").steps
    assert step.event.type == "candidate.edited" and step.event.session == "sess-a"
    assert [s.event.type for s in session_story(ws, "sess-c").steps].count("candidate.edited") == 1
