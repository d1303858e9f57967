"""How extraction's time grows with a message made of one trigger repeated (ADR 0075, 0080): linear, or worse.

``python -m benchmarks.case_extract_growth [--count N] [--factor K]`` builds, for every trigger below and every joiner
(". ", a space, a line break, a blank line), one user message of the trigger repeated N times (each copy numbered, so
no two are the same words) and one of N·K times, extracts and plans each in this process as `memory-review extract`
does with empty stores (CPU, the least of three runs) and prints both times and their ratio. A pass that looks at the
whole message, or at every earlier finding, for each copy grows with the square of the message: its ratio nears K²,
where a linear one stays near K. Rows whose ratio passes 1.75·K (and whose larger run takes over 0.2 s) are marked. It
asserts nothing: a report, as every case here is. Found four such passes in the heuristic (quoted ranges, the grouping
of held-back wordings, a request's own line, reminders) and, once it timed the planning too, two in the planner (ADR
0080).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from memory_review.extract.heuristic import extract
from memory_review.extract.plan import plan
from memory_review.extract.transcript import Transcript, Turn

# One of each kind of cue the heuristic reads; a copy is the trigger, a number, then the joiner.
TRIGGERS = (
    "never use x",
    "always run x",
    "don't touch x",
    "we use x",
    "from now on use x",
    "Periodically run x",
    "You are not allowed to touch x",
    "I dont like the way you put x buttons",
    "I told you that before. never do x",
    "plan x, remember I don't like y",
    "make sure the ai never writes x",
    "make a note to x",
    "so it can be used going forward x",
    "x (which is going to be very useful moving forward)",
    "add x so I always know y, if it's always x then z",
    "Please read the statement below and check it\n\nwe always do x",
    "remember to always run x",
    "I look forward to x, y, z in the future",
    "do not commit x",
    "see a.md. always edit that file x",
    "always edit a.md x",
    "add to CLAUDE.md: never use x",
    '"never do x" and y',
    "1. /cmd never do x",
    "#always run x",
    "no, use x",
    "Use `x`",
    "remember to run x",
    "记住用 x",
    "毎回 x してください",
    "## Working Rules\n- define x",
    "I prefer x over y",
    "All future work goes in x",
    "it might be used x in the future",
    "Key patterns I follow:\n- define x",
    "Use nix develop x to run y",
    "AL    always PNG for x",
    "kesinlikle bozma, x",
    "bundan böyle x kullan",
    "Rick Astley - Never Gonna Give You Up x",
    "Remember you must use x",
    "x commands should be wrapped with x",
    "Use x. Make this a rule",
    "update CLAUDE.md to ensure that we use x",
    "you need always to run x",
    "x testing is mandatory",
    "as you know we should avoid x",
    "What's Done: x\nCurrent State: x\nNext Step: x\nApproach: never x",
    "After implementing each feature run x",
    "remember after every feature is done that it runs x",
    "make sure there is no mention of x at all",
    "x? Remember not to include any mention of that",
    "I am asking you to always run x",
    "Add to CLAUDE.md that we use x",
    "I use x and prefer y",
    "aggiorna CLAUDE.md in modo che tu usi sempre x",
    "yes -- but as a general warning, do not x",
    "the protocols are expressions of\n it, never x",
    "add the conventions to CLAUDE.md - we use x",
    "we run into x",
    "lets do x but i would prefer y first",
    "I dont like how you can see x",
    "we use x, not y",
    "we use x in this repo",
    "I don't like x, keep that in mind",
    "In this project, we're going to x",
    "make sure to periodically commit x",
    "bitte antworte immer auf deutsch x",
    "i would prefer for this to be x instead of y",
    "every time i ask you to do something, log x",
    "in general analyze x and use y",
    "don't write x, make a note in project memory of this",
    "remove x from the commit, as we don't use it anymore",
    "improve x to prevent this y in the future",
    "(remember i'm unfamiliar with x",
    "i wanted to remind you to always run x",
    "update CLAUDE.md and AGENTS.md to keep x away from y",
    "is it x? if yes, we shouldn't y",
    "prepare a task list to x and always test y",
    "we'll learn from x for the next time",
    "use x. please remember that",
    "i told you to copy x",
    "add x, so that we grow y when we get to z in the future",
    "in future i like to add x",
    "let's end x and continue next time",
    "i dislike comments in x listings",
    "i have now done x -- but please recall that you should not y",
    "but, generally, like, how would x",
    "but ask me first before modifying x",
    "i am super allergic when you x... y",
    "i would like to reserve x decision for myself",
    "pre-fill x when an item is entered in the future",
    "capture x via a camera; never with y on screen",
    "move x into a footer (always visible when y is set)",
    "we'll fix x next time",
    "remember this for me, please",
    "save x as y (never z), then w",
    "periodically do:\n\n```\nx\n```",
    "- **never** x",
    "don't forget to x every y",
    "x should be co-author y",
    "完成後 commit（不要 push）",
    "x, no Co-Authored-By trailer",
    "do not modify files outside x-y",
    "x is strictly off limits for y",
    "under no circumstances x",
    "keep in mind to always x",
    "from this point forward x",
    "commit messages should always x",
    "any time we x, you must y",
    "moving forward through the x",
    "please remember we are x",
    "we deploy x only. add this as a memory",
    "no x!!! add this to your memory",
)
JOINERS = (". ", " ", "\n", "\n\n")


def message(trigger: str, joiner: str, count: int) -> Transcript:
    text = "".join(f"{trigger}{i}{joiner}" for i in range(count))
    turn = Turn(turn_id="t0", role="user", text=text, source="user", index=0)
    return Transcript(session_id="growth", format="text", turns=[turn])


def cpu(transcript: Transcript, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        plan(extract(transcript), approved=[], pending=[], discarded=[])
        best = min(best, time.process_time() - start)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    summary = (__doc__ or "").split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m benchmarks.case_extract_growth", description=summary)
    parser.add_argument("--count", type=int, default=1500, help="copies in the smaller message (default 1500)")
    parser.add_argument("--factor", type=int, default=4, help="how many times more in the larger one (default 4)")
    args = parser.parse_args(argv)
    print(f"{'trigger':40} {'joiner':7} {args.count:>8} {args.count * args.factor:>8}   ratio")
    for trigger in TRIGGERS:
        for joiner in JOINERS:
            small = cpu(message(trigger, joiner, args.count))
            large = cpu(message(trigger, joiner, args.count * args.factor))
            ratio = large / max(small, 1e-4)
            mark = "  <- grows faster than linear" if ratio > 1.75 * args.factor and large > 0.2 else ""
            shown = trigger.replace("\n", "\\n")  # one row a trigger, whatever it holds
            print(f"{shown[:40]:40} {joiner!r:7} {small:7.3f}s {large:7.3f}s {ratio:6.1f}{mark}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
