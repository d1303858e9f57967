"""The second round of the heuristic (ADR 0049): each rule from a real dev prompt, with its near misses.

Aimed at the error classes the held-out splits showed (docs/extraction.md), which are general patterns of
English and Chinese: a bare 必须 (must) inside a task spec, "we use/support" inside a clause that describes,
"in future <noun>", a rule behind a leading clause ("When X, always Y"), a bare "prefer X", a program's
default ("will by default", "by default … make this configurable"), and the language to talk in.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.signals import classify

# A bare 必须 is what this task needs; it is a standing rule when it covers every case.
MUST_RULES = [
    "请使用中文撰写技术方案，但所有代码相关命名必须采用英文。",  # dev 3 (Ray-56/inkflow), the plan's first line
    "每次提交前必须跑一遍测试。",
    "任何接口都必须有文档注释。",
    "以后必须先跑测试。",  # a strong signal carries it anyway
]
MUST_IN_A_SPEC = [
    "undo / redo 必须以 stroke 为基本单位",  # dev 3, a line of the same plan's constraints
    "输入事件必须先转换为统一模型，再进入应用层或领域层",  # dev 3: 统一 here is "unified", not "uniformly"
    "persistence 必须保存 stroke data，而不是只保存位图",  # dev 3
    "实际测试：开发一个看板，必须包含至少 5 个复用组件！",
    "生成的报告必须放在 output 目录下。",
]


@pytest.mark.parametrize("sentence", MUST_RULES)
def test_a_must_that_covers_every_case_is_a_rule(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None, sentence
    assert found.type == "convention"


@pytest.mark.parametrize("sentence", MUST_IN_A_SPEC)
def test_a_bare_must_in_a_task_spec_is_no_rule(sentence: str) -> None:
    assert classify(sentence) is None


# "we use X" in a main clause states a convention; inside "that …", "like …", "if …" it describes or asks.
WE_USE_RULES = ["We support Python 3.10 and newer.", "We are using pnpm, not npm.", "We use poetry for dependencies."]
WE_USE_IN_A_CLAUSE = [
    "it looks like we're using the old version of the parser",
    "check that we support older browsers on the settings page",
    "check whether we use the cache anywhere else",
    "I think we support that format already",
]


@pytest.mark.parametrize("sentence", WE_USE_RULES)
def test_we_use_in_a_main_clause_is_a_convention(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and found.signal == "we use", sentence


@pytest.mark.parametrize("sentence", WE_USE_IN_A_CLAUSE)
def test_we_use_inside_a_clause_that_describes_is_no_convention(sentence: str) -> None:
    assert classify(sentence) is None


def test_you_should_be_using_is_how_the_work_is_done() -> None:
    # dev 2 (dphaener/dotfiles, paraphrased), a durable rule the first round missed
    found = classify("You should be using the subagents you have for this work.")
    assert found is not None and found.type == "convention"
    assert classify("You should be using less memory now.") is None  # "now": the task at hand


# "In future, X" / "in the future, X" is a rule; "in future <noun>" is an adjective.
def test_in_future_before_a_noun_is_an_adjective() -> None:
    # dev (entireio/cli): a hook's notice; without its colon it is still no rule
    notice = "To suppress this warning in future sessions, run entire enable --disable-multisession-warning."
    assert classify(notice) is None
    assert classify("The binaries should keep working in future releases, so bundle their libraries.") is None
    assert classify("Keep the API stable for future versions of the app.") is None


@pytest.mark.parametrize(
    "sentence", ["In future, ask me before deleting files.", "In the future, ask me before deleting files."]
)
def test_in_future_with_a_comma_is_a_rule(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and found.signal == "from now on"


# A rule behind a leading clause that says when it applies.
@pytest.mark.parametrize(
    "sentence",
    [
        "When you lose the link to the server always reload the state first.",
        "When the build breaks, always read the log before retrying.",
        "If a test is flaky never just rerun it.",
        "Before you push always run the linters.",
    ],
)
def test_always_or_never_after_a_leading_clause_is_a_rule(sentence: str) -> None:
    assert classify(sentence) is not None


@pytest.mark.parametrize(
    "sentence",
    [
        "When I run it it always fails.",
        "When I tried that the app always crashed on start.",
        "If I open the page it never loads.",
        "When the job runs, the cache is always empty.",
    ],
)
def test_always_after_a_clause_that_tells_what_happens_is_no_rule(sentence: str) -> None:
    assert classify(sentence) is None


# A bare imperative "prefer X".
@pytest.mark.parametrize(
    "sentence",
    ["prefer using the standard library", "Prefer composition over inheritance.", "Please prefer small commits."],
)
def test_a_bare_prefer_is_a_preference(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and found.type in {"preference", "convention"}


@pytest.mark.parametrize(
    "sentence", ["Do you prefer tabs?", "Users prefer dark mode.", "prefer it the other way round this time"]
)
def test_prefer_that_asks_describes_or_points_is_no_rule(sentence: str) -> None:
    assert classify(sentence) is None


# A program's default is a spec; the agent's default is a rule.
def test_a_default_the_message_makes_configurable_is_a_spec() -> None:
    # dev 2 (Quelklef/shell-ws, paraphrased), proposed by the first round
    message = (
        "Let's stream it. By default, hold the output and emit it each time we see a line break or 4 KB.  "
        "Make this configurable."
    )
    assert said(message) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "The --out flag will by default write to build/, unless specified otherwise.",
        "Caching is enabled by default in the new config.",
        "The importer should by default skip empty rows.",
    ],
)
def test_a_program_that_does_something_by_default_is_described(sentence: str) -> None:
    assert classify(sentence) is None


def test_the_agents_default_stays_a_rule() -> None:
    assert classify("By default, explain your changes in one short paragraph.") is not None
    # dev 2, a durable rule whose "by default" sits in its reason; "by default" is an occasion, not a standing word,
    # so since the sixth round (ADR 0059) it is held back until said in a second session
    rule = "- Use a lockfile-pinned toolchain for packages and dev shells, so builds are fully repeatable by default."
    assert not said(rule)
    found = classify(rule.lstrip("- "))
    assert found is not None and found.held_back


# The language to talk in.
def test_the_language_to_talk_in_is_a_preference() -> None:
    # dev 3 (Ray-56/inkflow): the rule, then a one-off request
    assert said("对话时使用中文。前面的重新发我下") == ["对话时使用中文。"]
    found = classify("Always reply in English.")
    assert found is not None and found.type == "preference" and found.scope == "user"


def test_writing_one_text_in_a_language_is_a_task() -> None:
    assert classify("Translate this paragraph in English.") is None
    assert classify("把这段翻译成中文。") is None
