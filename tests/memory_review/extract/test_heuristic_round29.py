"""The twenty-ninth round of the heuristic (ADR 0089): rules in the briefs a person pastes again and again.

Held-out 71 to 77 measured the frozen twenty-eighth round (with the planner's merge of ADR 0088) once: 175 prompts, no
proposal, 0 of 20 rules found. Held-out 72's person opens each Amp thread with a hand-off in his own voice that says
"I prefer XDG-style ~/.config paths over …" in four of them; held-out 71 and 77's person puts the same "Working Rules"
in every sub-task's brief; held-out 75's says "All future work goes inside vioverse-refactor/." Each brief is a pasted
document, whose sentences were not read. Now a first-person preference in a brief, and each item under its "Working
Rules" heading, are held back like a weak rule and proposed when a second session's brief says them again; "all future
work" is a standing word like "from now on".
"""

from __future__ import annotations

from rounds_kit import said, user_transcript

from memory_review.extract.heuristic import extract
from memory_review.extract.precision import working_rule_items
from memory_review.extract.signals import examine

HANDOFF = "\n".join(
    [
        "Continuing work from thread T-{n}. When you lack specific information you can use read_thread to get it.",
        "",
        "@src/config.rs @src/theme.rs @src/keymap.rs @src/main.rs",
        "",
        "I just implemented user configuration persistence for themes:",
        "",
        "- EditorConfig in src/config.rs handles persistent settings",
        "- Theme loading reads the user's directory first",
        "- Keymap overrides merge over the defaults",
        "- Tests cover the round trip",
        "- The theme picker lists the bundled themes",
        "- The status bar shows the theme's name",
        "- Config errors are shown, never swallowed",
        "",
        "I prefer XDG-style ~/.config paths over platform-native locations like ~/Library/Application Support.",
        "",
        "Now wire the theme picker into the command palette. " * 20,
    ]
)

BRIEF = "\n".join(
    [
        "# Sub-Task {n}: Stack detection",
        "",
        "Sub-Task {m} shipped. The CLI works end to end. " * 20,
        "",
        "## Working Rules",
        "",
        "- Restate Sub-Task {n} in 2 sentences before coding",
        "- Define every technical term before using it.",
        "- No `# Made with Bob` footers (I will keep correcting these manually if",
        "  they appear)",
        "",
        "## Deliverables for Approval",
        "",
        "1. Full source of `praxis/detect.py`",
        "2. Output of `python -m praxis.detect`",
        "3. Output of `python -m praxis.granite`",
        "4. The CHANGELOG.md entry",
        "5. Cumulative Bobcoin consumption",
    ]
)


def test_all_future_work_is_a_standing_word() -> None:
    found = examine("All future work goes inside /home/me/vioverse-refactor/.")
    assert found is not None and found.signal == "from now on" and not found.held_back


def test_future_work_as_a_heading_or_a_plan_is_not() -> None:
    assert examine("Future work: add caching to the parser.") is None
    assert said("We should list the future work in the roadmap.") == []


def test_a_preference_in_a_hand_off_of_two_sessions_is_one_rule() -> None:
    found = extract(user_transcript(HANDOFF.format(n=1), HANDOFF.format(n=2), sessions=("s1", "s2")))
    assert [f.quote for f in found] == [
        "I prefer XDG-style ~/.config paths over platform-native locations like ~/Library/Application Support."
    ]
    assert "inside a pasted brief in 2 sessions" in found[0].rationale


def test_a_typographic_apostrophe_is_the_same_preference() -> None:
    handoff = HANDOFF.replace("I prefer", "I\u2019d prefer")
    found = said(handoff.format(n=1), handoff.format(n=2), sessions=("s1", "s2"))
    assert [quote.split(" over ")[0] for quote in found] == ["I\u2019d prefer XDG-style ~/.config paths"]


def test_in_one_session_it_waits() -> None:
    assert said(HANDOFF.format(n=1), HANDOFF.format(n=2), sessions=("s1", "s1")) == []


def test_a_working_rule_in_two_sessions_briefs_is_one() -> None:
    found = extract(user_transcript(BRIEF.format(n=2, m=1), BRIEF.format(n=3, m=2), sessions=("s1", "s2")))
    quotes = [f.quote for f in found]
    assert "Define every technical term before using it." in quotes
    assert "No `# Made with Bob` footers (I will keep correcting these manually if\n  they appear)" in quotes
    assert all("among a brief's working rules" in f.rationale for f in found)
    footer = next(f for f in found if "Made with Bob" in f.quote)
    assert footer.memory.body == "No `# Made with Bob` footers (I will keep correcting these manually if they appear)"


def test_a_working_rule_said_once_or_a_brief_resent_as_it_was_waits() -> None:
    assert said(BRIEF.format(n=2, m=1), sessions=("s1",)) == []
    assert said(BRIEF.format(n=2, m=1), BRIEF.format(n=2, m=1), sessions=("s1", "s2")) == []


def test_working_rules_someone_else_wrote_are_not_the_persons() -> None:
    brief = BRIEF.replace("## Working Rules\n\n", "My colleague wrote:\n## Working Rules\n")
    assert said(brief.format(n=2, m=1), brief.format(n=3, m=2), sessions=("s1", "s2")) == []


def test_a_specs_rules_heading_is_not_a_working_rules_one() -> None:
    brief = BRIEF.replace("## Working Rules", "Rules:")
    assert said(brief.format(n=2, m=1), brief.format(n=3, m=2), sessions=("s1", "s2")) == []


def test_the_items_run_to_the_next_heading_or_prose() -> None:
    text = "## Working Rules\n\n- one rule\n  goes on\n2. two\n\n## Next\n- not one\n"
    text += "Working rules:\n- three\nProse.\n- x"
    assert [text[a:b] for a, b in working_rule_items(text)] == ["one rule\n  goes on", "two", "three"]
