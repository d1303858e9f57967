"""The fifth round of the heuristic (ADR 0058): each rule from a real prompt of the seen splits, with near misses.

The classes held-out 7, 8 and 9 (now seen) showed: Chinese specs of one window or thing of the program that carry
始终 / 总是 ("always") or 不要显示 ("don't show"); "by default" said of the thing being changed; a constraint under a
short request's "Constraints:" head; and, missed, a rule the person asks to write into an agent instruction file.
"""

from __future__ import annotations

import pytest
from rounds_kit import said, user_transcript

from memory_review.extract.heuristic import SIGNAL_RULE_FILE, SIGNAL_SESSIONS, extract
from memory_review.extract.precision import is_task_spec
from memory_review.extract.signals import classify, examine


# (a) Held-out 7 (gxm11/RPGXP-Crafting-System, aider, Chinese): how one window, value or recipe of the plugin behaves.
@pytest.mark.parametrize(
    "prompt",
    [
        "请始终显示Window_CraftList和Window_CraftStatus窗口，在Window_CraftCommand激活时，Window_CraftList和"
        "Window_CraftStatus显示的内容为空。",
        "window_craftnumber变化的基数应该始终是@recipe['target']['number']的倍数，如果@recipe['target']['number']为3，"
        "则初始值为3，每次+3或-3。",
        "请继续为game_craft添加功能，还可选得传入craft.switch，接受一个整数switch_id。如果未设置则此合成配方始终有效。",
        # near misses written to the class
        "登录按钮应该始终可见。",
        "这个值总是等于零。",
        "get_items 的返回值一直都是列表。",
        "菜单栏总是显示在顶部。",
    ],
)
def test_always_said_of_one_thing_of_the_program_in_chinese_is_a_spec(prompt: str) -> None:
    assert said(prompt) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "回答时始终使用中文。",  # how to answer: the agent's work
        "代码注释始终用英文写。",
        "我们始终是用 pnpm 管理依赖。",
        "提交信息始终是英文。",  # "is", but no window, control or identifier of the program
        "总是显示完整的文件路径。",  # shown, but no window, screen or identifier of the program named
        "以后总是先运行测试再提交。",
        "总是为新功能添加测试。",  # 为 here is "for", not "is"
        "永远不要提交 .env 文件。",
    ],
)
def test_always_about_the_agents_work_in_chinese_still_stands(sentence: str) -> None:
    assert classify(sentence) is not None, sentence


def test_dont_show_in_chinese_forbids_one_thing_of_the_screen() -> None:
    # held-out 7: "when Window_CraftCommand is active, don't show the list's content, nor the selection box"
    prompt = "在Window_CraftCommand激活时，不显示Window_CraftList和Window_CraftStatus中的内容，也不要显示选择框。"
    found = examine(prompt)
    assert found is not None and found.named_one_off  # like "don't show the banner" (ADR 0057): kept aside
    assert said(prompt) == []
    # said again in another session, it is the person's rule
    repeated = extract(user_transcript("不要显示选择框。", "请不要显示选择框。", sessions=("s1", "s2")))
    assert [f.signal for f in repeated] == [SIGNAL_SESSIONS]
    # a prohibition that does not show or hide anything is untouched
    assert classify("不要使用 var 声明变量。") is not None


# (b) Held-out 8 (ThatHunky/gryag, Copilot): "by default" is what the changed thing does.
@pytest.mark.parametrize(
    "sentence",
    [
        "Adjust the system prompt to *by default* generate photorealistic images (photos) and follow the aspect "
        "ratio of the original when editing them.",
        "Change the bot so that it replies in Ukrainian by default.",
        "Make it use dark mode by default.",
        "Update the CLI to print JSON by default.",
    ],
)
def test_by_default_said_of_the_thing_being_changed_is_a_spec(sentence: str) -> None:
    assert classify(sentence) is None, sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "By default, answer in English.",
        "By default, write tests with pytest.",
        "Adjust your answers to be short by default.",  # the agent's own work
        "Use uv by default, not pip.",
    ],
)
def test_by_default_for_the_agents_work_still_stands(sentence: str) -> None:
    assert classify(sentence) is not None, sentence


# (c) Held-out 7 (AFI-Protocol/afi-core, aider): the constraints of one audit.
AUDIT = (
    "Now audit the overall structure and provide:\n"
    "1. A final checklist to reach 100% AFI-core readiness.\n"
    "2. Confirm ESM compliance across all files you have.\n"
    "3. Identify any DAG, schema, or validator gaps.\n"
    "4. Suggest the safest modular path to complete and publish the repo.\n\n"
    "Constraints:\n"
    "- Preserve AFI Codex and AOS alignment.\n"
    "- Avoid unnecessary implementation logic—focus on scaffolding and modular integrity."
)


def test_a_constraint_under_a_short_requests_head_is_the_jobs() -> None:
    assert len(AUDIT) < 600 and is_task_spec(AUDIT)
    assert said(AUDIT) == []


def test_a_short_request_still_keeps_its_strong_rules_and_a_plain_list_is_no_spec() -> None:
    spec = AUDIT + "\n- Never push to main."
    assert said(spec) == ["Never push to main."]
    # items without a "Constraints:" head are the person's list, not a spec: its rules stand
    plain = "A few things:\n- Avoid global state in the modules.\n- Keep functions short.\n- Use type hints."
    assert not is_task_spec(plain)
    # each item stands; a weak "avoid" alone is held back until said again (ADR 0059), a standing word is not
    assert classify("Avoid global state in the modules.") is not None
    plain = "A few things:\n- Never use global state in the modules.\n- Keep functions short.\n- Use type hints."
    assert not is_task_spec(plain)
    assert "Never use global state in the modules." in said(plain)


