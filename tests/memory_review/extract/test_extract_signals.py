"""The one-off vs durable table: realistic sentences (English and Chinese) and what each must become."""

from __future__ import annotations

import pytest

from memory_review.extract.heuristic import extract
from memory_review.extract.signals import CUE, SIGNALS, classify, examine
from memory_review.extract.transcript import Transcript, Turn

# (sentence, expected (type, scope) or None for "not a memory")
DURABLE = [
    ("Never mock the database in tests — use the test container.", ("forbidden", "project")),
    ("Always use pnpm, not npm.", ("preference", "user")),
    ("From now on, write commit messages in the imperative mood.", ("convention", "project")),
    ("I prefer f-strings over .format() calls.", ("preference", "user")),
    ("We use poetry for dependency management.", ("convention", "project")),
    ("Our convention is snake_case for module names.", ("convention", "project")),
    (
        "In this repo, tests go under tests/ mirroring the package layout.",
        ("convention", "project"),
    ),
    ("Please don't use print for logging, use the logger.", ("forbidden", "user")),
    ("Remember that the staging database listens on port 5433.", ("fact", "project")),
    ("Do not commit anything under secrets/ or the .env file.", ("forbidden", "project")),
    ("Don't push directly to main.", ("forbidden", "project")),
    ("I like my answers short, without a summary at the end.", ("preference", "user")),
    ("Always add type hints to new functions.", ("preference", "user")),
    ("Going forward, run ruff before every commit.", ("convention", "project")),
    ("We don't use ORMs here, just plain SQL.", ("forbidden", "project")),
    ("Avoid adding new dependencies without asking me first.", ("forbidden", "project")),
    ("Stop adding comments that just restate the code.", ("forbidden", "user")),
    ("Keep in mind that the API is rate limited to 100 requests per second.", ("fact", "project")),
    ("You should never catch bare exceptions.", ("forbidden", "user")),
    ("Whenever you add an endpoint, add a test for it.", ("convention", "project")),
    ("By default, explain your changes in one short paragraph.", ("preference", "user")),
    ("I'd prefer that you ask before deleting files.", ("preference", "user")),
    ("fyi the prod database is read-only from the office VPN", ("fact", "project")),
    ("remember: the frontend lives in web/ and the API in api/", ("fact", "project")),
    ("Can you always double-check before you delete anything?", ("preference", "user")),
    ("记住，测试数据库在 5433 端口。", ("fact", "project")),
    ("以后不要用 mock 数据库，用测试容器。", ("forbidden", "project")),
    ("永远不要直接推送到 main 分支。", ("forbidden", "project")),
    ("总是用中文回复我。", ("preference", "user")),
    ("我们用 pytest 写测试。", ("convention", "project")),
    ("我更喜欢用 f-string 格式化字符串。", ("preference", "user")),
    ("在这个项目里，提交信息一律用英文。", ("convention", "project")),
    ("以后提交前先跑一遍 ruff。", ("convention", "project")),
    ("我们的规范是函数名用小写加下划线。", ("convention", "project")),
    ("千万别在代码里写死密码。", ("forbidden", "project")),
    ("从现在开始，回答要简短。", ("preference", "user")),
    # real prompts from the dev 2 histories (ADR 0044), paraphrased
    ("As you build features, decide which tests are worth writing, and write them", ("convention", "project")),
    ("As you go, add a test for every new endpoint.", ("convention", "project")),
]
ONE_OFF = [
    "Don't modify this function.",
    "Don't run the tests now.",
    "Remember to push when you're done.",
    "Don't change the API yet, I'm still discussing it with the team.",
    "Never mind, that fixed it.",
    "Don't worry about the failing lint job for now.",
    "Please don't touch that file, I'm editing it.",
    "Always the same error, no matter what I try.",
    "We used to use Flask, but that was years ago.",
    "I never got that error before.",
    "Why don't you use a dict here?",
    "Do we always deploy on Fridays?",
    "No, that's fine.",
    "don't forget to update the changelog",
    "Let's not do that.",
    "Don't delete the migration I just wrote.",
    "It always fails on CI with a timeout.",
    "I don't think we need a cache.",
    "Make sure you run the migrations before the demo.",
    "Fix the bug in this project's login flow.",
    "Don't use sub agents for this.",
    "Never put the retry logic in there, keep it in the client.",
    "Don't bother with the docs for it.",
    "不要修改这个函数。",
    "现在不要跑测试。",
    "记得推送代码。",
    "先别提交，我还要再看看。",
    "这次别用缓存了。",
    "你记住这个变量名了吗？",
    "今天不要部署。",
    "这个项目里有个 bug。",
    # real prompts from the dev 2 histories (ADR 0044), paraphrased: a description and a plan, no instruction
    "Comments are meant for the reader alone and do not affect what the code does.",
    "In the future we'd want to plug in extra renderers, but let's not bother with that for now.",
    "Next time we could try the other parser.",
]


