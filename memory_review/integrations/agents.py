"""The agents whose hooks memory-review answers: their event names, project variable and settings units.

One hook implementation (:mod:`claude_hooks`) serves every agent whose hook system speaks Claude
Code's JSON — a payload on stdin with ``session_id``, ``transcript_path``, ``cwd``,
``hook_event_name`` (and ``prompt`` before a turn), ``hookSpecificOutput.additionalContext`` and
``systemMessage`` back. The agent is named in the hook command (``memory-review hook gemini``), so
its events map to ours and its failures are recorded under its own name (ADR 0027, ADR 0035).

* Claude Code: ``SessionStart``, ``UserPromptSubmit``, ``Stop``, ``SubagentStop``, ``PreCompact``;
  ``$CLAUDE_PROJECT_DIR``; hook timeouts in seconds.
* Codex: ``SessionStart``, ``UserPromptSubmit``, ``Stop``; no project variable; seconds.
* Gemini CLI (``docs/hooks/reference.md``): ``SessionStart``, ``BeforeAgent`` (the prompt: context is
  appended to it), ``AfterAgent`` (once per turn, after the answer: like ``Stop``), ``PreCompress``;
  ``$GEMINI_PROJECT_DIR``; timeouts in milliseconds. ``SessionEnd`` is not used: Gemini does not wait
  for it, and ``AfterAgent`` has already read every turn. Gemini hands hooks' context back inside the
  prompt, as ``<hook_context>…</hook_context>`` (0.61: a part after the prompt for ``BeforeAgent``, in the
  prompt's text for ``SessionStart``): :func:`without_hook_context` takes it out where the person's own
  words are wanted (the query a prompt's context is chosen by, the turns extraction reads).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

AgentName = Literal["claude-code", "codex", "gemini"]

CONTEXT_EVENTS = frozenset({"SessionStart", "UserPromptSubmit"})
EXTRACT_EVENTS = frozenset({"Stop", "SubagentStop", "PreCompact"})
HOOK_EVENTS = ("SessionStart", "UserPromptSubmit", "Stop", "SubagentStop", "PreCompact")


@dataclass(frozen=True)
class HookAgent:
    """One agent's hook system, as far as memory-review needs to know it."""

    name: AgentName
    events: dict[str, str]  # the agent's event name -> ours (Claude Code's name for it)
    project_dir_env: str | None  # the variable the agent sets to the project root for its hooks
    timeout_unit: int = 1  # multiplies seconds into the unit of the agent's settings

    @property
    def hook_args(self) -> tuple[str, str]:
        """What follows the program in the hook command: ``hook <agent>``."""
        return ("hook", self.name)

    def ours(self, event: str) -> str | None:
        """Our name for the agent's ``event``, or None when memory-review does not act on it."""
        return self.events.get(event)


CLAUDE_CODE = HookAgent("claude-code", {event: event for event in HOOK_EVENTS}, "CLAUDE_PROJECT_DIR")
CODEX = HookAgent("codex", {event: event for event in ("SessionStart", "UserPromptSubmit", "Stop")}, None)
GEMINI = HookAgent(
    "gemini",
    {
        "SessionStart": "SessionStart",
        "BeforeAgent": "UserPromptSubmit",
        "AfterAgent": "Stop",
        "PreCompress": "PreCompact",
    },
    "GEMINI_PROJECT_DIR",
    timeout_unit=1000,
)
AGENTS: dict[str, HookAgent] = {agent.name: agent for agent in (CLAUDE_CODE, CODEX, GEMINI)}


def agent_named(name: str) -> HookAgent:
    """The agent of a hook command or an install (KeyError for one we do not know)."""
    return AGENTS[name]


_OPEN = "<hook_context>"
_CLOSE = "</hook_context>"


def without_hook_context(text: str) -> str:
    """``text`` without Gemini's ``<hook_context>…</hook_context>`` spans (what hooks added to a prompt,
    our own context block among it), the rest joined by a blank line.

    A closed span anywhere (the innermost, so a tag the person typed before one is not swallowed with it); one never
    closed only where Gemini puts one, at the start of the text or of a line (a part of its own), and then to the
    end, so a block cut short never reads as the person's; a tag typed mid-sentence, unclosed, is the person's text.
    """
    if _OPEN not in text:
        return text
    return "\n\n".join(part.strip() for part in cut_spans(text, _OPEN, _CLOSE) if part.strip())


def cut_spans(text: str, opening: str, closing: str, *, whole_lines: bool = False) -> list[str]:
    """The pieces of ``text`` left when every ``opening``…``closing`` span is cut out (see
    :func:`without_hook_context`); with ``whole_lines``, a marker counts only as a line of its own.

    One pass with ``str.find``, each marker position found once: the text is untrusted and may be megabytes of
    markers (a pattern with a lookahead to the end of the text took minutes on 2 MB, session 33's review).
    """
    pieces: list[str] = []
    kept = 0  # the start of the text not yet cut or kept
    start = _marker(text, opening, 0, whole_lines)
    close = _marker(text, closing, 0, whole_lines)
    while start >= 0:
        after = start + len(opening)
        following = _marker(text, opening, after, whole_lines)
        if 0 <= close < after:  # once none is found, none lies further on: never searched again (review of session 33)
            close = _marker(text, closing, after, whole_lines)
        if close >= 0 and (following < 0 or close < following):  # closed before the next one opens: cut it
            pieces.append(text[kept:start])
            kept = close + len(closing)
            start = _marker(text, opening, kept, whole_lines)
            continue
        if close < 0 and (start == 0 or text[start - 1] == "\n"):  # never closed, where Gemini puts one: to the end
            pieces.append(text[kept:start])
            return pieces
        start = following  # typed by the person (mid-line, or closed only after another opens): their text
    pieces.append(text[kept:])
    return pieces


def cut_outermost(text: str, opening: str, closing: str, *, whole_lines: bool = False) -> list[str]:
    """The pieces of ``text`` left when the span from its first ``opening`` to its last ``closing`` (or to the end) is
    cut out: for what is never the person's inside and comes last in the message (a file Gemini appends, an IDE's
    details), so a marker inside it is its text too (review of session 33), a closing one included: a repository's
    file that holds the closing line must not hand what follows it to the person (session 37's review)."""
    start = _marker(text, opening, 0, whole_lines)
    if start < 0:
        return [text]
    close = _last_marker(text, closing, start + len(opening), whole_lines)
    if close < 0:
        return [text[:start]]
    return [text[:start], text[close + len(closing) :]]


def _marker(text: str, marker: str, at: int, whole_lines: bool) -> int:
    """The next ``marker`` from ``at`` (-1: none); with ``whole_lines``, only one that is a line of its own."""
    found = text.find(marker, at)
    while whole_lines and found >= 0 and not _is_line(text, found, len(marker)):
        found = text.find(marker, found + 1)
    return found


def _last_marker(text: str, marker: str, at: int, whole_lines: bool) -> int:
    """The last ``marker`` at or after ``at`` (-1: none); with ``whole_lines``, only one that is a line of its own."""
    found = text.rfind(marker, at)
    while whole_lines and found >= 0 and not _is_line(text, found, len(marker)):
        found = text.rfind(marker, at, found + len(marker) - 1)
    return found


def _is_line(text: str, at: int, size: int) -> bool:
    end = at + size
    return (at == 0 or text[at - 1] == "\n") and (end == len(text) or text[end] in "\r\n")