# (d) Held-out 8 (iDorgham/DocGen, Cursor) and dev 6 (Aquaticat/Monochromatic, aider): a rule for a rule file.
@pytest.mark.parametrize(
    ("prompt", "rules"),
    [
        (
            '@rules/  add to cursor rules  "in all coded files add comments with description and details in the code '
            'with  arabic description if available "',
            [
                "in all coded files add comments with description and details in the code with  arabic description if "
                "available"
            ],
        ),
        (
            "add markdown file conventions to CONVENTIONS.md\nEnsure each sentence or long phrase is on its own line.\n"
            "Bullet lists use the - marker and there's one space after the marker.",
            [
                "Ensure each sentence or long phrase is on its own line.",
                "Bullet lists use the - marker and there's one space after the marker.",
            ],
        ),
        ("Add to CLAUDE.md: never push to main.", ["never push to main."]),
        (
            "put this in AGENTS.md:\n- use pnpm, not npm\n- run the linter before committing\n\n"
            "Then fix the login bug.",
            ["use pnpm, not npm", "run the linter before committing"],
        ),
        (
            "Write the following into .cursorrules: \u201cPrefer functional components.\u201d",
            ["Prefer functional components."],
        ),
        (
            "add to .github/copilot-instructions.md: Use the aiogram middleware for callback handlers too.",
            ["Use the aiogram middleware for callback handlers too."],
        ),
        ("add these testing guidelines to GEMINI.md: run pytest -x first", ["run pytest -x first"]),
    ],
)
def test_a_rule_asked_to_be_written_into_an_instruction_file_is_proposed(prompt: str, rules: list[str]) -> None:
    findings = extract(user_transcript(prompt))
    assert [f.quote for f in findings] == rules
    assert {f.signal for f in findings} == {SIGNAL_RULE_FILE}
    assert {f.scope for f in findings} == {"project"}


def test_a_rule_for_the_users_own_instruction_file_is_user_scope_and_a_prohibition_is_forbidden() -> None:
    (finding,) = extract(user_transcript("Add to ~/.claude/CLAUDE.md: don't use emojis in commit messages."))
    assert (finding.quote, finding.scope, finding.memory.type) == (
        "don't use emojis in commit messages.",
        "user",
        "forbidden",
    )


@pytest.mark.parametrize(
    "prompt",
    [
        "Add it to copilot instructions",  # the rule is in the task, not in the words
        "please fill out the tech stack in CLAUDE.md file based on the current repo.",
        "add the tech stack to CLAUDE.md",
        "add a section to README.md: installation steps for Windows",  # not an agent's instruction file
        "In CONVENTIONS.md , reorder the lists.",
        "Generate a file named AGENTS.md that serves as a contributor guide for this repository.",
        "what should I add to CLAUDE.md?",
        "add to CLAUDE.md: should we keep the old API?",  # a question is no rule
    ],
)
def test_a_request_about_an_instruction_file_without_a_rule_in_it_is_nothing(prompt: str) -> None:
    assert said(prompt) == []


def test_a_rule_file_request_in_a_pasted_document_is_not_the_users() -> None:
    document = "# Setup guide\n\n" + "\n".join(f"- step {n}: run the installer" for n in range(20))
    document += "\n\nadd to CLAUDE.md: never push to main."
    assert said(document) == []


def test_this_added_to_an_instruction_file_needs_a_colon_to_say_what() -> None:
    # "this" points back at something said before; the next line is the next task, not the rule
    assert said("add this to CLAUDE.md\nAlso fix the bug in the parser.") == []
    assert said("add this to CLAUDE.md: run the linter before every commit.") == ["run the linter before every commit."]


def test_the_scope_comes_from_the_file_named_not_from_the_rest_of_the_message() -> None:
    (user,) = extract(user_transcript("add to my global CLAUDE.md: answer in English."))
    assert user.scope == "user"
    (project,) = extract(user_transcript("The user guide says so. add to CLAUDE.md: never push to main."))
    assert project.scope == "project"


@pytest.mark.parametrize(
    ("prompt", "rule"),
    [
        ("把这条加到 CLAUDE.md：所有函数都要有类型注解。", "所有函数都要有类型注解。"),
        ("在 AGENTS.md 里加上：提交前先跑 pnpm lint。", "提交前先跑 pnpm lint。"),
        ("写入 .cursorrules「不要使用 any 类型」", "不要使用 any 类型"),
        ("update CLAUDE.md with: never push to main.", "never push to main."),
        ('update AGENTS.md to say "use pnpm, not npm"', "use pnpm, not npm"),
    ],
)
def test_the_same_request_in_chinese_or_as_an_update(prompt: str, rule: str) -> None:
    assert said(prompt) == [rule]


@pytest.mark.parametrize("prompt", ["把这条加到 CLAUDE.md", "update CLAUDE.md with the new commands", "更新 AGENTS.md"])
def test_the_same_request_without_a_rule_in_it_is_nothing(prompt: str) -> None:
    assert said(prompt) == []
