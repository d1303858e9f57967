"""The labelled real histories: well formed, the held-out goal met, the figures page current (ADR 0033)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tools.extraction_eval import (
    LABELLED,
    LABELS,
    REPO,
    SPLITS,
    UNJUDGED,
    evaluate_shared,
    evaluate_split,
    shared_data_dir,
    table,
)

GOAL = 0.6  # at least 6 of 10 proposals worth keeping
MAX_PROPOSALS_PER_PROMPT = 0.1  # a review queue is not flooded


@pytest.mark.parametrize("split", SPLITS)
def test_every_labelled_session_names_its_source_and_licence(split: str) -> None:
    data = json.loads((LABELLED / f"{split}.json").read_text(encoding="utf-8"))
    readme = (LABELLED / "README.md").read_text(encoding="utf-8")
    assert data["sessions"]
    labels = LABELS | {UNJUDGED} if data.get("judged") else LABELS  # a judged split labels only its sheet (ADR 0066)
    for session in data["sessions"]:
        # A git commit, or an abbreviated one beside the published archive the text was read from, by its sha256
        # (held-out 11: aider's own history, a test fixture in aider-chat's sdist on PyPI).
        pinned = re.fullmatch(r".+ sha256 [0-9a-f]{64}", session.get("sdist", ""))
        assert re.fullmatch(r"[0-9a-f]{40}" if not pinned else r"[0-9a-f]{7,40}", session["commit"]), session["session"]
        assert session["path"] and session["licence"] and session["format"]
        assert session["repo"] in readme, session["repo"]
        assert {p["label"] for p in session["prompts"]} <= labels
        assert all(p["text"].strip() for p in session["prompts"])
        if "sessions" in session:
            assert len(session["sessions"]) == len(session["prompts"])
        for prompt in session["prompts"]:  # a rule's passages are the prompt's own words
            assert all(part in prompt["text"] for part in prompt.get("keep", [])), prompt["text"][:80]


def test_the_held_out_split_meets_the_goal_without_flooding() -> None:
    figures = evaluate_split("heldout")
    assert figures.proposals, "held-out has rules a reviewer could keep"
    assert figures.precision is not None and figures.precision >= GOAL, figures.proposals
    assert len(figures.proposals) <= MAX_PROPOSALS_PER_PROMPT * figures.prompts


@pytest.mark.parametrize("split", SPLITS)
def test_no_split_floods_the_review_queue(split: str) -> None:
    figures = evaluate_split(split)
    # one proposal floods no queue: held-out 24 has 4 prompts; nor do proposals that are all worth keeping, no more of
    # them than the prompts worth keeping (held-out 42: 10 prompts, 7 of them durable or maybe, 2 kept proposals)
    bound = max(1, MAX_PROPOSALS_PER_PROMPT * figures.prompts)
    if figures.kept == len(figures.proposals):
        bound = max(bound, figures.durable + figures.maybe)
    assert len(figures.proposals) <= bound, figures.proposals


def test_the_third_dev_split_keeps_what_it_was_tuned_to() -> None:
    # ADR 0049: "对话时使用中文" (talk to me in Chinese) is found, the spec-kit specs give nothing
    figures = evaluate_split("dev3")
    assert figures.kept == len(figures.proposals), figures.proposals
    assert figures.durable_found == figures.durable, figures.missed


def test_the_fifth_held_out_split_keeps_what_the_frozen_round_found() -> None:
    # ADR 0049: held-out 5, measured once with the second round frozen (4 of 11 worth keeping, 3 of 8 rules
    # found); pinned so that a later change that loses one of them is seen. Since the third round (ADR 0054)
    # tuned on it, "Do not merge," and "do not touch main." are one hard-wrapped sentence, one proposal: 3.
    figures = evaluate_split("heldout5")
    assert figures.kept >= 3, figures.proposals
    assert figures.durable_found >= 3, figures.missed


def test_the_sixth_held_out_split_keeps_what_the_frozen_third_round_gave() -> None:
    # ADR 0054, "Held-out 6": measured once with the third round frozen (4501c0a): 2 proposals, neither worth
    # keeping, neither of its 2 rules found. The fourth round (ADR 0057) tuned on it, so it is dev 6 (seen) now;
    # pinned so that a change that adds a mistake there is seen
    figures = evaluate_split("heldout6")
    assert (figures.prompts, figures.durable, figures.maybe) == (39, 2, 1)
    assert len(figures.proposals) - figures.kept <= 2, figures.proposals  # no more mistakes than measured


@pytest.mark.parametrize(
    ("split", "counts", "mistakes"),
    [("heldout7", (145, 1, 7), 5), ("heldout8", (155, 2, 8), 1), ("heldout9", (181, 0, 50), 0)],
)
def test_the_seventh_to_ninth_held_out_splits_give_no_more_mistakes_than_measured(
    split: str, counts: tuple[int, int, int], mistakes: int
) -> None:
    # ADR 0057, "Held-out 7, 8 and 9": measured once with the fourth round frozen (52bcc4c): 8 proposals, 2 worth
    # keeping, 1 of 3 rules found. The fifth round (ADR 0058) tuned on them, so they are dev 7, 8 and 9 (seen) now;
    # pinned so that a change that adds a mistake on them is seen.
    figures = evaluate_split(split)
    assert (figures.prompts, figures.durable, figures.maybe) == counts
    assert len(figures.proposals) - figures.kept <= mistakes, figures.proposals


def test_the_fourth_round_keeps_what_it_was_tuned_to() -> None:
    # ADR 0057: held-out 6 (now dev 6) gave two limits on one edit ("DO NOT CHANGE the contents."); the fourth round
    # proposes neither. (Its held-out 3 half went with the text session 34's licence audit removed.)
    dev6 = evaluate_split("heldout6")
    assert dev6.kept == len(dev6.proposals), dev6.proposals


def test_the_tenth_held_out_split_gives_no_more_mistakes_than_measured() -> None:
    # ADR 0058, "Held-out 10": measured once with the fifth round frozen (8733133): 6 proposals, 1 worth keeping,
    # 1 of 2 rules found. The sixth round (ADR 0059) tuned on it, so it is dev 10 (seen) now; pinned so that a change
    # that adds a mistake on it is seen. The rule found then ("Do not reinit task-master, we don't want to lose the
    # history …", a weak "do not" alone) is held back since the sixth round, until said in a second session.
    figures = evaluate_split("heldout10")
    assert (figures.prompts, figures.durable, figures.maybe) == (164, 2, 25)
    assert len(figures.proposals) - figures.kept <= 5, figures.proposals


def test_the_sixth_round_keeps_what_it_was_tuned_to() -> None:
    # ADR 0059: dev 10's mistakes (Cursor's own plan hand-off, a Chinese spec of one search box, "if i sign out …
    # it should not …", "Dont be dumb") are gone, and no split gives a proposal not worth keeping: held-out 25 and 29's
    # fresh mistakes (ADR 0067) are gone since the thirteenth round (ADR 0069) tuned on them
    for split in SPLITS:  # held-out 32's fresh mistakes are gone since the fourteenth round (ADR 0070) tuned on them
        figures = evaluate_split(split)
        assert figures.kept == len(figures.proposals) - UNKEPT_LEFT.get(split, 0), (split, figures.proposals)


# The proposals the measure counts as not worth keeping that no round has taken, each for its reason:
UNKEPT_LEFT = {
    # held-out 88's "** kesinlikle ** var olan bu detaylı analiz bilgilerini **silmemeli**" states the rule its prompt's
    # labelled sentence states, which the heuristic does not reach (the sentence splitter ends it at the abbreviation
    # "vb."); the label is left as it was given (ADR 0093)
    "heldout88": 1,
    # held-out 97's "…请增加一个让用户设置信息源的功能，…今后搜集材料的过程中…" (labelled one-off): "今后" (from now
    # on) inside a request for a feature describes what the feature will do; one sentence, and the only Chinese
    # feature request with a standing word in any split, so left standing
    "heldout97": 1,
    # held-out 101's "continue and remember this is only 4-6 minutes." (its prompt labelled maybe for another passage):
    # a limit on the piece at hand after "remember"; one sentence in every split, left standing
    "heldout101": 1,
    # held-out 113's "Use configure_simulation to threat_modeling" (7 sessions) and "use splice-security-ops" (2): a
    # whole message invoking one tool or agent of his by name, read as a bare "use X" said again; the last fresh split
    # of the session, so no round could be measured on a change, and they are left standing
    "heldout113": 2,
    # held-out 116's "use github mcp", alone in two sessions: a tool for one research task each time, read as a bare
    # "use X" said again (its "… to look into how Roo Code does it." points at the task since round 43, ADR 0103); the
    # person's "use grep mcp" is labelled maybe, this one-off, and the words cannot tell them apart
    "heldout116": 1,
    # held-out 115's "Use github mcp and grep mcp", said alone in two sessions, like held-out 116's "use github mcp"
    "heldout115": 1,
    # held-out 122's "I'd prefer a single word over CamelCase." (a name chosen in a role-play; in the words of a
    # preference), left standing. Held-out 123's "The protocols we write are expressions of" (a sentence cut at a
    # terminal's narrow wrap) and 128's rule quoted with the request before its dash are gone since round 46 (ADR 0107)
    "heldout122": 1,
    # held-out 169's "T011 - implement confirm_import(log_name) - … save as Draft (never submit) …" is gone since round
    # 80 (ADR 0143) and its "In general analyze the cpgrid-bot and use the best out of it." since round 55 (ADR 0118)
    # held-out 177's "… confirm_import() - … never doc.submit(), …" (the fix of one function); 175's "Remove the word
    # fixture from the commit message, as we don't use it anymore." is gone since round 57 (ADR 0120)
    "heldout177": 1,
    # held-out 216's "Copy Extreme Programming Explained." is gone since round 66 (ADR 0129), 218's "add also "// TODO
    # finished book", so that we grow this … in the future" since round 67 (ADR 0130) and 222's "For example, in future
    # I like to add new table …" since round 68 (ADR 0131); 228's "I'd like to end this day's session and continue next
    # time." since round 69 (ADR 0132)
    # Held-out 178's "… improve the CLAUDE.md to prevent this type of <tdd_discipline> failure in the future." is gone
    # since round 58 (ADR 0121); 183's "If yes, that's a total BS and we shouldn't commit …" since round 62 (ADR 0125);
    # 205's "Prepare a task list with TodoWrite … and always test the modified script …" since round 63 (ADR 0126);
    # 207's "So we'll learn from this crisis for the next time." since round 64 (ADR 0127); and 213's "Would you
    # remember that, or shoudl we add these as task in Todo, too?" since round 65 (ADR 0128)
    # Held-out 92's "… then we only use bun." and 112's "We keep teh guide basic." are gone since round 49 (ADR 0110):
    # "we use" said once waits for a second session
    # Held-out 146's "In this project, we're going to create a Python script that …" (the fresh mistake of rounds 48
    # and 49) is gone since round 50 (ADR 0111)
    # held-out 323's "Do not commit or push. Do not reset, stash, clean, or reach into the parent checkout.": round
    # 84's fresh mistake, a git prohibition in a hand-off brief for one job
    "heldout323": 1,
    # Held-out 344's "完成後 commit（不要 push/tag），…" (the same kind of mistake, a step for when this job is done) is
    # gone since round 85 (ADR 0149)
    # held-out 382's "… I will sign off for a bit and review tomorrow. do not commit anything until reviewed": round
    # 88's fresh mistake in session 32, a git prohibition for one stretch of unattended work
    "heldout382": 1,
    # Held-out 385's "If necessary, you might want to write a go ast tool to do the migration (which is going to be
    # very useful moving forward)." (what the tool would be good for) is gone since round 89 (ADR 0157)
    # Round 89's fresh mistake in session 33's Windsurf exports: 400's "Q4 - Present all options to the user …" (an
    # answer to the agent's design question); three sentences of the statement 400's person pasted below "Please read
    # the statement below …" are gone since round 90 (ADR 0163). Held-out 397, 399 and 403, whose mistakes were pinned
    # here too, were removed in session 34 (their text is AGPL-3.0; the labelled README says why).
    "heldout400": 1,
    # Held-out 405's "Next I need you to re-evaluate our documetation and the SPROMPT template, … come up with three
    # enhancements to the SPROMPT that will improve the output next time.": round 90's fresh mistake in session 34, the
    # task's purpose ("… will improve the output next time") read as "from now on"
    "heldout405": 1,
    # Held-out 409's "Moving forward through the wizard I arrived successfully at the Preview step …" (a walk through
    # the app read as the standing "moving forward") is gone since round 93 (ADR 0166).
}


def test_the_eleventh_held_out_split_gets_no_proposal() -> None:
    # ADR 0059, "Held-out 11": measured once with the sixth round frozen (11fa775): no proposal (the frozen fifth
    # round made 2, neither worth keeping). Pinned so that a change that adds a mistake on it is seen.
    figures = evaluate_split("heldout11")
    assert (figures.prompts, figures.durable, figures.maybe) == (172, 0, 2)
    assert len(figures.proposals) == figures.kept, figures.proposals


# ADR 0062: measured once each with the sixth round frozen (11fa775), held-out 14 also with the seventh (bdd79cc); the
# seventh and eighth rounds (ADR 0062, 0063) tuned on them. Their shape and what the tuned rounds give are pinned.
SEEN_SINCE_ROUND_7 = {"heldout12": (124, 1, 29), "heldout13": (151, 1, 14), "heldout14": (122, 1, 17)}


@pytest.mark.parametrize("split", sorted(SEEN_SINCE_ROUND_7))
def test_the_twelfth_to_fourteenth_held_out_splits_keep_what_the_eighth_round_gives(split: str) -> None:
    figures = evaluate_split(split)
    assert (figures.prompts, figures.durable, figures.maybe) == SEEN_SINCE_ROUND_7[split]
    assert figures.kept == len(figures.proposals), figures.proposals
    # the rules found in held-out 12 and 13 stay found; held-out 14's Chinese how-to was missed by every round
    assert figures.durable_found == (0 if split == "heldout14" else 1), figures.missed


def test_the_fifteenth_and_sixteenth_held_out_splits_give_what_the_frozen_eighth_round_gave() -> None:
    # ADR 0063: measured once with the eighth round frozen (1c19f80): one proposal, worth keeping (a wish said again in
    # another session), no rule found. Pinned so that a change that adds a mistake or loses the proposal is seen. The
    # ninth round (ADR 0064) adds a second, also worth keeping: "Use methods to repair and optimize the code.", a bare
    # "use X" the person says in several chats. The tenth (ADR 0065) a third, worth keeping and the split's one rule:
    # "I told you to make sure any changes you did would not cause issues with the program."
    heldout15, heldout16 = evaluate_split("heldout15"), evaluate_split("heldout16")
    assert (heldout15.prompts, heldout15.durable, heldout15.maybe) == (52, 1, 35)
    assert (heldout16.prompts, heldout16.durable, heldout16.maybe) == (174, 1, 20)
    assert (len(heldout15.proposals), heldout15.kept, heldout15.durable_found) == (3, 3, 1), heldout15.proposals
    assert heldout16.proposals == []


def test_the_nineteenth_held_out_split_keeps_what_the_ninth_round_was_tuned_to() -> None:
    # ADR 0063, "Held-out 19": measured once with the eighth round frozen (1c19f80): 1 proposal, not worth keeping,
    # 0 of 5 rules found. The ninth round (ADR 0064) tuned on it: "Use uv pip" said in three chats is one proposal,
    # 3 of the 5 rules found, no mistake. The sixteenth round (ADR 0073) quotes each session a repeated rule was said
    # in: the fourth chat's "Use `uv pip ...` not `pip ...`" is quoted too.
    figures = evaluate_split("heldout19")
    assert (figures.prompts, figures.durable, figures.maybe) == (166, 5, 21)
    assert figures.kept == len(figures.proposals) == 1, figures.proposals
    assert figures.durable_found == 4, figures.missed


def test_the_twentieth_to_twenty_third_held_out_splits_give_what_the_frozen_ninth_and_tenth_rounds_gave() -> None:
    # ADR 0065: measured once with the ninth (5b8760f) and the tenth (d32e8f4) rounds frozen, the same for both: one
    # proposal, worth keeping ("I dont like nested types, …"), 1 of the 2 rules found. Pinned so that a change that adds
    # a mistake or loses the proposal is seen.
    # The twelfth round (ADR 0068) tuned on held-out 20's Japanese prompts: a maybe more ("…常時やっててほしい").
    rows = {name: evaluate_split(name) for name in ("heldout20", "heldout21", "heldout22", "heldout23")}
    labels = [(180, 1, 9), (275, 1, 19), (22, 0, 6), (188, 0, 19)]
    assert [(f.prompts, f.durable, f.maybe) for f in rows.values()] == labels
    # Round 49 (ADR 0110): "I dont like nested types, …", a dislike said once, waits for a second session (was 2, 2, 1);
    # round 70 (ADR 0133): a dislike of a kind of thing ("nested types") is proposed at once again
    assert [(len(f.proposals), f.kept, f.durable_found) for f in rows.values()] == [(2, 2, 1)] + [(0, 0, 0)] * 3


def test_the_fifth_round_keeps_what_it_was_tuned_to() -> None:
    # ADR 0058: dev 7's Chinese specs of one window ("始终显示 Window_CraftList 窗口") and an audit's constraint, and
    # dev 8's "adjust the system prompt to *by default* …" are no longer proposed; dev 8's rule for Cursor's rules and
    # dev 6's conventions for CONVENTIONS.md, asked to be written into an instruction file, are found
    for split in ("heldout7", "heldout8", "heldout6"):
        figures = evaluate_split(split)
        assert figures.kept == len(figures.proposals), (split, figures.proposals)
    assert evaluate_split("heldout8").durable_found == 2
    assert evaluate_split("heldout6").durable_found >= 1


def test_the_dev_split_proposes_nothing_a_reviewer_would_discard() -> None:
    figures = evaluate_split("dev")
    assert figures.kept == len(figures.proposals), figures.proposals


def test_the_shared_real_sessions_get_no_proposal(shared_data: Path) -> None:
    if not (shared_data / "transcripts").is_dir():
        pytest.skip(f"no transcripts folder in {shared_data}")
    figures = evaluate_shared(shared_data)
    assert figures.prompts > 0
    assert figures.proposals == []


def test_the_figures_page_shows_the_current_figures() -> None:
    page = (REPO / "docs" / "extraction.md").read_text(encoding="utf-8")
    splits = [evaluate_split(name) for name in SPLITS]
    data = shared_data_dir()
    # the page is written with the shared data beside the checkout; where it is here, its row must be there too (the
    # review of session 34: a page written from a worktree without it had silently lost the row)
    rows = table([*splits, evaluate_shared(data)] if data.is_dir() else splits).splitlines()
    for row in rows:
        assert row in page, (
            f"docs/extraction.md is stale: run python -m tools.extraction_eval --write docs/extraction.md ({row})"
        )


def test_judged_1_and_held_out_24_keep_what_the_eleventh_round_was_tuned_to() -> None:
    # ADR 0066: the frozen tenth round (2ff9679) run once on each. Judged 1: 2 proposals, "Use `GitTemporaryDirectory`"
    # (said in three sessions; both judges of record: maybe) and "Always show on line before, even 1 file" (one-off).
    # Held-out 24: 1 proposal, not worth keeping (a line of a setup helper's status report, in three sessions). The
    # eleventh round (ADR 0067) tuned on both mistakes: the proposal worth keeping stays, the mistakes are gone.
    judged, held_out = evaluate_split("judged1"), evaluate_split("heldout24")
    assert (judged.prompts, len(judged.proposals), judged.kept, judged.unjudged) == (740, 1, 1, 0)
    assert judged.recall is None  # a judged split measures precision only
    assert (held_out.prompts, len(held_out.proposals), held_out.kept) == (4, 0, 0)


def test_held_out_25_and_26_give_what_the_frozen_tenth_and_eleventh_rounds_gave() -> None:
    # ADR 0067: measured once with the tenth (2ff9679) and the eleventh (5bf7efd) rounds frozen, the same for both: 3
    # proposals, 2 worth keeping ("Never use fixed Y-positions;", "… usernames persist … and never fade away …"), 0 of
    # the 7 rules found. Pinned so that a change that adds a mistake or loses a kept proposal is seen.
    rows = {name: evaluate_split(name) for name in ("heldout25", "heldout26")}
    assert [(f.prompts, f.durable, f.maybe) for f in rows.values()] == [(279, 6, 32), (61, 1, 16)]
    # The thirteenth round (ADR 0069) tuned on held-out 25: the placeholder's "keep in mind moving forward" is gone. The
    # eighty-seventh (ADR 0151) reads where the agent may not write: "DO NOT WRITE outside vioverse-refactor", found.
    assert [(len(f.proposals), f.kept, f.durable_found) for f in rows.values()] == [(2, 2, 1), (1, 1, 0)]


def test_held_out_27_to_29_give_what_the_frozen_tenth_and_eleventh_rounds_gave() -> None:
    # ADR 0067: measured once with the tenth (2ff9679) and the eleventh (5bf7efd) rounds frozen, the same for both:
    # held-out 27 and 28 no proposal, 0 of the 15 rules found (pasted scope rules in ten sessions, a French "use X" in
    # three, a Japanese standing request); held-out 29 1 proposal, not worth keeping ("… just never being removed …",
    # reasoning, not the prompt's rule), 0 of 3 rules found. Pinned so that a change that adds a mistake is seen. The
    # twelfth round (ADR 0068) tuned on held-out 27 and 29's Japanese: "その都度…出力してもらえる？" and
    # "今後…覚えておいて" (durable) are found, and held-out 29's "今後の修正や調整があれば、…運用を取る" (maybe)
    # is proposed. The thirteenth round (ADR 0069) tuned on held-out 28 and 29: the scope brief's "DO NOT WRITE outside
    # vioverse-refactor" (nine sessions) is found, and "… just never being removed …" is gone. The sixteenth round
    # (ADR 0073) quotes each of those sessions, not the first three: 6 of held-out 28's rules are found.
    rows = {name: evaluate_split(name) for name in ("heldout27", "heldout28", "heldout29")}
    assert [(f.prompts, f.durable, f.maybe) for f in rows.values()] == [(92, 2, 8), (271, 13, 11), (238, 3, 14)]
    assert [(len(f.proposals), f.kept, f.durable_found) for f in rows.values()] == [(1, 1, 1), (1, 1, 6), (2, 2, 1)]


def test_held_out_30_gives_what_the_frozen_eleventh_and_twelfth_rounds_gave() -> None:
    # ADR 0068: measured once with the eleventh (5bf7efd) and the twelfth (3fe6bc2) rounds frozen: no proposal, and no
    # durable rule in it. Pinned so that a change that adds a mistake is seen.
    figures = evaluate_split("heldout30")
    assert (figures.prompts, figures.durable, figures.maybe) == (103, 0, 4)
    assert (len(figures.proposals), figures.kept) == (0, 0)


def test_held_out_31_and_32_give_what_the_frozen_twelfth_and_thirteenth_rounds_gave() -> None:
    # Measured once with the twelfth (3fe6bc2) and the thirteenth (643b2e9) rounds frozen, the same for both: held-out
    # 31 3 proposals, all worth keeping, 3 of 16 rules found; held-out 32 2 proposals, neither worth keeping ("also ARE
    # WE USING …" with no question mark, "I dont like ('Tight Aggressive', …)"), 0 of 2 found. Pinned so that a change
    # that adds a mistake or loses a kept proposal is seen.
    # The fourteenth round (ADR 0070) tuned on both: held-out 31's "#" memory notes are proposed (9 proposals, all worth
    # keeping, 10 of 16 found), and held-out 32's two mistakes are gone. The thirty-sixth (ADR 0096): "run python
    # commands through uv" is a convention said once (held-out 31: 10 proposals, all worth keeping, 11 of 16 found).
    # The eighty-third (ADR 0146): "don't forget to run bun format && … before marking a task as done" (held-out 31: 11
    # proposals, all worth keeping, 12 of 16 found).
    rows = {name: evaluate_split(name) for name in ("heldout31", "heldout32")}
    assert [(f.prompts, f.durable, f.maybe) for f in rows.values()] == [(130, 16, 9), (65, 2, 11)]
    assert [(len(f.proposals), f.kept, f.durable_found) for f in rows.values()] == [(11, 11, 12), (0, 0, 0)]


def test_held_out_33_and_34_give_what_the_frozen_twelfth_to_fourteenth_rounds_gave() -> None:
    # Measured once with the twelfth (3fe6bc2), thirteenth (643b2e9) and fourteenth (3fe77b0) rounds frozen, the same
    # for all three: no proposal, and no durable rule in them. Pinned so that a change that adds a mistake is seen.
    rows = {name: evaluate_split(name) for name in ("heldout33", "heldout34")}
    assert [(f.prompts, f.durable, f.maybe) for f in rows.values()] == [(26, 0, 1), (58, 0, 9)]
    assert [(len(f.proposals), f.kept) for f in rows.values()] == [(0, 0), (0, 0)]


def test_held_out_35_gives_what_the_frozen_twelfth_to_fourteenth_rounds_gave() -> None:
    # Measured once with the twelfth (3fe6bc2), thirteenth (643b2e9) and fourteenth (3fe77b0) rounds frozen, the same
    # for all three: 2 proposals on prompts worth keeping ("Use `uv pip ...` not `pip ...` .", "As you develop, run"),
    # 6 of 18 rules found. Pinned so that a change that adds a mistake or loses a kept proposal is seen.
    # The sixteenth round (ADR 0073) tuned on it: "Periodically run `python ./cleanup.py status` …" (durable) and
    # "Periodically move the accomplished changes into @LOG.md …" (maybe), each said in several chats, are proposed,
    # and a repeated rule is quoted from each of its sessions: 9 of 18 rules found.
    figures = evaluate_split("heldout35")
    assert (figures.prompts, figures.durable, figures.maybe) == (107, 18, 26)
    assert (len(figures.proposals), figures.kept, figures.durable_found) == (4, 4, 9)


def test_held_out_36_gives_what_the_frozen_twelfth_to_fourteenth_rounds_gave() -> None:
    # Measured once with the twelfth (3fe6bc2), thirteenth (643b2e9) and fourteenth (3fe77b0) rounds frozen, the same
    # for all three: 1 proposal, worth keeping ("Use `uv pip ...` not `pip ...` ."), 3 of 5 rules found. Pinned so that
    # a change that adds a mistake or loses a kept proposal is seen.
    # The fifteenth round (ADR 0071) tuned on it: "Plus always use "uv pip...", not "pip"!" is found too. The sixteenth
    # (ADR 0073): "Periodically run `python ./cleanup.py status` …", said in two chats, is a proposal of its own.
    # ADR 0079: "Plus always use "uv pip...", not "pip"!" and "Use `uv pip ...` not `pip ...` ." are one proposal.
    figures = evaluate_split("heldout36")
    assert (figures.prompts, figures.durable, figures.maybe) == (72, 5, 15)
    assert (len(figures.proposals), figures.kept, figures.durable_found) == (2, 2, 4)


def test_held_out_37_and_38_give_what_the_frozen_twelfth_to_fifteenth_rounds_gave() -> None:
    # Measured once with the twelfth (3fe6bc2) to fifteenth (cb38678) rounds frozen, the same for all four: no
    # proposal, and no durable rule in them. Pinned so that a change that adds a mistake is seen.
    rows = {name: evaluate_split(name) for name in ("heldout37", "heldout38")}
    assert [(f.prompts, f.durable, f.maybe) for f in rows.values()] == [(5, 0, 0), (30, 0, 3)]
    assert [(len(f.proposals), f.kept) for f in rows.values()] == [(0, 0), (0, 0)]


# Held-out 39 to 46, each measured once from a worktree at every round frozen before it was read (fifteenth cb38678,
# sixteenth 64ad760, seventeenth 907ad88, eighteenth 2521714, nineteenth be3a5cd), the same for every round that
# measured it. Pinned so that a change that adds a mistake or loses a kept proposal or a found rule is seen. The split:
# (prompts, durable, maybe), then (proposals, worth keeping, durable found) as the code gives them now.
PINNED_SINCE_ROUND_15 = {
    # rounds 15 to 17: no proposal, no durable rule
    "heldout39": ((57, 0, 2), (0, 0, 0)),
    # rounds 15 and 16: 1 proposal, not worth keeping ("I dont like the way you put coming soon as buttons, …"); the
    # seventeenth round (ADR 0074) tuned on it and the complaint about the screen at hand is gone
    "heldout40": ((27, 0, 4), (0, 0, 0)),
    # rounds 15 to 17: no proposal; its durable rule ("dont delete the conversations files, …", a weak "don't" said
    # once) not found
    "heldout41": ((67, 1, 1), (0, 0, 0)),
    # rounds 15 to 17: 3 proposals, 2 worth keeping (the mistake: "never invent features", one step of a workflow),
    # 1 of 3 rules found; the eighteenth round (ADR 0075) tuned on it: a command's step is that step's instruction
    "heldout42": ((10, 3, 4), (2, 2, 1)),
    # rounds 15 to 18: 2 proposals, 1 worth keeping (the mistake: a bug report, "… never updated when moveTarget
    # changes"); the nineteenth round (ADR 0076) tuned on it and the report is gone
    "heldout43": ((102, 0, 14), (1, 1, 0)),
    # rounds 15 to 18: 1 proposal, worth keeping ("Always report actual values from the JK-BMSs"), its rule found; the
    # ninety-first round (ADR 0164) proposes its first half too ("Please under no circumstances make up of adjust data
    # …"), worth keeping
    "heldout44": ((69, 1, 5), (2, 2, 1)),
    # rounds 15 to 19: 1 proposal, worth keeping (the e2e-test rule for AGENTS.md), 1 of 2 rules found
    # The thirty-eighth round (ADR 0098): "update the agents.md to ensure for every bug …" is its rule too (2 proposals,
    # both worth keeping; the found rule was found before)
    "heldout45": ((98, 2, 5), (2, 2, 1)),
    # rounds 15 to 19: no proposal, no durable rule
    "heldout46": ((39, 0, 1), (0, 0, 0)),
}


# Prompt logs people keep in their repositories (held-out 47 to 56): what the frozen rounds gave before any was read.
PINNED_SINCE_ROUND_19 = {
    # round 19: no proposal; its durable rule ("Do not use title case in the docs — use regular sentence case even in
    # headings.", a weak "don't" said once) not found
    "heldout47": ((148, 1, 17), (0, 0, 0)),
    # round 19: 6 proposals, 2 worth keeping, 2 of 11 rules found; the twentieth round (ADR 0077) tuned on it: a
    # dislike with no object, a quoted name, "I never say", "as i mentioned many times in …" as the cue alone; the
    # twenty-second (ADR 0081): "for all the future sessions"; the twenty-fifth (ADR 0084): "make a note to always
    # update it"
    "heldout48": ((192, 11, 21), (5, 5, 6)),
    # round 19: no proposal, no durable rule
    "heldout49": ((2, 0, 1), (0, 0, 0)),
    # round 19: 5 proposals, all worth keeping ("Always use rustup" said in several forms), 5 of 8 rules found; since
    # ADR 0079 "Always use rustup to run Rust commands" and "Always use rustup" are one proposal
    # round 49 (ADR 0110): "I prefer the file to be named LICENSE-Apache-2.0" said once waits (was 4, 4, 5)
    "heldout50": ((91, 8, 15), (3, 3, 5)),
    # round 19: 5 proposals, 2 worth keeping, no rule found; round 20 tuned on it: "could … never", "that will … in the
    # future", "these steps"
    "heldout51": ((203, 5, 29), (2, 2, 0)),
    # rounds 19 and 20: 9 proposals, 3 worth keeping, 2 of 8 rules found; the twenty-first round (ADR 0078) tuned on it:
    # a plan "in the future", "though we use", "we're using X to see what", "lock that moving forward"
    # round 93 (ADR 0166): "Case in point, I was recently going through an old prompt log …" (a maybe), said in two
    # sessions with a kind of thing that "should always" be so, is proposed (was 3, 3, 2)
    "heldout52": ((212, 8, 36), (4, 4, 2)),
    # rounds 19 and 20: 3 proposals, all worth keeping, 2 of 4 rules found; the twenty-third round (ADR 0082) tuned on
    # it: "…, remember I don't like to use mocks." is found
    # the twenty-eighth (ADR 0087): "ALWAYS record my messages … into this file" with the file named before it
    "heldout53": ((57, 4, 5), (5, 5, 4)),
    # rounds 19 and 20: no proposal; its 3 rules (in Korean) not found
    "heldout54": ((142, 3, 13), (0, 0, 0)),
    # rounds 19 to 21: 1 proposal, worth keeping ("… always never work on laptop , always vm …"), 1 of 7 rules found;
    # the eighty-third round (ADR 0146): "Do not forget to follow all instructions in the copilot-instructions.md." (a
    # maybe), 2 proposals
    "heldout55": ((144, 7, 35), (2, 2, 1)),
    # rounds 19 to 21: no proposal, no durable rule
    "heldout56": ((18, 0, 1), (0, 0, 0)),
    # rounds 23 and 24: 3 proposals, 2 worth keeping, 1 of 3 rules found; the twenty-fifth round (ADR 0084) tuned on
    # it: "in the future" after "is", a purpose "so that it can be used going forward", "make a note to not use it"
    "heldout57": ((95, 3, 24), (2, 2, 2)),
    # round 23: no proposal, no durable rule (held-out 58, 61, 62, 63); held-out 59's one rule, in a pasted brief, not
    # found
    "heldout58": ((3, 0, 1), (0, 0, 0)),
    "heldout59": ((15, 1, 1), (0, 0, 0)),
    # round 23: 1 proposal, worth keeping, 0 of 2 rules found; the twenty-fourth round (ADR 0083) tuned on it: "make
    # sure the ai never writes …"
    "heldout60": ((13, 2, 1), (2, 2, 1)),
    "heldout61": ((43, 0, 3), (0, 0, 0)),
    "heldout62": ((6, 0, 1), (0, 0, 0)),
    "heldout63": ((45, 0, 11), (0, 0, 0)),
    # rounds 23 and 24: no proposal; its one rule, closing a pasted plan, not found (held-out 64); no durable rule
    # (held-out 65)
    "heldout64": ((40, 1, 3), (0, 0, 0)),
    "heldout65": ((25, 0, 5), (0, 0, 0)),
    # rounds 23 to 25: no proposal; 0 of 7 rules found, all inside task briefs that say "for this task ONLY"; the
    # twenty-seventh round (ADR 0086) tuned on it: a git prohibition in briefs pasted in two sessions
    "heldout66": ((20, 7, 1), (1, 1, 4)),
    # rounds 23 to 25: 1 proposal, worth keeping (a brief's "Working agreement: …"), 1 of 2 rules found
    "heldout67": ((17, 2, 4), (1, 1, 1)),
    "heldout68": ((3, 0, 0), (0, 0, 0)),
    # rounds 23 to 25: 6 proposals, 5 worth keeping, 5 of 13 rules found; the twenty-sixth round (ADR 0085) tuned on
    # it: "as I look forward to … in the future" is the person's own plan; the twenty-eighth (ADR 0087): "… my
    # ai-prompts.txt? You should always add my prompts to that file."; ADR 0088: one rule about one file in other words
    # is one proposal; the eighty-third (ADR 0146): "Don't forget to update ai-prompts.txt with every prompt that I
    # give you." and "Don't forget to add all prompts to ai-prompts.txt …", 8 of 13 found
    "heldout69": ((185, 13, 10), (5, 5, 8)),
    # rounds 23 to 26: no proposal, no durable rule
    "heldout70": ((32, 0, 6), (0, 0, 0)),
    # round 28 with ADR 0088: no proposal in any; held-out 71's rule (a brief's "Working Rules") and 75's ("All future
    # work goes inside …/vioverse-refactor/.") not found; held-out 72's 13, all inside Amp's thread hand-offs, not
    # found. The twenty-ninth round (ADR 0089) tuned on 72, 75 and 77: a first-person preference in hand-offs of two
    # sessions, "all future work", a brief's "Working Rules" said in two sessions; the thirty-first (ADR 0091) on 72
    # again: "Key patterns I follow:" heads working rules too
    "heldout71": ((8, 1, 1), (0, 0, 0)),
    "heldout72": ((105, 13, 31), (3, 3, 4)),
    "heldout73": ((16, 0, 5), (0, 0, 0)),
    "heldout74": ((5, 0, 0), (0, 0, 0)),
    "heldout75": ((15, 1, 1), (1, 1, 1)),
    "heldout76": ((8, 0, 1), (0, 0, 0)),
    # round 28 with ADR 0088: no proposal; 0 of 5 rules found, all in the "Working Rules" of one person's briefs
    "heldout77": ((18, 5, 1), (2, 2, 2)),
    # rounds 28 and 29: 2 proposals, 1 worth keeping (a maybe), 0 of 2 rules found; the thirtieth round (ADR 0090)
    # tuned on it: "… as they are now used indirectly or might be used in the future" describes the code
    "heldout78": ((67, 2, 25), (0, 0, 0)),
    # rounds 28 to 30: no proposal, no durable rule (both)
    "heldout79": ((56, 0, 9), (0, 0, 0)),
    "heldout80": ((56, 0, 3), (0, 0, 0)),
    # rounds 28 to 31: no proposal, no durable rule
    "heldout81": ((13, 0, 2), (0, 0, 0)),
    # round 31: 5 proposals, 4 worth keeping, 2 of 6 rules found. The thirty-second round (ADR 0092) tuned on 84 and
    # 85: in 84, "Use nix develop --command to …" said in two sessions for two purposes is one choice (was 1 proposal,
    # 1 of 4 found); in 85, a row of a table pasted as text ("… (always PNG for …)") is no rule (was 4 proposals, 3
    # worth keeping)
    "heldout82": ((13, 1, 1), (0, 0, 0)),
    "heldout83": ((9, 0, 2), (0, 0, 0)),
    # The thirty-sixth (ADR 0096): "we should run script via nix develop --command …" is a convention said once (84: was
    # 2 proposals)
    "heldout84": ((79, 4, 10), (3, 3, 3)),
    "heldout85": ((8, 1, 2), (3, 3, 1)),
    "heldout86": ((1, 0, 1), (0, 0, 0)),
    # round 32: 5 proposals, 3 worth keeping, 3 of 8 rules found. The thirty-third round (ADR 0093) tuned on 87 to
    # 89: "my preference" only as "my preference is …" (87: was 2 proposals, 1 worth keeping); Turkish "kesinlikle …
    # bozma" (88: was none, 0 of 3 found; a third proposal quotes the rule's other sentence, not the labelled one);
    # "現状を…記憶しておいて" keeps a snapshot (89: was 1 proposal, not worth keeping)
    "heldout87": ((983, 4, 81), (1, 1, 2)),
    "heldout88": ((47, 3, 9), (3, 2, 1)),
    "heldout89": ((32, 0, 1), (0, 0, 0)),
    # round 49 (ADR 0110): "We only use aarch64-linux." said once waits (was 2, 2, 1)
    "heldout90": ((60, 1, 10), (1, 1, 1)),
    # round 33: 6 proposals, 4 worth keeping, 2 of 2 rules found; the thirty-fourth round (ADR 0094) tuned on 93: a
    # video's title in a pasted run log, "… - Never Gonna Give You Up (Official Video)" (was 2 proposals, none kept)
    "heldout91": ((27, 2, 5), (4, 4, 2)),
    "heldout93": ((35, 0, 2), (0, 0, 0)),
    # rounds 33 and 34: 1 proposal, not worth keeping ("It is OK to use nixpkgs from master, then we only use bun."), 0
    # of 2 rules found ("And only use nix develop --command to run all commands.", "Cargo commands should be wrapped
    # with nix develop --command."); the thirty-sixth round (ADR 0096) tuned on it: how every command of a kind is run
    # is a convention said once (both found)
    # round 49 (ADR 0110): "… then we only use bun." said once waits (was 3, 2, 2)
    "heldout92": ((67, 2, 15), (2, 2, 2)),
    # round 34: no proposal, 0 of 1 rule found; the thirty-fifth round (ADR 0095) tuned on it: "Remember you must use
    # the nx mcp, …" is "remember that you must …"
    "heldout94": ((14, 1, 3), (1, 1, 1)),
    # round 35: no proposal, no durable rule (both)
    "heldout95": ((31, 0, 5), (0, 0, 0)),
    "heldout96": ((4, 0, 0), (0, 0, 0)),
    # rounds 35 and 36, the same: 6 proposals, 4 worth keeping, 3 of 11 rules found (97 to 103 together). The
    # thirty-seventh round (ADR 0097) tuned on 98: "… Make this a rule" makes the sentence before a rule (was 2
    # proposals, 1 of 5 found)
    "heldout97": ((93, 1, 14), (2, 1, 0)),
    # round 80 (ADR 0143): "… with our strategy (always take 10%)." (a maybe) is held back, "always" only in an aside
    "heldout98": ((269, 5, 14), (2, 2, 2)),
    "heldout99": ((37, 0, 5), (0, 0, 0)),
    "heldout100": ((21, 0, 5), (0, 0, 0)),
    "heldout101": ((153, 3, 5), (2, 1, 3)),  # a third rule found since round 87 (ADR 0151)
    # The thirty-eighth (ADR 0098) tuned on 102: "Change my CLAUDE.md to ensure that …" (was none, 0 of 2 found)
    "heldout102": ((49, 2, 4), (2, 2, 2)),
    "heldout103": ((12, 0, 4), (0, 0, 0)),
    # rounds 36 and 37 (and 38): no proposal; 0 of 2 rules found (105)
    "heldout104": ((20, 0, 2), (0, 0, 0)),
    "heldout105": ((92, 2, 9), (0, 0, 0)),
    # rounds 37 and 38: 1 proposal, worth keeping (107's "This is where we will be working from now on."); 0 of 5
    # rules found. The thirty-ninth round (ADR 0099) tuned on 106: "you need always to …", "… is mandatory", "as you
    # know we should avoid …" (was none, 0 of 4 found)
    "heldout106": ((616, 4, 49), (4, 4, 3)),
    "heldout107": ((238, 1, 14), (1, 1, 0)),
    # rounds 38 and 39: 2 proposals, 1 worth keeping, 0 of 1 rule found (109); the fortieth round (ADR 0100) tuned on
    # 109: a session hand-off the agent wrote, "… Approach: Do NOT explore the full codebase. Use the context above.",
    # pasted in two sessions, is no rule of the person's (was 2 proposals); since the forty-fourth (ADR 0104) "Remember
    # we need to make these API calls to have it exactly like FACEIQ does" is this task's need, not "remember that"
    "heldout109": ((421, 1, 29), (0, 0, 0)),
    "heldout110": ((129, 0, 10), (0, 0, 0)),
    # rounds 39 and 40: 4 proposals, 3 worth keeping, 1 of 45 rules found (111 and 112 together; the mistake: "We keep
    # teh guide basic."). The forty-first round (ADR 0101) tuned on both: "After implementing each feature run an end
    # to end test …", said in 24 sessions, and "remember after every feature is implemented that …" in 8; the
    # forty-second (ADR 0102) on 111's "make sure there is no mention of faceiq at all" in five wordings
    "heldout111": ((334, 13, 47), (6, 6, 9)),
    # round 49 (ADR 0110): "we keep teh guide basic." and "… (remove mention of all APIs we are using) …" said once
    # wait (was 5, 4, 5)
    "heldout112": ((375, 32, 35), (3, 3, 5)),
    # rounds 40 and 41: 3 proposals, 1 worth keeping ("use grep mcp"), 0 of 1 rule found
    "heldout113": ((413, 1, 41), (3, 1, 0)),
    # round 41 and its review mends: 1 proposal, worth keeping ("Use grep mcp …", 10 sessions), 0 of 1 rule found
    "heldout114": ((502, 1, 51), (1, 1, 0)),
    # rounds 41, 42 and 43: 6 proposals, 2 worth keeping, no rule to find (the mistakes: "remember you need to be logged
    # into my account …", "remember you need to do this in the background …", "Use github mcp and grep mcp", "use the
    # /auto command to complete this"); the forty-fourth round (ADR 0104) tuned on them: "remember you need to …" is
    # this task's need, and "… to complete this as well" points at the task
    # round 49 (ADR 0110): "we are use claude code remember not an API key." (a maybe) said once waits (was 3, 2, 0)
    "heldout115": ((305, 0, 46), (2, 1, 0)),
    # rounds 41 and 42: 4 proposals, 3 worth keeping, no rule to find (the mistake: "Use github mcp to look into how Roo
    # Code does it.", said in two sessions)
    "heldout116": ((315, 0, 26), (4, 3, 0)),
    # rounds 41 and 42: no proposal; 0 of 1 rule found ("I am asking you to always use nix develop --command bun
    # test."); the forty-third round (ADR 0103) tuned on it
    "heldout117": ((31, 1, 2), (1, 1, 1)),
    # rounds 41, 42 and 43: no proposal; 0 of 5 rules found (three are Italian requests to update CLAUDE.md "so that" …)
    # The forty-fourth round (ADR 0104) tuned on them
    "heldout118": ((93, 5, 2), (2, 2, 2)),
    # rounds 41 and 42: no proposal, no rule to find
    "heldout119": ((45, 0, 2), (0, 0, 0)),
    # rounds 41, 42 and 43: 1 proposal, worth keeping ("NEVER STATE SOMETHING that cannot be … backed up …"), 1 of 6
    # rules found
    "heldout120": ((354, 6, 27), (1, 1, 1)),
    # rounds 41 and 42: no proposal; 0 of 2 rules found ("I use github and prefer the gh cli", "Add to CLAUDE.md that
    # python should use uv, uvx and ruff …"); the forty-third round (ADR 0103) tuned on both
    # round 49 (ADR 0110): "I use github and prefer the gh cli, …" said once waits; 1 of 2 rules found (was 2, 2, 2)
    "heldout121": ((14, 2, 0), (1, 1, 1)),
    # rounds 43 and 44: 2 proposals, neither worth keeping; 0 of 2 rules found. The forty-fifth round (ADR 0105) tuned
    # on it: "as a general warning, do not assume …", and "never paid" tells what happened
    "heldout122": ((457, 2, 32), (2, 1, 1)),
    # rounds 43 and 44: 1 proposal, not worth keeping; 0 of 5 rules found. The forty-sixth round (ADR 0107) joins the
    # line its mistake was cut at ("… are expressions of\n   it, not replacements for it."), which then holds no rule
    "heldout123": ((69, 5, 7), (0, 0, 0)),
    # rounds 43 and 44: no proposal; 0 of 1 rule found
    "heldout124": ((5, 1, 0), (0, 0, 0)),
    # rounds 44 and 45: no proposal, no rule to find
    "heldout125": ((26, 0, 2), (0, 0, 0)),
    # rounds 44 and 45: 1 proposal, worth keeping ("I am asking you to always use nix develop --command bun test.", the
    # same person as held-out 117 sending it again), 1 of 1 rule found
    "heldout126": ((20, 1, 1), (1, 1, 1)),
    # rounds 44 and 45: no proposal, no rule to find
    "heldout127": ((10, 0, 0), (0, 0, 0)),
    # rounds 44 and 45: 2 proposals, 1 worth keeping ("from now on, add each chat to the conversation history"); 1 of 3
    # rules found. The other quotes the request before its rule ("Then, add methodologies, workflows and conventions to
    # claude.md - we are using Test Driven Development."), which the label's passage does not hold; the forty-sixth
    # round (ADR 0107) quotes what follows the dash, so both are worth keeping and 2 of 3 rules found
    # round 49 (ADR 0110): "prefer procedural over class based approach …" compares two ways, so it is proposed at
    # once (was 2, 2, 2)
    "heldout128": ((54, 3, 1), (3, 3, 2)),
    # rounds 44 and 45: no proposal, no rule to find (both)
    "heldout130": ((74, 0, 2), (0, 0, 0)),
    "heldout131": ((15, 0, 1), (0, 0, 0)),
    # rounds 45 and 46: no proposal; 0 of 1 rule found ("You should run `nix develop ... ` in command line without
    # starting a new shell.")
    "heldout132": ((5, 1, 0), (0, 0, 0)),
    # rounds 45 and 46: no proposal, no rule to find (both)
    "heldout133": ((16, 0, 2), (0, 0, 0)),
    "heldout135": ((9, 0, 0), (0, 0, 0)),
    # rounds 45 and 46: no proposal; 0 of 1 rule found (Italian: "… specifica che gemini-mcp-tool deve utilizzare il
    # modello Gemini-2.5-pro", a rule for his global CLAUDE.md)
    "heldout136": ((8, 1, 0), (0, 0, 0)),
    # rounds 45 and 46: 3 proposals, 1 worth keeping (that the app is for real users, with its slogans); no rule to
    # find. The mistakes: "Lets do gemini as well as a local AI but i would prefer the local AI first" (a choice for
    # this feature) and "Based on the state resources and the way its set up we run into some critical problems."; the
    # forty-seventh round (ADR 0108) tuned on both
    "heldout137": ((218, 0, 10), (1, 1, 0)),
    # rounds 46 and 47: no proposal, no rule to find (139, 141, 142); held-out 140: 1 proposal, not worth keeping ("I
    # dont like how you can see the sections with the hard lines and want them to blend right into each other"), which
    # the forty-eighth round (ADR 0109) tuned on
    "heldout139": ((1, 0, 1), (0, 0, 0)),
    "heldout140": ((277, 0, 17), (0, 0, 0)),
    "heldout141": ((6, 0, 1), (0, 0, 0)),
    "heldout142": ((1, 0, 0), (0, 0, 0)),
    # rounds 47 and 48: no proposal, no rule to find (both)
    "heldout143": ((9, 0, 2), (0, 0, 0)),
    "heldout144": ((3, 0, 1), (0, 0, 0)),
    # rounds 48 and 49: no proposal, no rule to find (both)
    "heldout145": ((10, 0, 1), (0, 0, 0)),
    # rounds 48 and 49: 2 proposals, 1 worth keeping ("For the rest of our conversation: don't rush, prefer asking over
    # guessing, and always propose best practices."); 1 of 1 rule found (both). The mistake: "In this project, we're
    # going to create a Python script that …", the plan of the task; the fiftieth round (ADR 0111) tuned on it
    "heldout146": ((14, 1, 4), (1, 1, 1)),
    # rounds 48 and 49: no proposal; 0 of 2 rules found ("Before doing work, verify Linear access. …", twice, in one
    # session; both)
    "heldout148": ((16, 2, 1), (0, 0, 0)),
    # rounds 49 and 50: no proposal; 0 of 1 rule found ("We need pure-Python depedencies.", after a pasted traceback)
    "heldout149": ((34, 1, 5), (0, 0, 0)),
    # rounds 49 and 50: no proposal, no rule to find
    "heldout150": ((44, 0, 4), (0, 0, 0)),
    # rounds 49 and 50: 1 proposal, worth keeping ("Always run script via nix develop --command ."); 1 of 2 rules found
    # (missed: "… But any new tool you build should be in rust, running with nix develop --command ...")
    "heldout151": ((38, 2, 4), (1, 1, 1)),
    # rounds 49 and 50: no proposal; 0 of 4 rules found ("do not change things outside of your own folder", a weak
    # prohibition said once; "… only stop when you need me to perform an action …"; "make sure to periodically upload
    # work to the current repo with commit and push …"; "i want it all free"; both). The fifty-first round (ADR 0112)
    # tuned on it: "make sure to / be sure to" binds the agent like "remember to", so the git routine is found
    "heldout152": ((215, 4, 19), (2, 2, 2)),  # "do not change things outside of your own folder" (ADR 0151)
    # rounds 49 and 50: no proposal, no rule to find (both)
    "heldout153": ((19, 0, 1), (0, 0, 0)),
    # rounds 50 and 51: no proposal, no rule to find (both)
    "heldout154": ((1, 0, 0), (0, 0, 0)),
    # round 51 (frozen at 1d4039d, the extractor of 4e5bea3): no proposal, no rule to find
    "heldout156": ((39, 0, 10), (0, 0, 0)),
    # round 51 (frozen at 972d139, the extractor of 4e5bea3): no proposal, no rule to find
    "heldout158": ((1, 0, 1), (0, 0, 0)),
    # round 51 (frozen at 972d139): no proposal; 0 of 2 rules found ("I am not supporting python below 3.11 version",
    # a request to talk German, paraphrased "rede bitte Deutsch mit mir"); the fifty-second round (ADR 0115) tuned on
    # it: the language of the conversation asked in its own words, 1 proposal, worth keeping, 1 of 2 found. Session
    # 34's licence audit removed FrankJeworrek/vibe-coding-guide's 61 prompts (CC BY-NC-SA 4.0 at the text's commit),
    # that proposal's among them
    "heldout159": ((42, 1, 1), (0, 0, 0)),
    # round 52 (frozen at e07171e): no proposal; its durable rule ("do not never care about cython source code as it
    # will be generate automatically", a weak "do not" said once) not found
    "heldout160": ((64, 1, 1), (0, 0, 0)),
    # round 52: 4 proposals, 1 worth keeping ("禁止大篇幅删改，请分析关注核心问题。", a maybe); the mistakes:
    # "禁止修改parseTest" (one named function), "我不允许莫名奇妙出现未经过解析的" (what the exporter must not
    # output) and "I would prefer for this to be something that can be run on command …" (the thing at hand); the
    # fifty-third round (ADR 0116) tuned on it: 禁止 and 不允许 say "do not", a wish for the thing at hand waits
    "heldout161": ((65, 0, 3), (0, 0, 0)),
    # round 52: no proposal, no rule to find
    "heldout162": ((13, 0, 3), (0, 0, 0)),
    # round 53 (frozen at c41c4f6): no proposal, no rule to find
    "heldout163": ((57, 0, 6), (0, 0, 0)),
    # round 53: no proposal; 0 of 2 rules found ("every time I ask you to do something, please log a transcript of
    # exactly what I say …", "use well-known libraries rather than re-implementing functionality yourself" inside a
    # feature's specification); the fifty-fourth round (ADR 0117) tuned on it: an occasion that is every request is a
    # standing rule, 1 proposal, worth keeping, 1 of 2 found
    "heldout164": ((30, 2, 2), (1, 1, 1)),
    # round 54 (frozen at c22cd7e): no proposal, no rule to find
    "heldout165": ((4, 0, 1), (0, 0, 0)),
    # round 54 (frozen at 24cc5e1): no proposal, no rule to find
    "heldout166": ((1, 0, 0), (0, 0, 0)),
    # round 54 (frozen at fc517a4): no proposal; 0 of 1 rule found ("we do not use databases.")
    "heldout167": ((18, 1, 1), (0, 0, 0)),
    # round 54: no proposal; 0 of 2 rules found ("… create a claude.md file for the project that will instruct you to
    # always list me as coauthor on your commits", "I want doxygen style comments in all header files. …"); the
    # eighty-fourth round (ADR 0147): what a new CLAUDE.md is to instruct, said with "always", 1 proposal, worth keeping
    "heldout168": ((55, 2, 4), (1, 1, 1)),
    # round 54: 2 proposals, neither worth keeping ("T011 - implement confirm_import(log_name) - … save as Draft (never
    # submit) …", a step of the task list, and "In general analyze the cpgrid-bot and use the best out of it."); 0 of 1
    # rule found ("Follow CLAUDE.md rules: max 40 lines/function, …" inside a task prompt); the fifty-fifth round (ADR
    # 0118) tuned on it: a bare "in general" frames a rule only with its comma, 1 proposal left; none since round 80
    # (ADR 0143): "(never submit)" is an aside on the step before it
    "heldout169": ((63, 1, 14), (0, 0, 0)),
    # round 54: no proposal, no rule to find
    "heldout170": ((11, 0, 1), (0, 0, 0)),
    # round 54: 1 proposal, worth keeping (a maybe: "All this Options Must run from GUI …"), no rule to find
    "heldout172": ((27, 0, 10), (1, 1, 0)),
    # round 54 (frozen at baf5bb8, the extractor of fc517a4): no proposal; 0 of 2 rules found ("Please don't write
    # doctrings in specs, … (make a note in project memory of this important style guidance, plz)", "… You shouldn't
    # concern yourself with its contents unless explicitly instructed. …"); the fifty-sixth round (ADR 0119) tuned on
    # it: a note in project memory asked for keeps the rule of its sentence, 1 proposal, worth keeping, 1 of 2 found
    "heldout173": ((25, 2, 5), (1, 1, 1)),
    # round 54: no proposal; 0 of 2 rules found ("当前版本始终保持 0.1.x", "最新修改保持在顶部。", the requirements of
    # one changelog prompt sent twice in one session)
    "heldout174": ((23, 2, 5), (0, 0, 0)),
    # round 54: 1 proposal, not worth keeping ("Remove the word fixture from the commit message, as we don't use it
    # anymore."); 0 of 1 rule found (the implementation method the person asks to be written down); the fifty-seventh
    # round (ADR 0120) tuned on it: "we don't" after "as", "since" or "because" gives a reason, no proposal
    "heldout175": ((103, 1, 15), (0, 0, 0)),
    # round 54: 1 proposal, worth keeping (a maybe: "Always keep in mind, that C0 and C1 continuity is essential."), no
    # rule to find
    "heldout176": ((68, 0, 12), (1, 1, 0)),
    # round 54: 1 proposal, not worth keeping ("… confirm_import() - rename from populate_document, … never
    # doc.submit(), …", the fix of one function); no rule to find
    "heldout177": ((2, 0, 1), (1, 0, 0)),
    # round 57 (frozen at c1433b9): 3 proposals, 2 worth keeping ("Then in the future, push back when I steer you in a
    # wrong way, always explaining what's the purpose.", "Some of it is redundant … if you'll be reading these files
    # into LLM context in the future, …"); the mistake: "Please correct these <code_style> violations and improve the
    # CLAUDE.md to prevent this type of <tdd_discipline> failure in the future." (its prompt's rule is the sentence
    # before); 2 of 4 rules found; the fifty-eighth round (ADR 0121) tuned on it: the future of a purpose clause
    # ("to prevent … in the future") makes no standing rule, 2 proposals, both worth keeping
    "heldout178": ((29, 4, 6), (2, 2, 2)),
    # round 58 (frozen at 10955fb): 1 proposal, worth keeping ("I'm unfamiliar with modern Python development
    # practices..."); 1 of 2 rules found (missed: "I'm just very affraid to let you run `rm -rf`...", a fear with no
    # rule word)
    "heldout180": ((52, 2, 8), (1, 1, 1)),
    # round 58 (frozen at f24ae79, the extractor of 10955fb): no proposal; 0 of 1 rule found ("(remember I'm unfamiliar
    # with modern python best practices, so please don't let me derail you -- I'm asking questions to learn)"); the
    # fifty-ninth round (ADR 0122) tuned on it: "remember" before what the person is, 1 proposal, worth keeping, found
    "heldout181": ((57, 1, 8), (1, 1, 1)),
    # round 59 (frozen at e5042d9): no proposal; 0 of 2 rules found ("don't put comments into bash snippets, …", a
    # "don't" said once, and the project's test terminology); since the seventieth round (ADR 0133) 1 proposal, worth
    # keeping (a maybe: "I hate wasting credits on repeated invocations of you, Claude, …")
    "heldout182": ((44, 2, 11), (1, 1, 0)),
    # round 59 (frozen at 043f24f): 1 proposal, not worth keeping ("If yes, that's a total BS and we shouldn't commit
    # but go to review of the reports instead)", what to do if a question just asked is answered yes); no rule to find;
    # the sixty-second round (ADR 0125) tuned on it: a sentence that opens on the answer ("If yes", "If not") is this
    # case's step, no proposal
    "heldout183": ((22, 0, 5), (0, 0, 0)),
    # round 59: no proposal; 0 of 1 rule found ("… update CLAUDE.md and AGENTS.md to keep agentic coding systems away
    # from dev-logs, unless they are explicitly instructed to do so by me."); the sixty-first round (ADR 0124) tuned on
    # it: the rule is the infinitive when it keeps something away or out, 1 proposal, worth keeping, found
    "heldout184": ((32, 1, 5), (1, 1, 1)),
    # round 59: no proposal, no rule to find
    "heldout185": ((18, 0, 3), (0, 0, 0)),
    # round 59: no proposal; 0 of 1 rule found ("We practice ATDD, acceptance test driven development. …", said once
    # inside a reproach, with no rule word)
    "heldout186": ((8, 1, 1), (0, 0, 0)),
    # round 59: 1 proposal, worth keeping ("Next time I tell you to use command line tools, do so."); 1 of 1 rule found
    "heldout187": ((14, 1, 3), (1, 1, 1)),
    # round 59: no proposal, no rule to find (a Gemini CLI session)
    "heldout188": ((13, 0, 2), (0, 0, 0)),
    # round 59: no proposal, no rule to find (an agent's write-up quoting the person's messages)
    "heldout190": ((7, 0, 1), (0, 0, 0)),
    # round 59: no proposal; 0 of 1 rule found ("… I wanted to remind you to always run specs locally beforu pushit to
    # GH."); the sixtieth round (ADR 0123) tuned on it: "remind you to" binds the agent before "always", 1 proposal,
    # worth keeping, found
    "heldout191": ((17, 1, 3), (1, 1, 1)),
    # round 59: no proposal, no rule to find
    "heldout192": ((23, 0, 4), (0, 0, 0)),
    # round 59: no proposal; 0 of 3 rules found (how the Gemini CLI signs and attributes commits, to be noted in
    # GEMINI.md, said over three corrections)
    "heldout193": ((13, 3, 1), (0, 0, 0)),
    # round 59: no proposal; 0 of 1 rule found ("… so we have to be more systematic in documenting our learning
    # together!")
    "heldout194": ((7, 1, 2), (0, 0, 0)),
    # round 59: 1 proposal, worth keeping ("# ONE SCENARIO AT A TIME!", Claude Code's memory shortcut); 1 of 4 rules
    # found (missed: "Maybe add a rule to CLAUDE.md to enforce  process?", asked; "You can always read, but Ask me first
    # before modifying/wrting!"; "Let's not -- I want only copies of real books, …"); the seventy-third round (ADR
    # 0136) tuned on it: "Ask me first before modifying/wrting!" is a rule said once, 2 proposals, both worth keeping,
    # 2 of 4 found
    "heldout195": ((71, 4, 11), (2, 2, 2)),
    # round 59: no proposal; 0 of 2 rules found ("… please order the test cases by rising level of complexity, …", "I
    # hate when you just drop 100 lines of code without first explaining what we are about to do."); the seventieth
    # round (ADR 0133) tuned on it and on 205, 215 and 218: a dislike of a kind of thing or of the agent's way of
    # working said once is a rule, 1 proposal, worth keeping, 1 of 2 rules found
    "heldout196": ((52, 2, 10), (1, 1, 1)),
    # round 60 (frozen at 784d6ba): no proposal, no rule to find
    "heldout199": ((19, 0, 2), (0, 0, 0)),
    # round 60: no proposal, no rule to find
    "heldout200": ((20, 0, 1), (0, 0, 0)),
    # round 60: no proposal, no rule to find (a Gemini CLI session)
    "heldout201": ((8, 0, 2), (0, 0, 0)),
    # round 60: 1 proposal, worth keeping ("… here just note that you'll be assuming safely that you're gemini-2.5-pro,
    # unless user notifies you …"); 1 of 2 rules found (missed: "Use single attribution, because …"); the eighty-fourth
    # round (ADR 0147): who is credited on a commit, 3 proposals, all worth keeping, 2 of 2 found
    "heldout202": ((9, 2, 3), (3, 3, 2)),
    # round 60: no proposal; 0 of 1 rule found ("DO NOT FUCKING TOUCH OUR IMPLEMENTATION for exploratory probing of
    # databases. …", a weak "do not" said once)
    "heldout203": ((16, 1, 3), (0, 0, 0)),
    # round 60: 1 proposal, worth keeping ("But maybe next time reflect more on their core values and less on the
    # surface style."); 1 of 4 rules found (missed: the diary rule recalled, and two naming and docstring conventions
    # for the specs); the seventy-first round (ADR 0134) tuned on it: "please recall that you should not be rummaging
    # in `claude-dev-log-diary` …" says the rule was given before, 2 proposals, both worth keeping, 2 of 4 found
    "heldout204": ((25, 4, 7), (2, 2, 2)),
    # round 60: 1 proposal, not worth keeping ("Prepare a task list with TodoWrite to incrementally improve the regexes
    # and always test the modified script …", the method of this task's steps); 0 of 1 rule found ("I hate all the
    # bla-bla comments that say the exact same thing the code does.", said once); the sixty-third round (ADR 0126)
    # tuned on it: "always" in the sentence that asks for this work's task list is that plan's method, no proposal;
    # since the seventieth round (ADR 0133) 1 proposal, worth keeping ("I hate all the bla-bla comments …"), found
    "heldout205": ((34, 1, 9), (1, 1, 1)),
    # round 60: no proposal, no rule to find (two Claude Code sessions in Spanish)
    "heldout206": ((31, 0, 3), (0, 0, 0)),
    # round 62 (frozen at 259a756): 2 proposals, 1 worth keeping (a maybe: "… Never create implementation files
    # without corresponding tests …", his CLAUDE.md rule quoted back); the mistake: "So we'll learn from this crisis for
    # the next time."; no rule to find; the sixty-fourth round (ADR 0127) tuned on it: a lesson "for (the) next time"
    # says no rule, 1 proposal, worth keeping
    # since round 82 (ADR 0145): 2 proposals, both worth keeping ("… - **NEVER add redundant comments** that restate
    # what the code already expresses …", Markdown's bold no longer hides the word)
    "heldout207": ((34, 0, 6), (2, 2, 0)),
    # round 62: no proposal; 0 of 1 rule found ("make sure commit message reflects both changes and doesn't waste
    # reader's time …")
    "heldout208": ((26, 1, 1), (0, 0, 0)),
    # round 62: no proposal, no rule to find
    "heldout209": ((18, 0, 3), (0, 0, 0)),
    # round 62: 1 proposal, worth keeping (a maybe: "… you'll be the one using it in the future"); no rule to find
    "heldout210": ((16, 0, 4), (1, 1, 0)),
    # round 62: no proposal, no rule to find (a Gemini CLI session)
    "heldout211": ((8, 0, 0), (0, 0, 0)),
    # round 62: no proposal, no rule to find
    "heldout212": ((37, 0, 3), (0, 0, 0)),
    # round 62: 3 proposals, 2 worth keeping by the labels ("Please remember that.", and "… please always think hard
    # whether we have integration or unit test in other spec files …", maybes); the mistake: "Would you remember that,
    # or shoudl we add these as task in Todo, too?"; no rule to find; the sixty-fifth round (ADR 0128) tuned on it:
    # "(please / would you) remember that" alone points at the sentence before, which here is no rule, 1 proposal, worth
    # keeping (the "always think hard …" maybe)
    "heldout213": ((34, 0, 4), (1, 1, 0)),
    # round 62: no proposal, no rule to find (the rest of a Spanish Claude Code session)
    "heldout214": ((3, 0, 0), (0, 0, 0)),
    # round 63 (frozen at 8d4289e): no proposal; 0 of 1 rule found ("I dislike comments in bash source listings, …");
    # since the seventieth round (ADR 0133) 1 proposal, worth keeping, found
    "heldout215": ((31, 1, 5), (1, 1, 1)),
    # round 63: 1 proposal, not worth keeping ("Copy Extreme Programming Explained.", from "I told you to copy Extreme
    # Programming Explained", a step of this task); no rule to find; the sixty-sixth round (ADR 0129) tuned on it: "I
    # told you to copy …" is a step not done, no proposal
    "heldout216": ((10, 0, 3), (0, 0, 0)),
    # round 63: no proposal, no rule to find (a Gemini CLI session)
    "heldout217": ((8, 0, 0), (0, 0, 0)),
    # round 63: 1 proposal, not worth keeping ("add also "// TODO finished book", so that we grow this with all types
    # when we get to that feature in the future"); 0 of 2 rules found ("I want us to be working only on one scenario at
    # a time. …", "I really dislike how you always rush to implementation …"); the sixty-seventh round (ADR 0130) tuned
    # on it: "when we get to … in the future" is a point the work will reach, no proposal; since the seventieth round
    # (ADR 0133) 1 proposal, worth keeping ("I really dislike how you always rush to implementation …"), 1 of 2 found
    "heldout218": ((36, 2, 4), (1, 1, 1)),
    # round 63: 1 proposal, worth keeping ("You are should NEVER load the day-0##.md in full -- …"); 1 of 3 rules found
    "heldout219": ((41, 3, 6), (1, 1, 1)),
    # round 63: no proposal; 0 of 1 rule found ("no, after you refactor code, (after EACH Write/Update) you should run
    # the tests and coverage")
    "heldout220": ((18, 1, 6), (0, 0, 0)),
    # round 63: no proposal; 0 of 1 rule found (standing rules for a coordinating agent inside a long first prompt)
    "heldout221": ((3, 1, 0), (0, 0, 0)),
    # round 63: 1 proposal, not worth keeping ("For example, in future I like to add new table …", the person's plan);
    # 0 of 1 rule found ("Please don't touch …/1-📝Notes.py, leave it as-is.", with its reason); the sixty-eighth
    # round (ADR 0131) tuned on it: "in future I like to …" is the person's plan, no proposal
    "heldout222": ((12, 1, 6), (0, 0, 0)),
    # round 65 (frozen at 37d245a): no proposal, no rule to find
    "heldout223": ((40, 0, 7), (0, 0, 0)),
    # round 65: no proposal, no rule to find (a Gemini CLI session)
    "heldout224": ((5, 0, 3), (0, 0, 0)),
    # round 65: no proposal, no rule to find
    "heldout225": ((25, 0, 2), (0, 0, 0)),
    # round 65: no proposal; 0 of 4 rules found ("W8, when you are doing exploration of the DB state, use real
    # database, not the fixtures. …", how to hand work to the Gemini CLI, when a story is `reopened`, the order of the
    # "Completed Features" list)
    "heldout227": ((53, 4, 13), (0, 0, 0)),
    # round 65: 1 proposal, not worth keeping ("I'd like to end this day's session and continue next time."); no rule
    # to find; the sixty-ninth round (ADR 0132) tuned on it: "continue … next time" is where the work picks up, no
    # proposal
    "heldout228": ((14, 0, 3), (0, 0, 0)),
    # round 65: no proposal, no rule to find
    "heldout229": ((3, 0, 1), (0, 0, 0)),
    # round 67 (frozen at 98ffdce): no proposal, no rule to find (a Gemini CLI session)
    "heldout231": ((7, 0, 2), (0, 0, 0)),
    # round 67: no proposal; 0 of 2 rules found (two commit-message preferences said in reproaches: "… you don't need
    # to name the books, …", "Who's interested in intros like "This commit updates" ?!?! Get to the point, be brief")
    "heldout232": ((17, 2, 2), (0, 0, 0)),
    # round 67: no proposal, no rule to find
    "heldout233": ((7, 0, 1), (0, 0, 0)),
    # round 67: no proposal, no rule to find
    "heldout234": ((13, 0, 2), (0, 0, 0)),
    # round 67: no proposal, no rule to find (a Gemini CLI session)
    "heldout235": ((13, 0, 5), (0, 0, 0)),
    # round 67: no proposal; 0 of 2 rules found (how he reads long replies and wants terse ones, spoken; never passing
    # off the agent's words as his)
    "heldout236": ((6, 2, 2), (0, 0, 0)),
    # round 70 (frozen at 7e9340b): 1 proposal, worth keeping (a maybe: "try to commit again, don't run ruff manually");
    # no rule to find (a Gemini CLI session)
    "heldout238": ((3, 0, 1), (1, 1, 0)),
    # round 70: no proposal, no rule to find
    "heldout239": ((3, 0, 1), (0, 0, 0)),
    # round 70: no proposal, no rule to find (the one new prompt in a re-printed stretch)
    "heldout242": ((1, 0, 0), (0, 0, 0)),
    # round 70 (the extractor of 7e9340b, unchanged at 1068cd4 where the lanes began): 1 proposal, worth keeping ("Wait,
    # next time on repeated commit failure alert me!"); 1 of 2 rules found (missed: "Don't try to resolve ruff failure
    # from comit hooks manually with format -fix. …", a "don't" said once)
    "heldout243": ((7, 2, 0), (1, 1, 1)),
    # round 70: no proposal, no rule to find (a Gemini CLI session)
    "heldout244": ((4, 0, 2), (0, 0, 0)),
    # round 70: 2 proposals, both worth keeping ("From from now on, … extra high is our default.", found; "… integration
    # tests should never be written against mocks.", a maybe); 1 of 1 rule found
    "heldout245": ((5, 1, 2), (2, 2, 1)),
    # round 70 (the extractor of 7e9340b, unchanged at abf1325 where the lanes began): no proposal; 0 of 3 rules found
    # (his objection to the agent "tying a bow" on unrelated things, falsifiable requirements as the root of his BDD,
    # nothing the agent writes is a repository rule until he approves it: each inside a long dictated prompt)
    "heldout247": ((7, 3, 1), (0, 0, 0)),
    # round 70: 2 proposals, not worth keeping ("But, generally, like, I don't know how would we...", "Generally, how
    # how would the evaluation evaluation of Maintaining TDD discipline, BDD discipline work.": dictated questions
    # after "generally,"); no rule to find; the seventy-second round (ADR 0135) tuned on it: a question word or a
    # filler after "generally," is no rule, no proposal
    "heldout248": ((7, 0, 4), (0, 0, 0)),
    # round 70: no proposal, no rule to find
    "heldout249": ((8, 0, 2), (0, 0, 0)),
    # round 70: no proposal, no rule to find
    "heldout250": ((4, 0, 1), (0, 0, 0)),
    # round 70: no proposal, no rule to find (a Gemini CLI session)
    "heldout251": ((14, 0, 3), (0, 0, 0)),
    # round 70: no proposal, no rule to find (a Gemini CLI session)
    "heldout252": ((5, 0, 2), (0, 0, 0)),
    # round 70: no proposal, no rule to find (a Gemini CLI session)
    "heldout253": ((13, 0, 2), (0, 0, 0)),
    # round 72 (frozen at 9d513f6, where the lanes began; round 73 gives the same): no proposal; 0 of 2 rules found
    # (his allergy to having the agent's words put in his mouth, "to use scripts and tools to enforce basic rules": each
    # inside a long dictated prompt); the seventy-fourth round (ADR 0137) tuned on it: "I am super allergic when you try
    # to put my... your words into my mouth." is a dislike of the agent's way, 1 proposal, worth keeping, 1 of 2 found
    "heldout255": ((7, 2, 3), (1, 1, 1)),
    # round 72: 1 proposal, worth keeping (a maybe: "I am not worried about workers running into each other — I have
    # been using the commit your own workload as you go technique …"); 0 of 1 rule found ("Persistently Record all
    # that's stated in session only and would not survive container restart or compaction …", no rule word)
    "heldout256": ((10, 1, 5), (1, 1, 0)),
    # round 72: no proposal, no rule to find
    "heldout257": ((3, 0, 0), (0, 0, 0)),
    # round 72: no proposal, no rule to find
    "heldout258": ((8, 0, 3), (0, 0, 0)),
    # round 72: no proposal, no rule to find
    "heldout259": ((9, 0, 1), (0, 0, 0)),
    # round 72: no proposal, no rule to find
    "heldout260": ((11, 0, 1), (0, 0, 0)),
    # round 72: no proposal; 0 of 1 rule found (on a local machine the decision to push is his; in remote containers the
    # agent pushes often, said inside a review of the skill's text); the seventy-fifth round (ADR 0138) tuned on it: "I
    # would like to reserve pushing decision for myself" keeps a decision for the person, 1 proposal, worth keeping,
    # found
    "heldout261": ((11, 1, 1), (1, 1, 1)),
    # round 72: no proposal, no rule to find (a conversation with Claude 3.5 Sonnet written up by the assistant)
    "heldout262": ((3, 0, 0), (0, 0, 0)),
    # round 73 (frozen at 9f9d2b8, where the lanes began; round 74 gives the same): no proposal, no rule to find
    "heldout263": ((9, 0, 2), (0, 0, 0)),
    # round 73: no proposal, no rule to find
    "heldout264": ((8, 0, 2), (0, 0, 0)),
    # round 73: no proposal, no rule to find (the end of the cloud session file)
    "heldout265": ((2, 0, 1), (0, 0, 0)),
    # round 73: no proposal, no rule to find (the last prompts of a re-printed day of the console diary)
    "heldout266": ((18, 0, 2), (0, 0, 0)),
    # round 75 (the extractor of 97a8fc8, unchanged at 2e4980e where the lanes began): no proposal, no rule to find
    # (later SpecStory exports of one person's Cursor chats)
    "heldout271": ((11, 0, 1), (0, 0, 0)),
    # round 75: no proposal, no rule to find (two SpecStory exports of Cursor chats)
    "heldout272": ((5, 0, 2), (0, 0, 0)),
    # round 75: no proposal, no rule to find (task numbers given to a person's own slash commands)
    "heldout273": ((10, 0, 0), (0, 0, 0)),
    # round 75 (the extractor of 34c5f34, where the lanes began, which finds what 97a8fc8 found): no proposal, no rule
    # to find (more SpecStory exports of held-out 271's person)
    "heldout274": ((9, 0, 0), (0, 0, 0)),
    # round 75: 1 proposal, not worth keeping ("Remember the mapping of categories to items locally, and pre-fill the
    # category when an item is entered in the future.", what the app is to do); no rule to find; the seventy-sixth round
    # (ADR 0139) tuned on it: a future event of the app is a spec, no proposal
    "heldout275": ((38, 0, 7), (0, 0, 0)),
    # round 75: no proposal; 0 of 1 rule found ("Everything you do I would like you to build from my GitHub", no rule
    # word)
    "heldout276": ((12, 1, 0), (0, 0, 0)),
    # round 75: no proposal, no rule to find
    "heldout277": ((4, 0, 1), (0, 0, 0)),
    # round 75: 1 proposal, not worth keeping ("never with the IMGUI HUD on screen or at timeScale=0 (…)", how one
    # screenshot step of a kickoff is to be taken); 0 of 1 rule found (the kickoff's commit-message and build rules);
    # the seventy-sixth round (ADR 0139) tuned on it: "never" before a preposition states no action, no proposal; the
    # eighty-sixth (ADR 0150) reads "no" before "Co-Authored-By": its rule found
    "heldout278": ((17, 1, 7), (1, 1, 1)),
    # round 76 (frozen at 89423ef, where the lanes began): no proposal, no rule to find (the one later command of a
    # prompt log)
    "heldout279": ((1, 0, 0), (0, 0, 0)),
    # round 76: 1 proposal, not worth keeping ("Move the Create button … into a persistent `OutlinedButton` footer
    # (always visible when `onCreateTap` is provided, …)", how the screen is to look); no rule to find; the
    # seventy-seventh round (ADR 0140) tuned on it: "always" before a state describes the thing built, no proposal
    "heldout280": ((16, 0, 3), (0, 0, 0)),
    # round 76: no proposal, no rule to find
    "heldout281": ((8, 0, 0), (0, 0, 0)),
    # round 76: no proposal, no rule to find
    "heldout282": ((1, 0, 1), (0, 0, 0)),
    # round 77 (frozen at d729c8d, where the lanes began): 1 proposal, worth keeping ("Organize project files and make
    # cursor rules file to know where each file location should be so our root will always looks clean …"); 1 of 1 rule
    # found
    "heldout284": ((9, 1, 0), (1, 1, 1)),
    # round 77 (frozen at 2367e48, where the lanes began): no proposal, no rule to find
    "heldout286": ((1, 0, 0), (0, 0, 0)),
    # round 77: no proposal, no rule to find
    "heldout288": ((1, 0, 0), (0, 0, 0)),
    # round 77: no proposal, no rule to find
    "heldout289": ((7, 0, 0), (0, 0, 0)),
    # round 77: no proposal, no rule to find
    "heldout290": ((1, 0, 0), (0, 0, 0)),
    # round 77 (frozen at 2367e48, where the lanes began): no proposal; 0 of 1 rule found ("… Claude should be listed as
    # co-author (not main author) when Claude commits, …", no standing word); the eighty-fourth round (ADR 0147) tuned
    # on it: 1 proposal, worth keeping, 1 of 1 found
    "heldout291": ((2, 1, 1), (1, 1, 1)),
    # round 77: no proposal, no rule to find
    "heldout292": ((4, 0, 1), (0, 0, 0)),
    # round 77: no proposal, no rule to find
    "heldout293": ((10, 0, 0), (0, 0, 0)),
    # round 77: no proposal, no rule to find
    "heldout294": ((2, 0, 0), (0, 0, 0)),
    # round 79 (frozen at 8e891ef, where the lanes began): no proposal, no rule to find
    "heldout296": ((11, 0, 0), (0, 0, 0)),
    # round 79: no proposal, no rule to find
    "heldout297": ((2, 0, 0), (0, 0, 0)),
    # round 79: no proposal, no rule to find
    "heldout298": ((15, 0, 1), (0, 0, 0)),
    # round 80 (frozen at 089c0b6, where the lanes began): no proposal; 0 of 12 rules found (his "Periodically do:" over
    # a fenced dev loop, after a TODO request or inside his pasted <instructions> brief)
    # the eighty-first round (ADR 0144) tuned on it and 300: "Periodically do:" over a fenced command is read, the colon
    # leading to the command the rule runs; 1 proposal, worth keeping, 5 of 12 found
    "heldout299": ((52, 12, 3), (1, 1, 5)),
    # round 80: 1 proposal, worth keeping ("Keep it simple, effective, eyes on the goal!", a maybe); 0 of 4 rules found
    # (the <instructions> brief)
    # since round 81 (ADR 0144): 2 proposals, both worth keeping, 3 of 4 found
    "heldout300": ((34, 4, 7), (2, 2, 3)),
    # round 80: 1 proposal, worth keeping; 1 of 1 rule found ("REMEMBER: Whenever there is a problem, the UX flow should
    # offer a solution, …")
    "heldout301": ((47, 1, 3), (1, 1, 1)),
    # round 80 (frozen at 089c0b6; the lanes began at 6ba322b): no proposal, no rule to find
    "heldout302": ((10, 0, 1), (0, 0, 0)),
    # round 80: no proposal, no rule to find
    "heldout303": ((11, 0, 1), (0, 0, 0)),
    # round 81 (frozen at 18b2609, where the lane began): no proposal, no rule to find
    "heldout304": ((28, 0, 6), (0, 0, 0)),
    # round 82 (frozen at a379729, where their lanes began): no proposal, no rule to find (all one-off: task numbers,
    # go-aheads, pasted VPN logs)
    "heldout305": ((7, 0, 0), (0, 0, 0)),
    "heldout306": ((4, 0, 0), (0, 0, 0)),
    "heldout307": ((3, 0, 0), (0, 0, 0)),
    "heldout308": ((7, 0, 0), (0, 0, 0)),
    # round 83 (frozen at 8e92f5f, where their lanes began): no proposal, no rule to find (task numbers, go-aheads,
    # design feedback on one tool's screens; held-out 311's two maybes are his "commit first, as before" and a fact
    # about his family of tools)
    "heldout309": ((10, 0, 0), (0, 0, 0)),
    "heldout310": ((4, 0, 0), (0, 0, 0)),
    "heldout311": ((7, 0, 2), (0, 0, 0)),
    "heldout312": ((2, 0, 0), (0, 0, 0)),
    "heldout313": ((3, 0, 0), (0, 0, 0)),
    # round 84 (frozen at 1f5070a, where the lane began): no proposal, no rule to find (task openings and questions)
    "heldout322": ((6, 0, 0), (0, 0, 0)),
    # round 84 (frozen at 1f5070a; the code is the same at c208b1b, where their lanes began), daviddwlee84's exports
    # whose licence his own Homebrew formulae declare (ADR 0148): one mistake, "Do not commit or push. Do not reset,
    # stash, clean, or reach into the parent checkout." (held-out 323, a hand-off brief for one job); 0 of 3 rules
    # found (held-out 324's /init asking for AGENTS.md with its rules, "… should be changed upstream …"; 329's "根據我的
    # 經驗 codebase 最好能夠濃縮成CLI …")
    "heldout323": ((8, 0, 3), (1, 0, 0)),
    "heldout324": ((11, 2, 2), (0, 0, 0)),
    "heldout325": ((11, 0, 2), (0, 0, 0)),
    "heldout326": ((8, 0, 1), (0, 0, 0)),
    "heldout327": ((8, 0, 1), (0, 0, 0)),
    "heldout328": ((8, 0, 3), (0, 0, 0)),
    "heldout329": ((8, 1, 2), (0, 0, 0)),
    # round 84 (code as at 1f5070a; the lane began at 62a52d8): no proposal, no rule to find (his Raycast extension,
    # licence from its own package.json, ADR 0148)
    "heldout330": ((4, 0, 1), (0, 0, 0)),
    # round 84 (at 5fd4595, where their lanes began): no proposal, no rule to find (his later dev-cli and translate
    # exports, first pages: bug reports, feature requests, go-aheads, set-up facts)
    "heldout331": ((9, 0, 1), (0, 0, 0)),
    "heldout332": ((11, 0, 2), (0, 0, 0)),
    "heldout333": ((15, 0, 1), (0, 0, 0)),
    "heldout334": ((7, 0, 1), (0, 0, 0)),
    "heldout335": ((9, 0, 1), (0, 0, 0)),
    "heldout336": ((4, 0, 0), (0, 0, 0)),
    # round 84 (its signals gated at 431fc61, the same matches; their lanes began at 8afbe9c): no proposal, no rule to
    # find (the later pages of his shorter dev-cli and translate exports: go-aheads, commit requests, answers to the
    # agent's questions)
    "heldout337": ((11, 0, 2), (0, 0, 0)),
    "heldout338": ((4, 0, 0), (0, 0, 0)),
    "heldout339": ((3, 0, 0), (0, 0, 0)),
    "heldout340": ((1, 0, 1), (0, 0, 0)),
    # round 84 (its signals gated, the same matches; the lanes began at e5e2e78): held-out 341 and 342, no proposal, no
    # rule to find; 344, one mistake, "完成後 commit（不要 push/tag），回報 commit hash 與測試結果。"
    # (after this job, commit but do not push: a step of a pasted hand-off). Held-out 343 was not made (its pages hold
    # no turn of his). The eighty-fifth round (ADR 0149) tuned on 344: "完成後" (when this job is done) is a time of the
    # task, no proposal
    "heldout341": ((3, 0, 0), (0, 0, 0)),
    "heldout342": ((3, 0, 0), (0, 0, 0)),
    "heldout344": ((5, 0, 1), (0, 0, 0)),
    # round 85 (at abb2502, where their lanes began): no proposal, no rule to find (one maybe each: "建議用uv那套流程
    # 做這件事" for one release, a layout of his skills assumed in a question); held-out 345 and 346 were not made
    # (their pages hold no turn of his)
    "heldout347": ((1, 0, 1), (0, 0, 0)),
    "heldout348": ((1, 0, 1), (0, 0, 0)),
    # round 86 (at ec8a945, where their lanes began): no proposal, no rule to find (the one maybe: his own Raycast
    # extension as the model of the TUI he asks for); held-out 351 and 352 were not made (no licensed export left
    # unread; eight probes of a Raycast export found only the agent's work)
    "heldout349": ((1, 0, 0), (0, 0, 0)),
    "heldout350": ((1, 0, 0), (0, 0, 0)),
    "heldout353": ((1, 0, 0), (0, 0, 0)),
    "heldout354": ((2, 0, 1), (0, 0, 0)),
    "heldout355": ((3, 0, 0), (0, 0, 0)),
    "heldout356": ((3, 0, 0), (0, 0, 0)),
    # round 87 (at 0087766, where their lanes began): no proposal, no rule to find; held-out 360 was not made (its
    # pages hold only the agent's work)
    "heldout357": ((2, 0, 0), (0, 0, 0)),
    "heldout358": ((4, 0, 0), (0, 0, 0)),
    "heldout359": ((1, 0, 0), (0, 0, 0)),
    "heldout361": ((4, 0, 0), (0, 0, 0)),
    # round 88 (its heuristic unchanged since f7f196c; the lanes began at d4dba75): Claude Code hook logs committed by
    # mistake. No proposal; held-out 363's one rule not found ("Save this to .claude/tickets/ … a living set of tickets
    # … update your memory accordingly": no standing word). Held-out 365 and 366 were not made (no licence in the index)
    "heldout362": ((13, 0, 0), (0, 0, 0)),
    "heldout363": ((26, 1, 6), (0, 0, 0)),
    "heldout364": ((8, 0, 0), (0, 0, 0)),
    "heldout367": ((1, 0, 1), (0, 0, 0)),  # lev-os/agentping's 2 prompts removed by session 34's licence audit
    # round 88 (the lanes began at 199472f1): the other versions of kesslerio's and templar's logs, openshrooly's
    # transcript; no proposal, no rule to find
    "heldout368": ((13, 0, 0), (0, 0, 0)),
    "heldout369": ((91, 0, 4), (0, 0, 0)),
    "heldout370": ((5, 0, 3), (0, 0, 0)),
    # round 88 (the lanes began at 8c1f1b90): no proposal; held-out 373's one rule not found ("please let's not have
    # any code warnings at all": no standing word). Held-out 374 was not kept (its licence: npm init's default ISC)
    "heldout371": ((3, 0, 1), (0, 0, 0)),
    "heldout372": ((6, 0, 2), (0, 0, 0)),
    "heldout373": ((16, 1, 1), (0, 0, 0)),
    # round 88 (the lanes began at ea203bb5): held-out 376, templar's later entries, one proposal, worth keeping ("avoid
    # security tasks", said in two sessions); 377 none. Held-out 375 was kept as its section only (no typed prompt)
    "heldout376": ((186, 0, 11), (1, 1, 0)),
    "heldout377": ((26, 0, 3), (0, 0, 0)),
    # round 88 (the lanes began at 55a78f8d): no proposal, no rule to find (Wolfgang Schoenberger's last two hook logs,
    # David Irvine's later versions). Held-out 378 was kept as its section only
    "heldout379": ((7, 0, 0), (0, 0, 0)),
    "heldout380": ((9, 0, 0), (0, 0, 0)),
    "heldout381": ((255, 13, 11), (3, 3, 3)),
    "heldout382": ((175, 8, 11), (2, 1, 1)),
    "heldout383": ((39, 0, 5), (0, 0, 0)),
    "heldout384": ((34, 2, 14), (1, 1, 0)),
    "heldout385": ((16, 1, 8), (2, 2, 0)),
    "heldout386": ((16, 1, 8), (0, 0, 0)),
    "heldout387": ((14, 0, 8), (3, 3, 0)),
    "heldout388": ((21, 0, 9), (1, 1, 0)),
    "heldout389": ((21, 0, 8), (0, 0, 0)),
    "heldout390": ((26, 0, 8), (1, 1, 0)),
    "heldout391": ((16, 0, 3), (0, 0, 0)),
    "heldout392": ((5, 0, 1), (0, 0, 0)),
    "heldout393": ((5, 0, 3), (0, 0, 0)),
    "heldout394": ((13, 0, 8), (1, 1, 0)),
    "heldout395": ((23, 1, 10), (1, 1, 0)),
    "heldout396": ((21, 0, 9), (3, 3, 0)),
    "heldout400": ((72, 5, 8), (1, 0, 0)),
    "heldout401": ((59, 4, 16), (0, 0, 0)),
    "heldout404": ((31, 1, 4), (0, 0, 0)),
    "heldout405": ((60, 3, 18), (1, 0, 0)),
    "heldout408": ((42, 0, 10), (0, 0, 0)),  # round 91 (session 34): no proposal, no durable rule
    "heldout409": ((34, 0, 9), (0, 0, 0)),  # round 92 (session 34) first: 1 proposal, not worth keeping
    # round 92 (session 35): no proposal; round 95 tuned on its miss, "I totally forgot to mention …", and was withdrawn
    # (ADR 0168)
    "heldout410": ((19, 3, 7), (0, 0, 0)),
    "heldout411": ((12, 2, 1), (0, 0, 0)),
    "heldout412": ((18, 0, 5), (0, 0, 0)),
    "heldout413": ((19, 1, 3), (0, 0, 0)),
    "heldout414": ((25, 3, 2), (0, 0, 0)),
    "heldout415": ((20, 1, 8), (0, 0, 0)),  # round 93 tuned on its miss; "remember we are …" waits (ADR 0166)
    "heldout416": ((51, 0, 5), (0, 0, 0)),
    "heldout417": ((11, 0, 5), (0, 0, 0)),  # round 93 (session 35): 1 proposal in 420, worth keeping
    "heldout418": ((18, 3, 7), (0, 0, 0)),
    "heldout419": ((16, 1, 6), (0, 0, 0)),
    "heldout420": ((5, 0, 3), (1, 1, 0)),
    "heldout421": ((2, 0, 2), (0, 0, 0)),
    "heldout422": ((39, 2, 7), (0, 0, 0)),  # a new person: ShovalBenjer/verdict-bench
    "heldout423": ((38, 0, 6), (0, 0, 0)),  # rounds 93 and 94 mended (session 35): no proposal
    "heldout425": ((1, 0, 0), (0, 0, 0)),
    "heldout426": ((11, 0, 1), (0, 0, 0)),
    # round 95's first version (session 36, withdrawn after; round 94 gives the same), two new people: a Gemini CLI
    # session and a prompt log, no proposal
    "heldout427": ((28, 0, 3), (0, 0, 0)),
    "heldout428": ((10, 1, 1), (0, 0, 0)),
}


def test_every_split_from_held_out_39_on_is_pinned() -> None:
    # a split added to SPLITS without its pin would be measured by no test
    numbered = {name: name.removeprefix("heldout") for name in SPLITS if name.startswith("heldout")}
    later = [name for name, number in numbered.items() if number.isdigit() and int(number) >= 39]
    assert set(later) == {**PINNED_SINCE_ROUND_15, **PINNED_SINCE_ROUND_19}.keys()


@pytest.mark.parametrize("split", sorted({**PINNED_SINCE_ROUND_15, **PINNED_SINCE_ROUND_19}))
def test_held_out_39_on_give_what_the_frozen_rounds_gave(split: str) -> None:
    shape, found = {**PINNED_SINCE_ROUND_15, **PINNED_SINCE_ROUND_19}[split]
    figures = evaluate_split(split)
    assert (figures.prompts, figures.durable, figures.maybe) == shape
    assert (len(figures.proposals), figures.kept, figures.durable_found) == found, figures.proposals


def test_a_durable_prompt_saying_a_proposed_rule_again_is_found(tmp_path: Path) -> None:
    # a proposal shows a few quotes; a rule said in ten sessions is found in all ten (ADR 0113), but not in a prompt
    # whose labelled rule is another passage
    rule = "Use grep mcp to find working code examples."
    prompts = [{"label": "durable", "text": f"ok. {rule}"} for _ in range(10)]
    prompts.append({"label": "durable", "text": f"The API runs on fly.io. {rule}", "keep": ["The API runs on fly.io."]})
    split = {
        "split": "saidagain",
        "sessions": [
            {"session": "s", "sessions": [f"session-{n}" for n in range(len(prompts))], "prompts": prompts},
        ],
    }
    (tmp_path / "saidagain.json").write_text(json.dumps(split), encoding="utf-8")
    figures = evaluate_split("saidagain", tmp_path)
    assert len(figures.proposals) == 1 and figures.kept == 1
    assert figures.durable_found < 10 and figures.durable_found + figures.durable_said_again == 10
    assert figures.missed == [f"The API runs on fly.io. {rule}"]
