"""Markdown structure for import: frontmatter, sections, pieces within the caps, exact quotes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_kit import examples

from memory_review.importers.markdown import (
    BODY_BYTES,
    BODY_LINES,
    QUOTE_BYTES,
    clip_lines,
    frontmatter_blocks,
    pieces,
    sections,
    stored_size,
)


def _lines(text: str) -> list[str]:
    return text.split("\n")


def test_leading_frontmatter_is_read_tolerantly() -> None:
    # `globs: *.rs` is not valid YAML (an alias); Cursor writes it anyway.
    lines = _lines("---\nglobs: *.rs\nalwaysApply: false\n---\n\n# Rust\n")
    [block] = frontmatter_blocks(lines)
    assert (block.start, block.end) == (0, 4)
    assert block.meta == {"globs": "*.rs", "alwaysApply": "false"}


def test_later_blocks_only_when_asked_and_a_markdown_rule_is_no_block() -> None:
    text = "---\ndescription: a\n---\nbody one\n\n---\ndescription: b\nglobs:\n---\nbody two\n\n---\nplain text\n"
    lines = _lines(text)
    assert len(frontmatter_blocks(lines)) == 1
    blocks = frontmatter_blocks(lines, anywhere=True)
    assert [b.meta.get("description") for b in blocks] == ["a", "b"]
    assert blocks[1].meta["globs"] == ""


def test_nested_and_quoted_frontmatter_values() -> None:
    lines = _lines('---\nname: "user role"\nmetadata:\n  type: user\ntags:\n  - a\n---\nx')
    [block] = frontmatter_blocks(lines)
    assert block.meta["name"] == "user role" and block.meta["type"] == "user"


def test_sections_split_where_the_document_has_them() -> None:
    text = "# Title\n\nintro\n\n## One\n\na\n\n### Sub\n\nb\n\n## Two\n\nc\n"
    found = sections(_lines(text), 0, len(_lines(text)))
    assert [s.titles for s in found] == [("Title",), ("Title", "One"), ("Title", "Two")]
    one = found[1]
    assert "### Sub" in "\n".join(_lines(text)[one.start : one.end])  # deeper headings stay inside


def test_a_heading_inside_a_code_fence_is_code() -> None:
    text = "## Workflow\n\n```bash\n# 1. Make changes\nmake\n```\n\n## Next\n\nx\n"
    assert [s.titles for s in sections(_lines(text), 0, len(_lines(text)))] == [
        ("Workflow",),
        ("Next",),
    ]


def test_small_sections_are_one_piece_each_with_the_heading_quoted() -> None:
    text = "# CLAUDE.md\n\n## Testing\n\n- Never mock.\n\n## Style\n\nUse ruff.\n"
    lines = _lines(text)
    found = pieces(lines, 0, len(lines))
    assert [(p.titles[-1], p.body) for p in found] == [
        ("Testing", "- Never mock."),
        ("Style", "Use ruff."),
    ]
    assert found[0].quote == "## Testing\n\n- Never mock."
    assert found[0].first == 2 and found[0].start == 4


def test_a_whole_document_stays_one_piece_when_asked_and_it_fits() -> None:
    lines = _lines("## A\n\nx\n\n## B\n\ny\n")
    assert len(pieces(lines, 0, len(lines), split_sections=False, titles=("note",))) == 1


def test_an_oversized_section_is_cut_at_paragraphs_and_every_piece_fits() -> None:
    paragraph = "- " + "word " * 60
    text = "## Big\n\n" + "\n\n".join(paragraph for _ in range(20)) + "\n"
    lines = _lines(text)
    found = pieces(lines, 0, len(lines))
    assert len(found) > 1 and {p.parts for p in found} == {len(found)}
    assert [p.part for p in found] == list(range(1, len(found) + 1))
    for piece in found:
        assert len(piece.body.encode()) <= BODY_BYTES and piece.body.count("\n") < BODY_LINES
        assert piece.body.startswith("- word")


def test_one_overlong_line_is_cut_by_bytes_and_nothing_is_lost() -> None:
    line = "x" * (BODY_BYTES * 2 + 5)
    lines = ["## Long", "", line]
    found = pieces(lines, 0, len(lines))
    assert "".join(p.body for p in found) == line
    assert all(len(p.body.encode()) <= BODY_BYTES for p in found)


def test_headings_and_rules_alone_say_nothing() -> None:
    lines = _lines("# Title\n\n## Empty\n\n---\n\n## Also empty\n")
    assert pieces(lines, 0, len(lines)) == []


def test_quotes_are_clipped_as_stored_at_a_line_end() -> None:
    text = '"quoted"\n' * 200
    clipped = clip_lines(text, QUOTE_BYTES)
    assert text.startswith(clipped) and stored_size(clipped) <= QUOTE_BYTES
    assert clipped.endswith('"quoted"')


_TEXT = st.lists(
    st.one_of(
        st.sampled_from(["", "# Title", "## Section", "### Sub", "```", "- item", "---", "text line"]),
        st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=300),
    ),
    max_size=120,
)


@settings(max_examples=examples(150), deadline=None)
@given(_TEXT)
def test_pieces_always_fit_and_quote_the_source_exactly(lines: list[str]) -> None:
    source = "\n".join(lines)
    for piece in pieces(lines, 0, len(lines)):
        assert len(piece.body.encode()) <= BODY_BYTES
        assert piece.body.count("\n") < BODY_LINES
        assert piece.quote and piece.quote in source
        assert piece.body in source
        assert stored_size(piece.quote) <= QUOTE_BYTES
