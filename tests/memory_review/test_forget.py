"""``memory-review forget`` through the real CLI, in a real git repository (ADR 0019)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forget_kit import SECRET, Planted, plant

from memory_review.workspace import Workspace


def _planted(folder: Path) -> Planted:
    planted = plant(folder)
    assert planted.files_holding() and planted.objects_holding()  # it really is everywhere first
    return planted


@pytest.fixture
def kit(tmp_path: Path) -> Planted:
    return _planted(tmp_path)


@pytest.fixture(scope="module")
def untouched(tmp_path_factory: pytest.TempPathFactory) -> Planted:
    """One planted repository for the tests of what changes nothing: each compares every store byte before
    and after, so sharing it hides no write (planting costs a dozen CLI runs and git commits)."""
    return _planted(tmp_path_factory.mktemp("forget"))


def test_a_dry_run_finds_every_place_and_changes_nothing(untouched: Planted) -> None:
    kit = untouched
    before = kit.tree_bytes()
    done = kit.forget("--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["dry_run"] and report["ok"]
    project, user = report["stores"]
    assert {"events.jsonl", "memory/", "candidates/", "hooks/", "git history"} <= set(project["found"])
    assert {"events.jsonl", "memory/", "git history"} <= set(user["found"])
    assert project["event"] is None and project["contexts"]
    assert kit.tree_bytes() == before


def test_forget_takes_the_text_out_of_every_place_and_records_why(kit: Planted) -> None:
    done = kit.forget("--yes")
    assert done.returncode == 0, done.stderr
    assert "nothing in this store holds it any more" in done.stdout and "Rotate the secret" in done.stdout
    assert SECRET not in done.stdout + done.stderr
    assert kit.files_holding() == [] and kit.objects_holding() == []

    verify = kit.json("verify")
    assert verify["ok"] and verify["problems"] == []
    assert all(not store["notes"] for store in verify["stores"])  # the git history caught up too
    (event,) = kit.json("log", "--type", "store.forgotten")
    assert event["actor"] == "alice" and event["reason"] == "leaked staging codeword"
    assert event["forgotten"]["kind"] == "text" and event["forgotten"]["found"]["events.jsonl"] > 0
    assert SECRET not in json.dumps(event)


def test_the_memories_keep_their_other_text_and_replay_still_works(kit: Planted) -> None:
    assert kit.forget("--yes").returncode == 0
    memories = {m["id"]: m for m in kit.json("memories")}
    assert memories["staging-codeword"]["body"] == "The staging codeword is [forgotten]. Deploys need it."
    assert memories["staging-codeword"]["sources"][0]["evidence"] == "user: the codeword is [forgotten]"
    assert memories["use-tabs"]["body"] == "Indent with tabs."
    assert memories["my-codeword"]["body"] == "Mine is [forgotten] too."
    replayed = kit.json("replay", "--at", "3")
    assert replayed["staging-codeword"]["body"].endswith("[forgotten]. Deploys need it.")
    (context,) = kit.json("replay", "--session", "s1")
    assert context["forgotten"] is not None and context["matches"] is False
    assert "[forgotten]" in context["text"] and SECRET not in context["text"]
    shown = kit.run("replay", "--session", "s1")
    assert shown.returncode == 0 and "changed by forget" in shown.stdout


def test_the_pending_and_the_discarded_candidate_keep_their_state(kit: Planted) -> None:
    assert kit.forget("--yes").returncode == 0
    (pending,) = kit.json("list")
    assert pending["id"] == kit.pending and pending["evidence"][0]["quote"] == "as in [forgotten]"
    assert kit.json("show", kit.discarded)["status"] == "discarded"
    kit.json("apply", kit.pending)  # its base still matches: nothing it was based on changed
    assert kit.json("verify")["ok"]


def test_the_store_works_on_after_a_forget_and_a_second_forget_finds_nothing(kit: Planted) -> None:
    assert kit.forget("--yes").returncode == 0
    kit.json("--session", "s2", "context", "--query", "staging")
    again = kit.forget("--yes", "--json")
    assert again.returncode == 0
    assert all(store["found"] == {} and store["event"] is None for store in json.loads(again.stdout)["stores"])
    assert kit.json("verify")["ok"]


def test_a_pattern_is_forgotten_like_a_text(kit: Planted) -> None:
    done = kit.run("forget", "--pattern", r"tangerine-\w+-\d+", "--reason", "codewords", "--yes", "--scope", "project")
    assert done.returncode == 0, done.stderr
    assert not [p for p in kit.files_holding() if ".memory-review" in p]
    assert kit.objects_holding() == [str(kit.home / "history.git")]  # --scope project left the user store


def test_a_damaged_log_is_refused_and_left_as_it_was(kit: Planted) -> None:
    Workspace(kit.repo, kit.home).project.compact()  # the damage behind the checkpoint, where readers skip it
    log = kit.repo / ".memory-review" / "events.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    tampered = next(i for i, line in enumerate(lines) if b'"actor":"alice"' in line)
    lines[tampered] = lines[tampered].replace(b'"actor":"alice"', b'"actor":"mallory"')  # the chain breaks
    log.write_bytes(b"".join(lines))
    before = kit.tree_bytes()
    done = kit.forget("--yes")
    assert done.returncode == 1 and "never rewrites a damaged log" in done.stderr
    assert kit.tree_bytes() == before


def test_an_agent_may_not_forget(untouched: Planted) -> None:
    kit = untouched
    before = kit.tree_bytes()
    done = kit.run(
        "forget", "--pattern", "tangerine", "--reason", "x", "--yes", extra_env={"MEMORY_REVIEW_ACTOR": "agent:claude"}
    )
    assert done.returncode == 1 and "only a person" in done.stderr
    assert kit.tree_bytes() == before


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["--text-from", "-", "--reason", "x"], "abc\n", "at least 6 characters"),
        (["--pattern", "a*", "--reason", "x"], None, "matches the empty text"),
        (["--pattern", "(", "--reason", "x"], None, "not a valid regular expression"),
        (["--text-from", "-", "--reason", f"it was {SECRET}"], SECRET + "\n", "without the text"),
        (["--pattern", "staging-codeword", "--reason", "x"], None, "forget never rewrites"),
        (["--pattern", "alice", "--reason", "x"], None, "never an identifier or who acted"),
    ],
)
def test_what_forget_refuses(untouched: Planted, args: list[str], stdin: str | None, message: str) -> None:
    kit = untouched
    before = kit.tree_bytes()
    done = kit.run("forget", *args, "--yes", stdin=stdin)
    assert done.returncode == 1 and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and kit.tree_bytes() == before


def test_the_secret_never_needs_to_be_on_the_command_line(kit: Planted) -> None:
    secret_file = kit.repo.parent / "secret.txt"
    secret_file.write_text(SECRET + "\n")
    done = kit.run("forget", "--text-from", str(secret_file), "--reason", "from a file", "--yes")
    assert done.returncode == 0, done.stderr
    assert kit.files_holding() == [] and kit.objects_holding() == []
