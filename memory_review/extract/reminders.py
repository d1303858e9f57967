"""The person reminds the agent of something said before (ADR 0065): "I told you …", "You should know this."

A reminder is the failure a memory exists to prevent, said in so many words: the person had to repeat a rule the
agent had not kept. On the seen labelled splits, 9 of the 10 prompts with such a cue were worth keeping, and the
heuristic proposed one of them (the only one with a signal word). Three forms:

- the cue leads and the rule follows: "I told you to make sure any changes would not break the program.",
  "I remind you the main directive that we rely on task-master, not in a file." — the rule is what follows;
- the cue trails: "If you had been handing this to the UI subagent like you were supposed to, …" — the sentence;
- the cue stands alone after the rule: "I'm on Ubuntu 22.04. You should know this..." — the sentence before.

What the rule says must still read as one: no question, no "now"/"this file" (:func:`.signals.is_one_off`), no
named code (a reminder about one function is the task's), not a plain task step ("I told you to fix the login bug"
reminds of a job, not a rule), and not about something the chat names ("I told you the file is in src").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory_review.extract.precision import names_code
from memory_review.extract.signals import is_one_off, is_question, scope_of
from memory_review.models import DurableScope, MemoryType

SIGNAL_REMINDER = "said before"
SIGNAL_MADE_A_RULE = "made a rule"
# Not task_at_hand's _SAID_BEFORE: that one only lets a sentence that already carries a rule skip the wait for a second
# session (ADR 0062); these patterns find where the rule is in a sentence that carries none of its own.
_I = re.IGNORECASE
# Each opening word is followed by one way of spacing only: "\s*,?\s+" split a run of spaces two ways per word, and
# sixteen "but   " before a failed match took 26 s (exponential).
_OPENING = r"^\s*(?:(?:but|and|well|again|no|ok(?:ay)?|look|so)(?:\s*,)?\s+)*"
_TOLD = r"i(?:\s+already|\s+have(?:\s+already)?|'ve(?:\s+already)?)?\s+(?:told|reminded)\s+you"
_SAID = r"(?:as|like)\s+i(?:\s+already|\s+have|'ve)?\s+(?:said|mentioned|told\s+you)(?:\s+(?:before|earlier))?"
# What "Make this a …" makes of the sentence before (ADR 0097, 0167)
_RULE_NOUNS = r"(?:rule|habit|convention|policy|guideline|principle|memory)"
REMINDER_CUE = re.compile(
    r"\b(?:told|remind|reminded|said|mentioned)\s|\bsupposed\s+to\b|\bshould\s+(?:already\s+)?know\b|how\s+many\s+times|"
    # every noun "Make this a …" takes: "Make this a habit." was hidden by the cue filters (ADR 0167)
    rf"\b{_RULE_NOUNS}\b|\bmemories\b",
    _I,
)
"""Every form below contains one of these: a turn without any is skipped after one search."""
_LEADING = re.compile(  # after an opening phrase or not: "In terms of todo, I remind you …"
    rf"{_OPENING}(?:[^,.!?\n]{{1,40}},\s*)?(?:{_TOLD}|i\s+remind\s+you|{_SAID})\s*(?:,\s*|:\s*|\bthat\s+|\bto\s+(?=\w))?(?P<rule>\S.*)$",
    _I | re.DOTALL,
)
_TRAILING = re.compile(r"\s(?:like|as)\s+you\s+(?:were|are)\s+supposed\s+to\b", _I)
_ALONE = re.compile(
    rf"{_OPENING}(?:you\s+should\s+(?:already\s+)?know\s+(?:this|that)|{_TOLD}\s+(?:this|that|so)"
    rf"(?:\s+(?:already|before|earlier))?|i\s+(?:already\s+)?said\s+(?:this|that|so)(?:\s+(?:already|before|earlier))?|"
    # "as i mentioned many times in the previous sisyphus plan.": how often and where it was said, still the cue alone
    rf"{_SAID}(?:\s+(?:many|several|multiple|a\s+few|so\s+many|\d+)\s+times)?"
    rf"(?:\s+(?:in|during)\s+(?:the|our|my)\s+(?:previous|last|earlier|other|first)\s+[\w.-]+(?:\s+[\w.-]+)?)?|"
    rf"how\s+many\s+times\s+do\s+i\s+(?:have|need)\s+to\s+(?:tell|say|ask)[^.!?\n]{{0,80}})[\s.!?\u2026]*$",
    _I,
)
# What may follow "Add this to your memory": "please", "too", "as required" (held-out 98), "for later"
_MEMORY_TAIL = (
    r"(?:\s*,?\s*(?:as\s+(?:well|required)|too|please|for\s+(?:later|the\s+future|next\s+time)))*[\s.!\u2026]*$"
)
# "Split files into separate modules when a file gets longer than 300 lines of code. Make this a rule": the person makes
# the sentence before a rule, in so many words (held-out 98, ADR 0097). Alone in its sentence, like "You should know
# this.": "make this a rule to CLAUDE.md …" is a request about a file (rule_files), "make this a rule engine" a task.
_MADE_A_RULE = re.compile(
    rf"{_OPENING}(?:please\s+)?(?:make|keep|treat|add|save|take|consider)\s+(?:this|that|it)\s+(?:as\s+)?"
    r"(?:a|an|the|our|your|my)\s+(?:(?:hard|standing|general|permanent|strict|firm|new|global|project|house)\s+)?"
    rf"{_RULE_NOUNS}"
    r"(?:\s+(?:from\s+now\s+on|going\s+forward|for\s+(?:the\s+)?future|for\s+(?:all|every)\s+[\w-]+))?"
    r"[\s.!\u2026]*$|"
    # "Add this to your memory.", "write this also to memory-bank": the person asks for the sentence before to be kept,
    # as "Add this as a memory" does (held-out 414, ADR 0167)
    # Not "keep it in memory" or "store this in memory" (data kept in RAM): "in" only with whose memory it is.
    rf"{_OPENING}(?:please\s+)?(?:also\s+)?(?:add|save|store|put|write|record)\s+(?:this|that)\s+(?:also\s+)?"
    r"(?:(?:to|into)\s+(?:(?:your|the|my|our)\s+)?|in\s+(?:your|the|my|our)\s+)"
    r"(?:(?:long[- ]term|permanent|project|persistent|disk)\s+)?memor(?:y|ies)(?:[- ]bank)?"
    rf"{_MEMORY_TAIL}|"
    # "Add this as a memory please", "Add this as memory."
    rf"{_OPENING}(?:please\s+)?(?:also\s+)?(?:add|save|keep|make)\s+(?:this|that)\s+as\s+(?:an?\s+)?memory{_MEMORY_TAIL}|"
    # "Please remember that.", "Would you remember that, or should we add these as tasks in Todo, too?": "that" is no
    # "that" before a rule but the rule said just before (held-out 213, ADR 0128)
    # "Remember this for me.", "Could you remember that for next time?": for whom or for when, still the pointer alone
    # (ADR 0142)
    rf"{_OPENING}(?:please\s+|(?:would|will|can|could)\s+you\s+)?remember\s+(?:this|that)"
    r"(?:\s+(?:from\s+now\s+on|going\s+forward|next\s+time|in\s+(?:the\s+)?future|"
    r"for\s+(?:me|us|later|(?:the\s+)?(?:future|next\s+time|next\s+session|other\s+sessions)))){0,2}"
    r"(?:\s*,?\s*please)?(?:\s*,\s*or\b[^.!\n]*)?[\s.!?\u2026]*$",
    _I,
)
# "I told you to fix the login bug": a job the agent has not done yet, not a rule it forgot; so is "I told you to copy
# Extreme Programming Explained" (held-out 216, ADR 0129). Not "send" or "download": "I told you to send me a summary
# after every task" is a rule the agent forgot.
_TASK_STEP = re.compile(
    r"^(?:to\s+)?(?:fix|add|remove|delete|change|update|rename|move|create|implement|build|write|put|set|show|hide|"
    # "do not track collateral creation as version changes! remember this.": "do not" forbids, it names no job
    r"finish|complete|do(?!\s+not\b)|run|open|close|check|look|read|try|test|refactor|replace|revert|undo|call|start|stop|"
    r"copy|paste|fetch|clone)\b",
    _I,
)
# "I told you the file is in src", "… it's broken": what "the file" or "it" is lives in the chat, not in a rule.
_REFERENT = re.compile(
    r"^(?:(?:it|it's|they|they're|that|this|these|those)\b|the\s+\w+\s+(?:is|are|was|were|has|had)\b)", _I
)
# What "Add this as a memory" may follow but is no rule: SQL, an error or a log line, a command with its flags.
_NOT_PROSE = re.compile(
    r"^(?-i:SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER)\s|\b\w*(?:Error|Exception)\s*:|"
    r"^\[?(?-i:ERROR|WARN(?:ING)?|INFO|DEBUG|FATAL|CRITICAL|Traceback)\b|"
    r"^(?:docker|npm|pnpm|yarn|pip|uv|python3?|node|npx|cargo|go|kubectl|git|make|cd|ls|curl)\s[^.!?]*\s-{1,2}\w|"
    # a line of code: "def add(a, b): …", "const x = items.map(…)"
    r"^(?-i:def|class|const|let|var|function|import|fn|func|pub|return)\s+[\w.]+\s*[(=:<{]",
    _I,
)
# A reaction to what the agent did: "OK it works.", "Great job, that worked.", "Perfect, thank you so much."
_REACTION = re.compile(
    r"^(?:ok(?:ay)?|great|nice|perfect|awesome|cool|good|excellent|thanks?|thank\s+you|yes|yay|wow)\b[\s,!.]*"
    r"(?:job\b|work\b|thanks?\b|thank\s+you\b|(?:it|that|this)(?:'s|\s+is)?\s+(?:works?|worked|working|fixed|did\s+it|"
    r"great|perfect|exactly)\b|$)",
    _I,
)
_ASKED_TO_MAKE = re.compile(r"make\b(?!\s+sure\b)", _I)
_ASKED = re.compile(r"^(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+|pls\s+|kindly\s+)?", _I)
_FACT = re.compile(r"^(?:i'?m|i\s+am|we'?re|we\s+are|my|our)\b", _I)
_NEGATED = re.compile(r"\b(?:never|don'?t|do\s+not|not\s+to|shouldn'?t|should\s+not|must\s+not|mustn'?t)\b", _I)
_MIN_WORDS = 3
MAX_CHARS = 600


@dataclass(frozen=True)
class Reminder:
    """Where the rule is: from ``rule_start`` in this sentence, or (``points_back``) the sentence before; ``signal``
    says whether the person said it was said before or made it a rule."""

    rule_start: int = 0
    points_back: bool = False
    signal: str = SIGNAL_REMINDER


def a_reminder(sentence: str) -> Reminder | None:
    """The reminder in one sentence, or ``None`` when there is none (or the rule it carries is no rule)."""
    text = sentence.replace("\u2019", "'")
    if len(text) > MAX_CHARS:
        return None  # a rule is a sentence, not a page; the cap also bounds the patterns' work
    if _ALONE.match(text):
        return Reminder(points_back=True)
    if _MADE_A_RULE.match(text):
        return Reminder(points_back=True, signal=SIGNAL_MADE_A_RULE)
    if is_question(text):
        return None
    leading = _LEADING.match(text)
    if leading is not None:
        start = leading.start("rule")
        return Reminder(rule_start=start) if is_a_rule(text[start:]) else None
    trailing = _TRAILING.search(text)
    if trailing is not None and text[: trailing.start()].strip() and is_a_rule(text):
        return Reminder()
    return None


def makes_a_rule(sentence: str) -> bool:
    """True for "Make this a rule (from now on)": its standing words are about the sentence before, not itself."""
    return _MADE_A_RULE.match(sentence.replace("\u2019", "'")) is not None


def is_a_rule(text: str) -> bool:
    """True when what a reminder points at reads as a rule: long enough, no question, task step, deixis or code."""
    stripped = text.replace("\u2019", "'").strip()
    if len(stripped.split()) < _MIN_WORDS or is_question(stripped):
        return False
    task = _ASKED.sub("", stripped)  # "Can you add a retry to the upload?" asks for a task step
    if task != stripped and _ASKED_TO_MAKE.match(task):
        return False  # "Would you make the button blue?": a task asked politely
    if _NOT_PROSE.search(stripped) or _REACTION.match(stripped):
        return False  # a query, an error or log line, a command, "OK it works." (the session's review, ADR 0167)
    return not (_TASK_STEP.match(task) or _REFERENT.match(stripped) or is_one_off(stripped) or names_code(stripped))


def rule_statement(text: str) -> str:
    """The rule as a memory says it: capitalised, without the trailing dots of a sigh."""
    stripped = text.strip().rstrip(".\u2026 ")
    stripped += "" if stripped.endswith(("!", "?")) else "."
    return stripped[:1].upper() + stripped[1:]


def kind_of(rule: str) -> tuple[MemoryType, DurableScope]:
    """A rule's memory type and scope: a fact about the person or project, a prohibition, or a convention."""
    scope = scope_of(rule)
    text = rule.replace("\u2019", "'").strip()
    if _FACT.match(text):
        return "fact", scope
    if _NEGATED.search(text):
        return "forbidden", scope
    return ("convention" if scope == "project" else "preference"), scope
