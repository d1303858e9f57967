"""JSON text another program wrote (a transcript's record, a hook's payload), decoded as orjson decodes it — but for
one thing JSON allows and orjson refuses: half of a surrogate pair, escaped. JavaScript and Python write one for text
cut inside an emoji, and orjson refuses the whole record for it (a transcript lost the turn, a hook's payload its
context). Each lone half is read as U+FFFD instead."""

from __future__ import annotations

import re
from typing import Any

import orjson

# Every escape, from its backslash, so the scan never starts inside one: ``\\`` (an escaped backslash) is consumed
# whole, and what follows it is text, not an escape. A high half followed by a low one is a pair, kept.
_ESCAPE = re.compile(
    rb"\\(?:u[dD][89abAB][0-9a-fA-F]{2}(?:\\u[dD][c-fC-F][0-9a-fA-F]{2})?|u[dD][c-fC-F][0-9a-fA-F]{2}|.)", re.S
)


def loads(raw: bytes) -> Any:
    """orjson's parse, with a lone escaped surrogate read as U+FFFD instead of losing the record."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        if b"\\u" not in raw:
            raise
        mended = _ESCAPE.sub(_mend, raw)
        if mended == raw:
            raise
        return orjson.loads(mended)


def _mend(match: re.Match[bytes]) -> bytes:
    escape = match.group()
    return b"\\ufffd" if len(escape) == 6 else escape  # one half alone; a pair is 12 bytes, any other escape 2
