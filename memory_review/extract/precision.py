"""What keeps the heuristic picky (ADR 0033): named one-offs, pasted documents, quoted text, whole rules.

* **Named one-offs.** "Don't modify `parse_config`", "don't replace the orders cache" are about a
  thing in the task at hand. A sentence that names a code element (an identifier in backticks,
  a call ``f()``, a ``snake_case``/``camelCase`` name, a file such as ``app.py``, or "the X
  function / button / cache / chart …") is a memory only when it also *generalises*: a signal
  of the strong kinds (always, never, from now on, in this repo, we use, prefer, 以后, 总是 …)
  or "X over / rather than / instead of Y". Otherwise it is kept aside, and it becomes a memory
  only if the user says it again in another session.
* **Pasted documents.** A long, structured user turn (headings, lists, tables, code: an
  architect's plan, a README, a spec) is material the user brought, not what they asked for.
* **Quoted text.** Words inside double quotes are someone else's ("the docs say "never …"").
* **Whole rules.** "Don't X. Use Y instead." is one rule: the corrective half right after a
  prohibition, in the same line, belongs to it.
* **A program's default** (ADR 0049). "By default, buffer the output. Make this configurable." specifies
  what the code should do by default, in a message that says it can be changed; "by default" there is
  no standing instruction to the agent.
* **A rule with the task tacked on** (ADR 0044). "We should NEVER set the timestamps by hand, please
  remove that." states a rule and then asks for this one fix; the fix points at the thing in front of
  the agent ("that"), which alone would make the sentence a one-off. The rule before the task clause
  stands on its own when a strong signal carries it.
"""

from __future__ import annotations

import functools
import re

from memory_review.extract.textutil import line_spans

_I = re.IGNORECASE
_ELEMENT = (
    r"function|method|class|module|file|button|cache|chart|graph|component|modal|dialog|page|screen|"
    r"view|tab|menu|panel|widget|field|column|table|endpoint|route|handler|hook|test|fixture|variable|"
    r"constant|prop|param(?:eter)?|argument|query|script|job|model|schema|struct|enum|type|"
    r"interface|helper|util|decorator|loop|flag|option|setting|label|icon|form|input|link|header|footer"
)
# The extensions of a source file, as a regular expression's alternatives
SOURCE_EXTENSIONS = (
    r"py|pyi|ts|tsx|js|jsx|mjs|go|rs|rb|java|kt|swift|c|cc|cpp|h|hpp|cs|php|vue|svelte|css|scss|html|sql|sh|toml|ya?ml|"
    r"json"
)
# A specific thing of the code: in backticks, a call, an identifier shaped like code, a named
# file, or "the <name> <element>" ("the orders cache", "the Save button").
CODE_NAME = re.compile(
    r"`[^`\n]{1,80}`"
    r"|(?<![.\w])[A-Za-z_][\w.]*\(\)"
    r"|\b[a-z][a-z0-9]*_[a-z0-9_]+\b"
    r"|\b[a-z]+[A-Z][A-Za-z0-9]*\b"
    r"|\b(?:[A-Z][a-z0-9]+){3,}\b"
    rf"|\b[\w-]+\.(?:{SOURCE_EXTENSIONS}|ini|cfg)\b"
    rf"|\bthe\s+(?!(?:same|whole|entire|other|new|old|next|last|first|main|right|wrong)\b)"
    rf"\w[\w.-]*(?:\s+\w[\w.-]*)?\s+(?:{_ELEMENT})s?\b"
    r"|(?:这个|那个)\S{0,12}(?:函数|方法|类|文件|按钮|缓存|图表|组件|页面|接口|字段)",
)
# "Prefer X over Y", "X rather than Y", "use X instead of Y": a choice between kinds of thing.
_CHOICE = re.compile(
    r"\b(?:over|rather\s+than|instead(?:\s+of)?)\b|[,;\u2014\u2013]\s*(?:use|prefer)\b|\s-\s(?:use|prefer)\b|而不是|代替|取代|改用",
    _I,
)
# Signal kinds that generalise a rule beyond the task at hand (see signals.SIGNALS).
GENERALISING_KINDS = frozenset({"always", "durable", "convention", "prefer"})
GENERALISING_NAMES = frozenset({"never", "I don't like", "永远不要", "no mention"})
# Kinds that state a fact ("remember that `make` needs Docker"): naming code is what facts do.
FACT_KINDS = frozenset({"remember", "note"})

