"""The twelfth round of the heuristic (ADR 0068): Japanese standing words, and a Japanese request that asks.

Held-out 25 to 29 found 0 of 25 fresh rules; three of them were Japanese ("remember", "from now on", "every time")
and the heuristic read no Japanese. Tuned on held-out 20, 27 and 29's Japanese prompts (118 in all splits, 4 durable,
15 maybe); frozen before held-out 30 was read.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.signals import is_question


@pytest.mark.parametrize(
    "sentence",
    [
        "内容を確認したいからその都度成果物をNotionに出力してもらえる？",  # held-out 27, durable: each time, to Notion
        "ダウンロードの際、サブプロセスの使用は選択制ではなくて常時やっててほしい。",  # held-out 20, maybe
        "必ずテストを実行してからコミットしてください。",  # "てから" (after) is no reason clause
        "常に型ヒントを付けてください。",
        "今後は日本語で回答してください。",
        "プロジェクト名を覚えておいて。",
    ],
)
def test_a_japanese_standing_request_is_a_rule(sentence: str) -> None:
    assert said(sentence) == [sentence]


def test_from_now_on_and_remember_in_one_sentence() -> None:
    sentence = (  # held-out 29, durable
        "今後小説のプロジェクではその下のさらに作品ごとにディレクトリを作って行うので小説といえばそこにアクセスして"
        "作品名のディレクトリに移動することを覚えておいて"
    )
    assert said(sentence) == [sentence]


@pytest.mark.parametrize(
    "sentence",
    [
        "なんか毎回opus4が立ち上がって困る。",  # held-out 27, maybe: every time it happens, a complaint, no request
        "毎回エラーが出るので直してください。",  # every time an error shows, so fix it: the reason, then this task
        "毎回エラーが出るから直してください。",
        "はい、他にも間違っているとこがありそうなので随時修正してください。",  # held-out 20: "as needed", this task
        "これからテストを実行します。",  # "これから" without "は": what comes next, not from now on
        "いつもありがとう。",
        "今回は必ずテストしてください。",  # this time
        "このファイルは今後使わないで。",  # this file
    ],
)
def test_a_japanese_report_or_task_is_no_rule(sentence: str) -> None:
    assert said(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "asks"),
    [
        ("その都度出力してもらえる？", False),
        ("Notionに投稿してくれますか？", False),
        ("これは何ですか？", True),
        ("What does this do?", True),
        ("你能帮我吗？", True),
    ],
)
def test_a_japanese_request_with_a_question_mark_asks_for_something(sentence: str, asks: bool) -> None:
    assert is_question(sentence) is asks
