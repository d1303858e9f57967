"""The fourth round of the heuristic (ADR 0057): each rule from a real prompt of the seen splits, with near misses.

The classes held-out 6 (now seen: dev 6) and the issue name: a weak "do not …" whose object is the thing being
edited ("DO NOT CHANGE the contents."), a prohibition of one definite thing ("don't show the banner"), "should
not" said of the program ("there should not be borders around the icons"), "note that" as text to write into a
document, and a bare "going forward." whose rule is the next sentence.
"""

from __future__ import annotations

import pytest
from rounds_kit import said, user_transcript

from memory_review.extract.heuristic import SIGNAL_REPEATED, SIGNAL_SESSIONS, extract
from memory_review.extract.signals import classify, examine


# Dev 6 (Aquaticat/Monochromatic, aider): a limit on one edit, sent in two sessions.
@pytest.mark.parametrize(
    "prompt",
    [
        "In CONVENTIONS.md , reorder the lists. DO NOT CHANGE the contents.",
        "In CONVENTIONS.md\nreorder all the lists. DO NOT CHANGE content of list items.",
    ],
)
def test_a_do_not_about_the_thing_being_edited_is_one_off(prompt: str) -> None:
    assert said(prompt) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "DO NOT CHANGE the contents.",
        "Don't change anything else.",
        "Do not touch it.",
        "Don't use that library.",
        "Do not edit any existing files.",
        "Do not write any code, just explain.",
        "Make sure you don't break any of the tests.",
        "Do not reorder the rest of the document.",
        # held-out 3 (one-off) and dev 5 (maybe, in a spec): limits on one job
        "Note that, you should not touch anything outside the <builddir>, and remove the scratch images afterwards.",
        "Do not implement anything \u2014 this is audit and recommendation only.",
    ],
)
def test_a_prohibition_of_the_task_at_hand_is_no_memory_at_all(sentence: str) -> None:
    assert examine(sentence) is None  # not even kept aside for repetition: "it" means nothing in another session


@pytest.mark.parametrize(
    "sentence",
    [
        "Do NOT change my files outside of /home/me/src/pipeboard.",  # dev 2 (paraphrased): the person's own machine
        "Don't accept anything at face value.",  # held-out 1: "anything" is not a thing being edited
        "Do not merge, do not touch main.",  # dev 5
        "Lastly, please do not commit the .dmg files or the large image files.",  # dev 5: what reaches git
        "Never change the contents of a migration.",  # strong
        "Don't change the public API without asking me first.",  # a condition that recurs
        "Don't use the old endpoint anymore.",
        "Please don't use print for logging, use the logger.",
        "Do not add comments.",
        "Don't assume that the tests pass.",  # "that" opens a clause, it is no pronoun
    ],
)
def test_a_prohibition_that_reaches_past_the_task_still_stands(sentence: str) -> None:
    assert classify(sentence) is not None, sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "Please don't make the button red, make it blue.",
        "Don't show the error message when the form is empty.",
        "Do not run the migration on production.",
        "We should not show the banner to logged-in users.",
        "We must not break the public API.",  # lost as a rule unless said again in another session
    ],
)
def test_a_prohibition_of_one_definite_thing_is_kept_aside(sentence: str) -> None:
    found = examine(sentence)
    assert found is not None and found.named_one_off, sentence  # like a named function: a task detail
    assert classify(sentence) is None


def test_a_prohibition_of_one_definite_thing_said_in_two_sessions_is_a_rule() -> None:
    quotes = [
        f.signal
        for f in extract(
            user_transcript(
                "Don't show the banner to logged-in users.",
                "Please don't show the banner to logged-in users.",
                sessions=("s1", "s2"),
            )
        )
    ]
    assert quotes == [SIGNAL_SESSIONS]
    # said twice in one session without a correction it stays a task detail
    assert said("Don't show the banner to logged-in users.", "Don't show the banner to logged-in users.") == []


def test_a_prohibition_of_one_definite_thing_corrected_twice_in_a_session_is_a_rule() -> None:
    findings = extract(user_transcript("No, don't mock the database.", "Again, don't mock the database!"))
    assert [(f.signal, [e.turn_id for e in f.evidence]) for f in findings] == [(SIGNAL_REPEATED, ["t0", "t1"])]


def test_a_limit_on_the_task_is_never_promoted_by_repetition() -> None:
    # "the contents" of what? In another session the words point at nothing.
    repeated = ("In README.md, reorder the lists. DO NOT CHANGE the contents.",) * 2
    assert said(*repeated, sessions=("s1", "s2")) == []


# Held-out 2 (one-off): "should not" said of a thing of the program specifies it; it tells the agent nothing.
@pytest.mark.parametrize(
    "sentence",
    [
        "There should not be borders around the footer icons.",
        "The modal should not close when I click outside.",
        "It shouldn't show a spinner forever.",
        "Users should not be able to delete other users' posts.",
    ],
)
def test_should_not_said_of_the_program_is_a_spec(sentence: str) -> None:
    assert examine(sentence) is None


