"""Text bound for a person's terminal, with the controls a transcript or an agent could hide in it made visible.

Evidence quotes are kept verbatim (DESIGN: a quote is the turn's own text), and a rationale, a proposer's name or a
CLI's error line come from an agent, a model or a file: an escape sequence in any of them would reach the terminal
that shows it, where ``ESC[2J`` clears the screen above it (the candidate's WARNING line), ``ESC]0;…`` retitles the
window and a carriage return writes over its own line (session 37's review). Every output of the command line is shown
through :func:`printable`; JSON output escapes them too (:func:`json_bytes`).
"""

from __future__ import annotations

import re
from typing import Any

import orjson

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


# JSON escapes C0 controls itself; DEL, C1 and the bidi controls are valid in a JSON string and orjson writes them raw,
# where a person piping ``--json`` to a terminal would get them. In UTF-8 each starts with a lead byte (0x7F, 0xC2,
# 0xE2) that no continuation byte equals, so a match on the bytes always starts a character.
_JSON_RAW = re.compile(rb"\x7f|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]")


def json_bytes(document: Any, *, indent: bool = True) -> bytes:
    """``document`` as JSON for a terminal or a program, one line end after it: what JSON allows raw but a terminal
    acts on (DEL, C1, bidi controls) written as ``\\uXXXX`` escapes, which every JSON reader decodes the same."""
    try:
        data = orjson.dumps(document, option=orjson.OPT_INDENT_2 if indent else 0)
    except orjson.JSONEncodeError:  # a lone surrogate (a path's undecodable byte): JSON can carry it as its escape
        import json  # rare: kept off the per-prompt path's imports

        data = json.dumps(document, indent=2 if indent else None, separators=None if indent else (",", ":")).encode()
    return _JSON_RAW.sub(_escaped, data) + b"\n"


def _escaped(match: re.Match[bytes]) -> bytes:
    return b"\\u%04x" % ord(match.group().decode())
