"""The default extractor: deterministic, offline, explicit signals only.

It reads what the *user* said, sentence by sentence, and keeps the sentences that state
a durable preference, convention, fact or prohibition (see :mod:`.signals`), plus
corrections the user had to repeat in two or more turns (see :mod:`.corrections`).

Text the user did not write — assistant replies, tool output, file contents, slash-command
wrappers, subagent prompts — never becomes a finding by default. With
``include_untrusted=True`` tool output and file text are read too, and every finding from
them carries the ``untrusted-source`` flag and low priority, so a prompt injection hidden
in a fetched page can be shown to the reviewer but never slips in looking like the user.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace

from memory_review.extract.corrections import Correction, find_correction
from memory_review.extract.finding import (
    FLAG_UNTRUSTED,
    MAX_QUOTE_BYTES,
    Finding,
    Redactions,
    build_finding,
    within_evidence_bytes,
)
from memory_review.extract.gates import GatedPattern
from memory_review.extract.precision import (
    command_steps,
    handoff_ranges,
    is_a_programs_default,
    is_a_role_brief,
    is_a_tools_message,
    is_about_git,
    is_corrective_half,
    is_pasted_document,
    is_task_spec,
    is_workflow_rule,
    names_code,
    points_to_a_paste,
    quoted_ranges,
    rule_after_task,
    rule_before_task,
    table_rows,
    working_rule_items,
)
from memory_review.extract.reminders import (
    REMINDER_CUE,
    SIGNAL_MADE_A_RULE,
    Reminder,
    a_reminder,
    is_a_rule,
    kind_of,
    makes_a_rule,
    rule_statement,
)
from memory_review.extract.rule_files import (
    RULE_FILE_CUE,
    RuleForAFile,
    memory_shortcut,
    names_an_instruction_file,
    rules_for_instruction_files,
)
from memory_review.extract.signals import (
    CUE,
    SIGNAL_TOOL_CHOICE,
    SIGNALS,
    TOOL_CHOICE_CUE,
    Classification,
    a_tool_choice,
    chosen_thing,
    examine,
    is_one_off,
    is_question,
    is_strong,
    names_it_before,
    of_a_rules_length,
    scope_of,
    scoped_by_the_whole_rule,
    type_in_scope,
)
from memory_review.extract.task_at_hand import FROM_HERE_ON, says_it_was_said_before
from memory_review.extract.textutil import FILE_NAME, Covered, leaders, sentence_spans, tokens, unwrapped
from memory_review.extract.transcript import UNTRUSTED_SOURCES, Transcript, Turn
from memory_review.proposal import Priority, Proposer

PROPOSER = Proposer(kind="heuristic", name="memory-review-heuristic")
SIGNAL_REPEATED = "repeated correction"
SIGNAL_SESSIONS = "repeated across sessions"
SIGNAL_RULE_FILE = "for an instruction file"
SIGNAL_MEMORY_NOTE = "# memory note"
SIGNAL_WORKING_RULE = "working rule"
MIN_REPEATS = 2
MIN_SESSIONS = 2
SAME_RULE = 0.6  # token overlap at which two wordings are the same instruction
MAX_EVIDENCE = 3  # quotes of a repeated correction: its turns in one session say the same thing
_MAYBE_CORRECTION = re.compile(
    r"\b(?:no|nope|nah|wrong|actually|again|said|told|instead|rather)\b|不对|不是|错了|说了|说过",
    re.IGNORECASE,
)
# A reason given right after a rule belongs to it: "Never mock the DB. It hid a bug."
_REASON = re.compile(
    r"^(?:because|since|otherwise|that's\s+why|it\s+(?:hid|broke|caused|masks?)|因为|否则)",
    re.IGNORECASE,
)


# Some word a turn must hold to be read sentence by sentence: a megabyte pasted log holds none, and each cue's whole
# search of it cost a second
_CUES = tuple(GatedPattern(cue) for cue in (CUE, _MAYBE_CORRECTION, TOOL_CHOICE_CUE, REMINDER_CUE))
_RULE_FILE_CUE = GatedPattern(RULE_FILE_CUE)


# A sentence that is only a durable marker: "OK, going forward.", "From now on:", "In future," (ADR 0057).
_MARKER_ONLY = re.compile(
    r"^(?:(?:ok(?:ay)?|so|and|also|alright|right|yes|please|btw)\b[,.!\s]*)*"
    r"(?:from\s+now\s+on|going\s+forward|moving\s+forward|in\s+(?:the\s+)?future|next\s+time|henceforth|"
    rf"{FROM_HERE_ON}|以后|今后|从现在(?:开始|起))\s*[.!:,;\u2014\u2013-]*$",
    re.IGNORECASE,
)


# The "I prefer" signal's own pattern: a pasted brief's sentences are examined only where it can fire
_I_PREFER = next(signal.pattern for signal in SIGNALS if signal.name == "I prefer")
_INSTEAD = re.compile(r"\b(?:instead|rather)\b|改用|换成", re.IGNORECASE)


@dataclass(frozen=True)
class _Said:
    turn: Turn
    start: int
    end: int

    @property
    def text(self) -> str:
        return self.turn.text[self.start : self.end]


def extract(transcript: Transcript, *, include_untrusted: bool = False) -> list[Finding]:
    """Every finding in the transcript, in turn order (repeated corrections last)."""
    findings: list[Finding] = []
    corrections: list[tuple[_Said, Correction]] = []
    named: list[tuple[_Said, Classification]] = []
    redactions = Redactions()  # the run's: a quote is its statement, a turn's findings share a rationale
    for turn in transcript.turns:
        trusted = turn.is_user_speaking
        if not trusted and not (include_untrusted and turn.source in UNTRUSTED_SOURCES):
            continue
        scan = _scan_turn(turn, trusted=trusted)
        made: dict[tuple[str, Classification], Finding] = {}  # a wording said again in the turn: the same finding
        for said, found in scan.statements:
            if (said.text, found) not in made:
                made[said.text, found] = _finding(transcript, said, found, trusted=trusted, redactions=redactions)
            findings.append(made[said.text, found])
        findings.extend(
            _reminder_finding(transcript, quote, rule, signal, redactions) for quote, rule, signal in scan.reminders
        )
        if trusted:  # only the user's own words can add up to a preference
            corrections.extend(scan.corrections)
            named.extend(scan.named)
    findings.extend(_repeated(transcript, corrections))
    findings.extend(_repeated_across_sessions(transcript, named))
    return findings


@dataclass
class _Scan:
    statements: list[tuple[_Said, Classification]]
    corrections: list[tuple[_Said, Correction]]
    named: list[tuple[_Said, Classification]]
    reminders: list[tuple[_Said, str, str]] = field(default_factory=list)  # the quote, the rule, and which cue
    _looked_at: tuple[int, int] = (0, 0)
    _reach: int = -1
    _classified: dict[str, Classification | None] = field(default_factory=dict)

    def classify(self, sentence: str, *, trusted: bool) -> Classification | None:
        """What ``sentence`` states, read once a wording: a message that says one rule thousands of times reads it
        once. The scan is of one turn, so ``trusted`` is the same for every sentence."""
        if sentence not in self._classified:
            found = examine(sentence) or (a_tool_choice(sentence) if trusted else None)
            self._classified[sentence] = found
        return self._classified[sentence]

    def reach(self) -> int:
        """The furthest end of a statement or named instruction found so far, each looked at once (ADR 0075)."""
        statements, named = self._looked_at
        for said, _ in (*self.statements[statements:], *self.named[named:]):
            self._reach = max(self._reach, said.end)
        self._looked_at = (len(self.statements), len(self.named))
        return self._reach


def _scan_turn(turn: Turn, *, trusted: bool = True) -> _Scan:
    scan = _Scan([], [], [])
    lowered = turn.text.lower() if turn.text.isascii() else None  # what the cues' gates read
    written = list(rules_for_instruction_files(turn.text)) if _RULE_FILE_CUE.search(turn.text, lowered) else []
    if trusted and (note := _memory_note(turn.text)) is not None:
        written.append(note)
    if not written and not any(cue.search(turn.text, lowered) for cue in _CUES):
        return scan
    if is_pasted_document(turn.text):  # a plan or a README pasted in is not an instruction
        return _rules_of_a_paste(turn, scan) if trusted else scan
    if is_a_tools_message(turn.text):  # Cursor's own plan hand-off in the person's slot (ADR 0059)
        return scan
    if is_a_role_brief(turn.text):  # "You are a … Your mission is …": a prompt pasted in for one task (ADR 0063)
        return scan
    for item in written:  # "add to CLAUDE.md: never push to main": the person has made it a rule (ADR 0058)
        signal = SIGNAL_MEMORY_NOTE if item.shortcut else SIGNAL_RULE_FILE
        found = Classification(item.type, item.scope, signal, (signal,))
        scan.statements.append((_Said(turn, item.start, item.end), found))
    spans = list(sentence_spans(unwrapped(turn.text)))
    tables = table_rows(turn.text) if trusted else []  # tool output's aligned lines are shown flagged, as they are
    quoted = Covered(quoted_ranges(turn.text) + command_steps(turn.text) + tables + handoff_ranges(turn.text))
    taken = Covered([(item.start, item.end) for item in written])
    spec = is_task_spec(turn.text)
    joined = -1  # the sentence a bare marker before it took in, or a rule as its other half
    for position, (start, end) in enumerate(spans):
        if position == joined:
            continue
        if quoted.covers(start, end):
            continue  # inside a quoted passage (a novel's dialogue, someone's words), a command's step (ADR 0075)
            # or a row of a table pasted as text (ADR 0092)
        if taken.overlaps(start, end):
            continue  # the rule for the instruction file, or the request that carries it: proposed above
        said = _Said(turn, start, end)
        if _MARKER_ONLY.match(said.text):
            # "OK, going forward. Let's always pick the cleanest design.": the marker alone says nothing; the
            # rule is the marker with the sentence it introduces, or nothing (ADR 0057)
            if position + 1 >= len(spans) or is_one_off(turn.text[spans[position + 1][0] : spans[position + 1][1]]):
                continue  # nothing after it, or this task's next step ("Going forward. Fix the bug now.")
            said = _Said(turn, start, spans[position + 1][1])
            joined = position + 1
        # a bare "use X" waits for a second session (ADR 0064); in text the user did not write (docs, tool output)
        # it is everywhere and never the person's choice
        # "Make this a rule from now on": the standing words point back, at the rule (ADR 0097)
        pointer = trusted and makes_a_rule(said.text)
        read = _without_the_colon_to_its_command(said)
        classification = None if pointer else scan.classify(read, trusted=trusted)
        if (
            classification is None
            and position
            and trusted
            and (named := _with_the_file_named(said, spans[position - 1], scan))
        ):
            said, classification = named
        if (
            classification is not None
            and spec
            and not _holds_beyond_the_spec(said.text, classification)
            and not (classification.held_back and trusted)  # a weak rule in a brief waits for a second session (0069)
        ):
            continue
        if classification is None and (rule := _rule_beside_the_task(said)) is not None:
            said, classification = rule
        if classification is not None and (after := _rule_after_the_dash(said)) is not None:
            said, classification = after
        if classification is not None and names_it_before(said.text, classification):
            # "Remember not to include any mention of that": read with the sentence that names it, or not at all
            with_it = _with_the_sentence_before(said, spans[position - 1] if position else None, scan)
            if with_it is None:
                continue
            said = with_it
        if classification is not None and points_to_a_paste(said.text):
            continue  # the rule is in a paste the history kept only as a placeholder
        if classification is not None and is_a_programs_default(said.text, turn.text):
            continue  # "By default, buffer X. Make this configurable.": a spec of the code, not a rule
        if classification is not None:
            whole = _with_command(_with_tail(turn, spans, position, said, classification))
            if whole.end > said.end:  # "Use the logger instead." is this rule's other half, no correction of its own
                joined = position + 1
                classification = scoped_by_the_whole_rule(classification, whole.text)
            # named code, and the kinds that failed on fresh data, wait for a second session (ADR 0046, 0057, 0059);
            # text the user did not write is shown flagged as it is, since it is there to be seen, not kept
            aside = classification.named_one_off or (classification.held_back and trusted)
            (scan.named if aside else scan.statements).append((whole, classification))
        # "I told you …", "You should know this.": the person repeating a rule the agent did not keep (ADR 0065)
        reminder = a_reminder(said.text) if classification is None and trusted else None
        reminded = _reminded(said, reminder, spans[position - 1] if position else None, scan) if reminder else None
        if reminded is not None:
            scan.reminders.append(reminded)
            continue
        if (classification is None or _a_thing_not_code(said, classification)) and (
            correction := find_correction(said.text)
        ) is not None:
            scan.corrections.append((said, correction))
    return scan


# "Did you add that prompt to my ai-prompts.txt? You should always add my prompts to that file.": "that file" is the
# one the sentence before names (held-out 53 and 69, ADR 0087)
_THAT_FILE = re.compile(r"\b(?:this|that|the\s+same)\s+file\b", re.IGNORECASE)


def _with_the_file_named(said: _Said, before: tuple[int, int], scan: _Scan) -> tuple[_Said, Classification] | None:
    """A rule about "that file", read with the one file the sentence before names: both sentences are its quote."""
    if not _THAT_FILE.search(said.text) or (both := _with_the_sentence_before(said, before, scan)) is None:
        return None
    names = {found.group() for found in FILE_NAME.finditer(said.turn.text, before[0], before[1])}
    if len(names) != 1:
        return None  # no file named, or several
    found = examine(_THAT_FILE.sub(names.pop(), said.text))
    if found is None or found.named_one_off or found.held_back:
        return None
    return both, found


def _with_the_sentence_before(said: _Said, before: tuple[int, int] | None, scan: _Scan) -> _Said | None:
    """The rule with the sentence before it as one quote, when there is one, the quote would not be cut before the rule,
    and that sentence is no finding of its own (ADR 0087, 0102)."""
    if before is None or scan.reach() > before[0]:
        return None
    if len(said.turn.text[before[0] : said.end].encode("utf-8", "surrogatepass")) > MAX_QUOTE_BYTES:
        return None
    return _Said(said.turn, before[0], said.end)


def _rules_of_a_paste(turn: Turn, scan: _Scan) -> _Scan:
    """The person's own rules in a brief they paste again and again, held back until a second session says them too.

    Three kinds: "Do not commit or push to GitHub." in the brief pasted for each task, how they work with git (ADR
    0086); "I prefer XDG-style ~/.config paths over ~/Library/Application Support." in the hand-off that opens each
    thread, their own preference in the first person; and the items under the brief's "Working Rules" heading (ADR
    0089). The rest of the brief is that task's."""
    items = working_rule_items(turn.text)
    git = is_about_git(turn.text)
    prefers = _I_PREFER.search(turn.text.replace("\u2019", "'")) is not None
    if not items and not git and not prefers:
        return scan
    quoted = Covered(quoted_ranges(turn.text) + handoff_ranges(turn.text))  # made once: a brief is long
    scan.named.extend(_working_rules(turn, items, quoted))
    if not git and not prefers:
        return scan
    for start, end in sentence_spans(unwrapped(turn.text)):
        said = _Said(turn, start, end)
        if not of_a_rules_length(said.text):
            continue  # what examine would not read: a pasted line of thousands of characters
        about_git = git and is_about_git(said.text)
        if not about_git and _I_PREFER.search(said.text.replace("\u2019", "'")) is None:
            continue  # most of a brief: its task, read no further
        if quoted.covers(start, end) or is_one_off(said.text):
            continue
        found = examine(said.text)
        if found is not None and ((about_git and found.type == "forbidden") or "I prefer" in found.signals):
            scan.named.append((said, found))
    return scan


