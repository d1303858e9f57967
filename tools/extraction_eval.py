"""Precision and recall of the heuristic on the labelled real histories (ADR 0033), and on the shared data.

    python -m tools.extraction_eval                       # print the figures
    python -m tools.extraction_eval --write docs/extraction.md

The labelled set (``tests/memory_review/extract/labelled/{dev,heldout}.json``) holds real user prompts
from public coding-agent histories, each labelled by hand: ``durable`` (a reviewer would keep it and the
extractor must find it), ``maybe`` (a reviewer could keep it: a proposal of it counts as worth keeping,
missing it is no fault) or ``one-off``. A proposal is *worth keeping* when the prompt its first quote
comes from is ``durable`` or ``maybe``; a long prompt may name the part that is the rule (``keep``: a
list of passages), and then the quote must be, or contain, one of them. A durable prompt is *found* when
a proposal quotes it that way. Proposals are what :func:`memory_review.extract.plan.plan` makes of the
findings with empty stores, i.e. what a reviewer would see.

Splits: ``dev`` and ``heldout`` (ADR 0033), ``dev2``, ``heldout2`` and ``heldout3`` (ADR 0044: prompt
histories with standing rules in them, so that recall can be measured).

The shared data (``MEMORY_REVIEW_TEST_DATA``, else ``../shared/data``) has no labels: its real Claude
Code sessions hold no durable statement, so every proposal there counts as one not worth keeping.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory_review.extract.heuristic import extract
from memory_review.extract.plan import PlannedProposal, plan
from memory_review.extract.readers import read_transcript
from memory_review.extract.transcript import Transcript, Turn
from tools import figures_page

REPO = Path(__file__).resolve().parents[1]
LABELLED = REPO / "tests" / "memory_review" / "extract" / "labelled"
KEEP = frozenset({"durable", "maybe"})
LABELS = frozenset({"durable", "maybe", "one-off"})
SPLITS = ("dev", "heldout", "dev2", "heldout2", "heldout3")


@dataclass
class Figures:
    """What the heuristic proposed on one body of text, judged against the labels."""

    name: str
    prompts: int = 0
    durable: int = 0
    maybe: int = 0
    proposals: list[str] = field(default_factory=list)  # descriptions, for the report
    kept: int = 0
    durable_found: int = 0
    missed: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float | None:
        return self.kept / len(self.proposals) if self.proposals else None

    @property
    def recall(self) -> float | None:
        return self.durable_found / self.durable if self.durable else None


def _split_data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LABELLED / f"{name}.json").read_text(encoding="utf-8"))
    return data


def load_split(name: str) -> tuple[Transcript, dict[str, str]]:
    """The split as one transcript (one session per source session) and each turn's label."""
    data = _split_data(name)
    turns: list[Turn] = []
    labels: dict[str, str] = {}
    for source in data["sessions"]:
        per_prompt = source.get("sessions")
        for number, prompt in enumerate(source["prompts"]):
            turn_id = f"{source['session']}:{number}"
            session = per_prompt[number] if per_prompt else source["session"]
            turns.append(
                Turn(
                    turn_id=turn_id,
                    role="user",
                    source="user",
                    text=prompt["text"],
                    index=len(turns),
                    session_id=session,
                )
            )
            labels[turn_id] = prompt["label"]
    return Transcript(session_id=f"labelled-{name}", format="text", turns=turns), labels


def rule_passages(name: str) -> dict[str, list[str]]:
    """Per turn, the passages of a long prompt that are its rule (``keep``), where the label names them."""
    passages: dict[str, list[str]] = {}
    for source in _split_data(name)["sessions"]:
        for number, prompt in enumerate(source["prompts"]):
            if prompt.get("keep"):
                passages[f"{source['session']}:{number}"] = list(prompt["keep"])
    return passages


def proposals_of(transcript: Transcript) -> list[PlannedProposal]:
    """What a reviewer would see from this transcript with empty stores."""
    return plan(extract(transcript), approved=[], pending=[], discarded=[]).proposals


def evaluate_split(name: str) -> Figures:
    """Precision and recall on one labelled split."""
    transcript, labels = load_split(name)
    passages = rule_passages(name)
    figures = Figures(name=name, prompts=len(labels))
    figures.durable = sum(1 for label in labels.values() if label == "durable")
    figures.maybe = sum(1 for label in labels.values() if label == "maybe")

    def worth_keeping(turn_id: str, quote: str) -> bool:
        rule = passages.get(turn_id)
        in_rule = not rule or any(part in quote or quote in part for part in rule)
        return labels.get(turn_id, "one-off") in KEEP and in_rule

    covered: set[str] = set()
    for planned in proposals_of(transcript):
        evidence = planned.proposal.evidence
        figures.proposals.append(planned.proposal.memory.description)
        figures.kept += worth_keeping(str(evidence[0].turn_id), evidence[0].quote)
        covered.update(str(e.turn_id) for e in evidence if worth_keeping(str(e.turn_id), e.quote))
    for turn in transcript.turns:
        if labels[turn.turn_id] == "durable":
            if turn.turn_id in covered:
                figures.durable_found += 1
            else:
                figures.missed.append(turn.text)
    return figures