_QUOTED = re.compile(r"\"[^\"\n]{3,}\"|\u201c[^\u201d\n]{3,}\u201d|\u300c[^\u300d\n]{2,}\u300d")
_STRUCTURED_LINE = re.compile(r"^\s*(?:#{1,6}\s|[-*+]\s|\d{1,3}[.)]\s|\||```|~~~|\s{4,}\S|<\w)")
PASTED_MIN_LINES = 12
PASTED_STRUCTURED_SHARE = 0.5
PASTED_MIN_CHARS = 4000

# The corrective half: "Use the logger instead." / "Prefer X." / "Instead, …" / "改用 …".
CORRECTIVE_HALF = re.compile(
    r"^(?:instead\b|rather\b|(?:please\s+)?(?:use|prefer|call|write|put|keep|pass|return|import|run|go\s+with|"
    r"stick\s+(?:to|with)|switch\s+to|do|generate|create|add|ask|let|leave|wrap|raise|log|move|store|read|send|"
    r"check|go\s+through)\b.*|.*\binstead\b.*)$|^(?:改用|换成|用|请用|应该用)",
    _I,
)


# ", please remove that." / "; so fix it" / ", and revert them": a request about the thing at hand.
_TASK_TAIL = re.compile(  # from the comma: a leading \s* would make a search quadratic in a run of spaces
    r"[,;]\s*(?:and\s+|so\s+|then\s+)?(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+)?"
    r"(?:remove|delete|drop|fix|change|revert|undo|update|rename|replace|rewrite|redo|correct)\s+"
    r"(?:that|this|it|them|those|these)(?:\s+(?:again|too|as\s+well|now|please))?\s*[.!?]*$",
    _I,
)


def rule_before_task(sentence: str) -> int | None:
    """Where the rule ends when the sentence ends in a task clause about the thing at hand, else ``None``."""
    match = _TASK_TAIL.search(sentence)
    if match is None:
        return None
    end = len(sentence[: match.start()].rstrip())
    return end if end > 0 else None


# "Come up with a plan for these tests, remember I don't like to use mocks.": a standing rule tacked onto this task's
# request, after "remember" / "keep in mind" / "don't forget" (held-out 53, ADR 0082); "I have now committed the
# day-016.md -- but please recall that you should not be rummaging in …": after "recall that", which stays in the rule,
# since it says the rule was given before (held-out 204, ADR 0134)
_RULE_AFTER_TASK = re.compile(
    r"(?:[,;:\u2014\u2013]|\s-{1,2}(?=\s))\s*(?:(?:and|but|also|oh|btw|plus)\s+)?"
    r"(?:(?=(?:please\s+)?recall\s+that\s)|(?:please\s+)?"
    r"(?:remember|keep\s+in\s+mind|don'?t\s+forget|do\s+not\s+forget)(?:\s*,)?\s+(?:that\s+)?)(?=\w)",
    _I,
)


def rule_after_task(sentence: str) -> int | None:
    """Where the rule starts when the sentence asks for this task first and then reminds of a rule, else ``None``."""
    match = _RULE_AFTER_TASK.search(sentence)
    return match.end() if match is not None and match.start() > 0 else None


def names_code(text: str) -> bool:
    """True when the sentence names a specific element of the code or UI."""
    return CODE_NAME.search(text) is not None


def makes_a_choice(text: str) -> bool:
    """True for "X over Y", "X rather than Y", "X instead of Y" (the rule is about kinds of thing)."""
    return _CHOICE.search(text) is not None


def mask_quoted(text: str) -> str:
    """The sentence with double-quoted passages blanked out (same length, so spans still match)."""
    return _QUOTED.sub(lambda m: m.group(0)[0] + " " * (len(m.group(0)) - 2) + m.group(0)[-1], text)