@pytest.mark.parametrize(
    "sentence",
    ["Tests should not hit the network.", "You should not log tokens.", "We must not break backwards compatibility."],
)
def test_should_not_said_of_kinds_or_of_the_agent_still_stands(sentence: str) -> None:
    assert classify(sentence) is not None, sentence


# Held-out 3 (CodeGandee/auto-quantize-model, paraphrased): "note that" after "update NOTES.md … and" is text to write.
def test_a_note_to_write_into_a_document_is_no_fact() -> None:
    prompt = (
        "update NOTES.md with what has been finished, and note that our next task is benchmarking the quantized model "
        "on the target board"
    )
    assert said(prompt) == []
    assert classify("In the plan, note that the build script is produced by the init subcommand.") is None


def test_a_note_told_to_the_agent_is_still_a_fact() -> None:
    # held-out 3, durable (paraphrased): the person's rule for the generated projects
    prompt = (
        "it works but it is very slow, so i killed it. note that, in the output package, every required variable "
        "should be written into setup_env.sh at generation time, the other scripts will not do their own path "
        "lookups, they just use what setup_env.sh exports"
    )
    # a weak "note that" is held back since the sixth round (ADR 0059): found when said in a second session
    assert said(prompt) == []
    assert len(said(prompt, prompt, sessions=("s1", "s2"))) == 1
    assert classify("Note that the staging server is at 10.0.0.5.") is not None


# Held-out 2 (AndersKaae/dotfiles, paraphrased): the marker alone was proposed; the rule is the sentence after it.
def test_a_bare_going_forward_takes_the_sentence_it_introduces() -> None:
    prompt = "OK, going forward. Let's always pick the cleanest design even without MCP support. Just tell me"
    (finding,) = extract(user_transcript(prompt))
    assert finding.quote == "OK, going forward. Let's always pick the cleanest design even without MCP support."
    assert finding.memory.description.startswith("Let's always pick the cleanest design")


def test_a_bare_marker_with_nothing_after_it_or_a_task_after_it_is_nothing() -> None:
    assert said("OK, going forward.") == []
    assert said("OK, going forward. Fix the login bug now.") == []
    assert said("Going forward, commit after every green test run.") == [
        "Going forward, commit after every green test run."
    ]


# Idioms and descriptions that carry a signal's words (sentences written to the pattern, as in round 2).
@pytest.mark.parametrize(
    "sentence",
    [
        "Whenever you're ready, start the migration.",
        "Each time you run it, it creates a new file.",
        "Next time the build fails, the script should retry.",
        "By default the page shows 10 items, make it 20.",
        "From now on, work on the frontend.",
        "Going forward, let's focus on the API.",
        "I prefer the second option.",
        "I'd prefer option B.",
        "I prefer your suggestion.",
    ],
)
def test_a_signal_word_in_an_idiom_or_a_description_is_no_rule(sentence: str) -> None:
    assert examine(sentence) is None, sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "Whenever you add a dependency, pin it.",
        "Each time you finish a step, run the tests.",
        "Next time, ask before you delete anything.",
        "By default, answer in English.",
        "From now on, work in small commits.",
        "Going forward, write the tests first.",
        "I prefer small functions over long ones.",
        "Prefer composition over inheritance.",
    ],
)
def test_the_same_signal_words_instructing_still_stand(sentence: str) -> None:
    assert classify(sentence) is not None, sentence


def test_always_or_never_about_a_pronoun_is_about_the_task() -> None:
    # the strong word does not tell another session what "it" was
    assert said("make the header sticky. always keep it visible when scrolling.") == []
    assert classify("Never show them again.") is None
    assert classify("Always keep it simple.") is not None  # an idiom: "it" is the work in general
    # an element of the screen kept visible is a spec of that element since the sixth round (ADR 0059)
    assert classify("Always keep the header visible when scrolling.") is None
    assert classify("Always keep the changelog up to date.") is not None
    assert classify("Never assume that the tests pass.") is not None  # a clause, not a pronoun


def test_a_fact_about_how_things_stand_today_is_no_memory() -> None:
    assert classify("FYI the staging server is down.") is None
    assert classify("Note that the migration has been merged already.") is None
    assert classify("Note that the staging server is at 10.0.0.5.") is not None
    assert classify("Never deploy when CI is failing.") is not None  # a rule, not a fact
    assert classify("FYI: the API runs on port 8080.") is not None


