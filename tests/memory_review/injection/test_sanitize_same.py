"""``sanitize`` takes a shortcut for plain ASCII text (one scan instead of four passes): what it returns
must be what the full passes return, for every text, so a note's bytes never depend on the path taken."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples

from memory_review.injection import render
from memory_review.safety import strip_invisible, strip_listed_invisible


def _reference(text: str, version: int) -> str:
    text = "\n".join(text.splitlines())
    if version < 3:
        return render.escape_forgeries(render._CONTROL_RE.sub("", strip_listed_invisible(text)).strip(), version)
    text = render._CONTROL_RE.sub("", strip_invisible(text)).strip(render._BLANK_ENDS)
    return render.escape_forgeries(render._BLANK_RUN_RE.sub("\n\n", text), version)


_PIECES = st.sampled_from(
    ["[memory:", "[ memory :", "<memory-review-context>", "</memory_review context", "note", " ", "\n", "\t", "\r\n"]
    + [chr(cp) for cp in range(128)]
    + ["\u200b", "\u2028", "\x85", "é", "［ＭＥＭＯＲＹ：", "\n\n\n", "\u2800", "\ufe00", "\u298d"]
)
_TEXT = st.one_of(st.lists(_PIECES, max_size=30).map("".join), st.text(max_size=40))


@settings(max_examples=examples(1500), deadline=None)
@given(_TEXT)
def test_sanitize_is_the_full_passes(text: str) -> None:
    for version in (2, 3):
        assert render.sanitize(text, version) == _reference(text, version)


def _reference_escape(text: str) -> str:
    folded, origin = render._fold(text)
    hits = {origin[match.start()] for match in render._FORGERY_RE.finditer(folded)}
    return "".join(render._ESCAPE_CHAR if i in hits else ch for i, ch in enumerate(text))


@settings(max_examples=examples(1500), deadline=None)
@given(_TEXT)
def test_escaping_plain_text_is_the_reader_fold_escaping(text: str) -> None:
    assert render.escape_forgeries(text) == _reference_escape(text)
