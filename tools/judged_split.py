"""Judged splits (ADR 0066): the heuristic's precision on whole real histories, its proposals judged blind.

A labelled split costs a look-up and a typed, labelled line per prompt, and the heuristic proposes about once per
500-700 real prompts, so a labelled split rarely holds a proposal to judge. A *judged* split holds a whole history
as a package archive ships it (downloaded and read by the product's own reader, not typed), every prompt
``unjudged``. The frozen heuristic is run on it once; its proposals, hidden among decoys from the same history
under opaque item names, go to a judge who has never read the heuristic; only the judged prompts get labels.
Precision can be counted on it; recall cannot (most prompts have no label), though a rule found among the
decoys is a rule missed.

    python -m tools.judged_split build-aider HISTORY --name NAME --meta META.json [--skip-lines A-B ...]
    python -m tools.judged_split sheet NAME --commit SHA --out SHEET.json --key KEY.json [--decoys 4] [--seed N]
    python -m tools.judged_split merge NAME --judgments JUDGE_A.json JUDGE_B.json --key KEY.json

``META.json`` holds the session fields every split names (repo, licence, format, path, commit, sdist, session,
window). Secrets are replaced by the product's redaction (``[REDACTED:<kind>]``) before anything is written. Only
aider's format has a builder: it is the one history found in a package archive so far (ADR 0066).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from memory_review.extract.readers import read_transcript
from memory_review.safety import redact
from tools.extraction_eval import LABELLED, LABELS, REPO, UNJUDGED, load_split, proposals_of

SHEET_TEXT_LIMIT = 6_000
"""A prompt longer than this is shown cut on the judge's sheet (said so on the item); its label stands for the whole."""
CONTEXT_PROMPTS = 3
CONTEXT_CHARS = 400

RULE_LOOKING = re.compile(
    r"\b(always|never|don'?t|do not|must|should|prefer|instead|from now on|remember|make sure|avoid|"
    r"toujours|jamais|immer|nie|siempre|nunca)\b|总是|始终|不要|别|永远|请使用|以后|必须",
    re.IGNORECASE,
)
"""Decoys are drawn half from prompts that look like rules, so the proposals do not stand out by their words.
It is not the heuristic: a plain list of rule words in a few languages, fixed before any sheet was made."""


def write_split(name: str, meta: dict[str, Any], prompts: Sequence[tuple[str, str]], folder: Path = LABELLED) -> Path:
    """A judged split of these prompts (text, agent session), every prompt unjudged, its secrets redacted."""
    session = dict(meta)
    session["sessions"] = [session_id for _, session_id in prompts]
    session["prompts"] = [{"label": UNJUDGED, "text": redact(text)} for text, _ in prompts]
    path = folder / f"{name}.json"
    data = {"split": name, "judged": True, "sessions": [session]}
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


def _in_ranges(line: int | None, ranges: Iterable[tuple[int, int]]) -> bool:
    return line is not None and any(start <= line <= end for start, end in ranges)


def aider_prompts(history: Path, skip: Sequence[tuple[int, int]]) -> list[tuple[str, str]]:
    """The person's messages in an aider chat history, as ``extract`` reads them (aider's commands left out; a
    ``/ask`` logged again as the message that follows it is kept once, as that message)."""
    turns = [t for t in read_transcript(history, format="aider").turns if t.source == "user" and t.text.strip()]
    turns = [t for t in turns if not _in_ranges(t.line, skip)]
    prompts: list[tuple[str, str]] = []
    for i, turn in enumerate(turns):
        following = turns[i + 1].text if i + 1 < len(turns) else None
        command, _, rest = turn.text.partition(" ")
        if command.startswith("/") and rest.strip() and following is not None and following.strip() == rest.strip():
            continue
        prompts.append((turn.text, turn.session_id or "aider"))
    return prompts


def _decoy_pools(turn_ids: Sequence[str], texts: dict[str, str], proposed: set[str]) -> tuple[list[str], list[str]]:
    rest = [t for t in turn_ids if t not in proposed]
    looks = {t for t in rest if RULE_LOOKING.search(texts[t])}
    return [t for t in rest if t in looks], [t for t in rest if t not in looks]


