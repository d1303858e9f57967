"""The folded copy escaping judges on: the by-run fold equals the per-character definition."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples

from memory_review.injection import render


def _reference(text: str) -> tuple[str, list[int]]:
    """The per-character fold (ADR 0005): NFKD, casefold, marks and format characters dropped."""
    parts, origin = [], []
    for index, char in enumerate(text):
        folded = render._fold_char(char)
        parts.append(folded)
        origin.extend([index] * len(folded))
    return "".join(parts), origin


def test_every_ascii_character_folds_to_its_lower_case() -> None:
    for code in range(128):
        assert render._fold_char(chr(code)) == chr(code).lower()


@settings(max_examples=examples(400), deadline=None)
@given(
    st.text(
        st.one_of(
            st.characters(max_codepoint=0x7F),
            st.characters(exclude_categories=("Cs",)),
            st.sampled_from("ＭЕмеｍ［：\u0301\u200d\ufb01ß"),
        )
    )
)
def test_fold_by_runs_equals_the_per_character_fold(text: str) -> None:
    assert render._fold(text) == _reference(text)


def test_mixed_text_escapes_the_same() -> None:
    text = "see [Memory: x] and ［ＭＥＭＯＲＹ：y] and [mеmory:z] and <\u0338/memory-review-context>"
    assert render._fold(text) == _reference(text)
    assert render.escape_forgeries(text).count("(") == 4