def is_pasted_document(text: str) -> bool:
    """True for a long, structured message: a plan, a README, a spec pasted in, not an instruction."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(text) >= PASTED_MIN_CHARS and len(lines) >= PASTED_MIN_LINES // 2:
        return True
    if len(lines) < PASTED_MIN_LINES:
        return False
    structured = sum(1 for line in lines if _STRUCTURED_LINE.match(line))
    return structured >= PASTED_STRUCTURED_SHARE * len(lines)


# "## Working Rules", "Working Rules (carried forward from session start)", "**Ground rules:**": the heading a person
# puts over how they work in the brief they paste for each task (held-out 71 and 77, ADR 0089); "Key patterns I
# follow:", "Documentation workflow I established:" in the first person, over the same in a hand-off (held-out 72, ADR
# 0091). "Rules:" alone heads a spec's rules as often (how a parser must fill a field), and is not one.
_RULES_HEADING = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*)?(?:working|ground|house|standing)[ \t]+rules\b[^\n]*$|"
    r"^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*)?working[ \t]+agreements?\b[^\n]*$|"
    r"^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*)?(?:[\w-]+[ \t]+)?(?:patterns?|conventions?|practices|workflow)[ \t]+"
    r"(?:i|we)(?:'ve|[ \t]+have)?[ \t]+(?:follow(?:ed)?|established|set[ \t]+up|agreed[ \t]+on)\b[^\n]*$",
    _I | re.MULTILINE,
)
_HEADING = re.compile(r"[ \t]*#")
_RULE_ITEM = re.compile(r"[ \t]*(?:[-*\u2022]|\d{1,2}[.)])[ \t]+(?=\S)")
MAX_WORKING_RULES = 20


def working_rule_items(text: str) -> list[tuple[int, int]]:
    """The spans of the items (bullets or numbered, with their indented continuation lines) under each "Working Rules"
    heading, up to the next heading or the first line that is neither an item nor its continuation."""
    items: list[tuple[int, int]] = []
    for heading in _RULES_HEADING.finditer(text):
        for start, end in line_spans(text, heading.end() + 1):
            if len(items) >= MAX_WORKING_RULES:
                break
            line = text[start:end]
            item = _RULE_ITEM.match(line)
            if item is not None:
                items.append((start + item.end(), end))
            elif line.strip() and line[:1] in " \t" and items and _HEADING.match(line) is None:
                items[-1] = (items[-1][0], end)  # an item's next line, indented
            elif line.strip():
                break  # a heading, or the brief goes on in prose
    return items


# Messages a coding tool writes itself into the person's slot, which exports and histories keep as the person's
# (held-out 10, ADR 0059): Cursor's, when a plan is accepted ("Implement the plan as specified, it is attached for
# your reference. Do NOT edit the plan file itself. … Mark them as in_progress as you work … Don't stop until you
# have completed all the to-dos."). Its imperatives are the tool's, not a rule the person stated.
_TOOLS_MESSAGE = re.compile(
    r"^\s*implement\s+the\s+plan\s+as\s+specified\b|"
    r"\bto-?do'?s\s+from\s+the\s+plan\s+have\s+already\s+been\s+created\b|"
    r"\bmark\s+them\s+as\s+in_progress\s+as\s+you\s+work\b",
    _I,
)


def is_a_tools_message(text: str) -> bool:
    """True for a message the coding tool itself sends in the person's slot (Cursor's plan hand-off)."""
    return _TOOLS_MESSAGE.search(text) is not None


# A prompt written for a model and pasted in (held-out 14, ADR 0063): "You are a Principal UI Architect, …" on a line
# of its own and "Your mission is …" on another. Its "Never produce a pixel-perfect clone." limits the one task the
# brief sets; the person's standing rules are said to the agent, not written into a role.
_ROLE_LINE = re.compile(r"^[^\S\n]*you\s+are\s+(?:a|an)\s+[^\n]{1,300}$", _I | re.MULTILINE)
_BRIEF_LINE = re.compile(
    r"^[^\S\n]*your\s+(?:primary\s+|main\s+|only\s+)?(?:mission|task|goal|objective|job|role|purpose|assignment)\s+"
    r"(?:is|will\s+be)\b",
    _I | re.MULTILINE,
)


def is_a_role_brief(text: str) -> bool:
    """True for a role prompt pasted in ("You are a …" and "Your mission is …" on lines of their own)."""
    return _ROLE_LINE.search(text) is not None and _BRIEF_LINE.search(text) is not None


# A step of a workflow that runs an agent command (held-out 42, ADR 0075): "4. /sp.clarify — resolve ambiguity …; never
# invent features." says what that command is to do in this run. Only a numbered or bulleted line: a message that is
# itself a command ("/teach X (for this teach and all the ones afterwards, …)") is the person speaking. A path ("-
# /home/me/app — never touch") has a second slash and is no command.
_COMMAND_STEP = re.compile(
    r"^[^\S\n]*(?:\d{1,3}[.)]|[-*\u2022])[^\S\n]+/[a-z][\w.:-]{0,40}(?=[^\S\n]|$)[^\n]*", _I | re.MULTILINE
)


def command_steps(text: str) -> list[tuple[int, int]]:
    """Where the lines of a workflow's steps that run an agent command ("4. /sp.clarify — …") sit in a message."""
    return [match.span() for match in _COMMAND_STEP.finditer(text)] if "/" in text else []