def choose_decoys(
    turn_ids: Sequence[str], texts: dict[str, str], proposed: set[str], per_proposal: int, seed: int
) -> list[str]:
    """``per_proposal`` decoys for each proposal, half (rounded up) rule-looking, the rest any prompt."""
    rng = random.Random(seed)
    rule_looking, other = _decoy_pools(turn_ids, texts, proposed)
    rng.shuffle(rule_looking)
    rng.shuffle(other)
    wanted = per_proposal * len(proposed)
    from_rules = min(len(rule_looking), (wanted + 1) // 2)
    return rule_looking[:from_rules] + other[: wanted - from_rules]


def _context(at: int, order: Sequence[str], texts: dict[str, str], sessions: dict[str, str]) -> list[str]:
    before = [t for t in order[max(0, at - CONTEXT_PROMPTS) : at] if sessions[t] == sessions[order[at]]]
    return [texts[t][:CONTEXT_CHARS] for t in before]


def make_sheet(
    name: str, commit: str, per_proposal: int, seed: int, folder: Path = LABELLED
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The judge's sheet and the key that says which item is which prompt and why it is there."""
    transcript, _ = load_split(name, folder)
    order = [t.turn_id for t in transcript.turns]
    texts = {t.turn_id: t.text for t in transcript.turns}
    sessions = {t.turn_id: t.session_id or "" for t in transcript.turns}
    position = {turn_id: n for n, turn_id in enumerate(order)}
    proposed = {str(p.proposal.evidence[0].turn_id) for p in proposals_of(transcript)}
    decoys = choose_decoys(order, texts, proposed, per_proposal, seed)
    items = sorted(proposed) + decoys
    random.Random(seed + 1).shuffle(items)
    sheet_items, key_items = [], {}
    for number, turn_id in enumerate(items, start=1):
        item = f"J{number:03d}"
        text = texts[turn_id]
        shown = text if len(text) <= SHEET_TEXT_LIMIT else text[:SHEET_TEXT_LIMIT]
        sheet_items.append(
            {
                "item": item,
                "position": position[turn_id],
                "earlier_prompts_in_its_session": _context(position[turn_id], order, texts, sessions),
                "text": shown,
                "cut_for_the_sheet": len(text) > SHEET_TEXT_LIMIT,
            }
        )
        key_items[item] = {"turn": turn_id, "proposed": turn_id in proposed}
    # The whole history, as a labeller of a labelled split reads it: whether words come back in other sessions is
    # what makes a rule of them, and every item is given the same means to see it.
    history = [{"position": n, "session": sessions[t], "text": texts[t]} for n, t in enumerate(order)]
    sheet = {"split": name, "items": sheet_items, "history": history}
    key = {"split": name, "commit": commit, "seed": seed, "decoys_per_proposal": per_proposal, "items": key_items}
    return sheet, key


STRICTNESS = {"durable": 0, "maybe": 1, "one-off": 2}


def stricter(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """Of two judgments of one prompt, the one less ready to keep it: one-off over maybe over durable, and on the
    same label the one that names the passages that are the rule (a quote must then hold one)."""
    return max((first, second), key=lambda j: (STRICTNESS[j["label"]], bool(j.get("keep"))))


def _checked(item: str, judged: dict[str, Any], text: str) -> dict[str, Any]:
    if judged.get("label") not in LABELS or not all(part in text for part in judged.get("keep", [])):
        raise SystemExit(f"{item}: a label of {sorted(LABELS)}, and each `keep` part in the prompt's text")
    return judged


def _labels(judgments: dict[str, Any], key: dict[str, Any]) -> dict[str, str]:
    return {where["turn"]: judgments[item]["label"] for item, where in key["items"].items()}


def merge(
    name: str,
    judges: Sequence[dict[str, Any]],
    key: dict[str, Any],
    folder: Path = LABELLED,
    earlier: Sequence[dict[str, Any]] = (),
) -> Path:
    """The judges' labels written into the split (the stricter per prompt), with each judge's own labels and
    which prompts were proposed and which were decoys; ``earlier`` judges' labels are kept beside them, unused."""
    path = folder / f"{name}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    (session,) = data["sessions"]
    by_turn = {f"{session['session']}:{n}": prompt for n, prompt in enumerate(session["prompts"])}
    for judgments in (*judges, *earlier):
        missing = sorted(set(key["items"]) - set(judgments))
        if missing:
            raise SystemExit(f"the judgments lack {len(missing)} item(s), first {missing[0]}")
        for item, where in key["items"].items():
            _checked(item, judgments[item], by_turn[where["turn"]]["text"])
    for item, where in key["items"].items():
        prompt = by_turn[where["turn"]]
        given = [judgments[item] for judgments in judges]
        chosen = given[0]
        for other in given[1:]:
            chosen = stricter(chosen, other)
        prompt["label"] = chosen["label"]
        for field in ("keep", "why"):
            if chosen.get(field):
                prompt[field] = chosen[field]
    items = key["items"].values()
    data["judging"] = {
        "heuristic_commit": key["commit"],
        "seed": key["seed"],
        "decoys_per_proposal": key["decoys_per_proposal"],
        "proposed": sorted(w["turn"] for w in items if w["proposed"]),
        "decoys": sorted(w["turn"] for w in items if not w["proposed"]),
        "judges": [_labels(judgments, key) for judgments in judges],
        "earlier_judges": [_labels(judgments, key) for judgments in earlier],
    }
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


def heuristic_is_at(commit: str, checkout: Path = REPO) -> bool:
    """Whether this checkout's heuristic is exactly the frozen one (``memory_review/extract/`` as at ``commit``)."""
    diff = ["git", "-C", str(checkout), "diff", "--quiet", commit, "--", "memory_review/extract"]
    return subprocess.run(diff, check=False, timeout=60, capture_output=True).returncode == 0


def _ranges(values: Sequence[str]) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in (v.split("-", 1) for v in values)]


def _read_json(path: str) -> Any:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.judged_split", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    aider = commands.add_parser("build-aider", help="a split from an aider chat history, every prompt unjudged")
    aider.add_argument("history", type=Path)
    aider.add_argument("--skip-lines", nargs="*", default=[], help="line ranges A-B of the file to leave out")
    aider.add_argument("--name", required=True)
    aider.add_argument("--meta", required=True)
    sheet = commands.add_parser("sheet", help="the judge's sheet: proposals among decoys; the key apart")
    sheet.add_argument("name")
    sheet.add_argument("--commit", required=True, help="the frozen heuristic's commit: this checkout must be it")
    sheet.add_argument("--out", required=True, type=Path)
    sheet.add_argument("--key", required=True, type=Path)
    sheet.add_argument("--decoys", type=int, default=4, help="decoys per proposal (judged 1 had 4)")
    sheet.add_argument("--seed", type=int, default=2026)
    merged = commands.add_parser("merge", help="write the judge's labels into the split")
    merged.add_argument("name")
    merged.add_argument("--judgments", required=True, nargs="+", help="one file per judge")
    merged.add_argument("--earlier", nargs="*", default=[], help="earlier judges' files: kept in the record, unused")
    merged.add_argument("--key", required=True)
    args = parser.parse_args(argv)
    if args.command == "build-aider":
        found = aider_prompts(args.history, _ranges(args.skip_lines))
        print(f"{write_split(args.name, _read_json(args.meta), found)}: {len(found)} prompts")
    elif args.command == "sheet":
        if not heuristic_is_at(args.commit):
            raise SystemExit(f"memory_review/extract is not as at {args.commit}: make the sheet in a worktree of it")
        sheet_data, key_data = make_sheet(args.name, args.commit, args.decoys, args.seed)
        args.out.write_text(json.dumps(sheet_data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        args.key.write_text(json.dumps(key_data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        proposed = sum(1 for item in key_data["items"].values() if item["proposed"])
        print(f"{args.out}: {len(sheet_data['items'])} items ({proposed} proposed); key in {args.key}")
    else:
        judges = [_read_json(path) for path in args.judgments]
        print(merge(args.name, judges, _read_json(args.key), earlier=[_read_json(path) for path in args.earlier]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