def _working_rules(turn: Turn, items: list[tuple[int, int]], quoted: Covered) -> list[tuple[_Said, Classification]]:
    """The items under a "## Working Rules" heading of a pasted brief, each a rule of the person's way of working,
    held back like a weak kind until a second session's brief says it again (ADR 0089)."""
    rules = []
    for start, end in items:
        said = _Said(turn, start, end)
        if quoted.overlaps(start, end) or is_one_off(said.text) or is_question(said.text):
            continue  # someone else's rules quoted ("my colleague wrote: …"), or this task's step
        memory_type, scope = kind_of(said.text)
        found = Classification(memory_type, scope, SIGNAL_WORKING_RULE, (SIGNAL_WORKING_RULE,), held_back=True)
        rules.append((said, found))
    return rules


def _memory_note(text: str) -> RuleForAFile | None:
    """ "#always run the linter": typed to be saved as a memory (ADR 0070); a one-line heading over this task ("# Fix
    the login bug now") is none."""
    note = memory_shortcut(text)
    return None if note is None or is_one_off(text[note.start : note.end]) else note


def _reminded(
    said: _Said, reminder: Reminder, before: tuple[int, int] | None, scan: _Scan
) -> tuple[_Said, str, str] | None:
    """The quote, the rule and the cue of a reminder: the rest of its sentence, or (a cue alone) the sentence before."""
    if not reminder.points_back:
        return said, rule_statement(said.text[reminder.rule_start :]), reminder.signal
    if before is None:
        return None  # nothing before it in this message
    if scan.reach() > before[0] and not (reminder.signal == SIGNAL_MADE_A_RULE and _only_held_back(scan, before)):
        return None  # that sentence is already a finding of its own
    rule = said.turn.text[before[0] : before[1]]
    if not is_a_rule(rule):
        return None
    return _Said(said.turn, before[0], said.end), rule_statement(rule), reminder.signal