def quoted_ranges(text: str) -> list[tuple[int, int]]:
    """Where double-quoted passages sit in a whole message (a quote may hold several sentences).

    A block pasted after a line that says where it comes from ("the console shows an error:", "the docs say:",
    "my colleague wrote:") counts as quoted too, up to the next blank line (ADR 0057), and so do the lines of a
    program's report of fields (ADR 0067).
    """
    return [match.span() for match in _QUOTED.finditer(text)] + _pasted_blocks(text) + report_fields(text)


# A program's report in the person's slot (held-out 24, ADR 0067): a setup helper appended "Default agent: main",
# "Config valid: true", "Gateway reachable: false", … "Source mode: package/install; use GitHub source when docs are
# insufficient." to every request, so the sentence came back in three sessions as if the person had said it each
# time. Three or more "Field: value" lines, most of whose values are data (one token, a status word), are a report;
# "Style: always use tabs" / "Tests: run them with uv" / "Commits: small" written by a person are sentences, not data.
_FIELD_LINE = re.compile(r"^[ \t]*[A-Z][A-Za-z0-9 /_()'-]{0,40}:[ \t]+(\S[^\n]*)$", re.MULTILINE)
_DATA_VALUE = re.compile(
    r"\S+|(?:not\s+)?(?:found|configured|set|available|installed|enabled|disabled|reachable|valid)", _I
)
MIN_REPORT_FIELDS = 3


def report_fields(text: str) -> list[tuple[int, int]]:
    """The field lines of each program's report in the message ("Config valid: true" …): a run of field lines
    with nothing between them ("User request: …" before a blank line is the person's, not the report's)."""
    if ": " not in text:
        return []
    runs: list[list[re.Match[str]]] = []
    for field in _FIELD_LINE.finditer(text):
        if runs and runs[-1][-1].end() + 1 == field.start():
            runs[-1].append(field)
        else:
            runs.append([field])
    return [field.span() for run in runs if _is_a_report(run) for field in run]


def _is_a_report(run: list[re.Match[str]]) -> bool:
    data = sum(1 for field in run if _DATA_VALUE.fullmatch(field.group(1).strip()))
    return len(run) >= MIN_REPORT_FIELDS and 2 * data > len(run)


# A table pasted as plain text (copied from a chat or a document, held-out 85, ADR 0092): "Segment    Description",
# ".png    The file format (always PNG for violation annotation compatibility)". A row's cells describe the table's
# subject; "always" in one is part of that description, not the person's rule. Two cells apart by a tab or three or
# more spaces, on two or more lines in a row (one aligned line is a sentence with a wide gap).
_CELL_GAP = re.compile(r"\S(?:\t+| {3,})\S")  # a gap between two cells (never a line's own indent)
MIN_TABLE_ROWS = 2


def table_rows(text: str) -> list[tuple[int, int]]:
    """The lines of each plain-text table in the message: two or more lines in a row, each of two or more cells."""
    if "\t" not in text and "   " not in text:
        return []
    rows: list[tuple[int, int]] = []
    run: list[tuple[int, int]] = []
    for start, end in line_spans(text):
        if _CELL_GAP.search(text, start, end):
            run.append((start, end))
        else:
            rows.extend(run if len(run) >= MIN_TABLE_ROWS else ())
            run = []
    rows.extend(run if len(run) >= MIN_TABLE_ROWS else ())
    return rows


