"""A rule the person asks the agent to write into an agent instruction file (ADR 0058, the fifth round).

"add to cursor rules "in all coded files add comments …"", "Add to CLAUDE.md: never push to main.", "put this in
AGENTS.md:\\n- use pnpm" — the person has decided the text is a standing rule for the agent: that is what those files
are for (CLAUDE.md, AGENTS.md, GEMINI.md, CONVENTIONS.md, .cursorrules and Cursor's project rules, Copilot's
instructions, .windsurfrules, .clinerules). The rule is the text that follows the request, in quotes, after a colon
or on the lines below it, whatever its words: most such rules carry no signal word ("in all coded files add
comments"). Nothing after the request ("Add it to copilot instructions", "fill out the tech stack in CLAUDE.md based
on the repo") gives nothing: the rule is in the task, not in the words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from memory_review.models import DurableScope, MemoryType

_I = re.IGNORECASE

_FILE = (
    r"(?:[\w./~-]*/)?(?:\.?(?:claude|agents|agent|gemini|conventions|copilot-instructions)\.md"
    r"|\.(?:cursor|windsurf|cline)rules|\.clinerules|\.cursor/rules(?:/[\w.-]+)?"
    r"|(?:github\s+)?copilot[- ]instructions|(?:cursor|windsurf|cline|project|agent)\s+rules)"
)
# The file as a request names it: "my CLAUDE.md", "the global AGENTS.md", "@CLAUDE.md"
_THE_FILE = rf"(?:the\s+|my\s+|our\s+|your\s+)?(?:global\s+|user\s+|project\s+)?(?:@\S+\s+)?(?P<file>{_FILE})"
# "add to cursor rules", "put this in AGENTS.md", "write the following into CLAUDE.md", "add a rule to .cursorrules";
# the words between verb and file are few and name what is added ("this", "a rule", "the following", "a note").
_REQUEST = re.compile(
    r"(?:^|(?<=[\s,;.!(@/]))(?:please\s+)?(?:add|put|write|append|save|include|insert|record)\b"
    r"(?:\s+(?:(?P<pronoun>this|that|these|it)|the\s+following|following|a\s+(?:new\s+)?(?:rule|line|note)|"
    r"the\s+(?:rule|line|note)|as\s+a\s+rule|"
    # "add markdown file conventions to CONVENTIONS.md": what is added, named as rules
    r"(?:(?:a|the|some|these|my|our|new)\s+)?(?:[\w-]+\s+){0,3}?(?:rules?|conventions?|guidelines?|instructions?|"
    r"preferences?|notes?|lines?|points?)))?"
    rf"\s+(?:to|in|into|inside)\s+{_THE_FILE}"
    r"(?:\s+(?:file|rules?|instructions?))?",
    _I,
)
# "update CLAUDE.md with: …", "update AGENTS.md to say "…"".
_UPDATE = re.compile(
    rf"(?:^|(?<=[\s,;.!(@/]))(?:please\s+)?update\s+{_THE_FILE}(?:\s+file)?\s+(?:with|to\s+(?:say|include|read))\b",
    _I,
)
# "Change my CLAUDE.md to ensure that I am called Jack", "add a line to CLAUDE.md in ~/.claude to ensure that the last
# action is always …": the rule is what the file is to ensure, to the end of the sentence (held-out 102, ADR 0098).
# "update CLAUDE.md and AGENTS.md to keep agentic coding systems away from dev-logs, unless …", "update CLAUDE.md to
# always run the specs": the rule is the infinitive itself, when it keeps something away or out, or says always or
# never (held-out 184, ADR 0124); "update CLAUDE.md to keep it short" or "to reflect the new layout" is the edit's aim.
_ANOTHER_FILE = rf"\s+(?:and|&)\s+(?:the\s+|my\s+|our\s+|your\s+)?{_FILE}(?:\s+files?)?"
_KEEPS_OUT = r"(?=(?:always|never)\s|keep\s[^.!?\n]{1,60}?\s(?:away|out)\b)"
_ENSURE = re.compile(
    r"(?:^|(?<=[\s,;.!(@/]))(?:please\s+)?(?:update|change|edit|amend|"
    r"(?:add|put|write|append)(?:\s+(?:a|one)\s+(?:new\s+)?(?:line|rule|note|sentence|section))?\s+(?:to|in|into))"
    rf"\s+{_THE_FILE}(?:\s+files?)?(?:{_ANOTHER_FILE})?(?:\s+in\s+~?[\w./-]+)?\s+to\s+"
    rf"(?:(?:ensure|make\s+sure)\s+(?:that\s+)?(?=\w)|{_KEEPS_OUT})",
    _I,
)
# "Let's create a claude.md file for the project that will instruct you to always list me as coauthor on your commits":
# the file is new, and what it is to instruct, when it says always or never, is the rule (held-out 168, ADR 0147)
_INSTRUCTS = re.compile(
    r"(?:^|(?<=[\s,;.!(@/]))(?:create|make|write|set\s+up)\s+(?:a|an)\s+(?:new\s+)?"
    rf"{_THE_FILE}(?:\s+file)?(?:\s+for\s+(?:the|this|our)\s+(?:project|repo))?\s+(?:that|which)\s+(?:will\s+)?"
    rf"(?:instructs?|tells?|reminds?)\s+you\s+to\s+{_KEEPS_OUT}",
    _I,
)
# The same in Italian: "aggiorna il tuo CLAUDE.md globale affinché utilizzi il tool gemini-mcp-tool …", "aggiorna
# CLAUDE.md e tutto il nostro sistema … in modo che …" (held-out 118, ADR 0104): the rule is what follows "so that"
_IT_ENSURE = re.compile(
    r"(?:^|(?<=[\s,;.!(@/]))(?:aggiorna|modifica|cambia)\s+(?:il\s+(?:tuo\s+|mio\s+|nostro\s+)?)?"
    rf"(?P<file>{_FILE})(?:\s+globale)?[^.!?\n]{{0,80}}?\s(?:affinch[ée]|in\s+modo\s+(?:che|tale\s+che)|cos[iì]\s+che)\s+"
    r"(?=\w)",
    _I,
)
# Italian's pronouns are its articles ("lo rifletta", that it reflect it; "lo stile", the style): a rule is a few words
_IT_MIN_WORDS = 4
_ENSURE_CUE = re.compile(r"to\s+(?:ensure|make\s+sure|always|never|keep)\b|affinch|in\s+modo|cos[iì]\s+che", _I)
# "Add to CLAUDE.md that python should use uv, uvx and ruff": the rule is the rest of the sentence, as with "to ensure
# that" (held-out 121, ADR 0103)
_THAT = re.compile(r"[ \t]+that[ \t]+(?=\w)", _I)
# What the file is to ensure points at something said before ("… to make sure that it has whatever is needed"): the rule
# is not in the words
_POINTS_BACK = re.compile(r"(?:it|its|it's|that|this|these|those|they|them)\b", _I)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")
# The same in Chinese: "把这条加到 CLAUDE.md：…", "在 AGENTS.md 里加上：…", "写入 .cursorrules「…」".
_ZH_REQUEST = re.compile(
    r"(?:把(?P<pronoun>这条|这个|这些|这|它|以上|上面)?[^\n：:]{0,20}?)?(?:加到|添加到|写到|写进|写入|加入|放到|放进|记到|记录到|补充到)"
    rf"\s*(?:全局的?\s*)?(?P<file>{_FILE})(?:\s*(?:文件|规则))?(?:\s*(?:里|中))?"
    rf"|在\s*(?:全局的?\s*)?(?P<file2>{_FILE})\s*(?:文件|规则)?\s*(?:里|中)?\s*(?:加上|添加|写上|加入|写入|补充|记录)",
    _I,
)
_QUOTE = re.compile(
    r"[ \t]*(?:[:：][ \t]*)?"
    r"(?:\"(?P<a>[^\"\n]{6,})\"|\u201c(?P<b>[^\u201d\n]{6,})\u201d|\u300c(?P<c>[^\u300d\n]{4,})\u300d)"
)
_COLON_OR_LINE = re.compile(r"[ \t]*(?:[:：][ \t]*|\n)")
_LIST_MARKER = re.compile(r"[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+")
_NEGATIVE = re.compile(
    r"^(?:never|don'?t|do\s+not|no\s|avoid|stop|must\s+not|should\s+not|不要|别|禁止|严禁|不允许|不许|不准|永远不要)",
    _I,
)
_USER_WIDE = re.compile(r"~/|\bglobal[ei]?\b|\buser\b|\ball\s+(?:my\s+)?projects\b|全局", _I)
# Cheap test first: tool output can be megabytes, and every request names one of these.
RULE_FILE_CUE = re.compile(r"\.md\b|rules|instructions", _I)
MAX_LINES = 12  # more is a document to write, not a rule
MIN_CHARS = 6
MAX_BYTES = 600


@dataclass(frozen=True)
class RuleForAFile:
    """One rule the person asks to be written into an instruction file: where it sits in the message, and why."""

    start: int
    end: int
    file: str
    type: MemoryType
    scope: DurableScope
    shortcut: bool = False  # typed with Claude Code's "#" memory shortcut rather than asked for in words


_NAMES_A_FILE = re.compile(rf"(?<![\w.]){_FILE}(?!\w)", _I)


def names_an_instruction_file(text: str) -> bool:
    """True when the text names an agent instruction file ("add conventions to claude.md")."""
    return RULE_FILE_CUE.search(text) is not None and _NAMES_A_FILE.search(text) is not None


def rules_for_instruction_files(text: str) -> Iterator[RuleForAFile]:
    """Every rule that a request in the message asks to write into an agent instruction file."""
    requests = sorted(
        (*_REQUEST.finditer(text), *_UPDATE.finditer(text), *_ZH_REQUEST.finditer(text)), key=lambda m: m.start()
    )
    for request in requests:
        groups = request.groupdict()
        file = groups.get("file") or groups.get("file2") or ""
        scope: DurableScope = "user" if _USER_WIDE.search(request.group(0)) else "project"
        # "add this to CLAUDE.md" points back at something said before: only a colon or a quote after it says what
        spans = _body(text, request.end(), below=groups.get("pronoun") is None)
        if not spans and groups.get("pronoun") is None and (that := _THAT.match(text, request.end())) is not None:
            spans = [span] if (span := _ensured(text, that.end())) is not None else []
        for start, end in spans:
            yield RuleForAFile(start, end, file, _type(text[start:end]), scope)
    if _ENSURE_CUE.search(text) is None:
        return  # most messages: one look for the two words every such request has
    for pattern, min_words in ((_ENSURE, 1), (_INSTRUCTS, 1), (_IT_ENSURE, _IT_MIN_WORDS)):
        for request in pattern.finditer(text):
            span = _ensured(text, request.end())
            if span is not None and len(text[span[0] : span[1]].split()) >= min_words:
                scope = "user" if _USER_WIDE.search(request.group(0)) else "project"
                yield RuleForAFile(span[0], span[1], request.group("file"), _type(text[span[0] : span[1]]), scope)


def _ensured(text: str, at: int) -> tuple[int, int] | None:
    """What a request to update an instruction file is to ensure: the rest of its sentence, unless it points back."""
    if _POINTS_BACK.match(text, at):
        return None
    end = _SENTENCE_END.search(text, at, at + MAX_BYTES + 1)
    if end is None:
        if len(text) - at > MAX_BYTES:
            return None  # longer than a rule: a document to write
        return _stripped(text, at, len(text))
    return _stripped(text, at, end.end() if end.group() != "\n" else end.start())


# Claude Code's memory shortcut (ADR 0070): a message that starts with "#" is saved to a CLAUDE.md as a memory, which
# is what the person typed it for ("#Always run bun format && bun lint --fix after every change"). One line, a few
# words; not "## …", not an issue number ("#123"), not VS Code Copilot's chat variables ("#terminalSelection fix
# this", "#sym:DrawBBox …", "#codebase …"), which point the request at something.
_SHORTCUT = re.compile(r"#(?![#\d])[ \t]?(?P<first>[^\s:]+)(?:[ \t][^\n]*)?")
_COPILOT_VARIABLE = re.compile(
    r"(?:[a-z]+[A-Z]\w*|codebase|file|files|folder|selection|editor|fetch|changes|problems|usages|extensions|search|"
    r"sym|tests?)$"
)
MIN_SHORTCUT_WORDS = 4


def memory_shortcut(text: str) -> RuleForAFile | None:
    """The note of a message typed with Claude Code's ``#`` memory shortcut, or None."""
    if not text.lstrip(" \t").startswith("#"):
        return None  # most messages: told apart before anything walks the whole text
    offset = len(text) - len(text.lstrip())
    line = text.strip()
    if "\n" in line or len(line.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        return None  # a note is one line; checked first, so the pattern never backtracks over a long message
    shortcut = _SHORTCUT.fullmatch(line)
    if shortcut is None or _COPILOT_VARIABLE.match(shortcut.group("first")):
        return None
    span = _stripped(text, offset + shortcut.start("first"), offset + len(line))
    if span is None or len(text[span[0] : span[1]].split()) < MIN_SHORTCUT_WORDS:
        return None
    scope: DurableScope = "user" if _USER_WIDE.search(text) else "project"
    return RuleForAFile(span[0], span[1], "CLAUDE.md", _type(text[span[0] : span[1]]), scope, shortcut=True)


# Past this many characters the rest of the request's own line is pasted text, not a rule (a rule is at most MAX_BYTES):
# it is looked at no further, so a line of thousands of requests costs each one this much, not the line (ADR 0075).
_LONGEST_LINE = 4 * MAX_BYTES


def _body(text: str, at: int, *, below: bool) -> list[tuple[int, int]]:
    if text.find("\n", at, at + _LONGEST_LINE + 1) < 0 and len(text) - at > _LONGEST_LINE:
        return []
    quoted = _QUOTE.match(text, at)
    if quoted is not None:
        group = next(name for name in "abc" if quoted.group(name) is not None)
        return [s for s in [_stripped(text, quoted.start(group), quoted.end(group))] if s]
    lead = _COLON_OR_LINE.match(text, at)
    if lead is None or (not below and ":" not in lead.group(0) and "：" not in lead.group(0)):
        return []  # "fill out the tech stack in CLAUDE.md based on the repo": no rule in the words
    spans: list[tuple[int, int]] = []
    position = lead.end()
    lines = 0
    while position < len(text):
        newline = text.find("\n", position)
        end = len(text) if newline < 0 else newline
        line = text[position:end]
        if not line.strip():
            if spans:  # a blank line closes the rule block
                break
        else:
            lines += 1
            if lines > MAX_LINES:
                return []
            marker = _LIST_MARKER.match(line)
            span = _stripped(text, position + (marker.end() if marker else 0), end)
            if span:
                spans.append(span)
        position = end + 1
    return spans


def _stripped(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    body = text[start:end]
    if len(body) < MIN_CHARS or len(body.encode("utf-8", "surrogatepass")) > MAX_BYTES or body.endswith(("?", "？")):
        return None
    return start, end


def _type(rule: str) -> MemoryType:
    return "forbidden" if _NEGATIVE.match(rule) else "convention"
