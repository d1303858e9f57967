"""One huge message read in time linear in its size and small: each wording read once a turn, each text
redacted once a run, a signal searched only in a sentence holding its words, a line too long for a rule not read.

Nothing here is timed (a shared machine): the tests count the work done, and check that a gate never rules out a
sentence its pattern matches, on the labelled histories' own sentences and on sentences made of the patterns' words.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples

from memory_review import safety
from memory_review.extract import heuristic, signals, task_at_hand
from memory_review.extract.gates import GatedPattern, GateTable, literal_gate
from memory_review.extract.heuristic import extract
from memory_review.extract.reminders import REMINDER_CUE
from memory_review.extract.rule_files import RULE_FILE_CUE
from memory_review.extract.textutil import sentence_spans, unwrapped
from memory_review.extract.transcript import Transcript, Turn

LABELLED = Path(__file__).parent / "labelled"
# Every pattern read behind a gate: the signals, and the cues and one-off words examine and the turn's scan ask for
GATED = [signal.pattern for signal in signals.SIGNALS] + [
    signals.CUE,
    signals.TOOL_CHOICE_CUE,
    heuristic._MAYBE_CORRECTION,
    REMINDER_CUE,
    RULE_FILE_CUE,
    signals._DURABLE_SPAN,
    signals._TIME_ONE_OFF,
    signals._OUTSIDE_THIS_PLACE,
    task_at_hand._SAID_BEFORE,
    task_at_hand._SAID_OF_THE_PROGRAM,
]
SAMPLE_EVERY = 11  # of the labelled sentences, checked against every gated pattern: a few seconds


def _transcript(*texts: str) -> Transcript:
    turns = [Turn(turn_id=f"t{i}", role="user", source="user", text=text, index=i) for i, text in enumerate(texts)]
    return Transcript(session_id="sess_long", format="text", turns=turns)


def _counted(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[int]:
    """Count the calls of ``owner.name`` (the real function still runs): how often the work is done."""
    calls = [0]
    real: Callable[..., Any] = getattr(owner, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return calls


def _labelled_sentences() -> list[str]:
    sentences: list[str] = []
    for path in sorted(LABELLED.glob("*.json")):
        for session in json.loads(path.read_text(encoding="utf-8"))["sessions"]:
            for prompt in session["prompts"]:
                text = unwrapped(prompt["text"])
                sentences.extend(text[start:end] for start, end in sentence_spans(text))
    return sentences


def test_a_gate_never_rules_out_a_labelled_sentence_its_pattern_matches() -> None:
    gates = [literal_gate(pattern) for pattern in GATED]
    sentences = [s.replace("\u2019", "'") for s in _labelled_sentences()[::SAMPLE_EVERY] if s.isascii()]
    assert len(sentences) > 3000
    ruled_out = 0
    for sentence in sentences:
        lowered = sentence.lower()
        for pattern, gate in zip(GATED, gates, strict=True):
            if gate.rules_out(lowered):
                ruled_out += 1
                assert pattern.search(sentence) is None, (pattern.pattern[:60], sentence)
    assert ruled_out > len(sentences) * len(GATED) // 2  # and most searches are never made


# Sentences made of the patterns' own words, in any case, glued or spaced: where a gate that was wrong would show
_WORDS = sorted({word for pattern in GATED for group in literal_gate(pattern).groups for word in group})
_FILLER = ["you", "we", "i", "the", "tests", "please", "and", "not", "to", "it", "main", "uv", ",", ".", ":", "-", "'"]


@settings(max_examples=examples(400), deadline=None)
@given(
    st.lists(st.sampled_from(_WORDS + _FILLER), min_size=1, max_size=14),
    st.lists(st.sampled_from([" ", "", "  ", "\n"]), min_size=14, max_size=14),
    st.booleans(),
)
def test_a_gate_never_rules_out_a_made_sentence_its_pattern_matches(
    words: list[str], spaces: list[str], shout: bool
) -> None:
    sentence = "".join(word + space for word, space in zip(words, spaces, strict=False))
    sentence = sentence.upper() if shout else sentence.capitalize()
    for pattern in GATED:
        if literal_gate(pattern).rules_out(sentence.lower()):
            assert pattern.search(sentence) is None, (pattern.pattern[:60], sentence)


def test_a_gate_reads_the_words_of_its_pattern() -> None:
    avoid = literal_gate(next(s.pattern for s in signals.SIGNALS if s.name == "avoid"))
    assert avoid.groups == (("avoid",),)
    assert avoid.rules_out("use uv, not pip.") and not avoid.rules_out("you should avoid mocks.")
    # every match of "after each" holds one word of each group: "each" alone is not enough
    after_each = literal_gate(next(s.pattern for s in signals.SIGNALS if s.name == "after each"))
    assert after_each.rules_out("run each test.") and not after_each.rules_out("after each change, run the linter.")
    # a dotless "ı" matches "i" ignoring case: "artık" is looked for as "artik" in an ASCII text
    assert not literal_gate(re.compile("artık", re.IGNORECASE)).rules_out("artik yok")
    assert literal_gate(re.compile("以后", re.IGNORECASE)).rules_out("from now on")  # no ASCII text holds it
    assert literal_gate(re.compile(r"\w+")).groups == ()  # no word every match holds: nothing ruled out


def test_a_gate_is_made_only_once_its_pattern_has_read_enough() -> None:
    """A short prompt pays no parse; a text that is not ASCII is searched as it is."""
    pattern = re.compile(r"\bnever\s+push\b", re.IGNORECASE)
    gated = GatedPattern(pattern)
    assert gated.search("Never push to main.", "never push to main.")
    assert gated._gate is None
    assert not gated.search("x" * 30_000, "x" * 30_000)
    assert gated._gate is not None and gated._gate.rules_out("use uv.")
    assert gated.search("Never push — ever.", None)
    table = GateTable([pattern, re.compile("avoid", re.IGNORECASE)])
    assert table.open_to("use uv.") == [True, True]  # not made yet
    assert table.open_to("y" * 30_000) == [False, False]
    assert table.open_to("never push, avoid mocks.") == [True, True]
    assert table.open_to("avoid mocks.") == [False, True]


def test_one_rule_said_thousands_of_times_in_a_message_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    examined = _counted(monkeypatch, heuristic, "examine")
    built = _counted(monkeypatch, heuristic, "build_finding")
    rule = "Always run the tests before you commit; never push to main. "
    findings = extract(_transcript(rule * 2000))
    assert len(findings) == 4000  # each sentence is still a finding, as before
    assert {f.memory.body for f in findings} == {"Always run the tests before you commit;", "never push to main."}
    assert examined[0] == 2 and built[0] == 2


def test_a_run_redacts_and_scans_each_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    scanned = _counted(monkeypatch, safety, "scan")
    redacted = _counted(monkeypatch, safety, "redact")
    rules = "".join(f"Never edit the generated file number {n} by hand. " for n in range(1, 41))
    findings = extract(_transcript(rules))
    assert len(findings) == 40
    # a statement is its own quote, and the description is derived: one scan of each statement and of "" once, one
    # redaction of each statement and of the turn's one rationale
    assert scanned[0] == 41
    assert redacted[0] == 41


def test_a_pasted_line_too_long_for_a_rule_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A brief's line past a rule's length is one examine never reads: nor is it asked whether it is a task's."""
    one_off = _counted(monkeypatch, heuristic, "is_one_off")
    long_line = " ".join(["never push to main and commit often"] * 40)
    brief = "\n".join(["# Plan", *[f"{long_line} {n}" for n in range(12)], "", "Never push to main."]) + "\n"
    brief += "\n".join(f"- step {n}: build the feature" for n in range(80))
    findings = extract(_transcript(brief))
    assert heuristic.is_pasted_document(brief)
    assert one_off[0] == 1  # the short rule only
    assert all(len(f.quote) < 600 for f in findings)


def test_a_finding_given_again_joins_its_group_as_a_copy_of_it_would(monkeypatch: pytest.MonkeyPatch) -> None:
    """The planner reads a finding object given again once, and merges it where an equal copy would go."""
    plan_module = importlib.import_module("memory_review.extract.plan")  # the package's ``plan`` is the function
    rules = "Never push to main. Always run the tests. Never push to main! Always run the tests, please. " * 300
    findings = extract(_transcript(rules, "Never push to main. Use uv for every install."))
    copies = [finding.model_copy() for finding in findings]  # equal, but each its own object
    assert plan_module.collapse(findings) == plan_module.collapse(copies)
    read = _counted(monkeypatch, plan_module, "_known_finding")
    plan_module.collapse(findings)
    assert read[0] == len({id(finding) for finding in findings}) < 10