# Dev 2 (one-off, paraphrased): a console error pasted after "the console shows an error:"; its "Please use …" is the
# library's.
def test_a_block_pasted_after_a_line_naming_its_source_is_not_the_users() -> None:
    pasted = (
        "Hang on, the console shows an error:\n"
        "[React Flow]: You should never drag a node that is not initialized. Always use onNodesChange.\n"
        "Help: https://reactflow.dev/error#015\n"
    )
    assert said(pasted) == []
    docs = "The docs say:\nNever call the API without a timeout.\nAlways retry twice.\n\nWhat do you think?"
    assert said(docs) == []
    after = pasted + "\nFrom now on, run the app before you say it works."
    assert said(after) == ["From now on, run the app before you say it works."]
    # a lead-in of the person's own list is not a paste
    own = "My rules for this repo:\nNever use default exports.\n"
    assert said(own) == ["Never use default exports."]


# "we use X, <change> it": the state this task changes, not a convention (sentences written to the pattern).
def test_we_use_with_a_task_that_changes_it_is_the_tasks_setting() -> None:
    assert classify("We store the token in localStorage, move it to a cookie.") is None
    assert classify("We are using the AuthContext provider for login, so hook into that.") is None
    assert classify("We use ruff, run it before you commit.") is not None  # keeps it: a rule
    assert classify("We use Tailwind, so style the new card with utility classes.") is not None
    assert classify("We store sessions in Redis.") is not None


# Held-out 2 (AndersKaae/dotfiles and MassimilianoPili/claude-code-config, durable; paraphrased): a rule about the
# parts of this setup is project scope.
@pytest.mark.parametrize(
    "sentence",
    [
        "When the MCP connection drops always reload the state of the figma board.",
        "For the next time, rate-limit the ingress as well",
        "Prefer the MCP server's tools",
    ],
)
def test_a_rule_about_this_setups_parts_is_project_scope(sentence: str) -> None:
    found = classify(sentence)
    assert found is not None and found.scope == "project", sentence


def test_a_rule_about_the_person_or_the_work_stays_user_scope() -> None:
    for sentence in (
        "Always double-check that what you asked me for is really finished.",
        "Don't accept anything at face value.",
    ):
        found = classify(sentence)
        assert found is not None and found.scope == "user", sentence


def test_the_corrective_half_on_the_next_line_belongs_to_the_rule() -> None:
    # "never", since a weak "don't" alone is held back until said again (ADR 0059)
    assert said("Never use print for debugging.\nUse the logger instead.") == [
        "Never use print for debugging.\nUse the logger instead."
    ]
    # without "instead", or as a list item, the next line is its own
    assert said("Never use print for debugging.\nUse the logger.") == ["Never use print for debugging."]
    assert said("- Never use print for debugging.\n- Use the logger instead.") == ["Never use print for debugging."]
    # the weak one, said in two sessions, keeps its other half too
    weak = "Don't use print for debugging.\nUse the logger instead."
    assert said(weak) == []
    assert said(weak, weak, sessions=("s1", "s2")) == [weak]


@pytest.mark.parametrize(
    "sentence",
    [
        "I want you to always run the tests before you commit.",
        "I told you to never push to main.",
        "I need you to avoid global state.",
    ],
)
def test_a_rule_asked_of_the_agent_is_a_rule(sentence: str) -> None:
    assert classify(sentence) is not None, sentence


def test_a_question_or_a_pronoun_asked_of_the_agent_is_not() -> None:
    assert classify("Did I tell you to always do that?") is None
    assert classify("I want you to always keep it visible.") is None


def test_the_same_limits_on_the_edit_in_chinese() -> None:
    assert classify("把列表重新排序，不要改内容。") is None  # reorder the lists, don't change the contents
    assert classify("别动其他的文件。") is None  # don't touch the other files
    # held-out 2 (durable): "don't change any entry-layer fix" is a standing limit; "任何" is not the rest
    assert classify("不要改任何入口层修正") is not None
    assert classify("不要在代码里打印用户的邮箱。") is not None


# More of the same classes, written to the pattern: a spec said with a strong word, an announcement, a pick.
@pytest.mark.parametrize(
    "sentence",
    [
        "It should never overlap the content.",
        "The page must always load the cart first.",
        "Going forward, the API will use v2 endpoints.",
        "I prefer to keep it as is.",
        "avoid this pattern",
    ],
)
def test_a_spec_an_announcement_or_a_pick_is_no_rule(sentence: str) -> None:
    assert classify(sentence) is None, sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "You should never hardcode an image host URL.",
        "We should always validate input on the server.",
        "Going forward this should always be how we work.",  # held-out 2 (durable), paraphrased
        "Tests must never touch the network.",
        "In the future, please ask before deleting files.",
        "I prefer to keep functions short.",
        "Avoid hardcoding colors.",
    ],
)
def test_the_same_said_to_the_agent_still_stands(sentence: str) -> None:
    assert classify(sentence) is not None, sentence


def test_a_person_between_the_subject_and_should_makes_it_said_to_the_agent() -> None:
    assert classify("Since the tests are slow you should never run them all at once.") is not None
    assert classify("Because the build is flaky we should always rerun it once.") is not None
    assert classify("Since the API is public you should not change a signature without a deprecation.") is not None