def _only_held_back(scan: _Scan, before: tuple[int, int]) -> bool:
    """True when the sentence before was only held back ("Use pnpm." waits for a second session): "Make it a rule."
    after it is the person's word that it is a rule now. Statements come in the message's order, so the last one
    tells whether any reaches that far."""
    return not scan.statements or scan.statements[-1][0].end <= before[0]


def _a_thing_not_code(said: _Said, found: Classification) -> bool:
    """ "No, don't mock the database." names a thing, not code: said again in the session it is a correction.

    A kind held back (ADR 0059) is one too: "No, don't stub the client." corrected twice is a rule.
    """
    return (found.named_one_off and not names_code(said.text)) or found.held_back


def _holds_beyond_the_spec(sentence: str, found: Classification) -> bool:
    """In a task spec only a strong rule ("always", "never", "in this repo") or a git habit stands beyond the job."""
    if is_workflow_rule(sentence):
        return True
    # "For the aim fix, prefer X over Y" chooses for this job; "never", "from now on" and a strong rule about the
    # project reach past it. A personal "always" ("Always run the tests before you finish.") is a preference and stays
    # the job's: letting it stand added 8 proposals on the labelled splits, 4 of them not worth keeping (session 17).
    return is_strong(found.signal) and found.type != "preference"


