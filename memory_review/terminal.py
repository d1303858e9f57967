"""Text bound for a person's terminal, with the controls a transcript or an agent could hide in it made visible.

Evidence quotes are kept verbatim (DESIGN: a quote is the turn's own text), and a rationale, a proposer's name or a
CLI's error line come from an agent, a model or a file: an escape sequence in any of them would reach the terminal
that shows it, where ``ESC[2J`` clears the screen above it (the candidate's WARNING line), ``ESC]0;…`` retitles the
window and a carriage return writes over its own line (session 37's review). Every output of the command line is shown
through :func:`printable`; JSON output escapes them itself.
"""

from __future__ import annotations

# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides and isolates that reorder what a
# line shows (Trojan Source): each is written as its escape, so the person sees that it is there.
_CONTROLS = [*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F, *range(0x80, 0xA0)]
_BIDI = [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
# A byte of a path that is no UTF-8 comes back as a lone surrogate (U+DC80 to U+DCFF): shown as that byte's escape
_UNDECODED = range(0xDC80, 0xDD00)
_VISIBLE = (
    {code: f"\\x{code:02x}" for code in _CONTROLS}
    | {code: f"\\u{code:04x}" for code in _BIDI}
    | {code: f"\\x{code - 0xDC00:02x}" for code in _UNDECODED}
)


def printable(text: str) -> str:
    """``text`` with every control character but tab and newline, and every bidi override, shown as its escape."""
    return text.translate(_VISIBLE)
