"""The thirteenth round of the heuristic (ADR 0069): held-out 25, 28 and 29's classes, after the frozen rounds.

The tenth to twelfth rounds each measured held-out 25 to 29 once. Their misses and mistakes, each taken as a class:
a scope brief pasted at the start of nine sessions whose rules each stand behind a pictograph ("❌ DO NOT WRITE
outside …"), a "keep in mind moving forward:" whose rules are in a paste the history kept as a placeholder, and a
"never" before a gerund ("old data just never being removed"), which describes. Frozen before held-out 31 and 32 were
read, and measured on them.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.precision import points_to_a_paste
from memory_review.extract.textutil import sentence_spans

BRIEF = (
    "🔒 SCOPE RULES\nWORK ONLY IN:\n\n/home/me/refactor/\nRULES:\n"
    "✅ READ parent directories for reference only\n\n"
    "❌ DO NOT WRITE to the parent directories\n\n"
    "❗ If you modify files outside: REVERT IMMEDIATELY\n\n"
    "📁 Treat all other folders as READ-ONLY\n\n"
    "CONTEXT:\nThis is a standalone refactor of the viewer.\n"
)


# (1) A pictograph before a rule is a list mark: the sentence starts after it.
@pytest.mark.parametrize(
    ("line", "sentence"),
    [
        ("❌ DO NOT WRITE outside x", "DO NOT WRITE outside x"),
        ("✅Always lint", "Always lint"),
        ("→ Never skip hooks", "Never skip hooks"),
        ("⚠️ You must not alter the logic", "You must not alter the logic"),
        ("## 🔐 Only work inside this folder", "Only work inside this folder"),
        ("- 👍🏽 Never force-push", "Never force-push"),
    ],
)
def test_a_pictograph_before_a_rule_is_a_list_mark(line: str, sentence: str) -> None:
    assert [line[a:b] for a, b in sentence_spans(line)] == [sentence]


def test_a_rule_behind_a_pictograph_is_read() -> None:
    assert said("✅ Never push to main without asking me.") == ["Never push to main without asking me."]


# (2) A weak rule inside a brief waits for a second session instead of being dropped with the brief's task: the
# scope brief pasted at the start of nine sessions (held-out 28) is the person's standing rule.
def test_a_brief_pasted_in_two_sessions_gives_its_weak_rule() -> None:
    assert said(BRIEF, BRIEF, sessions=("s1", "s2")) == ["DO NOT WRITE to the parent directories"]


def test_the_brief_said_once_gives_nothing() -> None:
    assert said(BRIEF) == []


def test_where_the_brief_forbids_writing_is_a_rule_at_once() -> None:
    # since ADR 0151 a write boundary ("… outside the refactor folder") is no weak rule: it is proposed the first time
    brief = BRIEF.replace("to the parent directories", "outside the refactor folder")
    assert said(brief) == ["DO NOT WRITE outside the refactor folder"]


def test_a_spec_said_once_still_keeps_its_weak_rules_to_itself() -> None:
    spec = "## Task\n- Add the export button\n- Do not change the header\n- Style it like the others\n- Test it"
    assert said(spec) == []


# (3) Claude Code keeps a long paste in its history as "[Pasted text #1 +263 lines]": a rule that points to it has
# its words in the paste (held-out 25).
@pytest.mark.parametrize(
    "text",
    [
        "great, the following is just some things to keep in mind moving forward, for practical and optimization "
        "considerations: [Pasted text #1 +263 lines]",
        "From now on follow these: [Pasted text #2]",
    ],
)
def test_a_rule_that_points_to_a_paste_is_not_proposed(text: str) -> None:
    assert points_to_a_paste(text)
    assert said(text) == []


def test_a_rule_beside_a_paste_is_still_read() -> None:
    assert said("[Pasted text #1 +12 lines]\nNever push to main.") == ["Never push to main."]


# (4) "never" / "always" before a gerund describes (held-out 29); the verbs that end in -ing themselves instruct.
@pytest.mark.parametrize(
    "sentence",
    [
        "we could end up with deprecated data just never being removed and causing bloat",
        "It is always getting slower.",
        "I am always using the old script.",
    ],
)
def test_never_or_always_before_a_gerund_describes(sentence: str) -> None:
    assert said(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    ["Never bring secrets into the logs.", "Always ping me before a deploy.", "Never string two migrations together."],
)
def test_a_verb_ending_in_ing_still_instructs(sentence: str) -> None:
    assert said(sentence) == [sentence]