def _rule_beside_the_task(said: _Said) -> tuple[_Said, Classification] | None:
    """The rule in "We should NEVER do X, please remove that.": the part before the task clause, if strong; or in
    "Plan these tests, remember I don't like to use mocks.": the part after the reminder word (ADR 0082)."""
    end = rule_before_task(said.text)
    start = rule_after_task(said.text) if end is None else None
    if end is None and start is None:
        return None
    rule = _Said(said.turn, said.start + (start or 0), said.start + end if end is not None else said.end)
    found = examine(rule.text)
    if found is not None and start is not None:
        found = replace(found, held_back=False)  # "remember I don't like …" asks for it to be kept (ADR 0110)
    if found is None or found.named_one_off or found.held_back:
        return None
    if not is_strong(found.signal) and not says_it_was_said_before(rule.text):
        return None  # a weak word is a rule here only when the person says it was given before (ADR 0134)
    return rule, found


# "Then, add methodologies, workflows and conventions to claude.md - we are using Test Driven Development.": the request
# before the dash is this task's, the rule is what follows it (held-out 128, ADR 0107). A few words before the dash are
# the rule's own ("Local commit only — do not push."): a request is longer.
_SPACED_DASH = re.compile(r"\s[-\u2013\u2014]{1,2}\s")
_REQUEST_WORDS = 5
_POINTS_AT_IT = re.compile(r"\b(?:this|that|it|these|those)\b", re.IGNORECASE)