# A session hand-off a coding agent writes for the next session, which the person pastes in to open it ("Continue work
# on LOOKSMAXX at …\n\n  What's Done: …\n  Current State: …\n  Next Step: …\n  Key Files: …\n  Approach: Do NOT explore
# the full codebase. Use the context above."; held-out 109, ADR 0100): the agent's summary of one piece of work, not
# the person's rules. Three of its labels, each at a line's start, mark one.
_HANDOFF_LABEL = re.compile(
    r"^[ \t]*(?:[-*][ \t]+)?(?:\*\*)?(?P<label>what'?s\s+done|current\s+state|next\s+steps?|key\s+files|"
    r"key\s+context|approach)(?:\*\*)?[ \t]*:",
    _I | re.MULTILINE,
)
MIN_HANDOFF_LABELS = 3
_HANDOFF_ITEM = re.compile(r"(?:[-*+]|\d{1,3}[.)])[ \t]")  # a list item of the hand-off's, not indented
_HANDOFF_CUE = re.compile(r"current\s+state|next\s+steps?\s*:|key\s+(?:files|context)", _I)


def handoff_ranges(text: str) -> list[tuple[int, int]]:
    """The hand-off in the message, from its first label to the end of its last label's block (the indented lines and
    list items after it); what the person types after it is theirs."""
    if _HANDOFF_CUE.search(text) is None:
        return []  # most messages: one look
    labels = list(_HANDOFF_LABEL.finditer(text))
    names = {" ".join(found.group("label").casefold().replace("'", "").split()) for found in labels}
    if len({name.removesuffix("s") for name in names}) < MIN_HANDOFF_LABELS:
        return []
    end = text.find("\n", labels[-1].end())
    end = len(text) if end < 0 else end
    for start, line_end in line_spans(text, end + 1):
        line = text[start:line_end]
        if line.strip() and not line[:1].isspace() and _HANDOFF_ITEM.match(line) is None:
            break  # the person's own words after the hand-off
        if line.strip():
            end = line_end
    return [(labels[0].start(), end)]


# A line (not a list item) that introduces what someone or something else said or printed.
_PASTE_LEAD = re.compile(
    r"^(?![ \t]*(?:[-*+]|\d{1,3}[.)])\s)[^\n]*?\b(?:errors?|warnings?|traceback|stack\s*trace|logs?|console|terminal|"
    r"stderr|stdout|docs|documentation|readme|says|said|wrote|writes|reads|replied|response|reply|review|feedback|"
    r"(?:got|get|see|saw)\s+(?:this|these|the\s+following))\b[^\n]{0,80}:[ \t]*\n",
    _I | re.MULTILINE,
)
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


# "Please read the statement below and see if this agrees with our docs": the person asks the agent to weigh what
# someone else wrote, pasted after the request; everything after the request's paragraph is that text (held-out 400,
# ADR 0163). "Please follow the rules below" introduces the person's own rules: no such verb, no such noun.
_WEIGH_BELOW = re.compile(
    r"\b(?:read|review|check|evaluate|consider|analy[sz]e|look\s+(?:at|over|through)|go\s+through)\s+(?:the|this|these)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:statement|text|article|post|message|answer|response|reply|email|comment|review|feedback|"
    r"excerpt|snippet|output|summary|analysis|report|proposal|suggestion)s?\s+below\b",
    _I,
)


# After a blank line, a paragraph that opens the way a person goes on ("Also, …", "From now on …", "P.S. …") ends the
# text pasted below a request to weigh it (the second review of session 33: a rule added after it was lost).
_PERSON_AGAIN = re.compile(
    r"\n[ \t]*\n[ \t]*(?:also|and also|additionally|btw|by the way|from now on|one more thing|p\.?s\.?)\b", _I
)


def _pasted_blocks(text: str) -> list[tuple[int, int]]:
    blocks = []
    for lead in _PASTE_LEAD.finditer(text):
        if _RULES_HEADING.match(text, lead.start()):
            continue  # "Documentation workflow I established:" heads the person's own rules, not a paste (ADR 0091)
        end = _BLANK_LINE.search(text, lead.end())
        blocks.append((lead.end(), end.start() if end else len(text)))
    weigh = _WEIGH_BELOW.search(text)
    if weigh is not None:
        paragraph = _BLANK_LINE.search(text, weigh.end())
        if paragraph is not None:
            back = _PERSON_AGAIN.search(text, paragraph.end())  # "Also, from now on …" after the paste is the person's
            blocks.append((paragraph.end(), back.start() if back else len(text)))
    return blocks