def test_the_table_is_big_and_bilingual() -> None:
    sentences = [s for s, _ in DURABLE] + ONE_OFF
    assert len(sentences) >= 40
    assert sum(1 for s in sentences if any("\u4e00" <= c <= "\u9fff" for c in s)) >= 15


@pytest.mark.parametrize(("sentence", "expected"), DURABLE)
def test_durable_statements_are_classified(sentence: str, expected: tuple[str, str]) -> None:
    found = classify(sentence)
    assert found is not None, sentence
    assert (found.type, found.scope) == expected


@pytest.mark.parametrize("sentence", ONE_OFF)
def test_one_off_instructions_and_chatter_are_not_memories(sentence: str) -> None:
    assert classify(sentence) is None


def test_extract_over_the_whole_table_finds_exactly_the_durable_rows() -> None:
    # The kinds held back since the sixth round (ADR 0059: a weak "don't" / 不要 / "note that" alone, an occasion
    # such as "whenever you" or "by default", a bare "prefer") are found when said again in a second session.
    rows = [s for s, _ in DURABLE] + ONE_OFF
    held = {i for i, (s, _) in enumerate(DURABLE) if (found := examine(s)) is not None and found.held_back}
    assert 0 < len(held) < len(DURABLE) // 2
    turns = [Turn(turn_id=f"t{i}", role="user", text=text, source="user", index=i) for i, text in enumerate(rows)]
    findings = extract(Transcript(session_id="sess_table", format="text", turns=turns))
    turn_ids = [str(f.evidence[0].turn_id) for f in findings]
    assert sorted(turn_ids) == sorted(f"t{i}" for i in range(len(DURABLE)) if i not in held)
    again = [
        Turn(turn_id=f"u{i}", role="user", text=DURABLE[i][0], source="user", index=len(rows) + n, session_id="s2")
        for n, i in enumerate(sorted(held))
    ]
    first = [
        Turn(turn_id=t.turn_id, role="user", text=t.text, source="user", index=t.index, session_id="s1") for t in turns
    ]
    both = extract(Transcript(session_id="sess_table", format="text", turns=first + again))
    assert {str(f.evidence[0].turn_id) for f in both} == {f"t{i}" for i in range(len(DURABLE))}
    for finding, turn_id in zip(findings, turn_ids, strict=True):
        expected = DURABLE[int(turn_id[1:])]
        assert finding.quote == expected[0]
        assert (finding.memory.type, finding.scope) == expected[1]


def test_the_cheap_cue_filter_never_hides_a_signal() -> None:
    # classify() skips text without a CUE before running the signal table; a signal
    # whose anchor word is missing from CUE would silently never fire.
    sentences = (
        [s for s, _ in DURABLE]
        + ONE_OFF
        + [
            "henceforth use tabs",
            "next time, ask first",
            "I can't stand trailing whitespace",
            "by convention we name fixtures after tables",
            "just so you know: CI is flaky",
            "For reference, the API is versioned",
            "make sure to always lint",
            "往后都用 uv",
            "下次别忘了",
            "务必先备份",
            "按照规范来",
            "团队规范是四个空格",
            "You must not log tokens",
            "本项目统一用 UTC",
            "绝不提交密钥",
            "严禁硬编码",
            "不许用 print",
            "一律用 UTC",
            "prefer small functions",
            "回答时用中文",
            "commit after each step",  # ADR 0054
            "プロジェクト名を覚えておいて",  # ADR 0068
            "次回からテストを先に書いて",
            "常に型ヒントを付けてください",
            "periodically run the linter",  # ADR 0073
            "you are not allowed to push",
            "also make a note to run the linter",  # ADR 0084
            "kesinlikle var olan bir özelliği bozma",  # ADR 0093
            "bundan böyle testleri uv ile çalıştır",
            "run python commands through uv",  # ADR 0096
            "browser testing is mandatory",  # ADR 0099
            "after each change run the linter",  # ADR 0101
            "make sure there is no mention of the old name at all",  # ADR 0102
            "I am asking you to always run the linter",  # ADR 0103
            "I use github and prefer the gh cli",
            "as a general rule, check by hash",  # ADR 0105
            "check with me before installing new dependencies",  # ADR 0136
            "I'm allergic to mocks in integration tests",  # ADR 0137
            "leave the merging to me",  # ADR 0138
            "don't forget to run the linter before every commit",  # ADR 0146
            "Claude should be listed as co-author",  # ADR 0147
            "do not modify files outside of src/",  # ADR 0151
            "force pushing is strictly off limits",  # ADR 0164
            "under no circumstances edit the lockfile",
            "it is prohibited to push to main",
            "keep in mind to always run the linter",
            "the vendor folder is strictly offlimits",
            "bear in mind that we use pnpm",
            "commit messages should always be in English",  # ADR 0166
            "anytime you change the schema, update the notes",
            "please remember we are on Windows",
        ]
    )
    for sentence in sentences:
        if any(signal.pattern.search(sentence) for signal in SIGNALS):
            assert CUE.search(sentence), sentence
    assert all(any(s.pattern.search(x) for x in sentences) for s in SIGNALS)  # every signal exercised