def _rule_after_the_dash(said: _Said) -> tuple[_Said, Classification] | None:
    """The rule after a spaced dash, when the words before it are a request of their own (no rule in them) and the
    words after are a rule that does not point back at it ("… -- I'd like you to do this for all future sessions")."""
    dashes = list(_SPACED_DASH.finditer(said.text))
    if len(dashes) != 1:
        return None
    before = said.text[: dashes[0].start()]
    if len(before.split()) < _REQUEST_WORDS or examine(before) is not None:
        return None
    rule = _Said(said.turn, said.start + dashes[0].end(), said.end)
    if _POINTS_AT_IT.search(rule.text):
        return None
    found = examine(rule.text)
    if found is None or found.named_one_off:
        return None
    if found.held_back and names_an_instruction_file(before):
        found = replace(found, held_back=False)  # the request says where the rule goes: it is one (ADR 0110)
    return rule, found


def _with_tail(turn: Turn, spans: list[tuple[int, int]], position: int, said: _Said, found: Classification) -> _Said:
    """The rule with what belongs to it in the same line: its reason, or the "do Y instead" half."""
    if position + 1 >= len(spans):
        return said
    next_start, next_end = spans[position + 1]
    between = turn.text[said.end : next_start]
    following = turn.text[next_start:next_end]
    belongs = _REASON.match(following) or (found.type == "forbidden" and is_corrective_half(following))
    if not belongs:
        return said
    # "Don't use print.\nUse the logger instead.": the other half may sit on the next line when it says "instead"
    # (ADR 0057); a list item on the next line is a rule of its own
    if "\n" in between and not (between.count("\n") == 1 and not between.strip() and _INSTEAD.search(following)):
        return said
    if len(turn.text[said.start : next_end].encode("utf-8", "surrogatepass")) > MAX_QUOTE_BYTES:
        return said
    return _Said(turn, said.start, next_end)


