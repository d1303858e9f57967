"""The signal tables of the heuristic extractor, in English and Chinese, and the sentence classifier.

A sentence becomes a finding when a signal fires *and* nothing marks it as a one-off
task instruction. Signals come in two strengths:

* strong — "never", "always", "remember that", "I prefer", "we use", "from now on",
  "永远不要", "总是", "记住", "我们用", "以后" ...: durable by themselves;
* weak — "don't", "avoid", "不要", "必须": durable only when no one-off marker is present;
* reminders ("remember to", "don't forget to", "记得") and corrections ("no, use X") are
  never enough alone: a reminder needs a durable marker, a correction needs repetition.

One-off markers are time-bound words ("now", "yet", "for now", "when you're done",
"现在", "这次") and deixis to a concrete thing in front of the agent ("this function",
"that file", "这个函数"), which a memory read in another session could not resolve.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from memory_review.extract.gates import GatedPattern, GateTable
from memory_review.extract.precision import (
    GENERALISING_KINDS,
    GENERALISING_NAMES,
    SOURCE_EXTENSIONS,
    is_about_git,
    makes_a_choice,
    mask_quoted,
    names_code,
)
from memory_review.extract.task_at_hand import (
    FROM_HERE_ON,
    I_DISLIKE_WORDS,
    PREFERS_OVER,
    WHENEVER,
    a_things_default,
    answers_the_person,
    binds_to_the_task,
    changes_what_we_use,
    chooses_for_a_step,
    describes_an_occasion,
    describes_behaviour,
    dislikes_a_kind,
    dislikes_the_thing_at_hand,
    dislikes_without_an_object,
    forbids_a_named_thing,
    hangs_on_an_answer,
    is_a_note_to_write,
    outside_a_purpose_or_condition,
    outside_any_condition,
    outside_the_described_future,
    picks_an_offered_option,
    plans_this_work,
    points_back,
    reports_a_status,
    said_of_the_program,
    says_it_was_said_before,
    sets_right_what_was_said,
    shows_an_element,
    supposes,
    we_use_is_required,
    we_use_qualifies_a_noun,
    we_use_to_find_out,
    zh_a_things_spec,
    zh_said_of_the_program,
)
from memory_review.models import DurableScope, MemoryType

_I = re.IGNORECASE
_PAST = (
    r"(?:been|got|had|seen|saw|heard|knew|thought|said|did|was|were|worked|used|tried|noticed|made|"
    # irregular pasts tell what happened too: "… but never paid direct attention" (held-out 122, ADR 0105)
    r"paid|gave|given|took|taken|went|gone|told|found|felt|left|kept|meant|spent|brought|known|sent|built|lost|wrote|"
    r"written|forgot|forgotten|understood|bought|caught|taught|spoke|spoken)"
)
_MAKE_SURE = r"(?:make\s+sure|ensure)\s+(?:that\s+)?"
_SHOULD_BE_USING = r"\b(?:you|we)\s+should\s+(?:always\s+)?be\s+using\b"
# The agent bound: "you/we should", and "you need to always …", "we need to avoid …" as "should" does; "we have to
# always wait for the build" complains
_BOUND = r"(?:(?:you|we)\s+(?:should|must)|you\s+(?:need|have|ought)\s+to|we\s+(?:need|ought)\s+to)"
_LEAD = (
    r"(?:^|[,;:(\u2014\u2013]\s*|\s-\s|\bplease\s+|"
    r"\b(?:and|but|also|plus|so|then|just|btw|oh|ok|okay|pls|plz|remember|rule)\s*[,:]?\s+|"
    # "I want you to always run the tests", "I told you to never push to main" (ADR 0057), "I am asking you to always
    # use nix develop --command bun test" (held-out 117, ADR 0103), "I wanted to remind you to always run specs locally
    # before pushing" (held-out 191, ADR 0123)
    r"\b(?:want|need|asked|asking|told|telling|ask|tell|remind|reminding)\s+you\s+to\s+|"
    # "make sure you never …", "ensure that we always …": the person binds the agent (held-out 60, ADR 0083); "you
    # never …" alone is mostly a complaint ("you never listen")
    rf"\b{_MAKE_SURE}(?:you|we)\s+|"
    # "Remember to always run the tests", "Don't forget to always add my queries to ai-prompts.txt" (held-out 69, ADR
    # 0085), "make sure to periodically upload work to the current repo with commit and push" (held-out 152, ADR 0112)
    # "Please keep in mind to always run the linter" binds the agent as "remember to" does (ADR 0164)
    r"\b(?:remember|make\s+sure|be\s+sure|(?:keep|bear)\s+in\s+mind|(?:don'?t|do\s+not|never)\s+forget)\s+to\s+)"
)
# "make sure the AI never writes code to alter the test cases": the agent named as the one bound, its verb in the third
# person (held-out 60, ADR 0083)
_AGENT_BOUND = (
    rf"\b{_MAKE_SURE}(?:the\s+(?:ai|agent|assistant|model|llm|bot)|claude(?:\s+code)?|codex|gemini|copilot|cursor)\s+"
)
# Words that open a question ("how would …") or fill dictated speech ("like, …"), not an instruction
_ASKS_OR_FILLS = r"how|what|why|when|where|who|which|whether|if|like|well|um|uh|er|ok|okay"
# After "always"/"never" an imperative verb follows; a determiner or a third-person
# verb ("it always fails", "always the same error") describes, it does not instruct.
_NOT_IMPERATIVE = (
    r"(?!(?:the|a|an|same|this|that|these|those|it|its|there|here|so|too|been|was|were|is|are|had|has|have|"
    r"did|does|got|gets|works?|worked|happens?|fails?|failed|breaks?|broke|crashes?|"
    # "…; never with the IMGUI HUD on screen": a preposition says when or how the step before is done, no action
    # (held-out 278, ADR 0139); not "in", which a reply's language takes ("always in English")
    r"with|without|at|on|during|under|via|through|inside|outside|while|"
    # "(always visible when `onCreateTap` is provided)": a state the screen or the thing is in, a spec (held-out 280,
    # ADR 0140)
    r"visible|invisible|shown|hidden|enabled|disabled|available|displayed|collapsed|expanded|selected|sticky|pinned)\b)"
    r"(?!\w*[^s\W]s\b)"
    # a gerund describes ("old data just never being removed"); the verbs that end in -ing themselves instruct
    r"(?!(?!(?:bring|ping|string|sing|ring|swing|sting|spring)\b)\w{2,}ing\b)"
    # so does a past participle ("is set once and never updated when moveTarget changes", held-out 43, ADR 0076); the
    # verbs that end in -ed themselves ("never embed secrets", "never proceed") instruct
    r"(?!(?!(?:embed|shred|shed|sled)\b)\w+[^e\W]ed\b)"
)
_DONT_NOT_RULES = (
    r"(?:worry|know|think|understand|see|get|have|need|care|mind|want|like|bother|forget|"
    r"remember|be\s+afraid|hesitate|agree|believe|recall|expect|"
    # stative verbs describe a thing ("comments ... do not affect what the code does"), they instruct no one
    r"affect|matter|exist|apply|belong|seem|appear|happen|depend|mean|count|"
    # "Dont be dumb", "don't be so lazy": a rebuke of the agent, no rule about the work (ADR 0059)
    r"be\s+(?:so\s+|such\s+an?\s+|an?\s+)?(?:dumb|stupid|lazy|idiot|idiotic|silly|useless|dense|moron|clueless|"
    r"ridiculous|incompetent|an?\s+idiot)\b)"
)
# "In the future we'd want X" / "next time we could try Y" is a plan, not a standing instruction; so is "In this
# project, we're going to create a script that …" (held-out 146, ADR 0111).
_NOT_A_PLAN = (
    r"(?!\s*,?\s*(?:we|i|it|they|this|that|there)"
    r"(?:'d|'ll|(?:'re|'m|\s+are|\s+am)\s+going\s+to|\s+(?:would|will|might|may|could|can|want|plan|need)\b|"
    # "For example, in future I like to add new table …": the person's own plan (held-out 222, ADR 0131)
    r"\s+(?:like|love|hope|intend|expect)\s+to\b)"
    # "In the future, I'd like you to ask first" asks the agent (held-out 69's near miss, ADR 0085)
    r"(?!\s+(?:like|love|want|prefer)\s+(?:you|it\s+if\s+you)\b))"
)
# "In future, ask first" is a rule; "in future sessions", "in future releases" is an adjective before a noun (ADR 0049),
# but "for all (the) future sessions" reaches every one of them (held-out 48, ADR 0081).
_IN_FUTURE = (
    r"(?:in\s+the\s+future|in\s+future"
    r"(?!\s+(?:[a-z]\w*[^s\W]s|work|development|release|version|session|update|iteration|project|proof)\b)|"
    r"(?:for|in)\s+all\s+(?:the\s+)?future\s+(?:sessions?|conversations?|chats?)|"
    # "All future work goes inside vioverse-refactor/.": the sentence's subject is every piece of work to come (held-out
    # 75, ADR 0089)
    r"^\s*all\s+(?:the\s+)?future\s+(?:work|development|changes|code|commits|features|tasks))"
)
# "By default, answer in English" sets the agent's default; "X will by default read Y", "enabled by
# default" describe what a program does (ADR 0049).
_BY_DEFAULT = r"(?<!\bwill\s)(?<!\bwould\s)(?<!\bshould\s)(?<!\bshall\s)(?<!\bis\s)(?<!\bare\s)(?<!ed\s)by\s+default"


def _not_after(*words: str) -> str:
    """Look-behinds that fail right after any of the words (and one space): a regex has no variable-width one."""
    return "".join(rf"(?<!\b{word}\s)" for word in words)


# "we use X" after "that", "like", "if", "whether", "sure" … sits in a complement clause: "it looks like we
# are on the old script", "check that we support tablets" describe or ask, they state no convention.
_NOT_IN_A_CLAUSE = _not_after(
    *("that", "like", "if", "whether", "sure", "how", "what", "why", "seems", "think"),
    # "Though we use WSD heavily in this project, it's not required": a concession (held-out 52, ADR 0078)
    *("though", "although", "while"),
)
# "…, as we don't use it anymore": after these words "we don't" gives a reason (ADR 0120)
_NOT_A_REASON = _not_after("as", "since", "because", "cause")
# "When you lose the connection, always re-check" / "If the build fails never retry": a rule behind a leading
# clause that says when it applies; "when I run it it always fails" describes (ADR 0049).
_AFTER_LEADING_CLAUSE = (
    r"^(?:when(?:ever)?|if|before|after|once|while|every\s+time|any\s?time)\s[^.!?;\n]{1,120}?"
    r"(?<!\bit\s)(?<!\bthey\s)(?<!\bthis\s)(?<!\bthat\s)(?<!\bhe\s)(?<!\bshe\s)"
    r"(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bbe\s)(?<=\s)"
)
# After such a clause a past tense tells what happened ("when I tried that the app always crashed").
_NOT_DESCRIBED = r"(?!\w{2,}[^e\W]ed\b)"
# "Going forward, ask first" is a rule; "commit that before moving forward with more features" orders this job's
# steps, and "moving forward with X" goes on with X (ADR 0054). "Moving forward through the wizard I arrived at the
# Preview step" walks through the app; "going forward through the end of this investigation" still says how long
# (held-out 409, ADR 0166).
_FORWARD = (
    r"(?<!\bbefore\s)(?<!\bafter\s)(?<!\bstart\s)(?:going|moving)\s+forward"
    r"(?!\s+(?:with|on|to|past|along|across|towards?)\b)"
    r"(?!\s+through\s+(?!the\s+(?:end|rest|remainder)\b))"
    # "Moving forward into the next screen, the button …" is motion; "going forward into the next release, ask …" says
    # when
    r"(?!\s+(?:into|onto)\s+(?!(?:the\s+)?(?:next|coming|new|future)\s+(?:release|sprint|version|phase|year|quarter|"
    r"month|week|milestone|iteration|session|project)s?\b))"
)
# "As you implement a feature, add tests" holds for the whole piece of work, like "whenever you".
_AS_YOU_GO = r"as\s+you\s+(?:go|go\s+along|work|implement|build|code|develop|write|make\s+changes)\b"


# The commands a rule about running them covers: "python commands", "all scripts", "script"; not "the commands" or "a
# script" (the ones at hand)
_COMMAND_KIND = (
    r"(?!(?:the|these|those|this|that|my|your|its|their|following|above|below|same|a|an|one|two|three|some|another)\b)"
    r"[\w-]+"
)
_COMMANDS = r"(?:commands?|scripts?|cmds)"
# "make sure there is no mention of faceiq at all", "do not include any mention of FACEIQ in the comments", "not to
# mention them at all": a name never to appear in the work (held-out 111 and 114, ADR 0102)
_A_MENTION = r"(?:mentions?|references?)\s+(?:of|to)\s+"
_ANYWHERE = (
    r"(?:at\s+all|anywhere|whatsoever|in\s+(?:the\s+|our\s+|any\s+)?(?:code|codebase|code\s+base|comments?|commits?|"
    r"commit\s+messages?|repo|repository))\b"
)
_NOT_TO = r"\b(?:do\s+not|don'?t|never|not\s+to|to\s+not)\s+"
# The rest of the clause, over the dots inside a name ("ai-prompts.txt")
_REST_OF_CLAUSE = r"(?:[^.!?\n]|[.!?](?=\w))*"
# "every time I ask you to do something, please log …": an occasion that is every request, so a standing rule, when it
# opens the clause ("… so you don't have to each time I ask you to do something" describes; held-out 164, ADR 0117)
_EVERY_REQUEST = (
    r"(?:^|[,;:]\s*|\b(?:and|also|so|please)\s+)(?:(?:every|each)\s+time|whenever|any\s*time)\s+i\s+(?:ask|tell)\s+you"
    r"\s+(?:to\s+do\s+)?(?:something|anything)\b"
)
# Where the agent may not write (ADR 0151): the verbs of a change, and a place that is a path, a folder, a repository or
# a workspace, or a bare name with a hyphen, a dot or an underscore ("vioverse-refactor"), not a unit of the code: not a
# source file ("outside src/app/page.tsx" keeps this change to one file)
_WRITE_VERB = r"(?:modify|modifications?|write|writes|change|changes|touch|edit|edits|create|delete|alter|install)"
_A_FILE = rf"(?![`'\"]?[\w./\\~-]*\.(?:{SOURCE_EXTENSIONS}|m|md|txt)\b)"
_WRITE_PLACE = (
    rf"(?:{_A_FILE}[`'\"]?(?:[~.]|[\w.-]*[/\\])[\w./\\~-]*|"
    r"(?:the|this|your|my|our)\s+(?:own\s+)?(?:[\w.-]+\s+)?(?:folder|directory|dir|repo|repository|project|workspace|"
    r"worktree|sandbox|working\s+(?:directory|tree)|codebase)\b|"
    rf"{_A_FILE}[`'\"]?[\w]+(?:[-_.][\w]+)+[`'\"]?(?=\s*(?:[,.;:!)]|$)))"
)
# Asked of the agent (ADR 0115): no word just before the verb ("the bot habla en español" describes the bot), or
# "please" in the languages the language signal reads; fixed-width look-behinds, tried only at a word's start
_ASKED = r"(?:(?<!\w\s)|(?<=please\s)|(?<=bitte\s)|(?<=favor\s)|(?<=favore\s)|(?<=pla[iî]t\s))"
_LANGUAGE = r"(?:english|chinese|french|german|spanish|italian|japanese|portuguese|russian)"
# "Remember not to include any mention of that", "Make sure to not mention them at all": what is not to be named is in
# the sentence before
_IT = r"(?:that|it|them|this|those|these)\b(?!\s+(?!(?:at|anywhere|whatsoever|in|anymore)\b)[a-z])"
_MENTION_OF_IT = re.compile(rf"{_A_MENTION}{_IT}|{_NOT_TO}mention\s+{_IT}", re.IGNORECASE)


@dataclass(frozen=True)
class Signal:
    """One cue in the text: its display name, its meaning (``kind``) and its strength."""

    name: str
    kind: str  # forbid | always | prefer | convention | durable | remember | note | must | reminder
    strong: bool
    pattern: re.Pattern[str]


# Whom "off limits to / for …" may name and still bind the agent (ADR 0164)
_FOR_THE_AGENT = r"you|us|me|(?:ai\s+)?agents?|the\s+(?:agent|ai|assistant)s?|ai|claude|codex|gemini|copilot"


def _sig(name: str, kind: str, strong: bool, pattern: str) -> Signal:
    return Signal(name, kind, strong, re.compile(pattern, _I))


def _gated(word: str, pattern: str) -> str:
    """``pattern``, tried only in a sentence that holds ``word``: one scan from the start instead of an attempt at every
    position, for a pattern whose openings ("no", "only", "and") are common and its word rare. Every match of
    ``pattern`` holds ``word``, so the matches are the same (on the 65,486 sentences of the labelled splits, none
    differs); it took the two signals of rounds 83 and 84 from 300 ms to 65 ms there."""
    return rf"(?s)\A(?=.*?{word}).*?(?:{pattern})"


# Where "remember" opens a request: the message's start, "please", "and / also / just / always".
_REMEMBER = r"(?:^\(?|\bplease\s+|\b(?:and|also|just|always)\s+)remember"


# Order matters only for which name is reported first when several fire.
SIGNALS: tuple[Signal, ...] = (
    _sig(
        "remember",
        "remember",
        True,
        rf"{_REMEMBER}\s*(?:that\b|this\b|:|,|\u2014|-\s|"
        # "Remember you must use the nx mcp …": "that" left out before a rule bound on the agent (ADR 0095)
        # "remember you need to do this in the background" is this task's need (held-out 115, ADR 0104)
        r"(?=(?:you|we)\s+(?:must|should|always|never|can'?t|cannot|don'?t|do\s+not)\b)|"
        # "(remember I'm unfamiliar with modern python best practices, so please don't let me derail you …)": "that"
        # left out before what the person is or does (held-out 181, ADR 0122)
        r"(?=i(?:'m|\s+am|'ve|\s+have|\s+don'?t|\s+do\s+not|\s+prefer|\s+like|\s+use|\s+work)\b)|"
        # "remember after every feature is implemented that it runs those end to end tests" (held-out 111, ADR 0101)
        r"(?=(?:after|before|when|whenever|once)\s+(?:\w+ing\s+)?(?:each|every|any)\s))",
    ),
    # "please REMEMBER we are running on docker containers as our PRIMARY method": what we are or how we work, "that"
    # left out (held-out 415); as often a state of this session ("remember we're almost done", "… we are on the
    # feature branch"), so kept aside until said in a second session (ADR 0166, the session's review)
    _sig("remember we are", "remember", False, rf"{_REMEMBER}\s*,?\s*(?=we(?:'re|\s+are|\s+use|\s+run|\s+work)\b)"),
    # "Either install it or make a note to not use it again": the person asks the agent to keep it for later
    # sessions, a memory by name (held-out 57, ADR 0084); "make a note in the README" is a step of the task
    _sig(
        "make a note",
        "remember",
        True,
        r"(?:^|\bplease\s+|\b(?:and|also|just|or|then|so)\s+)(?:make|take|keep)\s+a\s+(?:mental\s+)?note\s+"
        # "make a note that I fixed the login bug" records what was done, a report of this session
        r"(?:to|that(?!\s+(?:i|we|you|it|they|he|she)\s+(?:just\s+|already\s+)?\w+ed\b))\b",
    ),
    # How the person wants work committed, stated with a per-step frame and no signal word: "commit with a
    # message after you create each phase and push it", "make smaller commits and push them" (ADR 0054).
    _sig(
        "commit habit",
        "always",
        True,
        r"\b(?:make|keep|do)\s+(?:small(?:er)?|atomic|frequent|focused)\s+commits\b|"
        r"\bcommit\s+(?:in\s+small\s+steps|often|frequently|early)\b|"
        r"\b(?:commit|push)\b[^.;\n]{0,60}\b(?:after|for)\s+(?:you\s+\w+\s+)?(?:each|every)\b",
    ),
    # "as a general warning, do not assume that similar names mean files are identical", "In general, do not offer
    # several possibilities": the person says it holds beyond this case (held-out 50 and 122, ADR 0105). A bare "in
    # general" or "generally" frames the sentence only with its comma: "In general analyze the cpgrid-bot and use the
    # best out of it" says how to look at one thing (held-out 169, ADR 0118)
    _sig(
        "as a general rule",
        "durable",
        True,
        r"(?:^|[,;:(\u2014\u2013]\s*|\s-{1,2}\s|\b(?:but|and|also|so|yes|ok|okay)\s*,?\s+)"
        r"(?:(?:as\s+a\s+general\s+(?:rule|warning|principle|reminder|note)|as\s+a\s+rule)\s*[,:]?|"
        r"(?:in\s+general|generally)\s*[,:])\s+"
        # "Generally, how would the evaluation … work.", "But, generally, like, I don't know how would we...": a
        # question or a filler of dictated speech after the frame, no rule (held-out 248, ADR 0135)
        rf"(?:please\s+)?(?!(?:i|we|you|it|they|he|she|there|this|that|these|those|{_ASKS_OR_FILLS})\b){_NOT_IMPERATIVE}\w",
    ),
    _sig(
        "from now on",
        "durable",
        True,
        rf"\b(?:from\s+now\s+on|{_FORWARD}|{FROM_HERE_ON}|henceforth|"
        rf"(?:{_IN_FUTURE}|next\s+time)\b{_NOT_A_PLAN}|{_BY_DEFAULT}|(?:every|each)\s+time\s+(?:you|we)|"
        rf"{WHENEVER}\s+(?:you|we)|{_AS_YOU_GO})\b|{_EVERY_REQUEST}",
    ),
    # "After implementing each feature run an end to end test …", "After every change, run the linter": a step for each
    # piece of the work, an occasion like "whenever you", held back the same way (held-out 111 and 112, ADR 0101);
    # looked for only in a sentence that says "each", "every" or "any"
    _sig(
        "after each",
        "durable",
        True,
        r"^(?=[\s\S]*?\b(?:each|every|any)\s)[\s\S]*?"
        r"(?:^|[,;:]\s*|\b(?:and|also|please|remember|then)\s+)(?:after|before|once|when)\s+(?:\w+ing\s+)?"
        r"(?:each|every|any)\s+(?:new\s+)?[\w-]+(?:\s+(?:is|are|has\s+been|gets)\s+\w+)?\s*,?\s+(?:please\s+)?"
        rf"(?:always\s+)?(?!(?:i|we|you|they|he|she|there)\b){_NOT_IMPERATIVE}\w",
    ),
    # "Periodically run `./cleanup.py status`": how often, through the whole piece of work; an occasion like "as you
    # work", held back until said in a second session (ADR 0073)
    _sig("periodically", "durable", True, rf"(?:{_LEAD})(?:periodically|regularly)\s+{_NOT_IMPERATIVE}(?!\w+ed\b)\w"),
    _sig(
        "never",
        "forbid",
        True,
        rf"(?:{_LEAD}|\b(?:we|i|you\s+(?:should|must)|should|must)\s+)never\s+(?!mind\b)(?!{_PAST}\b){_NOT_IMPERATIVE}\w|"
        rf"{_AFTER_LEADING_CLAUSE}never\s+(?!mind\b)(?!{_PAST}\b){_NOT_DESCRIBED}{_NOT_IMPERATIVE}\w|"
        rf"{_AGENT_BOUND}never\s+(?!{_PAST}\b){_NOT_DESCRIBED}\w",
    ),
    # "remove the word fixture from the commit message, as we don't use it anymore": after "as", "since" or "because"
    # it gives the reason for the request, it forbids nothing (held-out 175, ADR 0120)
    _sig(
        "don't",
        "forbid",
        False,
        rf"(?:{_LEAD}|{_NOT_A_REASON}\b(?:you|we)\s+)(?:don'?t|do\s+not)\s+(?!{_DONT_NOT_RULES}\b)(?!forget\s+to\b)\w",
    ),
    _sig(
        "must not",
        "forbid",
        False,
        r"\b(?:must\s+not|mustn't|should\s+not|shouldn't)\s+(?!have\b)\w",
    ),
    _sig("avoid", "forbid", False, rf"(?:{_LEAD}|\b{_BOUND}\s+)avoid\s+\w"),
    # Looked for only in a sentence that names a mention or a reference
    _sig(
        "no mention",
        "forbid",
        True,
        rf"^(?=[\s\S]*?\b(?:mention|reference))[\s\S]*?(?:"
        rf"(?:\b{_MAKE_SURE}there(?:'s|\s+is|\s+are)\s+no|\bthere\s+(?:should|must|shall)\s+be\s+no|"
        rf"\bthere\s+(?:should|must)(?:\s+not|n't)\s+be\s+any)\s+{_A_MENTION}[^.!?;\n]{{1,80}}?\b{_ANYWHERE}|"
        rf"{_NOT_TO}(?:include|add|leave|put|make|write|have)\s+any\s+{_A_MENTION}\S|"
        rf"{_NOT_TO}mention\s+[^.!?;\n]{{1,60}}?\b(?:at\s+all|anywhere|whatsoever)\b)",
    ),
    # "Do NOT change my files outside of /home/me/src/pipeboard" (paraphrased), "do not change things outside of your
    # own folder", "NO MODIFICATIONS to any files outside vioverse-refactor": where the agent may not write is a
    # sandbox rule for every task; in every split the 18 prompts that say so were all durable (ADR 0151). Only where
    # the place is a path, a folder, a repository or a workspace: "outside this function" is about the change at hand.
    _sig(
        "write boundary",
        "forbid",
        True,
        _gated(
            "outside",
            r"\b(?:do\s+not|don'?t|never|must\s+not|mustn'?t|should\s+not|shouldn'?t|no|not\s+(?:allowed|permitted)\s+to)"
            r"\s+(?!(?:need|hesitate|worry)\b)(?:[\w-]+,?\s+(?:or\s+|and\s+)?){0,4}?"
            rf"{_WRITE_VERB}\b[^.!?\n(]{{0,60}}?\boutside\s+(?:of\s+)?{_WRITE_PLACE}",
        ),
    ),
    # "You are not allowed to read outside this folder", "you are allowed to read any file except the .env files": a
    # limit on the agent, weak like "don't" (ADR 0073); "the version you are allowed to run" describes
    _sig(
        "not allowed",
        "forbid",
        False,
        rf"(?:{_LEAD})you(?:'re|\s+are)\s+(?:(?:not|only)\s+(?:allowed|permitted)\s+to\s+\w|"
        r"(?:allowed|permitted)\s+to\s[^.!?\n]{1,120}?\bexcept\b)",
    ),
    _sig("stop", "forbid", False, rf"{_LEAD}stop\s+\w+ing\b"),
    # "Please under no circumstances make up of adjust data just to make it seem correct" (held-out 44), "Do not, under
    # any circumstances, push to main", "X is normally OFF LIMITS for you", "it is forbidden to …": a prohibition as
    # strong as "never" (ADR 0164). Only where the agent is the one bound: "Under no circumstances should the app
    # crash", "Empty passwords are forbidden", "the response is forbidden" (a 403), "pods is forbidden: User …"
    # (Kubernetes) and "the admin page is off limits to guests" specify the program or report what it did (the review
    # of session 34).
    _sig(
        "off limits",
        "forbid",
        True,
        _gated(
            r"(?:circumstance|limit|forbidden|prohibited)",
            # an imperative after it, or the agent as the inverted verb's subject
            r"(?:^\W*|[,;:(]\s*|\b(?:please|and|but|so)\s+)under\s+no\s+circumstances?\s*(?:,\s*)?"
            r"(?:(?:should|must|may|can|will|shall)\s+(?:you|we|claude|the\s+(?:agent|ai|assistant))\b|"
            r"(?!(?:should|must|can|could|may|might|will|would|shall|is|are|was|were|does|do|did|has|have|had|the|a|an|"
            r"this|that|these|those|it|its|any|our|your|my|their|there|we|you|i|they|he|she|users?)\b)"
            # "Under no circumstances customers should be charged twice": a subject, then its verb, is no imperative
            r"(?![a-z]+\s+(?:should|must|can|could|may|might|will|would|shall|is|are|was|were|gets?|happens?)\b)"
            r"[a-z]{2,}\b)|"
            r"(?:^\W*|[,;:(]\s*|\bplease\s+|\b(?:you|we)\s+)(?:do\s+not|don'?t|must\s+not|mustn'?t|may\s+not|"
            r"should\s+not|shouldn'?t|cannot|can'?t|never)\s*(?:,\s*)?under\s+any\s+circumstances?\b|"
            # "We can't use the staging database under no circumstances": a double negative, as people write it in a
            # second language
            # ("You can't log in under no circumstances, the button does nothing" reports a bug: the clause goes on)
            r"\b(?:you|we)\s+(?:can'?t|cannot|must\s+not|mustn'?t|may\s+not|should\s+not|shouldn'?t)\s[^.!?\n]{0,80}?"
            r"\bunder\s+no\s+circumstances?(?=\s*(?:[.!]|$|(?:,\s*)?for\s+(?:\w+\s+)?reasons?\b))|"
            r"\b(?:it(?:'s|\s+is)|you(?:'re|\s+are))\s+(?:strictly\s+|absolutely\s+)?(?:forbidden|prohibited)\s+(?:to|from)\s+\w|"
            # "the boxes overlap!!! that's strictly off limits!": what "that" is lives in the chat
            + "".join(
                rf"(?<!\b{word})(?<!\b{word}\s)(?<!\b{word}\s\s)"
                for word in ("that", "this", "it", "which", "what", "these", "those", "they", "one")
            )
            + r"\b(?:is|are|'s|remains?|stays?)\s+(?:(?:strictly|absolutely|completely|totally|normally|always)\s+)?"
            # "for" or "to" may name the agent or a reason; anyone else is the program's user
            rf"off[ -]?limits?\b(?!\s+(?:to|for)\s+(?!(?:{_FOR_THE_AGENT}|(?:\w+\s+)?reasons?)\b))",
        ),
    ),
    _sig(
        "I don't like",
        "forbid",
        True,
        rf"{I_DISLIKE_WORDS}\b",
    ),
    _sig(
        "always",
        "always",
        True,
        rf"(?:{_LEAD}|\b(?:we|i|{_BOUND})\s+)always\s+{_NOT_IMPERATIVE}\w|"
        # "you need always to verify that the importer is working" (held-out 106, ADR 0099)
        rf"\b(?:you\s+(?:need|have)|we\s+need)\s+always\s+to\s+{_NOT_IMPERATIVE}\w|"
        rf"{_AFTER_LEADING_CLAUSE}always\s+{_NOT_DESCRIBED}{_NOT_IMPERATIVE}\w|"
        rf"{_AGENT_BOUND}always\s+{_NOT_DESCRIBED}\w",
    ),
    # "Commit messages should always be in English", "Parameters should always be part of the test": a kind of thing
    # bound, as "should never" binds it; as often a spec of the product ("Users should always see a confirmation
    # dialog"), so kept aside until said in a second session; one thing of the program ("the page must always …") is
    # a spec (said_of_the_program; held-out 410, ADR 0166 and the session's review)
    _sig("a kind always", "always", False, rf"(?:(?<=\w\s)|(?<=\())(?:should|must)\s+always\s+{_NOT_IMPERATIVE}\w"),
    # "For example, the pushing on local machine, I would like to reserve pushing decision for myself.", "leave the
    # merging to me": the person keeps a kind of decision or action, the agent is not to take it (held-out 261, ADR
    # 0138); "leave it to me" and "leave this to me" are about the thing at hand
    _sig(
        "mine to decide",
        "forbid",
        True,
        # looked for only in a sentence that says "reserve" or "leave … to me"
        r"^(?=[\s\S]*?\b(?:reserve|leave)\b)[\s\S]*?(?:"
        r"\bi(?:'d|\s+would|\s+want|\s+wanna)?\s+(?:like\s+)?(?:to\s+)?reserve\s+(?:the\s+|all\s+)?"
        r"(?:[a-z-]+\s+){0,2}?(?:decisions?|calls?|rights?)\s+(?:for|to)\s+myself\b|"
        r"(?:^|[,;:]\s*|\b(?:please|and|but|so|just)\s+)leave\s+(?:the\s+|all\s+|any\s+)?"
        r"(?:\w+ing|commits?|pushe?s?|merges?|releases?|deploys?|deployments?)(?:\s+(?:decisions?|calls?))?\s+to\s+me\b)",
    ),
    # "You can always read, but Ask me first before modifying/wrting!": what the agent must ask leave for, in general
    # (a gerund, not "before doing this"); "ask me to confirm before running the command that …" is a step of one task
    # (held-out 195, ADR 0136)
    _sig(
        "ask me first",
        "always",
        True,
        # looked for only in a sentence that says "ask / check with me … before": the leads can start anywhere
        r"^(?=[\s\S]*?\b(?:ask|check\s+with)\s+(?:me|us)\s+(?:first\s+)?before\b)[\s\S]*?"
        rf"(?:{_LEAD})(?:always\s+)?(?:ask|check\s+with)\s+(?:me|us)\s+(?:first\s+)?before\s+"
        r"(?!(?:doing|changing|touching|running|making)\s+(?:this|that|it|these|those|the|so)\b)"
        r"(?!(?:bring|ping|string|sing|ring|swing|sting|spring)\b)\w{2,}ing\b"
        r"(?!\s+(?:this|that|it|these|those|the|them|my|your|our)\b)",
    ),
    # "browser testing is mandatory", "It is mandatory that the dev server is running when browser tests start"
    # (held-out 106, ADR 0099): a requirement of the work; not "this is mandatory" (what "this" is lives in the chat)
    _sig(
        "mandatory",
        "always",
        True,
        r"(?<!\bthis\s)(?<!\bthat\s)(?<!\bit\s)(?<!\bwhich\s)(?<!\bwhat\s)(?<!\bthese\s)(?<!\bthose\s)"
        r"\b(?:is|are)\s+(?:always\s+|absolutely\s+)?(?:mandatory|obligatory|compulsory|non-negotiable)\b|"
        r"\bit(?:'s|\s+is)\s+(?:always\s+|absolutely\s+)?(?:mandatory|obligatory|compulsory)\s+(?:that|to)\b",
    ),
    _sig(
        "I prefer",
        "prefer",
        True,
        r"\bi(?:'d|\s+would)?\s+(?:much\s+|really\s+|generally\s+|strongly\s+|usually\s+)?prefer\b|"
        # "my preference is …", not an app's settings ("i updated my preference interests", ADR 0093)
        r"\bmy\s+(?:own\s+|personal\s+|strong\s+)?preference\s*(?:is|was|would\s+be|will\s+(?:always\s+)?be|:)|"
        r"\bi\s+like\s+(?:it\s+when|my|to\s+(?:keep|have|use|see))\b|"
        # "I use github and prefer the gh cli" (held-out 121, ADR 0103)
        r"\bi\s+(?:use|like|work\s+with|run)\s+[^.!?;\n]{1,40}?\s+and\s+(?:much\s+|really\s+|generally\s+)?prefer\b",
    ),
    _sig("prefer", "prefer", True, rf"{_LEAD}prefer\s+(?!(?:it|this|that|them|which|what)\b)\w"),
    _sig(
        "we use",
        "convention",
        True,
        rf"{_NOT_IN_A_CLAUSE}\bwe(?:'re|\s+are)?\s+(?:always\s+|only\s+|generally\s+|usually\s+|normally\s+|typically\s+|"
        r"consistently\s+|all\s+)?(?:use|using|prefer|stick\s+to|follow|write|deploy|keep|name|store|"
        # "we run into some critical problems", "we run out of tokens": what happened, not how we work (held-out 137);
        # "You should be using the subagents for this": how the work is to be done (dev 2, ADR 0049)
        r"target|support|format|lint|pin|run)\b(?!\s+(?:to|into|out\s+of|across)\b)|" + _SHOULD_BE_USING,
    ),
    # "run python commands through uv", "Cargo commands should be wrapped with nix develop --command", "only use nix
    # develop --command to run all commands": how every command of a kind is run here, a convention of the project
    # (held-out 31, 84 and 92, ADR 0096); "run the commands in the terminal" names the commands at hand
    _sig(
        "run commands through",
        "convention",
        True,
        # looked for only in a sentence that names commands or scripts: the leads can start anywhere
        rf"^(?=[\s\S]*?\b{_COMMANDS}\b)[\s\S]*?(?:"
        rf"(?:{_LEAD}|\b(?:we|you)\s+(?:should|must|need\s+to|have\s+to)\s+(?:always\s+)?)"
        r"(?:run|execute|wrap|prefix|launch)\s+(?:all\s+(?:the\s+|our\s+)?|every\s+|any\s+|our\s+)?"
        rf"(?:{_COMMAND_KIND}\s+)?{_COMMANDS}\s+(?:through|with|via|using|inside|under)\s+\S|"
        r"\b(?:commands|scripts)\s+(?:should|must|need\s+to|have\s+to|are\s+to)\s+(?:always\s+)?be\s+(?:always\s+)?"
        r"(?:run|wrapped|executed|prefixed|launched)\s+(?:through|with|via|using|inside|under|by)\s+\S|"
        r"\buse\s+[^.!?\n]{1,60}?\s+to\s+(?:run|execute|wrap)\s+(?:all|every|any)\s+(?:(?:the|our|of\s+the)\s+)?"
        rf"(?:{_COMMAND_KIND}\s+)?{_COMMANDS}\b)",
    ),
    _sig(
        "in this project",
        "convention",
        True,
        rf"\bin\s+(?:this|our)\s+(?:project|repo|repository|codebase){_NOT_A_PLAN}\s*,?\s+(?:we|you|all|every|each|always|"
        r"never|don'?t|do\s+not|use|prefer|everything|nothing|\w+\s+(?:must|should|go|goes|live|lives)\b)|"
        r"\b(?:must|should)\b.*\bin\s+(?:this|our)\s+(?:project|repo|repository|codebase)\b",
    ),
    # "Claude should be listed as co-author (not main author) when Claude commits", "… single Co-Authored-By, because
    # only the first one appears …": who is credited on a commit is how every commit is signed; in every split the 5
    # prompts with such a sentence were all worth keeping (ADR 0147). The word before the name is read before
    # "Co-Authored-By" too: "Single-line commit messages, no Co-Authored-By trailer, …" (ADR 0150).
    _sig(
        "commit attribution",
        "convention",
        True,
        _gated(
            "co-?author",
            rf"\b(?:should|must|always|never|no|default|important|only)\b{_REST_OF_CLAUSE}\bco-?author(?:s|ed)?(?:-by)?\b|"
            rf"\bco-?author(?:s|ed)?(?:-by)?\b{_REST_OF_CLAUSE}\b(?:should|must|always|never|default|important|only)\b",
        ),
    ),
    _sig(
        "our convention",
        "convention",
        True,
        r"\bour\s+(?:convention|conventions|standard|standards|style(?:\s+guide)?|rule|rules|policy|practice|"
        r"guideline|guidelines|workflow)\s+(?:is|are|says|requires)\b|\bby\s+convention\b|"
        r"\bthe\s+(?:convention|rule|policy)\s+(?:here|in\s+this\s+(?:project|repo|codebase))\s+is\b",
    ),
    _sig(
        "note that",
        "note",
        False,
        r"(?:^|\bplease\s+|\b(?:and|also|just)\s+)(?:note|(?:keep|bear)\s+in\s+mind|fyi|for\s+the\s+record|"
        r"just\s+so\s+you\s+know|for\s+reference|be\s+aware)\s*(?:that\b|:|,)|^fyi\b",
    ),
    # "Don't forget to update ai-prompts.txt with every prompt that I give you.", "don't forget to run bun format && bun
    # lint --fix && bun typecheck before marking a task as done": said to an agent that forgets, a standing request;
    # in every split 6 of the 7 prompts that open a sentence so were worth keeping, against 3 of 8 for "remember to"
    # (ADR 0146). Only when it says how often ("every", "all", "before marking a task as done"), and not when it points
    # at the thing at hand ("don't forget to multipy it here and not in DB!", "don't forget to update the changelog").
    _sig(
        "don't forget to",
        "reminder",
        True,
        _gated(
            "forget",
            rf"(?:^|\bplease\s+|\b(?:and|also|just)\s+)(?:don'?t|do\s+not)\s+forget\s+to\b"
            rf"(?!{_REST_OF_CLAUSE}\b(?:it|this|them|here)\b)"
            rf"(?={_REST_OF_CLAUSE}\b(?:every|each|all|any|whenever|(?:before|after)\s+\w+ing)\b)",
        ),
    ),
    _sig(
        "remember to",
        "reminder",
        False,
        r"(?:^|\bplease\s+|\b(?:and|also|just)\s+)remember\s+to\b|"
        r"(?:^|\bplease\s+)make\s+sure\s+(?:to|you)\b",
    ),
    # Chinese
    _sig("记住", "remember", True, r"记住"),
    _sig(
        "以后",
        "durable",
        True,
        r"(?:^|[，,；;：:\s])(?:请)?(?:你)?以后|以后(?:都|请|要|不要|别|一律|统一|记得|尽量|必须)|今后|"
        r"从现在(?:开始|起)|从今以后|往后|下次",
    ),
    _sig(
        "永远不要",
        "forbid",
        True,
        r"(?:永远|绝对|千万)(?:不要|别|不能|禁止|不允许|不许|不准)|决不|绝不|从不|严禁",
    ),
    # 禁止 (prohibit) and 不允许 (not allowed) say "do not", as 不许 and 不准 do, not "never": of the seven prompts that
    # held them in every split to held-out 161, one was a rule a reviewer might keep ("禁止修改parseTest", one named
    # function, was not; ADR 0116)
    _sig("不要", "forbid", False, r"不要(?!紧)|不许|不准|禁止|不允许|不能用|(?:^|[，,；;：:\s]|请)别(?![的人处])"),
    _sig("总是", "always", True, r"总是|始终|一律|每次都|永远(?!不|别)|一直(?:用|使用|要|都)"),
    # The language of the conversation (ADR 0115: also asked in that language's own words, "rede bitte Deutsch mit mir",
    # "réponds en français", "用中文回答", "日本語で答えて"); only verbs of talking: "write the docs in German" is a
    # task.
    # Each branch starts behind one test (a CJK character, a word's start) so that most places fail at once.
    _sig(
        "language of the conversation",  # was "用中文", a name no German or French reviewer could read
        "prefer",
        True,
        r"(?=[\u3040-\u30ff\u4e00-\u9fff])(?:"
        r"(?:对话|回答|回复|交流|沟通|聊天|说话)(?:时|的时候)?(?:请)?(?:都|一律|统一)?(?:使用|用)(?:中文|英文|英语|汉语|日语|日文)|"
        r"(?:用|使用)(?:中文|英文|英语|汉语|日语|日文)(?:来)?(?:回答|回复|交流|沟通|对话|聊天|说话)|"
        r"(?:日本語|英語)で(?:答え|回答し|返答し|返事し|話し|会話し))|"
        rf"\b(?:(?:answer|reply|respond|talk|speak|chat)\s+(?:to\s+me\s+|with\s+me\s+)?in\s+{_LANGUAGE}\b|"
        # the imperative, asked of the agent: "the app should speak German" describes the app
        rf"{_ASKED}(?:speak\s+{_LANGUAGE}\b|"
        r"(?:sprich|sprechen\s+sie|antworte|antworten\s+sie|rede)\s+(?:bitte\s+)?(?:mit\s+mir\s+)?(?:immer\s+)?"
        r"(?:(?:auf|in)\s+)?(?:deutsch|englisch)\b|"
        r"(?:réponds|répondez|parle|parlez)(?:[- ]moi)?\s+(?:toujours\s+)?en\s+(?:français|anglais)\b|"
        r"(?:responde|respóndeme|habla|háblame|contesta|contéstame)\s+(?:siempre\s+)?en\s+(?:español|inglés)\b|"
        r"(?:rispondi|rispondimi|parla|parlami)\s+(?:sempre\s+)?in\s+(?:italiano|inglese)\b|"
        r"(?:responda|responde|fale|fala)\s+(?:sempre\s+)?em\s+(?:português|inglês)\b))",
    ),
    _sig("我喜欢", "prefer", True, r"我(?:更|比较|一般)?(?:喜欢|偏好|倾向于?|习惯)"),
    _sig(
        "我们用",
        "convention",
        True,
        r"我们(?:一般|通常|都|统一|一直|只|总是)?(?:用|使用|采用|遵循|遵守)|我们的(?:规范|约定|惯例|规则|风格)|"
        r"团队(?:规范|约定)|按照(?:我们的)?(?:规范|约定)",
    ),
    _sig(
        "在这个项目",
        "convention",
        True,
        r"(?:在)?(?:这个|本|我们的?)(?:项目|仓库|代码库)(?:里|中|内)?[，,]?"
        r"(?:我们|都|统一|一律|必须|要|请|不要|别|用|使用|只|所有|禁止|默认)",
    ),
    _sig("必须", "must", False, r"必须|一定要|务必"),
    _sig("记得", "reminder", False, r"记得|别忘了|不要忘记"),
    # Japanese (ADR 0068): "remember that", "from now on", and "every time / always / without fail" in a request
    # ("その都度成果物をNotionに出力してもらえる？"); "毎回opus4が立ち上がって困る" (every time opus4 starts, annoying)
    # reports, asks nothing, and is not one.
    _sig("覚えておいて", "remember", True, r"覚えて(?:おいて|おく|といて)|記憶して(?:おいて|ください)|忘れないで"),
    _sig("今後", "durable", True, r"今後|以後|これからは|次回から|次から|今回から"),
    _sig(
        "毎回",
        "always",
        True,
        r"(?:その都度|毎回|常に|常時|必ず)(?:(?!ので|けど|けれど|(?<![てで])から)[^。！？\n]){0,60}?"
        r"(?:て(?:ください|下さい|ほしい|欲しい|もらえ|くれ)|ように|しなさい)",
    ),
    # Turkish (ADR 0093): "never" / "absolutely" / "ever again" with a verb told not to at the clause's end — "var olan
    # bir özelliği kesinlikle bozma" (absolutely do not break an existing feature), "… değiştirmemeli" (must not
    # change). The verb ends the clause (Turkish puts it last); a past "silmemeliydi" (should not have deleted) is a
    # complaint, and "kesinlikle olmasın" (let there be none) describes the data, not what the agent does. After "bir"
    # (a), a word in -ma is a noun: "kesinlikle harika bir tarama" (absolutely a great scan).
    _sig(
        "asla",
        "forbid",
        True,
        r"\b(?:asla|hiçbir\s+zaman|kesinlikle|bir\s+daha)\b[^.!?\n]{0,160}?(?<!\bbir\s)\b[a-zçğıöşü]+"
        r"(?:ma|me|mayın|meyin|mayınız|meyiniz|mamalı|memeli|mamalısın|memelisin|mayacaksın|meyeceksin)"
        r"[ \t*]*(?:[,;.!]|$)",
    ),
    # "from now on": "bundan böyle", or "bundan sonra" / "artık" with "always" — "bundan sonra" alone is as often "after
    # this" ("Bundan sonra login sayfasını yap": do the login page next)
    _sig(
        "bundan böyle",
        "durable",
        True,
        r"\bbundan\s+böyle\b|\b(?:bundan\s+sonra|artık)\s+(?:hep|her\s+zaman|daima)\b",
    ),
)

_TIME_ONE_OFF = re.compile(
    r"\b(?:right\s+now|now|yet|for\s+now|for\s+the\s+moment|at\s+the\s+moment|today|tonight|tomorrow|temporarily|"
    r"this\s+(?:time|morning|afternoon|week|sprint|round|session|pr|turn|once)|"
    r"for\s+this\s+(?:one|pr|task|change|commit|ticket|release)|"
    r"in\s+this\s+(?:pr|commit|branch|session|task|change)|"
    r"(?:when|once)\s+you(?:'re|\s+are)\s+(?:done|finished)|after\s+(?:that|this|you\s+finish)|"
    r"before\s+(?:you|we)\s+(?:continue|start|finish|move\s+on)|until\s+(?:i|we|further)|"
    r"i\s+just|we\s+just|i've\s+just|just\s+now|"
    # a time budget for this one job: "You have 30 minutes max, if you do not complete this then stop" (ADR 0054)
    r"(?:you\s+have|take|spend)\s+(?:at\s+most\s+|up\s+to\s+)?\d+\s*(?:minutes?|mins?|hours?|hrs?|seconds?)|"
    r"\d+\s*(?:minutes?|mins?|hours?|hrs?)\s+(?:max(?:imum)?|at\s+most|tops))\b"
    r"|现在|这次|这一次|暂时|今天|刚才|马上|立刻|等一下|等会|先别|先不|目前|这会儿|一会儿"
    # "完成後 commit（不要 push/tag）": when this job is done, as "when you're done" (ADR 0149)
    r"|(?:完成|做完|結束|结束)[後后]"
    r"|今回(?!から)|今日|今は|とりあえず|一旦|いったん|この(?:ファイル|関数|画面|ボタン)"  # Japanese (ADR 0068)
    r"|現状|現在の",  # "現状をメモリーに記憶しておいて": keep the state things are in now (ADR 0093)
    _I,
)
_DEIXIS = re.compile(
    r"\b(?:this|that|these|those)\s+(?:function|file|method|class|tests?|lines?|pr|branch|commit|changes?|one|"
    r"bug|issue|error|module|component|ticket|step|script|endpoint|query|loop|variable|part|section|block|"
    r"approach|solution|version|output|code|implementation|diff|migration|page|route|thing|stuff|folder|"
    r"directory|value|field|table|case|snippet|fix|edit|message|comment|import|call)"
    # "all of these steps", "those files": the plural points at the task's things as the singular does (ADR 0077)
    r"(?:e?s)?\b|"
    # "Use github mcp to look into how Roo Code does it." (held-out 116, ADR 0103), "use the /auto command to complete
    # this" (held-out 115, ADR 0104)
    r"\b(?:do|does|did|change|touch|modify|delete|remove|undo|revert|run|try|use|add|merge|push|complete|finish|"
    r"implement|handle|solve)\s+"
    r"(?:that|this|it|them|those|these)(?:\s+(?:again|as\s+well|too))?\s*[.!]*$|"
    r"\b(?:for|on|in|with|to|about|from|at)\s+(?:this|that|it|them|these|those)\s*[.!]*$|"
    r"\b(?:in|over|out|from|up|down)\s+there\b"
    r"|这(?:个|些|段|行|里|儿|块|部分)(?!项目|仓库|代码库)|那(?:个|些|段|行|里)(?!项目|仓库|代码库)",
    _I,
)
_QUESTION_START = re.compile(
    # "also ARE WE USING X CORRECTLY": a question after a joining word, with no question mark (ADR 0070)
    r"^(?:(?:also|and|but|so|ok|okay|then|btw|oh|plus|hey)\b[,\s]+)*"
    r"(?:why|what|how|where|who|which|whose|whom|(?:do|does|did|is|are|was|were|should|shall|have|has|am|"
    r"isn't|aren't|doesn't|don't|didn't|shouldn't|won't)\s+(?:you|we|i|they|it|he|she|this|that|there|these|those)\b|"
    # "can we use X instead?" proposes, it does not state a rule (even without its question mark); so does "would it
    # be possible to … and always …" (held-out 14, ADR 0063)
    r"(?:can|could|would|will|may|might|shall)\s+(?:we|i|it)\b)",
    _I,
)
# "Could you always use pnpm?" is a request phrased as a question.
_POLITE = re.compile(r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?", _I)
_COPULA = re.compile(
    r"\b(?:is|are|am|'m|runs?|lives?|uses?|has|have|needs?|requires?|expects?|listens?|sits?|contains?|"
    r"points?|belongs?|means?|takes?|goes)\b|是|在|叫|有|位于|指向|需要",
    _I,
)
_PROJECT = re.compile(
    r"\b(?:project|repo|repository|codebase|code\s*base|monorepo|tests?|testing|ci|pipeline|build|builds|"
    r"migrations?|database|db|schema|deploy(?:ment|s|ing)?|staging|production|prod|branch(?:es)?|main|"
    r"master|commits?|committing|push(?:es|ing)?|pull\s+requests?|prs?|merge|merging|release|lint(?:er|ing)?|pre-commit|"
    r"dockerfile|makefile|docker|api|endpoints?|modules?|packages?|dependenc(?:y|ies)|config|env|service|"
    r"server|fixtures?|we|our|us)\b"
    # "always use ruff here": "here" at the end, or the repo's own tools named, is this project (ADR 0054)
    # "reload the state of the figma board", "rate-limit the ingress", "the mcp tools": this setup's parts (ADR 0057)
    r"|\bthe\s+(?:[\w.-]+\s+)?(?:app|application|site|website|frontend|backend|cluster|ingress|vault|workspace)\b|\bmcps?\b"
    r"|\bhere\s*[.!]*$|\b(?:ruff|mypy|pytest|tox|nox|eslint|prettier|biome|tsc|jest|vitest|cargo|clippy|"
    r"gofmt|golangci-lint|rubocop|black|isort|flake8|pylint|pyright)\b"
    r"|(?:^|\s)[\w.-]*/[\w./-]*|\b[\w-]+\.(?:py|ts|tsx|js|jsx|go|rs|toml|json|ya?ml|md|cfg|ini|lock|sql|sh|env)\b"
    r"|项目|仓库|代码|测试|数据库|部署|分支|提交|我们|团队|接口|服务|配置|依赖|迁移|流水线",
    _I,
)
_DURABLE_SPAN = re.compile(
    rf"\bfrom\s+now\s+on\b|\b{_FORWARD}\b|\b{_IN_FUTURE}\b{_NOT_A_PLAN}|"
    rf"\bhenceforth\b|\b{_BY_DEFAULT}\b|\b(?:{WHENEVER}|every\s+time|each\s+time)\s+(?:you|we)\b|\b{_AS_YOU_GO}|"
    r"以后|今后|从现在(?:开始|起)",
    _I,
)
_SIGNAL_KINDS = {signal.name: signal.kind for signal in SIGNALS}
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)", re.MULTILINE)  # a fenced block: a command or code, named
# What turns a bare 必须 (must) into a standing rule: it holds for all, every time, in any case.
_EVERY_CASE = re.compile(r"所有|全部|一律|任何|凡是|每(?:个|次|一|条|处|当)|无论|不管|统一(?:用|使用|采用|为|成)|默认")
_PROJECT_PHRASE = re.compile(r"\b(?:this|our)\s+(?:project|repo|repository|codebase)\b", _I)
_OUTSIDE_THIS_PLACE = re.compile(r"\boutside\s+(?:of\s+)?(?:this|that)\s+(?:folder|directory)\b", _I)
# the one-off test asks these of every rule-like sentence: searched only where their words are
_GATED_DURABLE_SPAN = GatedPattern(_DURABLE_SPAN)
_GATED_TIME_ONE_OFF = GatedPattern(_TIME_ONE_OFF)
_GATED_OUTSIDE_THIS_PLACE = GatedPattern(_OUTSIDE_THIS_PLACE)

MIN_CHARS = 6
# Long sentences are pasted text, not preferences; the cap also keeps a memory small.
MAX_BYTES = 600
# Every signal above contains one of these; text without any is skipped after one
# cheap search instead of two dozen (tool output can be megabytes).
CUE = re.compile(
    r"never|always|don'?t|do\s+not|must|should|avoid|co-?author|outside|stop|remember|forget|make\s+sure|prefer|like|hate|commit|push|"
    r"dislike|stand|allergic|reserve|leave|we|our|convention|rule|policy|note|fyi|(?:keep|bear)\s+in\s+mind|record|so\s+you\s+know|"
    r"reference|mention|aware|general|now\s+on|forward|here\s+on|point\s+on|henceforth|future|next\s+time|default|time|whenever|as\s+you|"
    r"project|repo|codebase|answer|reply|respond|talk|speak|chat|periodically|regularly|allowed|permitted|mandatory|"
    r"obligatory|compulsory|non-negotiable|circumstance|off[ -]?limit|forbidden|prohibited|"
    r"(?:after|before|once|when)\s+(?:\w+ing\s+)?(?:each|every|any)\s|"
    # "run commands through" (ADR 0096) by its own words: "command" alone is in most sentences of a coding session
    r"(?:commands|scripts)\s+(?:should|must|need|have|are)|(?:commands?|scripts?|cmds)\s+(?:through|with|via|using|inside|"
    r"under)|to\s+(?:run|execute|wrap)\s+(?:all|every|any)|(?:ask|check\s+with)\s+(?:me|us)\s+(?:first\s+)?before|"
    r"记|以后|今后|从现在|往后|下次|永远|绝|千万|决不|从不|禁止|严禁|不允许|不要|不许|不准|不能用|别|总是|始终|一律|"
    r"每次|一直|喜欢|偏好|倾向|习惯|我们|团队|按照|项目|仓库|代码库|必须|一定要|务必|忘|对话|回答|回复|交流|沟通|聊天|说话|"
    r"覚え|記憶|今後|以後|これから|次回|次から|今回から|都度|毎回|常に|常時|必ず|語で|"
    r"\b(?:sprich|sprechen|antworte|antworten|rede|r[ée]ponds|r[ée]pondez|parlez?|parla(?:mi)?|resp[oó]ndeme|habla|"
    r"h[aá]blame|contesta|cont[eé]stame|rispondi(?:mi)?|fal[ae])\b|"
    r"asla|hiçbir|kesinlikle|bir\s+daha|bundan|artık",
    _I,
)

_GATED_CUE = GatedPattern(CUE)
_SIGNAL_GATES = GateTable([signal.pattern for signal in SIGNALS])  # a sentence tries only the signals it may match


@dataclass(frozen=True)
class Classification:
    """What a sentence says: its memory type, scope, the signals that fired and the primary one."""

    type: MemoryType
    scope: DurableScope
    signal: str
    signals: tuple[str, ...]
    # Names a code or UI element without generalising: a task detail unless said in 2+ sessions.
    named_one_off: bool = False
    # A kind of finding that failed on fresh data (ADR 0059): kept aside like a named one-off, proposed only when
    # said in a second session or corrected twice.
    held_back: bool = False


# "- **Never** push to main.", "__Always__ run the tests.": Markdown's bold marks around the words, not part of them
# (ADR 0145)
_EMPHASIS = re.compile(r"\*\*|(?<!\w)__|__(?!\w)")


def classify(sentence: str) -> Classification | None:
    """Classify one sentence as a durable memory, or ``None`` for chatter and one-off instructions."""
    found = examine(sentence)
    return None if found is None or found.named_one_off else found


def of_a_rules_length(sentence: str) -> bool:
    """False for a sentence :func:`examine` reads no further than its length: too short for a rule, or pasted text."""
    text = sentence.replace("\u2019", "'")
    return len(text) >= MIN_CHARS and len(text.encode("utf-8", "surrogatepass")) <= MAX_BYTES


def examine(sentence: str) -> Classification | None:
    """Like :func:`classify`, but a named one-off comes back marked instead of dropped."""
    if not of_a_rules_length(sentence):
        return None
    text = sentence.replace("\u2019", "'")
    if is_question(text):
        return None
    if "**" in text or "__" in text:
        text = _EMPHASIS.sub("", text)
    text = mask_quoted(_POLITE.sub("", text))
    lowered = text.lower() if text.isascii() else None  # what the gates read
    if not _GATED_CUE.search(text, lowered):
        return None
    may_match = _SIGNAL_GATES.open_to(lowered)
    hits = [
        signal
        for signal, may in zip(SIGNALS, may_match, strict=True)
        if may and signal.pattern.search(text) and not _idiom(signal, text)
    ]
    if not hits or _is_one_off(text) or _about_the_task_at_hand(text, hits):
        return None
    if not _durable_enough(text, hits):
        return None
    memory_type = _memory_type(text, hits)
    if memory_type == "convention" and _has_only_strong(hits, "we use") and changes_what_we_use(text):
        return None  # "We store the token in localStorage, move it to a cookie.": the state this task changes
    if memory_type == "fact" and reports_a_status(text):
        return None  # "FYI the staging server is down": how things stand today, not a fact to keep (ADR 0057)
    # where the agent may not write is a place of this machine's work on the project (ADR 0151); a name never to appear
    # in the work is kept out of this project's code and commits (ADR 0152)
    of_the_work = any(signal.name in {"write boundary", "no mention"} for signal in hits)
    scope = "project" if memory_type == "convention" or of_the_work else scope_of(text)
    memory_type = type_in_scope(memory_type, scope, prefers=_has(hits, "prefer"))
    ordered = sorted(hits, key=lambda s: (not s.strong, SIGNALS.index(s)))
    named = memory_type != "fact" and _names_a_thing(text, hits) and not _generalises(text, hits)
    held = not named and held_back(text, hits)
    return Classification(memory_type, scope, ordered[0].name, tuple(s.name for s in ordered), named, held)


# The kinds proposed at once (ADR 0059). On the 27 proposals the rounds made on held-out splits they had never
# seen, a rule with an explicit standing word addressed to the agent ("never", "always", "from now on", "in the
# future", "going forward", "remember", "we use", "I prefer", "in this repo" …) and a rule about what reaches git
# were kept 5 times of 5 (with "keep that in mind" after "we're using"), while a weak prohibition alone ("don't",
# "do not", "avoid", "stop", "should not", 不要: 2 kept of 15), an occasion marker standing in for "from now on"
# ("whenever you", "as you work", "by default": 0 of 3), the Chinese "always" with no person in the sentence
# (始终 / 总是: 0 of 3) and a bare "prefer X" (0 of 1) were mostly mistakes. Those kinds are held back: kept aside
# like named code, and proposed when the person says them in a second session or corrects the agent twice (ADR
# 0046, 0057).
_EXPLICIT_STANDING = re.compile(
    rf"\bfrom\s+now\s+on\b|\b{_FORWARD}\b|\b{FROM_HERE_ON}\b|\bhenceforth\b|"
    rf"\b(?:{_IN_FUTURE}|next\s+time)\b{_NOT_A_PLAN}|{_EVERY_REQUEST}",
    _I,
)
# 始终 / 总是 counts as addressed to the agent only with a person in the sentence: "总是用中文回复我" instructs,
# "请始终显示 Window_CraftList 窗口" specifies a window (held-out 7).
_ZH_ADDRESSED = re.compile(r"你|您|我")


# "we're using the Free Tier, keep that in mind": the person asks for what they said to be kept (ADR 0059, 0110); so
# does "(make a note in project memory of this important style guidance, plz)" (held-out 173, ADR 0119)
_KEEP_IT_IN_MIND = re.compile(
    r"\b(?:keep|bear)\s+(?:that|this|it)\s+in\s+mind\b|"
    r"\bmake\s+a\s+note\s+(?:(?:in|to)\s+(?:the\s+|your\s+|our\s+)?(?:project\s+)?memory|of\s+(?:this|that|it))\b",
    _I,
)


def held_back(text: str, hits: list[Signal]) -> bool:
    """True when no signal of a kind that held up on fresh data fired (see above), and it is not about git.

    Nor when the person says it was said before ("I told you any changes should not break the program"): the second
    time, in so many words (ADR 0062)."""
    if (is_about_git(text) and not _only_kept_aside(hits)) or says_it_was_said_before(text):
        return False
    if _KEEP_IT_IN_MIND.search(text):
        return False
    return not any(_standing(signal, text) for signal in hits)


# Kinds kept aside even when the sentence names a git word: a product's spec or this session's state names commits and
# pushes as often ("Users should always see the commit hash in the footer.", "Remember we're mid-rebase.": the
# session's second review, ADR 0166).
_KEPT_ASIDE_EVEN_ABOUT_GIT = frozenset({"a kind always", "remember we are"})


def _only_kept_aside(hits: list[Signal]) -> bool:
    return all(signal.name in _KEPT_ASIDE_EVEN_ABOUT_GIT for signal in hits)


def _standing(signal: Signal, text: str) -> bool:
    if signal.name == "we use" and _BOUND_TO_USE.search(text):
        return True  # "you should be using the subagents": how the agent is to work, not what the team does
    if signal.name in _FIRST_PERSON:
        if _PREFERS_FOR_THE_THING_AT_HAND.search(text):
            return False  # "I would prefer for this to be something that runs on command instead …" (ADR 0116)
        if signal.name == "I don't like" and dislikes_a_kind(text):
            return True  # "I dislike comments in bash source listings": a kind of thing, in general (ADR 0133)
        return _CHOOSES_AGAINST.search(text) is not None or _IN_THE_PROJECT.search(text) is not None
    if not signal.strong:
        return False
    if signal.name in _ASIDE_KINDS and signal.pattern.search(_ASIDE.sub(" ", text)) is None:
        return False  # "save as Draft (never submit)": only in an aside on the thing before it (ADR 0143)
    if signal.name == "off limits":
        return _OFF_LIMITS_STANDING.search(text) is not None
    if signal.name == "总是":
        return _ZH_ADDRESSED.search(text) is not None
    # "from now on" also fires on "whenever you", "each time you", "as you work", "by default": occasions, not a
    # standing word, unless one of the explicit ones is there too; so is "periodically" (ADR 0073)
    return signal.name not in _OCCASIONS or _EXPLICIT_STANDING.search(text) is not None


_OCCASIONS = frozenset({"from now on", "periodically", "after each"})
# An aside in parentheses after a word of the sentence, opening with "always" or "never", qualifies that thing: "The
# file format (always PNG for violation annotation compatibility)", "save as Draft (never submit)", "footer (always
# visible when …)". Of the four proposals fresh text made from such an aside, one was worth keeping (ADR 0143): held
# back like the weak kinds, proposed when said in a second session. "(for this and all later teaches, never use …)"
# opens with its own scope, and is read as before.
_ASIDE_KINDS = frozenset({"always", "never"})
_ASIDE = re.compile(r"(?<=\w)[ \t]*\((?:always|never)\b[^()\n]{0,200}\)", _I)
# What the person or the team does or likes, said once, with no word that makes it a rule for the agent: on the
# 129 proposals the rounds made on held-out splits they had never seen (held-out 11 to 144), "we use" was kept 3 times
# of 13, "I don't like" 1 of 6 and "I prefer" 1 of 4 (one rule found in all 23), against 71 of 106 for the rest
# (ADR 0110). Held back like a bare "prefer X": proposed when said in a second session or beside a standing word, or
# when it chooses against something ("we use pnpm, not npm", "prefer X over Y", "… instead of Y") or says where it
# holds ("in this repo"): the issue's own marks of a rule that generalises.
_FIRST_PERSON = frozenset({"prefer", "we use", "I prefer", "I don't like"})
_CHOOSES_AGAINST = re.compile(
    r"\b(?:instead|rather\s+than)\b|,\s*(?:and\s+|but\s+)?not\s+(?!(?:only|just|sure|yet|now)\b)\w|"
    + PREFERS_OVER.pattern,
    _I,
)
_IN_THE_PROJECT = re.compile(rf"\bin\s+{_PROJECT_PHRASE.pattern}", _I)
# What the person would like the thing at hand to be: "I would prefer for this to be something that can be run on
# command … instead of …", "I'd prefer it to …", "I prefer that this …" (held-out 161, ADR 0116)
_PREFERS_FOR_THE_THING_AT_HAND = re.compile(
    r"\bprefer\s+(?:(?:for\s+)?(?:this|it|that)\s+to\b|that\s+(?:this|it)\s+(?:is|be|was|were|would|\w+s)\b)",
    _I,
)
_BOUND_TO_USE = re.compile(_SHOULD_BE_USING, _I)


# "Use uv pip", "USE "uv pip"!", "Use `uv pip ...` not `pip ...`": a tool or way chosen with no signal word (held-out
# 19, four chats on three days). Said once it is a step of the task; it is held back like the weak kinds (ADR 0059) and
# proposed when said in a second session, the repetition the issue calls the strongest durable signal (ADR 0064).
SIGNAL_TOOL_CHOICE = "use X"
TOOL_CHOICE_CUE = re.compile(r"\buse\s", _I)
_USE_LEAD = r"^\s*(?:please\s+|pls\s+|just\s+|only\s+)?use\s+"
_TOOL_CHOICE = re.compile(
    _USE_LEAD
    + r"(?!(?:it|this|that|these|those|them|here|there|one|your|my|option|instead|the\s+(?:first|second|third|last|"
    r"same|other|above|below|following|previous|one|code|file|function)|a\s+different)\b)"
    r"[`\"'\w][^.!?\n]{0,58}?(?:\s*,?\s*(?:not|instead\s+of|rather\s+than)\s+[^.!?\n]{1,60}?)?\s*[.!]*\s*$",
    _I,
)
TOOL_CHOICE_MAX_CHARS = 120
_CODE_OR_QUOTE = re.compile(r"`[^`\n]{1,60}`|\"[^\"\n]{1,60}\"|'[^'\n]{1,60}'")


def a_tool_choice(sentence: str) -> Classification | None:
    """A bare "use X" (a tool or way chosen), held back until said in a second session (ADR 0064); else None."""
    text = sentence.replace("\u2019", "'").strip()
    if len(text) > TOOL_CHOICE_MAX_CHARS:
        return None
    named = _CODE_OR_QUOTE.sub("x", text)  # "Use `uv pip ...` not `pip ...`": what is in quotes is one name
    if not _TOOL_CHOICE.match(named) or _is_one_off(named):
        return None
    scope = scope_of(text)
    memory_type: MemoryType = "convention" if scope == "project" else "preference"
    return Classification(memory_type, scope, SIGNAL_TOOL_CHOICE, (SIGNAL_TOOL_CHOICE,), held_back=True)


# What a bare "use X" chooses: the words after "use" up to what it is for. "Use nix develop --command to develop and run
# the code." and "Use nix develop --command to wrap all commands." choose one thing in two sessions (held-out 84, ADR
# 0092), though their purposes share too few words for the wordings to count as one.
_CHOSEN = re.compile(
    _USE_LEAD + r"(.+?)"
    r"(?=\s+(?:to|for|when|whenever|in|on|with|as|so|because|instead|not|rather|and|or|if|since|while)\b|\s*[,;:(]|"
    r"\s*[.!]*\s*$)",
    _I,
)
_NOT_A_NAME = re.compile(r"[`\"'*]|\.{2,}|\u2026")


def chosen_thing(sentence: str) -> str | None:
    """What a bare "use X" chooses ("nix develop --command"), case-folded, its quotes and ellipses dropped; None when
    the sentence is no "use X"."""
    chosen = _CHOSEN.match(sentence.replace("\u2019", "'"))
    if chosen is None:
        return None
    thing = " ".join(_NOT_A_NAME.sub(" ", chosen.group(1)).split()).casefold()
    return thing or None


def names_it_before(sentence: str, found: Classification) -> bool:
    """True for a "no mention" rule whose object is a pronoun: the name it keeps out is in the sentence before."""
    return "no mention" in found.signals and _MENTION_OF_IT.search(sentence.replace("\u2019", "'")) is not None


def is_strong(signal_name: str) -> bool:
    """True for a signal that is durable by itself ("never", "always", "from now on", "总是" …)."""
    return any(signal.strong for signal in SIGNALS if signal.name == signal_name)


def scoped_by_the_whole_rule(found: Classification, whole: str) -> Classification:
    """``found`` for the rule as quoted, when the quote goes on past the sentence it was read from.

    "As you develop, run" is read alone, then quoted with the fenced ``uv venv; hatch test`` below it (ADR 0071): the
    command names this project's tools, so the rule is the project's (ADR 0152), as "run `hatch test`" in one sentence
    is; a fenced block is code as much as a backticked name."""
    if found.scope == "project" or (_FENCE.search(whole) is None and scope_of(whole) != "project"):
        return found
    prefers = any(_SIGNAL_KINDS.get(name) == "prefer" for name in found.signals)
    return replace(found, scope="project", type=type_in_scope(found.type, "project", prefers=prefers))


def type_in_scope(memory_type: MemoryType, scope: DurableScope, *, prefers: bool = False) -> MemoryType:
    """A preference filed as the project's is the project's convention, unless the person said "prefer"."""
    return "convention" if memory_type == "preference" and scope == "project" and not prefers else memory_type


def scope_of(text: str) -> DurableScope:
    """``project`` when the text names the repo, its code, files, tests, CI or tools; else ``user``."""
    return "project" if _PROJECT.search(text) or names_code(text) else "user"


def _names_a_thing(text: str, hits: list[Signal]) -> bool:
    """A named code or UI element, or a weak prohibition of one definite thing ("don't show the banner")."""
    if names_code(text):
        return True
    return not any(signal.strong for signal in hits) and forbids_a_named_thing(text)


def _generalises(text: str, hits: list[Signal]) -> bool:
    if any(s.kind in GENERALISING_KINDS or s.name in GENERALISING_NAMES for s in hits):
        return True
    # "please recall that you should not be rummaging in `claude-dev-log-diary` …": a rule about a named thing the
    # person says was given before is repeated, the mark of a durable one (held-out 204, ADR 0134)
    return makes_a_choice(text) or is_about_git(text) or says_it_was_said_before(text)


_JA_REQUEST = re.compile(r"て(?:もらえ(?:る|ます|ない)|くれ(?:る|ます|ない)|いただけ(?:る|ます|ない))か?[？?]$")


def is_question(text: str) -> bool:
    """True when the sentence asks or only leads in, so states no rule (a polite request does state one)."""
    stripped = text.rstrip()
    if _POLITE.match(stripped):
        return False
    if stripped.endswith((":", "：")):  # a lead-in ("To suppress this, run:"): what it says comes after
        return True
    if _JA_REQUEST.search(stripped):
        return False  # "…出力してもらえる？" (could you output …?): a Japanese request asks with a question mark
    if stripped.endswith(("?", "？")) or re.search(r"[吗呢][。！!]?$", stripped):
        return True
    return _QUESTION_START.match(stripped) is not None


def is_one_off(text: str) -> bool:
    """True when a time word ("now", "for now", "today") or deixis ("this file") ties the text to the task."""
    return _is_one_off(text.replace("\u2019", "'"))


def _is_one_off(text: str) -> bool:
    lowered = text.lower() if text.isascii() else None  # what the gates read
    if _GATED_DURABLE_SPAN.search(text, lowered):
        return False
    if _GATED_TIME_ONE_OFF.search(text, lowered):
        return True
    # "anything outside this folder" bounds the agent's work, it points at no thing of the task (ADR 0151)
    cut = _PROJECT_PHRASE.sub(" ", text)
    cut = _GATED_OUTSIDE_THIS_PLACE.sub(" ", cut, None if lowered is None else cut.lower())
    return _DEIXIS.search(cut) is not None


def _has_only_strong(hits: list[Signal], name: str) -> bool:
    """True when ``name`` is the only strong signal among the hits."""
    return {signal.name for signal in hits if signal.strong} == {name}


_PROGRAMS_REQUIRED = re.compile(
    r"\b(?:fields?|inputs?|parameters?|params?|arguments?|args?|columns?|attributes?|propert(?:y|ies)|options?|"
    r"headers?|keys?|values?|flags?|forms?)\s+(?:is|are)\s+(?:always\s+|absolutely\s+)?"
    r"(?:mandatory|obligatory|compulsory)\b",
    _I,
)


_PERMITS = re.compile(
    r"\b(?:nothing|none|no\s+[\w-]+)\b[^.!?;\n]{0,60}?\b(?:is|are|'s)\s+(?:\w+\s+)?off[ -]?limits?\b", _I
)
# "403: You are forbidden to …", "The bucket policy says it is forbidden to …": a server's or a document's words,
# reported (not "As I said, it is forbidden to push to main", a reminder)
_REPORTED = re.compile(
    r"\b[1-5]\d\d\s*[:-]|\b(?:policy|error|message|server|response|log|output|docs?|documentation|api)\s+(?:says?|said)\b|"
    r"\b(?:permission|access)\s+denied\b",
    _I,
)
# "X is (strictly) off limits" alone is as often the program's specification ("The forest area is off limits until the
# player finds the key"): proposed at once only with the agent named, "under … circumstances" or "forbidden to"; alone
# it waits for a second session like a weak prohibition (the review of session 34).
_OFF_LIMITS_STANDING = re.compile(
    r"\bcircumstances?\b|\b(?:forbidden|prohibited)\s+(?:to|from)\b|"
    rf"\boff[ -]?limits?\s+(?:to|for)\s+(?:{_FOR_THE_AGENT})\b",
    _I,
)


def _idiom(signal: Signal, text: str) -> bool:
    """The signal's words, but in an idiom or a description, not a standing instruction (ADR 0057)."""
    if signal.name in {"from now on", "after each"}:  # an occasion, said of the program or of the agent (ADR 0101)
        if describes_an_occasion(text) or a_things_default(text):
            return True
        return signal.pattern.search(outside_the_described_future(text)) is None  # only in a future it describes
    if signal.name == "off limits":  # "If the temperature is off limits the charger stops" supposes (ADR 0164)
        if _PERMITS.search(text) or _REPORTED.search(text):
            return True  # "Nothing is off limits, refactor anything"; "403: You are forbidden to access this resource"
        return signal.pattern.search(outside_any_condition(text)) is None
    if signal.name == "mandatory":  # "the email field is mandatory": a spec of the program, not of the work
        return _PROGRAMS_REQUIRED.search(text) is not None
    if signal.kind == "prefer":
        return picks_an_offered_option(text)
    if signal.name == "we use":  # "the linking method we use in X" points at code (ADR 0062); "ensure …, we use X"
        # asks for a behaviour (ADR 0064); "we're using X to see what …" investigates (ADR 0078)
        return we_use_qualifies_a_noun(text) or we_use_is_required(text) or we_use_to_find_out(text)
    if signal.name == "I don't like":  # "the things i don't like, let me name a few" (ADR 0077)
        return dislikes_without_an_object(text)
    if signal.name in {"never", "always"}:  # "I never said …", "you could always restart it" (ADR 0077)
        if _TITLE.search(text) and signal.pattern.search(_TITLE.sub(" ", text)) is None:
            return True  # only in a title: "… - Never Gonna Give You Up (Official Video)" (ADR 0094)
        if signal.pattern.search(outside_a_purpose_or_condition(text)) is None:
            return True  # only in "so I always know …" or "if it's always …" (ADR 0163)
        return supposes(text) or (signal.name == "never" and sets_right_what_was_said(text))
    return False


