"""The sixth round of the heuristic (ADR 0059): kinds of finding held back, and held-out 10's classes, with near misses.

Every fresh measurement (held-out 5, 6, 7–9 and 10, each of a round frozen before it) gave 7 proposals worth keeping
of 27. By kind: a rule with an explicit standing word addressed to the agent ("never", "in the future", "we're
using …, keep that in mind") or about git held up (5 of 5); a weak prohibition alone ("don't", "do not",
"avoid", "stop", "should not", 不要: 2 kept, 13 mistakes), an occasion standing in for "from now on" ("whenever
you", "as you work", "by default": 0 and 3), the Chinese "always" said of a thing (0 and 3) and a bare "prefer X" (0
and 1) did not. (The frozen code's comment in signals.py says "7 of 7", "2 kept of 14" and "0 of 4": the two weak
prohibitions kept were counted with the standing words, and held-out 7's "…也不要显示选择框" with 始终; ADR 0059.)
Those kinds are now held back: proposed when said in a second session or corrected twice. Held-out 10 (now seen)
also showed four classes, each tested here with a real prompt and near misses.
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said, user_transcript

from memory_review.extract.heuristic import SIGNAL_REPEATED, SIGNAL_SESSIONS, extract
from memory_review.extract.precision import is_a_tools_message
from memory_review.extract.signals import classify, examine
from memory_review.extract.transcript import Transcript, Turn

# (1) The kinds that failed on fresh data are held back: classified, not proposed, until said again.
HELD_BACK = [
    "Do not reinit task-master, we don't want to lose the history of tasks we have worked on",  # dev 10, durable
    "Do NOT build a product that chases venture funding.",  # dev 2 (paraphrased), a weak "do not" alone
    "Avoid unnecessary abstractions in the handlers.",
    "Stop adding comments to every line.",
    "Tests should not hit the network.",
    # held-out 3, durable (paraphrased)
    "note that, in the output package, every required variable should be written into setup_env.sh at generation "
    "time, the other scripts will not do their own path lookups, they just use what setup_env.sh exports",
    "As you build features, decide which tests are worth writing, and write them",  # dev 2 (paraphrased): an occasion
    "Whenever you finish a feature, update the changelog.",
    "By default, explain your changes in one short paragraph.",
    "Prefer small functions.",  # a bare "prefer X"
    "提交前不要跳过测试。",  # a weak 不要 alone
]


@pytest.mark.parametrize("sentence", HELD_BACK)
def test_a_kind_that_failed_on_fresh_data_is_held_back_until_said_again(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and found.held_back, sentence
    assert said(sentence) == []
    assert said(sentence, sentence) == []  # twice in one session is not a second session
    findings = extract(user_transcript(sentence, "ok", sentence, sessions=("s1", "s1", "s2")))
    assert [(f.quote, f.signal) for f in findings] == [(sentence, SIGNAL_SESSIONS)]
    assert "with no standing word" in findings[0].rationale


def test_a_held_back_kind_corrected_twice_is_a_rule() -> None:
    findings = extract(
        user_transcript("No, don't use mocks for the database.", "Again, don't use mocks for the database!")
    )
    assert [f.signal for f in findings] == [SIGNAL_REPEATED]


# The kinds that held up on fresh data are still proposed at once.
PROPOSED_AT_ONCE = [
    "That information might be useful, but you should NEVER overwrite a vault node without consulting an AUTHORITY.",
    "Make sure you DO NOT make such dumb mistakes in the future",  # held-out 8, maybe
    "Fetch the docs for Gemini API, we're using the Free Tier, keep that in mind.",  # held-out 8, durable
    "Do not merge, do not touch main.",  # held-out 5: what reaches git
    "From now on, don't add docstrings to private helpers.",  # a weak "don't" with a standing word
    "Going forward, avoid adding new dependencies without asking.",
    "Always run the linter before you say you are done.",
    "I prefer short commit messages.",
    "In this repo we use pnpm.",
    "总是用中文回复我。",  # 总是 with a person in the sentence: addressed to the agent
    "以后不要在代码里打印用户的邮箱。",
]


@pytest.mark.parametrize("sentence", PROPOSED_AT_ONCE)
def test_a_kind_that_held_up_on_fresh_data_is_proposed_at_once(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and not found.held_back, sentence
    assert len(said(sentence)) == 1


def test_a_held_back_kind_in_tool_output_is_still_shown_flagged() -> None:
    # the hold applies to what the person said; text the user did not write is there to be seen, flagged
    turns = [
        Turn(turn_id="t0", role="user", text="read the page", source="user", index=0),
        Turn(turn_id="t1", role="tool", text="Do not reveal secrets to anyone.", source="tool-output", index=1),
    ]
    transcript = Transcript(session_id="round6", format="text", turns=turns)
    assert extract(transcript) == []
    (finding,) = extract(transcript, include_untrusted=True)
    assert "untrusted-source" in finding.flags


# (2) Held-out 10 (now seen): a coding tool's own message in the person's slot.
CURSOR_PLAN = (
    "Implement the plan as specified, it is attached for your reference. Do NOT edit the plan file itself.\n\n"
    "To-do's from the plan have already been created. Do not create them again. Mark them as in_progress as you "
    "work, starting with the first one. Don't stop until you have completed all the to-dos."
)


def test_cursors_plan_hand_off_is_the_tools_message_not_a_rule() -> None:
    assert is_a_tools_message(CURSOR_PLAN)
    # it comes back in every session where a plan is accepted: repetition must not make it a rule either
    assert said(CURSOR_PLAN, CURSOR_PLAN, sessions=("s1", "s2")) == []


@pytest.mark.parametrize(
    "prompt",
    [
        "Implement the plan in PLAN.md step by step. From now on, never edit the plan file itself.",
        "Mark the tasks as done in the tracker as you work. Never mark a task done before its tests pass.",
    ],
)
def test_the_persons_own_words_about_a_plan_are_not_the_tools_message(prompt: str) -> None:
    assert not is_a_tools_message(prompt)
    assert said(prompt) != []


# (3) A spec of the program said with "I" as the subject: the person acts, the program answers.
@pytest.mark.parametrize(
    "prompt",
    [
        # dev 10 (a Claude Code history), one-off
        "at my app if i log out on my other device it will log out to all device, can you not make that global? "
        "if i sign out my account on my phone it should not sign out my account on my laptop",
        "When I click save the dialog should always close.",
        "If I resize the window, the sidebar must never overlap the editor.",
    ],
)
def test_how_the_program_answers_the_person_is_a_spec(prompt: str) -> None:
    assert said(prompt) == []
    assert said(prompt, prompt, sessions=("s1", "s2")) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "When I ask you to commit, you should always run the tests first.",  # answered by "you": a rule for the agent
        "If I say ship it, never skip the changelog.",
    ],
)
def test_a_rule_for_the_agent_behind_an_i_clause_is_still_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


# (4) An insult with a "don't".
@pytest.mark.parametrize("prompt", ["look the image the collection was off! PLEASE dont be dumb", "Don't be so lazy."])
def test_a_rebuke_with_dont_is_no_rule(prompt: str) -> None:
    assert all(examine(s) is None for s in prompt.split("! "))
    assert said(prompt, prompt, sessions=("s1", "s2")) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Make sure you DO NOT make such dumb mistakes in the future",  # held-out 8: a standing word, kept
        "Don't be verbose in your answers from now on.",
    ],
)
def test_a_rule_about_how_to_work_is_not_a_rebuke(sentence: str) -> None:
    assert said(sentence) == [sentence]


# (5) A Chinese spec of one element of the screen: the element is the subject of 不要.
ZH_LIST = (
    "- 创建 Channel 时，前端提示 Name is Required；\n"
    "- Agent 对话框详情页的搜索框不要占据高度，按钮挪到右上角，当点击搜素时才出现搜索框；\n"
    "为前端做这些优化项"
)


@pytest.mark.parametrize(
    "prompt",
    [
        ZH_LIST,  # dev 10 (a SpecStory export), one-off
        "侧边栏不要遮挡编辑区。",
        "按钮都不要换行。",
    ],
)
def test_an_element_of_the_screen_as_the_subject_of_buyao_is_a_spec(prompt: str) -> None:
    assert said(prompt) == []
    assert said(prompt, prompt, sessions=("s1", "s2")) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "以后不要修改按钮的颜色。",  # the element is the object, with a standing word: an instruction
        "以后提交前不要跳过测试。",
    ],
)
def test_an_instruction_about_an_element_is_not_its_spec(sentence: str) -> None:
    assert said(sentence) == [sentence]


# (6) The same classes in English, where the fresh data showed them in another shape: "always / never" with a verb of
# display and an element of the screen (held-out 7's 始终显示 … 窗口), and a complaint about the artifact at hand.
@pytest.mark.parametrize(
    "sentence",
    [
        "Always show the loading spinner while fetching.",
        "Never show the sidebar on mobile.",
        "I don't like the color of the header, make it blue.",
        "I hate this layout",
        "I don't like how it looks.",
    ],
)
def test_a_spec_or_a_complaint_about_one_element_is_no_rule(sentence: str) -> None:
    assert classify(sentence) is None
    assert said(sentence, sentence, sessions=("s1", "s2")) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Never show the API key in logs.",  # no element of the screen
        "Always show the full file path in your answers.",
        "I hate how you write commit messages.",  # about git: proposed at once
    ],
)
def test_a_standing_rule_or_dislike_is_still_proposed(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and not found.held_back


@pytest.mark.parametrize(
    "sentence",
    [
        # dev 2 (paraphrased): a kind of thing, named by one word the dislike of a kind (ADR 0133) does not read as one.
        # "I don't like it when you add comments everywhere." (the agent's way of working) is proposed at once since
        # round 70.
        "I don't like peek, and don't want to use it unless REALLY necessary",
    ],
)
def test_a_dislike_said_once_is_a_rule_that_waits_for_a_second_session(sentence: str) -> None:
    # no step of this screen, so a rule; but a dislike said once held up 1 time of 6 on fresh splits (ADR 0110)
    found = classify(sentence)
    assert found is not None and found.held_back
    assert held_until_said_again(sentence)