# "As you develop, run\n\n```\nuv venv; hatch test\n```": the rule ends where its command begins, in the fenced block
# on the lines below it, which the sentences skip (ADR 0071)
_LEADS_TO_A_COMMAND = re.compile(r"\b(?:run|use|execute|call|type|do):?$", re.IGNORECASE)
_FENCED_BLOCK = re.compile(r"[ \t]*\n(?:[ \t]*\n)*[ \t]*(```|~~~)[^\n]*\n.*?\n[ \t]*\1[ \t]*(?=\n|$)", re.DOTALL)


def _command_below(said: _Said) -> re.Match[str] | None:
    """The fenced block on the lines right below a sentence that leads to a command, if there is one."""
    if not _LEADS_TO_A_COMMAND.search(said.text):
        return None
    text = said.turn.text
    return _FENCED_BLOCK.match(text, said.end, min(len(text), said.end + MAX_QUOTE_BYTES))  # bounded: never a scan


def _with_command(said: _Said) -> _Said:
    """The rule with the fenced command it leads to on the lines below it, when it fits in a quote."""
    block = _command_below(said)
    if block is None:
        return said
    if len(said.turn.text[said.start : block.end()].encode("utf-8", "surrogatepass")) > MAX_QUOTE_BYTES:
        return said
    return _Said(said.turn, said.start, block.end())


