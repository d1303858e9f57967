"""The twenty-seventh round of the heuristic (ADR 0086): a git prohibition in the brief the person pastes per task.

Held-out 66 measured the frozen twenty-third to twenty-fifth rounds once: no proposal, 0 of 7 rules found. Its person
pasted a long brief for each task, and every brief said how she works with git: "Do not commit or push to GitHub.",
"Do NOT commit.", "DO NOT push changes to GitHub." A long structured message is a pasted document, and none of its
sentences was read. Now its git prohibitions are held back like a weak rule: said in a second session, they are one.
"""

from __future__ import annotations

from rounds_kit import said

BRIEF = "\n".join(
    [
        "TASK {n} — BACKEND SERVICES",
        "",
        "You are working in the existing repository for the hackathon.",
        "",
        "SOURCE OF TRUTH",
        "1. Read the plan.",
        "2. Inspect the existing repository.",
        "3. Follow the approved architecture.",
        "4. Preserve all existing work.",
        "5. Do not commit or push to GitHub.",
        "",
        "SCOPE",
        "For this task ONLY, implement the services below. " * 60,
        "- the parser",
        "- the API",
        "- the tests",
    ]
)


def test_a_git_prohibition_in_a_brief_pasted_in_two_sessions_is_a_rule() -> None:
    found = said(BRIEF.format(n=2), BRIEF.format(n=3), sessions=("s1", "s2"))
    assert found == ["Do not commit or push to GitHub."]


def test_in_one_session_it_waits() -> None:
    assert said(BRIEF.format(n=2), BRIEF.format(n=3), sessions=("s1", "s1")) == []


def test_the_briefs_other_prohibitions_are_still_the_tasks() -> None:
    brief = BRIEF.replace("Do not commit or push to GitHub.", "Do not change the database schema.")
    assert said(brief.format(n=2), brief.format(n=3), sessions=("s1", "s2")) == []
