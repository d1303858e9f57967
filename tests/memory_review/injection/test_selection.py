"""Selection for a query: keywords in English and Chinese, and the selector with its fallback."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from injection_helpers import NOW, MakeMemory

from memory_review.injection import ContextRequest, build_context, keyword_select, select, tokens
from memory_review.models import Memory


@pytest.fixture
def store(mem: MakeMemory) -> list[Memory]:
    return [
        mem("indent", "preference", body="Indent Python with 4 spaces, never tabs."),
        mem("db", "fact", body="The database is PostgreSQL 16."),
        mem("db-backup", "fact", body="Database backups run nightly at 02:00."),
        mem(
            "zh-commit",
            "convention",
            description="提交信息规范",
            body="提交信息使用英文，不超过72个字符。",
        ),
        mem("zh-test", "convention", description="测试", body="每次提交前运行全部测试。"),
        mem("no-push", "forbidden", body="Never force-push to main."),
    ]


def test_tokens_words_and_cjk_bigrams() -> None:
    assert tokens("Use py3 and PyTest, ok?") == {"use", "py3", "pytest"}  # "and": a function word
    assert tokens("Painted tests") == {"paint", "test"}  # stemmed
    assert tokens("提交信息") == {"提交", "交信", "信息", "提", "交", "信", "息"}
    assert tokens("用pytest测试") == {"用", "pytest", "测试", "测", "试"}
    assert tokens("ＰＹＴＥＳＴ") == {"pytest"}  # fullwidth folds to ASCII


def test_english_keywords_pick_by_score_then_id(store: list[Memory]) -> None:
    assert keyword_select(store, "database backups", 5) == {"db-backup", "db"}
    # "database" alone ties db and db-backup; the limit keeps the lower id.
    assert keyword_select(store, "DATABASE", 1) == {"db"}
    # a higher score beats the id order
    assert keyword_select(store, "database backups nightly", 1) == {"db-backup"}


def test_chinese_keywords_pick_by_bigrams(store: list[Memory]) -> None:
    assert keyword_select(store, "提交信息怎么写", 1) == {"zh-commit"}
    assert keyword_select(store, "测试", 5) == {"zh-test"}


def test_score_zero_is_never_selected(store: list[Memory]) -> None:
    assert keyword_select(store, "kubernetes helm", 5) == set()
    assert keyword_select(store, "a an to", 5) == set()  # words under 3 letters do not count


def test_forbidden_always_selected_and_not_counted(store: list[Memory]) -> None:
    chosen = select(store, "database", limit=1)
    assert [m.id for m in chosen] == ["db", "no-push"]
    assert [m.id for m in select(store, "nothing matches here", limit=5)] == ["no-push"]


def test_query_result_reports_not_selected(store: list[Memory]) -> None:
    result = build_context(store, ContextRequest(now=NOW, query="indent tabs", limit=5))
    assert [m.id for m in result.included] == ["no-push", "indent"]
    assert {m.id for m in result.dropped} == {"db", "db-backup", "zh-commit", "zh-test"}
    assert {m.reason for m in result.dropped} == {"not selected"}


def test_blank_query_means_no_selection(store: list[Memory]) -> None:
    result = build_context(store, ContextRequest(now=NOW, query="   "))
    assert len(result.included) == len(store)


class Recorder:
    """A selector that answers a fixed reply and records what it was shown."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.calls: list[tuple[str, list[str], int]] = []

    def __call__(self, query: str, memories: Sequence[Memory], limit: int) -> str:
        self.calls.append((query, [m.id for m in memories], limit))
        return self.reply


def test_valid_selector_reply_is_used(store: list[Memory]) -> None:
    selector = Recorder('["zh-test", "indent"]')
    chosen = select(store, "database", limit=2, selector=selector)
    assert [m.id for m in chosen] == ["indent", "zh-test", "no-push"]
    # the selector never sees forbidden memories: they are chosen regardless
    assert selector.calls == [("database", ["indent", "db", "db-backup", "zh-commit", "zh-test"], 2)]


def test_empty_selector_array_selects_only_forbidden(store: list[Memory]) -> None:
    chosen = select(store, "database", selector=Recorder("[]"))
    assert [m.id for m in chosen] == ["no-push"]


@pytest.mark.parametrize(
    "reply",
    [
        "db-backup",  # not JSON
        "",  # empty reply
        'Sure! Here are the ids: ["db"]',  # prose around JSON
        '{"ids": ["db"]}',  # JSON, not an array
        '["unknown-id"]',  # unknown id
        '["no-push"]',  # forbidden id: not one of the candidates shown
        '["indent", "indent"]',  # duplicates
        '["indent", "zh-test", "db"]',  # more than the limit
        "[1, 2]",  # not strings
        "[null]",
        '[["indent"]]',
        '"indent"',  # a JSON string, not an array
        '["indent"',  # truncated
    ],
)
def test_garbage_selector_reply_falls_back_to_keywords(store: list[Memory], reply: str) -> None:
    chosen = select(store, "database backups", limit=2, selector=Recorder(reply))
    assert [m.id for m in chosen] == ["db", "db-backup", "no-push"]


def test_selector_through_build_context(store: list[Memory]) -> None:
    request = ContextRequest(now=NOW, query="anything", limit=1)
    result = build_context(store, request, selector=Recorder('["zh-commit"]'))
    assert [m.id for m in result.included] == ["no-push", "zh-commit"]
