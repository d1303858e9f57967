"""Judged splits (ADR 0066): a whole history read by the product's reader, its proposals judged blind among decoys."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tools.extraction_eval import evaluate_split, load_split
from tools.judged_split import aider_prompts, choose_decoys, heuristic_is_at, make_sheet, merge, stricter, write_split

RULE = "Always run the tests with uv run pytest before you commit, in this repo."
HISTORY = f"""
# aider chat started at 2024-08-05 19:33:02

#### /add aider/utils.py

#### /ask what does this do?

#### what does this do?

> Added aider/utils.py to the chat.

It splits the lines.

#### {RULE}

# aider chat started at 2024-08-06 10:00:00

#### use the key sk-proj-Q3n8X1vT7kZp9LmR2sYw4HcB6dJfA0eGuNiOxVtEhK5 for the api

#### rename `split_lines` to `lines_of`

#### thanks!
"""
META = {
    "repo": "example/aider-history",
    "licence": "MIT (LICENSE, test data)",
    "format": "aider chat history",
    "path": ".aider.chat.history.md",
    "commit": "0" * 40,
    "session": "judged-test",
    "clipped": False,
    "window": "the whole file",
}


def _history(tmp_path: Path) -> Path:
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(HISTORY, encoding="utf-8")
    return path


def test_an_aider_history_gives_the_persons_messages_once_each(tmp_path: Path) -> None:
    prompts = aider_prompts(_history(tmp_path), skip=[])
    texts = [text for text, _ in prompts]
    assert texts[0] == "what does this do?"  # /add is aider's command; the /ask logged twice is kept once
    assert RULE in texts and "thanks!" in texts
    assert {session for _, session in prompts} == {"aider-2024-08-05-19-33-02", "aider-2024-08-06-10-00-00"}
    assert not any(text.startswith("/") for text in texts)


def test_lines_of_an_earlier_split_can_be_left_out(tmp_path: Path) -> None:
    history = _history(tmp_path)
    rule_line = HISTORY.splitlines().index(f"#### {RULE}") + 1
    texts = [text for text, _ in aider_prompts(history, skip=[(rule_line, rule_line)])]
    assert RULE not in texts and "thanks!" in texts


def test_a_written_split_is_unjudged_and_holds_no_secret(tmp_path: Path) -> None:
    path = write_split("judged-test", META, aider_prompts(_history(tmp_path), skip=[]), tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["judged"] is True
    (session,) = data["sessions"]
    assert {p["label"] for p in session["prompts"]} == {"unjudged"}
    assert "sk-proj-" not in path.read_text(encoding="utf-8")
    assert any("[REDACTED:" in p["text"] for p in session["prompts"])
    assert len(session["sessions"]) == len(session["prompts"])


def test_decoys_are_the_same_for_the_same_seed_and_never_a_proposal() -> None:
    ids = [f"s:{n}" for n in range(40)]
    texts = {t: ("never push to main" if n % 3 == 0 else "fix the chart") for n, t in enumerate(ids)}
    proposed = {"s:0", "s:5"}
    first = choose_decoys(ids, texts, proposed, per_proposal=3, seed=7)
    assert first == choose_decoys(ids, texts, proposed, per_proposal=3, seed=7)
    assert len(first) == 6 and len(set(first)) == 6 and not set(first) & proposed
    assert sum(1 for t in first if texts[t] == "never push to main") == 3  # half rule-looking


def _judged_history(tmp_path: Path) -> tuple[dict[str, object], dict[str, object]]:
    write_split("judged-test", META, aider_prompts(_history(tmp_path), skip=[]), tmp_path)
    return make_sheet("judged-test", "abc1234", per_proposal=2, seed=1, folder=tmp_path)


def test_the_sheet_hides_which_item_was_proposed(tmp_path: Path) -> None:
    sheet, key = _judged_history(tmp_path)
    items = sheet["items"]
    assert isinstance(items, list) and items
    fields = {"item", "position", "earlier_prompts_in_its_session", "text", "cut_for_the_sheet"}
    assert all(set(item) == fields for item in items)
    assert "proposed" not in json.dumps(sheet)
    history = sheet["history"]  # the whole history, for every item alike: a repeat in another session shows
    assert isinstance(history, list)
    assert all(history[item["position"]]["text"] == item["text"] for item in items)
    transcript, _ = load_split("judged-test", tmp_path)
    texts = {t.turn_id: t.text for t in transcript.turns}
    entries = key["items"]
    assert isinstance(entries, dict)
    proposed = [texts[entry["turn"]] for entry in entries.values() if entry["proposed"]]
    assert proposed == [RULE]  # the heuristic's one proposal on this history, among the decoys
    assert sum(1 for entry in entries.values() if not entry["proposed"]) == 2


def test_merged_judgments_give_precision_but_no_recall(tmp_path: Path) -> None:
    sheet, key = _judged_history(tmp_path)
    entries = key["items"]
    assert isinstance(entries, dict)
    judgments = {item: {"label": "durable" if entry["proposed"] else "one-off"} for item, entry in entries.items()}
    merge("judged-test", [judgments], key, tmp_path)
    figures = evaluate_split("judged-test", tmp_path)
    assert (len(figures.proposals), figures.unjudged, figures.kept) == (1, 0, 1)
    assert figures.precision == 1.0 and figures.recall is None


def test_a_judgment_must_be_a_label_with_its_parts_in_the_text(tmp_path: Path) -> None:
    _, key = _judged_history(tmp_path)
    entries = key["items"]
    assert isinstance(entries, dict)
    judgments: dict[str, dict[str, object]] = {item: {"label": "one-off"} for item in entries}
    judgments[next(iter(entries))] = {"label": "durable", "keep": ["words the prompt never had"]}
    with pytest.raises(SystemExit, match="keep"):
        merge("judged-test", [judgments], key, tmp_path)
    with pytest.raises(SystemExit, match="lack"):
        merge("judged-test", [{}], key, tmp_path)


def test_a_proposal_on_an_unjudged_prompt_counts_in_no_figure(tmp_path: Path) -> None:
    write_split("judged-test", META, aider_prompts(_history(tmp_path), skip=[]), tmp_path)
    figures = evaluate_split("judged-test", tmp_path)
    assert (len(figures.proposals), figures.unjudged, figures.kept) == (1, 1, 0)
    assert figures.precision is None


def test_two_judges_give_the_stricter_label_and_each_is_kept(tmp_path: Path) -> None:
    _, key = _judged_history(tmp_path)
    entries = key["items"]
    assert isinstance(entries, dict)
    lenient = {item: {"label": "durable"} for item in entries}
    strict = {item: {"label": "maybe" if entry["proposed"] else "one-off"} for item, entry in entries.items()}
    earlier = {item: {"label": "one-off"} for item in entries}
    merge("judged-test", [lenient, strict], key, tmp_path, earlier=[earlier])
    data = json.loads((tmp_path / "judged-test.json").read_text(encoding="utf-8"))
    assert [set(judge.values()) for judge in data["judging"]["earlier_judges"]] == [{"one-off"}]  # kept, unused
    labels = {prompt["label"] for prompt in data["sessions"][0]["prompts"]}
    assert labels == {"maybe", "one-off", "unjudged"}
    assert [set(judge.values()) for judge in data["judging"]["judges"]] == [{"durable"}, {"maybe", "one-off"}]
    assert evaluate_split("judged-test", tmp_path).kept == 1  # maybe is worth keeping


def test_on_the_same_label_the_judgment_naming_the_rule_is_stricter() -> None:
    plain, narrow = {"label": "durable"}, {"label": "durable", "keep": ["always run the tests"]}
    assert stricter(plain, narrow) is narrow and stricter(narrow, plain) is narrow
    assert stricter({"label": "one-off"}, narrow)["label"] == "one-off"


def test_a_sheet_is_made_only_by_the_frozen_heuristic(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True, timeout=60)

    heuristic = tmp_path / "memory_review" / "extract" / "heuristic.py"
    heuristic.parent.mkdir(parents=True)
    heuristic.write_text("ROUND = 11\n", encoding="utf-8")
    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "frozen")
    assert heuristic_is_at("HEAD", tmp_path)
    (tmp_path / "README.md").write_text("not the heuristic\n", encoding="utf-8")
    assert heuristic_is_at("HEAD", tmp_path)  # only memory_review/extract counts
    heuristic.write_text("ROUND = 12\n", encoding="utf-8")
    assert not heuristic_is_at("HEAD", tmp_path)
    assert not heuristic_is_at("0" * 40, tmp_path)  # no such commit
