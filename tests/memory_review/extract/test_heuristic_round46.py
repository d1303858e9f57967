"""The forty-sixth round of the heuristic (ADR 0107), tuned on held-out 123 and 128.

- "The protocols we write are expressions of\\n   it, not replacements for it.": a terminal's narrow wrap pasted back
  cut the sentence at "of"; a line that ends on a word no sentence ends on, followed by one going on in lower case, is
  one sentence, whatever the lines' lengths.
- "Then, add methodologies, workflows and conventions to claude.md - we are using Test Driven Development.": the request
  before the dash is the task; the rule is what follows it.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.textutil import unwrapped


def test_a_line_cut_after_a_word_no_sentence_ends_on_goes_on_in_the_next() -> None:
    text = "CLAUDE: Understood.\n\n  The protocols we write are expressions of\n   it, not replacements for it.\n"
    assert said(text) == []
    joined = unwrapped(text)
    assert len(joined) == len(text)  # spans still match the message
    assert "expressions of    it, not" in joined


@pytest.mark.parametrize(
    "text",
    [
        "Fix the login page\nand the signup page",  # "page" can end a sentence: two lines of a list
        "Read the notes of\nThe Team first",  # the next line starts in upper case: a line of its own
        "Use the settings of\n- the staging server",  # a list item below
    ],
)
def test_other_line_ends_are_left_as_they_are(text: str) -> None:
    assert unwrapped(text) == text


def test_a_rule_wrapped_at_a_dangling_word_is_quoted_whole() -> None:
    text = "From now on always run the tests of\nthe backend before you commit."
    assert said(text) == ["From now on always run the tests of\nthe backend before you commit."]


def test_the_rule_after_a_request_and_a_dash_is_quoted_without_the_request() -> None:
    text = "Then, add methodologies, workflows and conventions to claude.md - we are using Test Driven Development."
    assert said(text) == ["we are using Test Driven Development."]


@pytest.mark.parametrize(
    "sentence",
    [
        "Local commit only — do not push.",  # a few words before the dash are the rule's own
        # the words after the dash point back at the request: the rule needs both
        "Record all the prompts in a file called prompt_history.md -- I'd like you to do this for all future sessions.",
    ],
)
def test_a_short_lead_or_a_rule_pointing_back_keeps_the_whole_sentence(sentence: str) -> None:
    assert said(sentence) == [sentence]