# A long request laid out as a spec: "/idea", "Goal:", "Context:", numbered requirements, bullets (ADR 0054).
# Line patterns skip leading blanks with [^\S\n]*, never \s*: from every line of a run of empty lines, \s* would
# reach to the run's end, and a search through 100,000 newlines would take minutes.
_SPEC_HEAD = re.compile(
    r"^[^\S\n]*(?:(?:\*\*)?(?:goal|context|requirements?|constraints?|acceptance\s+criteria|"
    r"deliverables?|output|scope|tasks?|steps|background|notes?|autonomy\s+instructions?)\b[^\n]{0,60}:)",
    _I | re.MULTILINE,
)
_ITEM = re.compile(r"^[^\S\n]*(?:[-*+]\s|\d{1,3}[.)]\s)", re.MULTILINE)
SPEC_MIN_CHARS = 600
SPEC_MIN_ITEMS = 3
# In a spec, "do not merge" / "don't push to main" is how the person always works with git, not a detail of
# the job (held-out 5: "Draft tickets, implement, test, open a draft PR as usual. Do not merge, do not
# touch main.").
_WORKFLOW = re.compile(r"\b(?:merge|push|force[- ]push|rebase|commit|main|master|gitignored|pull\s+request|pr)\b", _I)


# "please do not commit the .dmg files or the large image files": what may reach git is a standing rule even
# when it names files (ADR 0054).
_GIT_VERB = re.compile(r"\b(?:commit|push|merge|rebase|force-push)\b", _I)


def is_about_git(sentence: str) -> bool:
    """True when the sentence says what to commit, push or merge."""
    return _GIT_VERB.search(sentence) is not None


def is_task_spec(text: str) -> bool:
    """True for a long, structured one-off request: its "Do not …" / "prefer …" lines are about this job."""
    items = len(_ITEM.findall(text))
    if len(text) < SPEC_MIN_CHARS:
        # A short request laid out the same way, with a "Constraints:" / "Requirements:" head over its items ("Now
        # audit the structure and provide: 1. … Constraints: - Avoid unnecessary implementation logic"): the
        # constraints are this job's (ADR 0058)
        return _SPEC_HEAD.search(text) is not None and items >= SPEC_MIN_ITEMS
    return _SPEC_HEAD.search(text) is not None or items >= SPEC_MIN_ITEMS


def is_workflow_rule(sentence: str) -> bool:
    """True when the sentence is about how the work reaches git (merge, push, commit, main)."""
    return _WORKFLOW.search(sentence) is not None


def is_corrective_half(sentence: str) -> bool:
    """True when a sentence says what to do instead, right after a prohibition."""
    return CORRECTIVE_HALF.match(sentence.strip()) is not None


# Claude Code keeps a long paste in its history as a placeholder in the person's words (ADR 0069)
_PASTE_PLACEHOLDER = re.compile(r"\[Pasted text #\d{1,4}(?: \+\d{1,7} lines)?\]")


def points_to_a_paste(sentence: str) -> bool:
    """ "Keep these in mind moving forward: [Pasted text #1 +263 lines]": the rules are in the paste, which the
    history did not keep; what is left ("keep in mind moving forward") is no rule a reviewer can read."""
    return _PASTE_PLACEHOLDER.search(sentence) is not None


_DEFAULT = re.compile(r"\bby\s+default\b|默认", _I)
# The message says the default can be changed: it specifies a setting of the program being built.
_CONFIGURABLE = re.compile(
    r"\bconfigurable\b|\bunless\s+(?:specified|overridden|configured|set|given|passed)\b|"
    r"\b(?:can|could|should)\s+be\s+(?:overridden|configured|changed\s+(?:with|by|via))\b|可配置|可以配置",
    _I,
)


def is_a_programs_default(sentence: str, message: str) -> bool:
    """True for "by default, do X" in a message that makes X configurable: a spec, not a standing rule."""
    return _DEFAULT.search(sentence) is not None and _says_configurable(message)


@functools.lru_cache(maxsize=1)
def _says_configurable(message: str) -> bool:
    # once per message, not once per sentence: a message of 2,000 "by default." sentences searched itself 2,000 times
    return _CONFIGURABLE.search(message) is not None