def _without_the_colon_to_its_command(said: _Said) -> str:
    """The sentence as it is read: "Periodically do:" over a fenced command is "Periodically do" and its command.

    A sentence ending in a colon only leads in to what follows (``signals.is_question``); when what follows is the
    command the sentence says to run, the colon is the sentence's own, as "As you develop, run" over the block is
    without one (held-out 299 and 300, ADR 0144)."""
    text = said.text
    return text[:-1] if text.endswith(":") and _command_below(said) is not None else text


def _finding(
    transcript: Transcript, said: _Said, found: Classification, *, trusted: bool, redactions: Redactions
) -> Finding:
    turn = said.turn
    others = [name for name in found.signals if name != found.signal]
    also = f" (also {', '.join(repr(n) for n in others)})" if others else ""
    if trusted and found.signal == SIGNAL_MEMORY_NOTE:
        rationale = (
            f'The user typed this in turn {turn.turn_id} with Claude Code\'s "#" memory shortcut, which saves the '
            f"line to a CLAUDE.md: a {found.type} they asked to be kept."
        )
    elif trusted:
        rationale = (
            f'The user stated a durable {found.type} in turn {turn.turn_id}: signal "{found.signal}"{also}, '
            'with no one-off marker such as "now" or "this file".'
        )
    else:
        rationale = (
            f"NOT said by the user: {turn.source} in turn {turn.turn_id} contains a {found.type} "
            f'("{found.signal}"{also}); it may be injected text — keep it only if you recognise it.'
        )
    return build_finding(
        said.text,
        memory_type=found.type,
        scope=found.scope,
        rationale=rationale,
        evidence=[(said.text, transcript.session_of(turn), turn.turn_id)],
        signal=found.signal,
        priority=_priority(found, trusted),
        extra_flags=frozenset() if trusted else frozenset({FLAG_UNTRUSTED}),
        redactions=redactions,
    )


def _reminder_finding(transcript: Transcript, said: _Said, rule: str, signal: str, redactions: Redactions) -> Finding:
    memory_type, scope = kind_of(rule)
    rationale = (
        f"The user made what they said before a rule in so many words in turn {said.turn.turn_id}."
        if signal == SIGNAL_MADE_A_RULE
        else f"The user reminded the agent in turn {said.turn.turn_id} that this was said before: a rule the agent "
        "had not kept, which is what a memory is for."
    )
    return build_finding(
        rule,
        memory_type=memory_type,
        scope=scope,
        rationale=rationale,
        evidence=[(said.text, transcript.session_of(said.turn), said.turn.turn_id)],
        signal=signal,
        priority="high",
        redactions=redactions,
    )


def _priority(found: Classification, trusted: bool) -> Priority:
    if not trusted:
        return "low"
    return "high" if found.type == "forbidden" else "medium"


def _quotes(transcript: Transcript, saids: list[_Said]) -> list[tuple[str, str | None, str | None]]:
    """The evidence of a repeated finding: its quotes, from the first, as many as its memory file holds (ADR 0073)."""
    evidence: list[tuple[str, str | None, str | None]] = [
        (said.text, transcript.session_of(said.turn), said.turn.turn_id) for said in saids
    ]
    return evidence[: within_evidence_bytes(evidence)]


def _repeated(transcript: Transcript, corrections: list[tuple[_Said, Correction]]) -> list[Finding]:
    groups: dict[str, list[tuple[_Said, Correction]]] = defaultdict(list)
    for said, correction in corrections:
        groups[correction.key].append((said, correction))
    findings = []
    for items in groups.values():
        first_per_turn: dict[str, tuple[_Said, Correction]] = {}
        for said, correction in items:
            first_per_turn.setdefault(said.turn.turn_id, (said, correction))
        distinct = list(first_per_turn.values())
        if len(distinct) >= MIN_REPEATS:
            findings.append(_repeated_finding(transcript, distinct))
    return findings