def shared_data_dir() -> Path:
    """The shared real data (``MEMORY_REVIEW_TEST_DATA``, else ``../shared/data`` next to the repo)."""
    default = REPO.parent / "shared" / "data"
    return Path(os.environ.get("MEMORY_REVIEW_TEST_DATA", default)).resolve()


def real_transcript_files(data: Path) -> list[Path]:
    """Every real transcript in the shared data (JSON and JSONL files under ``transcripts/``)."""
    root = data / "transcripts"
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in {".jsonl", ".json"})


def evaluate_shared(data: Path) -> Figures:
    """Proposals on the unlabelled real sessions: none of them is a durable statement."""
    figures = Figures(name="shared data")
    for path in real_transcript_files(data):
        transcript = read_transcript(path)
        figures.prompts += len(transcript.user_turns())
        figures.proposals.extend(p.proposal.memory.description for p in proposals_of(transcript))
    return figures


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0%}"


def table(rows: list[Figures]) -> str:
    """The figures as a Markdown table."""
    lines = [
        "| set | user prompts | durable / maybe | proposals | worth keeping | precision | durable found | recall |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for f in rows:
        lines.append(
            f"| {f.name} | {f.prompts} | {f.durable} / {f.maybe} | {len(f.proposals)} | {f.kept} | "
            f"{_fmt(f.precision)} | {f.durable_found} of {f.durable} | {_fmt(f.recall)} |"
        )
    return "\n".join(lines)


def report(rows: list[Figures]) -> str:
    """The table plus what was proposed and what was missed, per set."""
    parts = [table(rows)]
    for f in rows:
        if f.proposals:
            parts.append(f"\nProposed on {f.name}:\n" + "\n".join(f"- {d}" for d in f.proposals))
        if f.missed:
            parts.append(f"\nMissed on {f.name}:\n" + "\n".join(f"- {t[:160]!r}" for t in f.missed))
    return "\n".join(parts)


DOC_HEAD = """# Extraction: what the heuristic proposes, measured on real histories

`python -m tools.extraction_eval --write docs/extraction.md` writes this page; the tables below are its
output, and `tests/memory_review/extract/test_extract_labelled.py` checks they are current.

## The labelled set

Real user prompts from public coding-agent histories (sources, licences and how each was cut in
`tests/memory_review/extract/labelled/README.md`). Every prompt is labelled by hand: **durable** (a
reviewer would keep it, and the extractor must find it), **maybe** (a reviewer could keep it: proposing it
is no mistake, missing it is no fault) or **one-off**. A proposal is *worth keeping* when the prompt its
first quote comes from is durable or maybe (for a long prompt whose label names the passages that are its
rule, the quote must hold or be part of one of them); a durable prompt is *found* when a proposal quotes
it so.

- *dev* and *heldout* (ADR 0033): Claude Code sessions saved by Entire's checkpoints and aider
  `.aider.chat.history.md` files, 88 prompts, one clearly durable rule.
- *dev2* and *heldout2* (ADR 0044): prompt histories that Claude Code (`~/.claude/history.jsonl`) and
  Codex CLI (`~/.codex/history.jsonl`) keep, committed in eight people's public repositories (mostly
  dotfiles): whole stretches as they come, in English, Chinese, French and Italian, 434 prompts with 19
  durable rules. *heldout2* was labelled and committed (9cf97fa) before the heuristic was first run on it.
- *heldout3* (ADR 0044): three more people's prompt histories, 122 prompts with 3 durable rules, labelled
  and committed (def5c25) after held-out 2 was measured and before the heuristic was run on it.

The *dev* splits were used to tune the heuristic; the *held-out* splits are not tuned on. The shared real
Claude Code sessions (the *shared data* row, read from `MEMORY_REVIEW_TEST_DATA`, never copied here) hold
no durable statement: any proposal there is a mistake.

## Figures

"""

DOC_TAIL = """

## Reading the figures

- **Held-out 2 misses the goal, narrowly: 7 of 12 proposals are worth keeping (58%, goal 60%), and 5 of
  its 10 durable rules are found (50%).** These are the first figures on it, and the heuristic as it was
  before the dev 2 tuning (main at a546a15) gets exactly the same ones: the tuning neither helped nor hurt
  there. Nothing was changed after looking at them. Read strictly, recall is lower still: two of the five
  "found" rules are found through a fragment ("OK, going forward." and "This should alwys be our approach."
  are proposed, the rule itself is in the next sentence), so a reviewer gets the quote but must rewrite the
  body.
- What held-out 2 shows the heuristic gets wrong (not tuned on; each is a known limit):
  - *false positives (5):* the weak Chinese "必须" (must) in task specs ("必须包含至少 5 个…组件",
    "必须落盘成文件…", an edit to a skill file); "we are using" / "we support" in descriptions and tasks
    ("It look like we are using the english version of the script", "make sure that we support the
    different viewport sized").
  - *misses (5):* "always" after a leading clause ("When you loose connection to the MCP always re-check
    the state of the webflow app"); "prefer" as a bare imperative ("prefer using the mcp tools"); a
    reminder without a durable word ("Please make sure to verify the change after you make it"); and two
    Chinese rules without a signal word or with deixis ("这是源仓库" — this is the source repository, do not
    change the entry layer; "description用中文这条不变" — descriptions stay in Chinese).
  Such rules are what the model extractors (`--extractor claude|codex|gemini`) are for; they are not
  measured here (this set runs offline, with no model). A next round of the heuristic needs a fresh
  held-out split, as this one is now known.
- **Held-out 3 meets the goal: 6 of 9 proposals worth keeping (67%), all 3 durable rules found** ("do not
  auto commit", "all necessary environments should be dynamically baked into env.sh …", "Always allow for
  the conversation to end such that the project contents can always give a pick-up point …"). Its three
  mistakes: "in future ubuntus" read as "in the future", a spec's "--pack-dir will by default look at …",
  and "note that the next step will be …" inside a task. One kept rule's body starts with ", in the
  generated project" (the "note that" lead is cut, its comma left): a reviewer has to tidy it.
- **All three held-out splits together: 15 of 23 proposals worth keeping (65%), 8 of 14 durable rules
  found (57%).** Held-out 2 and 3, the ones with rules in them: 13 of 21 (62%), 8 of 13.
- **Dev 2** (tuned on): 6 of 7 proposals worth keeping, 6 of 9 rules found, from 4 of 7 and 4 of 9 before.
  Its misses are rules without any signal word: a rebuke ("If you had been delegating to the frontend
  agent like you were supposed to …"), "You should be using the available agents to do this work.", and
  a commit rule inside a user's own 17-line change list, which the heuristic takes for a pasted document.
- Real histories are mostly task talk: 22 durable rules in 556 prompts of dev 2 and held-out 2 and 3,
  about one in 25, against one in the 88 prompts of dev and held-out.
- What the dev 2 tuning changed (ADR 0044, each a unit test from a real dev 2 prompt with near misses): a
  strong rule with a task clause tacked on ("We should NEVER manually set created at and updated at
  timestamps, please remove that.") keeps the rule; "as you implement things, …" is a standing
  instruction; "in the future we'd want …" is a plan; "X do not affect Y" describes, it forbids nothing.
- The first held-out split: the one clearly durable rule is missed ("Make sure at the end, we pass ruff,
  mypy and all pytests. If you change something that can influence the quality of results, test for real
  …" states standing rules without any signal word); both proposals are ones a reviewer could keep.
- Recall on clearly signalled rules is measured by the hand-written table in
  `tests/memory_review/extract/test_extract_signals.py` (38 durable sentences in English and Chinese,
  all found, and 34 one-off sentences, none proposed) and `test_extract_precision.py` (named one-offs,
  rules that generalise, whole rules, a rule with a task tacked on, pasted and quoted text, repetition
  across sessions).
- What the first dev split taught (ADR 0033, each a test): a hook's notice in the user slot ("To suppress
  this warning in future sessions, run:") is a lead-in, not a rule; "can we use `checkpointID` instead of
  `cpID` in cmd/entire/cli/session.go" proposes, it does not state; skills, slash-command expansions,
  aider's architect plans and compaction summaries arrive as user messages and are pasted documents.
"""


def render(text: str) -> str:
    """The whole docs/extraction.md page around the figures."""
    return DOC_HEAD + text + "\n" + DOC_TAIL


def figures() -> str:
    rows = [evaluate_split(name) for name in SPLITS]
    data = shared_data_dir()
    if (data / "transcripts").is_dir():
        rows.append(evaluate_shared(data))
    return report(rows)


def main(argv: list[str] | None = None) -> int:
    return figures_page.main(argv, __doc__, figures, render)


if __name__ == "__main__":
    raise SystemExit(main())