# A title in Title Case — a song's, a book's, a video's — that begins with the word: "Never Gonna Give You Up", "Always
# Look on the Bright Side". A rule is written in sentence case, or shouted in capitals ("NEVER PUSH TO MAIN").
_SMALL = r"(?:\s+(?:a|an|the|of|on|in|to|for|and|or))*"  # the words a title leaves in lower case
_TITLE = re.compile(rf"\b(?:Never|Always)(?:{_SMALL}\s+[A-Z][a-z'\u2019]+){{2,}}")


def _about_the_task_at_hand(text: str, hits: list[Signal]) -> bool:
    """A weak signal whose object or subject is the thing in front of the agent (ADR 0057).

    "DO NOT CHANGE the contents." limits this edit; "the modal should not close on a click outside" specifies
    this program; "update NOTES.md and note that …" says what to write. A strong word ("never", "always",
    "from now on") or a rule about what reaches git still makes a rule of them.
    """
    if points_back(text):
        return True
    strong = {signal.name for signal in hits if signal.strong}
    # "the page must always load the cart first": held back or not, "always" said of one thing of the program (ADR 0166)
    spoken = strong | {signal.name for signal in hits if signal.name == "a kind always"}
    if spoken and spoken <= {"always", "never", "a kind always"} and said_of_the_program(text):
        return True
    if strong == {"总是"} and zh_said_of_the_program(text):
        return True  # "此合成配方始终有效", "始终显示 Window_CraftList 窗口": the Chinese of the above (ADR 0058)
    if strong and strong <= {"always", "never"} and shows_an_element(text):
        return True  # "Always show the loading spinner while fetching": one element of the screen (ADR 0059)
    if strong and strong <= {"always", "never"} and plans_this_work(text):
        return True  # "Prepare a task list … and always test the modified script …": that plan's steps (ADR 0126)
    if strong == {"I don't like"} and dislikes_the_thing_at_hand(text):
        return True  # "I don't like the color of the header": a complaint about this artifact (ADR 0059)
    if strong == {"I prefer"} and chooses_for_a_step(text) and not _EXPLICIT_STANDING.search(text):
        return True  # "lets do gemini as well … but i would prefer the local AI first": this step's choice (ADR 0108)
    if not strong and hangs_on_an_answer(text):
        return True  # "If yes, that's a total BS and we shouldn't commit but …": this case's next step (ADR 0125)
    if (not strong or strong <= {"always", "never"}) and answers_the_person(text):
        return True  # "If I sign out on my phone it should not sign me out on my laptop": a spec (ADR 0059)
    if not strong and zh_a_things_spec(text):
        return True  # "搜索框不要占据高度": one element of the screen is the subject of 不要, a spec (ADR 0059)
    if any(signal.strong for signal in hits) or is_about_git(text):
        return False
    if binds_to_the_task(text):
        return True
    names = {signal.name for signal in hits}
    if "must not" in names and not names & {"don't", "avoid", "stop"} and describes_behaviour(text):
        return True
    return names <= {"note that", "remember to"} and is_a_note_to_write(text)


def _durable_enough(text: str, hits: list[Signal]) -> bool:
    kinds = {signal.kind for signal in hits}
    if any(signal.strong for signal in hits):
        return True
    if "note" in kinds:
        return _COPULA.search(text) is not None
    if "forbid" in kinds:
        return True
    if kinds & {"always", "remember"}:
        return True  # "Commit messages should always …", "remember we are …": kept aside until said again (ADR 0166)
    # "必须包含至少 5 个组件" is what this task needs; "所有代码命名必须用英文" covers every case (ADR 0049).
    return "must" in kinds and _EVERY_CASE.search(text) is not None


def _memory_type(text: str, hits: list[Signal]) -> MemoryType:
    if _has(hits, "forbid"):
        return "forbidden"
    if _has(hits, "convention"):
        return "convention"
    if _has(hits, "prefer"):
        return "preference"
    if _has(hits, "remember", "note") and not _has(hits, "always", "must", "durable"):
        return "fact" if _COPULA.search(text) else "preference"
    return "preference"


def _has(hits: list[Signal], *kinds: str) -> bool:
    return any(signal.kind in kinds for signal in hits)
