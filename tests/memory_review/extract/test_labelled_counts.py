"""The labelled README's "Counts:" paragraph is the split files' counts (`tools.labelled_counts`)."""

from __future__ import annotations

from tools.labelled_counts import README, order, rewrite


def test_the_labelled_readme_counts_every_split_as_its_file_does() -> None:
    text = README.read_text(encoding="utf-8")
    assert rewrite(text) == text, "run `python -m tools.labelled_counts --write`"


def test_a_paragraph_torn_by_a_merge_is_made_whole() -> None:
    # what resolving a merge of two labellers' branches left, twice in a session: the tail of the other side's
    # paragraph after the whole one, its last split and "judged 1" again
    text = README.read_text(encoding="utf-8")
    end = text.index("\n\n", text.index("\nCounts:"))
    tail = "\nmaybe), held-out 96 4 prompts (0 durable, 0 maybe), judged 1 740 prompts (10 judged: 0"
    torn = text[:end] + tail + text[end:]
    assert rewrite(torn) == text


def test_new_splits_come_after_the_listed_ones_and_judged_ones_last() -> None:
    listed = ["dev", "heldout", "heldout3", "judged1"]
    present = ["dev", "heldout", "heldout10", "heldout3", "heldout9", "judged1", "judged2"]
    assert order(listed, present) == ["dev", "heldout", "heldout3", "heldout9", "heldout10", "judged1", "judged2"]


def test_a_split_file_gone_leaves_the_paragraph() -> None:
    assert order(["dev", "heldout2", "heldout"], ["dev", "heldout"]) == ["dev", "heldout"]
