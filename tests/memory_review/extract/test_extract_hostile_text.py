"""Text made to be slow: runs of spaces and newlines, thousands of sentences in one message (threat model: no hang).

Each input below took the heuristic minutes before round 10's hostile-input run found it (a pattern joining two runs
that both take spaces, a line pattern whose ``\\s*`` crossed empty lines, a per-sentence search of the whole message,
every named instruction compared with every group); it now reads them in well under a second. No time is asserted
(shared machines): a regression shows as a test that runs for minutes.
"""

from __future__ import annotations

import importlib
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from rounds_kit import said, user_transcript

from memory_review.extract.finding import Finding
from memory_review.extract.heuristic import SAME_RULE, extract
from memory_review.extract.plan import plan
from memory_review.extract.textutil import Covered, leaders, overlap

_WORDS = [f"w{i}" for i in range(12)]


def _naive_leaders(bags: list[frozenset[str]], threshold: float) -> list[int]:
    chosen: list[int] = []
    firsts: list[int] = []
    for position, bag in enumerate(bags):
        leader = next((f for f in firsts if overlap(bag, bags[f]) >= threshold), position)
        chosen.append(leader)
        if leader == position:
            firsts.append(position)
    return chosen


@given(
    st.lists(st.frozensets(st.sampled_from(_WORDS), max_size=7), max_size=40), st.sampled_from([0.3, 0.5, SAME_RULE])
)
def test_grouping_by_prefix_equals_comparing_with_every_group(bags: list[frozenset[str]], threshold: float) -> None:
    assert leaders(bags, threshold) == _naive_leaders(bags, threshold)


_SPAN = st.tuples(st.integers(0, 60), st.integers(0, 30)).map(lambda p: (p[0], p[0] + p[1]))


@given(st.lists(_SPAN, max_size=25), st.lists(_SPAN, max_size=25))
def test_covered_spans_equal_asking_every_range(ranges: list[tuple[int, int]], spans: list[tuple[int, int]]) -> None:
    covered = Covered(ranges)
    for start, end in spans:
        assert covered.covers(start, end) == any(a <= start and end <= b for a, b in ranges)


def test_thousands_of_held_back_rules_that_share_their_words() -> None:
    # ADR 0075: every such rule shares "periodically" and "run" with every other, and each was compared with every
    # group before it (6.7 s for 6,000); the indexing prefix leaves the shared words out of the lookups
    assert said("".join(f"Periodically run x{i}. " for i in range(6_000))) == []
    rules = [f"Periodically run check{i}." for i in range(3_000)]
    sessions = ("a",) * len(rules) + ("b",) * len(rules)
    assert len(extract(user_transcript(*rules, *rules, sessions=sessions))) == 3_000


def test_a_request_to_write_rules_repeated_along_one_line() -> None:
    # ADR 0075: each request read the rest of its line (quadratic on one long line); past a quote's length it stops
    assert len(said("".join(f"add to CLAUDE.md: never use x{i}. " for i in range(8_000)))) > 1_000


def test_reminders_after_thousands_of_rules() -> None:
    # ADR 0075: each reminder looked at every finding before it; now at each once
    assert len(said("".join(f"never use y{i}. I told you that before. " for i in range(8_000)))) == 8_000


def test_thousands_of_quoted_sentences_in_one_message() -> None:
    # ADR 0075: every sentence was checked against every quoted range, seconds for 320 KB; now a search each
    assert said('"never do x" and y. ' * 16_000) == []


def test_use_before_a_run_of_spaces() -> None:
    assert said("use " + " " * 3_000 + "x") == []


def test_a_rule_word_before_and_after_a_run_of_newlines() -> None:
    assert said("always" + "\n" * 30_000 + "x") == []
    assert said("\n" * 30_000 + "always x") == ["always x"]


def test_thousands_of_by_default_sentences_in_one_message() -> None:
    assert said("by default\u3002" * 5_000) == []


def test_thousands_of_distinct_named_instructions_in_one_message() -> None:
    text = " ".join(f"Don't modify the panel{i} widget{i % 7} component." for i in range(3_000))
    assert extract(user_transcript(text)) == []


def test_a_long_run_of_spaces_before_a_task_tail() -> None:
    assert said("Never do X" + " " * 30_000 + ", please remove that.") == ["Never do X"]


def test_opening_words_before_runs_of_spaces() -> None:
    # "but   " sixteen times before no reminder: the opening words' spacing could split each run two ways (exponential)
    assert said("but   " * 200 + "x") == []
    assert said("so,  " * 200 + "I told you") == []


def test_thousands_of_report_fields_and_a_field_padded_with_spaces() -> None:
    # round 11's report of fields (ADR 0067): every line a field (a pasted document), and a field's value behind a long
    # run of spaces, alone (read) and in a report (not the person's)
    assert said("Config valid: true\n" * 20_000 + "always use uv") == []
    assert said("Note:" + " " * 300 + "always use uv") == ["Note:" + " " * 300 + "always use uv"]
    assert said("Note:" + " " * 30_000 + "always use uv") == []  # read, and its quote too long to keep
    assert said("Note:" + " " * 30_000 + "always use uv\nA: b\nC: d") == []


def test_japanese_rule_words_before_long_runs() -> None:
    # round 12 (ADR 0068): "every time" then a bounded stretch before a request ending, and a request's question mark
    assert said("毎回" + "あ" * 50_000 + "てください。") == []
    assert said("その都度" + "ので" * 20_000 + "してもらえる？") == []
    assert said("て" * 50_000 + "もらえる？") == []


