"""The fifty-third round of the heuristic (ADR 0116), tuned on held-out 161.

Round 52 proposed four rules on held-out 161's Chinese Cursor chats and one exported Claude Code session; one was worth
keeping. "禁止修改parseTest" (do not modify parseTest: one named function) and "我不允许莫名奇妙出现未经过解析的" (I do
not allow unparsed output to appear: what the exporter must not print) were read as "never": 禁止 (prohibit) and 不允许
(not allowed) say "do not", as 不许 and 不准 already did, and wait for a second session. With "always", "absolutely" or
"by all means" before them (永远禁止, 绝对不允许) they are still "never". "I would prefer for this to be something that
can be run on command … instead of …" is what the person wants the thing at hand to be: "instead" no longer makes it a
rule said once.
"""

from __future__ import annotations

import pytest
from rounds_kit import held_until_said_again, said


@pytest.mark.parametrize(
    "sentence",
    [
        "禁止修改parseTest",  # held-out 161
        "我不允许莫名奇妙出现未经过解析的内容",
        "禁止使用mock数据做测试",
        "I would prefer for this to be something that can be run on command instead of having something that runs "
        "all the time.",  # held-out 161
        "I'd prefer it to run on demand instead of in the background.",
        "I prefer that this is a CLI instead of a daemon.",
    ],
)
def test_a_plain_prohibition_or_a_wish_for_the_thing_at_hand_waits_for_a_second_session(sentence: str) -> None:
    assert held_until_said_again(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "永远禁止直接推送到main",  # "always prohibit": never
        "绝对不允许提交密钥",  # "absolutely not allowed"
        "千万不能删除数据库",
        "严禁使用mock",  # "strictly prohibited"
        "永远不要修改测试文件",
        "I'd prefer pnpm instead of npm.",  # a choice against something, not the thing at hand
        "I prefer it when you ask before guessing, not after.",
    ],
)
def test_never_and_a_general_choice_are_still_rules_said_once(sentence: str) -> None:
    assert said(sentence) == [sentence]