def _repeated_finding(transcript: Transcript, items: list[tuple[_Said, Correction]]) -> Finding:
    first = items[0][1]
    statement = first.phrase[:1].upper() + first.phrase[1:]
    scope = scope_of(statement)
    memory_type = type_in_scope("forbidden" if first.negative else "preference", scope)
    turns = ", ".join(said.turn.turn_id for said, _ in items)
    return build_finding(
        statement,
        memory_type=memory_type,
        scope=scope,
        rationale=f'The user corrected the agent the same way in {len(items)} turns ({turns}): "{first.phrase}".',
        evidence=_quotes(transcript, [said for said, _ in items[:MAX_EVIDENCE]]),
        signal=SIGNAL_REPEATED,
        priority="high",
    )


def _repeated_across_sessions(transcript: Transcript, named: list[tuple[_Said, Classification]]) -> list[Finding]:
    """A named instruction, or one of a kind held back, said again in another session is the user's rule."""
    grouped: dict[int, list[tuple[_Said, Classification]]] = {}  # by the index of the group's first wording
    chosen: dict[str, int] = {}  # a bare "use X" by what it chooses: the group of the first that chose it (ADR 0092)
    for item, leader in zip(named, leaders([tokens(said.text) for said, _ in named], SAME_RULE), strict=True):
        said, found = item
        if found.signal == SIGNAL_TOOL_CHOICE and (thing := chosen_thing(said.text)) is not None:
            leader = chosen.setdefault(thing, leader)
        grouped.setdefault(leader, []).append(item)
    groups = list(grouped.values())
    findings = []
    whole: dict[str, str] = {}  # each turn's message, made once: a long message holds thousands of sentences
    for group in groups:
        first_per_session: dict[str, tuple[_Said, Classification]] = {}
        messages: set[str] = set()
        for said, found in group:
            message = whole.get(said.turn.turn_id)
            if message is None:
                message = whole[said.turn.turn_id] = " ".join(said.turn.text.split()).casefold()
            if _resent(found, message, messages) and transcript.session_of(said.turn) not in first_per_session:
                continue
            messages.add(message)
            first_per_session.setdefault(transcript.session_of(said.turn), (said, found))
        if len(first_per_session) >= MIN_SESSIONS:
            findings.append(_sessions_finding(transcript, list(first_per_session.values())))
    return findings


# A bare "use X" and a brief's working rule: a re-sent message (a retry in a new chat) is not a second occasion
_COUNTED_ONCE_WHEN_RESENT = frozenset({SIGNAL_TOOL_CHOICE, SIGNAL_WORKING_RULE})


def _resent(found: Classification, message: str, messages: set[str]) -> bool:
    """A bare "use X" sent again as the same whole message in a new chat: a re-send, not a second occasion.

    Held-out 8's "Use the MCP integration patterns for enhanced development" opened two chats a minute apart (ADR
    0064). The kinds with a signal word keep counting a re-sent message, as they were measured to (held-out 2).
    """
    return found.signal in _COUNTED_ONCE_WHEN_RESENT and message in messages


def _what_waited(found: Classification) -> str:
    """Why a rule said once was kept aside, as the rationale names it."""
    if found.named_one_off:
        return "about named code"
    if found.signal == SIGNAL_WORKING_RULE:
        return "among a brief's working rules"
    return "with no standing word" if found.held_back else "inside a pasted brief"


def _sessions_finding(transcript: Transcript, items: list[tuple[_Said, Classification]]) -> Finding:
    said, found = items[0]
    sessions = ", ".join(transcript.session_of(s.turn) for s, _ in items)
    what = _what_waited(found)
    statement = " ".join(said.text.split())  # a brief's item may run on to an indented line; the quote keeps it
    return build_finding(
        statement,
        memory_type=found.type,
        scope="project" if found.named_one_off else found.scope,  # named code is this project's
        rationale=(
            f"The user gave the same instruction {what} in {len(items)} sessions "
            f'({sessions}): "{statement}". Said once it would be a task detail; repeated, it is a rule.'
        ),
        evidence=_quotes(transcript, [s for s, _ in items]),  # one a session (ADR 0073)
        signal=SIGNAL_SESSIONS,
        priority="high",
    )