def test_pictographs_paste_placeholders_and_gerunds_in_long_runs() -> None:
    # round 13 (ADR 0069): a line's leading pictographs are one run of marks, however many; a placeholder's digits
    # are bounded; the gerund check reads one word
    assert said("❌ " * 30_000 + "Never push to main.") == ["Never push to main."]
    assert said("👍🏽" * 30_000 + " never being" + " x" * 10_000) == []
    assert said("[Pasted text #1" * 10_000 + " from now on, always use uv") == []
    assert said("never " * 20_000 + "a" * 50_000 + "ing") == []


def test_memory_shortcuts_joining_words_and_pasted_dislikes_in_long_runs() -> None:
    # round 14 (ADR 0070): a "#" note is one bounded line, checked before its pattern runs; the joining words before a
    # question are a run the pattern reads once
    # neither is a one-line note: each is read as a message whose first line is a heading
    assert said("#" + " " * 100_000 + "always use uv\nx") == ["always use uv"]
    assert said("# always use uv" + " " * 100_000 + "\n" + "x " * 10_000) == ["always use uv"]
    assert said("also " * 20_000 + "are we using uv") == []
    assert said("I dont like (" + "(" * 50_000) == []


def test_rules_before_long_or_unclosed_fences() -> None:
    # round 15 (ADR 0071): the fenced command after a rule is looked for within one quote's length, never to the end
    assert said("Always run\n```\n" + "x\n" * 50_000) == []  # 50,000 lines: a pasted document
    assert said("Always run\n```\n" + "x " * 50_000) == ["Always run"]
    assert said("Never use\n\n" + "\n" * 50_000 + "```\nx\n```") == ["Never use"]


# ADR 0080: the planner compared every finding of a run with every group before it, and every finding with every
# approved and pending memory: a message of 1,000 distinct rules took 12 s to plan, 4,000 took minutes.
plan_module = importlib.import_module("memory_review.extract.plan")  # the package's ``plan`` is the function
_RULE = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=6).map(lambda words: "Never use " + " ".join(words))


def _naive_collapse(findings: list[Finding]) -> list[Finding]:
    groups: list[Finding] = []
    for finding in findings:
        for position, group in enumerate(groups):
            if plan_module._same_trust(group, finding) and plan_module._near(
                plan_module._known_finding(group), plan_module._known_finding(finding)
            ):
                groups[position] = plan_module._merge(group, finding)
                break
        else:
            groups.append(finding)
    return groups


def _naive_closest(me: Any, known: list[Any]) -> Any:
    same_id = next((k for k in known if k.id == me.id), None)
    if same_id is not None:
        return same_id
    scored = [(overlap(me.bag, k.bag), k) for k in known]
    best = max(scored, key=lambda pair: pair[0], default=(0.0, None))
    return best[1] if best[0] >= plan_module.NEAR_DUPLICATE else None


@given(st.lists(_RULE, max_size=25), st.lists(_RULE, max_size=12))
def test_planning_by_index_equals_comparing_with_every_memory(said_now: list[str], said_before: list[str]) -> None:
    findings = extract(user_transcript(*said_now))
    collapsed = plan_module.collapse(findings)
    assert collapsed == _naive_collapse(findings)
    pending = [p.proposal.memory for p in plan(extract(user_transcript(*said_before)), **_EMPTY).proposals]
    known = [plan_module._known(m) for m in pending]
    mine = [plan_module._known_finding(f) for f in collapsed]
    lookup = plan_module._Lookup(known, mine)
    for number, me in enumerate(mine):
        assert lookup.closest(number) == _naive_closest(me, known)
        assert lookup.sharing_a_text(me) == next((k for k in known if k.texts & me.texts), None)


_EMPTY: dict[str, list[Any]] = {"approved": [], "pending": [], "discarded": []}


def test_planning_thousands_of_distinct_rules_against_as_many_pending() -> None:
    first = plan(extract(user_transcript("".join(f"Never use tool{i} aa{i}. " for i in range(4_000)))), **_EMPTY)
    assert len(first.proposals) == 4_000
    pending = [p.proposal.memory for p in first.proposals]
    again = extract(user_transcript("".join(f"Never use tool{i} bb{i}. " for i in range(4_000))))
    assert len(plan(again, approved=[], pending=pending, discarded=[]).proposals) == 4_000


def test_planning_thousands_of_rules_that_share_most_of_their_words() -> None:
    text = "".join(f"Always run the linter and the tests before commit {i}. " for i in range(4_000))
    assert len(plan(extract(user_transcript(text)), **_EMPTY).proposals) == 1


# ADR 0088: a file's name also finds the groups to compare with, at most SAME_FILE_GROUPS of them; with no more rules
# than that, finding them by index still equals comparing with every group.
_FILE_RULE = st.lists(st.sampled_from([*_WORDS[:6], "a.md", "b.txt"]), min_size=1, max_size=5).map(
    lambda words: "Always edit " + " ".join(words)
)


@given(st.lists(_FILE_RULE, max_size=plan_module.SAME_FILE_GROUPS))
def test_planning_rules_about_one_file_by_index_equals_comparing_with_every_group(said_now: list[str]) -> None:
    findings = extract(user_transcript(*said_now))
    assert plan_module.collapse(findings) == _naive_collapse(findings)
