"""``python -m tools.model_eval``: the model extractors judged on labelled splits, through a real stand-in CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from agent_cli_kit import MOCKS, make_stand_in

from tools import model_eval
from tools.extraction_eval import REPO, ROLES

RULE = "Never mock the database in tests, use the test container."
TASK = "Fix the login bug on the settings page."
MAYBE = "Always use pnpm, not npm."
LOGIN = {
    "name": "fix-login-bug",
    "type": "convention",
    "scope": "project",
    "description": "Fix the login bug on the settings page",
    "body": "Fix the login bug on the settings page.",
}


def _split(folder: Path, name: str, prompts: list[tuple[str, str]]) -> None:
    document = {
        "split": name,
        "sessions": [{"session": f"{name}-s1", "prompts": [{"label": label, "text": text} for text, label in prompts]}],
    }
    (folder / f"{name}.json").write_text(json.dumps(document), encoding="utf-8")


def _eval(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "tools.model_eval", *args]
    return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=120, check=False)


def test_a_models_proposals_are_judged_as_the_heuristics_and_a_failed_split_counts_in_none(tmp_path: Path) -> None:
    folder = tmp_path / "labelled"
    folder.mkdir()
    _split(folder, "heldout900", [(RULE, "durable"), (TASK, "one-off"), (MAYBE, "maybe")])
    _split(folder, "heldout901", [("Always run the linter before committing.", "durable")])
    stand_in = make_stand_in(tmp_path / "bin", "claude")
    stand_in.act(per_call=[{"answer": json.dumps([MOCKS, LOGIN])}, {"error": True}])
    env = {
        **os.environ,
        "MEMORY_REVIEW_HOME": str(tmp_path / "home"),
        "MEMORY_REVIEW_CLAUDE_CLI": str(stand_in.program),
    }
    out = tmp_path / "figures.json"
    args = ["--extractor", "claude", "--split", "heldout900", "--split", "heldout901", "--folder", str(folder)]
    done = _eval([*args, "--json", str(out)], env)
    assert done.returncode == 0, done.stderr
    assert "| heldout900 | 3 | 1 / 1 | 2 | 1 | 50% | 1 of 1 | 100% |" in done.stdout
    assert "| **all answered** | 3 | 1 / 1 | 2 | 1 | 50% | 1 of 1 | 100% |" in done.stdout
    assert "- heldout901: cli-error: claude reported an error" in done.stdout
    first, second = json.loads(out.read_text())
    assert (first["kept"], first["durable_found"], first["calls"], first["failure"]) == (1, 1, 1, None)
    assert second["calls"] == 1 and second["failure"].startswith("cli-error")
    assert [RULE in call["stdin"] for call in stand_in.calls()] == [True, False]


def test_dry_run_counts_calls_and_sends_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "labelled"
    folder.mkdir()
    _split(folder, "heldout900", [(f"Look at module m{n}. " + "x" * 1_900, "one-off") for n in range(40)])
    stand_in = make_stand_in(tmp_path / "bin", "claude")
    env = {**os.environ, "MEMORY_REVIEW_CLAUDE_CLI": str(stand_in.program)}
    done = _eval(["--extractor", "claude", "--split", "heldout900", "--folder", str(folder), "--dry-run"], env)
    assert done.returncode == 0, done.stderr
    assert "heldout900: 40 prompts, 76," in done.stdout and "2 call(s)" in done.stdout
    assert stand_in.calls() == []


def test_a_cli_that_cannot_be_found_is_one_line_and_exit_2(tmp_path: Path) -> None:
    folder = tmp_path / "labelled"
    folder.mkdir()
    _split(folder, "heldout900", [(RULE, "durable")])
    env = {**os.environ, "MEMORY_REVIEW_HOME": str(tmp_path / "home"), "PATH": "/nonexistent"}
    env.pop("MEMORY_REVIEW_CODEX_CLI", None)
    done = _eval(["--extractor", "codex", "--split", "heldout900", "--folder", str(folder)], env)
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("model_eval: error: ") and "MEMORY_REVIEW_CODEX_CLI" in line


def test_the_default_splits_are_the_held_out_ones_no_round_was_tuned_on() -> None:
    chosen = model_eval.held_out_splits()
    assert "heldout11" in chosen and "heldout380" in chosen
    assert not set(chosen) & set(ROLES)  # "seen" splits, renamed dev, are left out
    assert all(name.startswith("heldout") for name in chosen)
    assert model_eval.held_out_splits(since=370)[0] == "heldout370"


def test_an_endpoint_not_configured_fails_every_split_with_no_call_and_exit_1(tmp_path: Path) -> None:
    folder = tmp_path / "labelled"
    folder.mkdir()
    _split(folder, "heldout900", [(RULE, "durable")])
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_REVIEW_LLM_")}
    out = tmp_path / "figures.json"
    done = _eval(["--extractor", "model", "--split", "heldout900", "--folder", str(folder), "--json", str(out)], env)
    assert done.returncode == 1
    assert "- heldout900: not-configured: set MEMORY_REVIEW_LLM_URL" in done.stdout
    [split] = json.loads(out.read_text())
    assert split["calls"] == 0 and split["proposals"] == []
