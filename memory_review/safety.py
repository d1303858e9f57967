"""Safety flags for text that may end up in a model's prompt: injection, secrets, hidden Unicode.

Agents and extractors only *propose* memories; a person approves them. These
checks exist so the person sees what a candidate may be hiding::

    possible-prompt-injection   instructions to ignore earlier rules, "you are now ...",
                                markdown images / links that exfiltrate data by URL,
                                forged ``[memory:`` tags or context-block delimiters,
                                chat role markers (``<|im_start|>``, ``system:``)
    secret                      API keys, tokens, JWTs, private keys, password assignments
    hidden-unicode              zero-width, bidi and tag characters, stray control
                                characters (also implies possible-prompt-injection)

The checks are heuristics tuned against false positives on ordinary coding
preferences ("never use tabs", "ignore the generated files in dist/"): a flag is a
hint for the reviewer, never a verdict. Everything here is pure string work;
nothing is imported from the rest of the project.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

FLAG_INJECTION = "possible-prompt-injection"
FLAG_SECRET = "secret"
FLAG_HIDDEN_UNICODE = "hidden-unicode"

# Characters that render as nothing (or reorder what is rendered) in most
# terminals and editors. A fixed list, not unicodedata categories, so the
# answer does not change between Python versions.
ZERO_WIDTH: frozenset[int] = frozenset(
    {0x00AD, 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x200B, 0x200C, 0x200D}
    | {0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x3164, 0xFEFF, 0xFFA0}
)
BIDI_CONTROLS: frozenset[int] = frozenset(
    {0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E}
    | {0x2066, 0x2067, 0x2068, 0x2069}
)
TAG_RANGE = range(0xE0000, 0xE0080)
# Supplementary variation selectors carry no glyph; runs of them smuggle data.
VARIATION_SELECTOR_RANGE = range(0xE0100, 0xE01F0)
_JOINERS = frozenset({0x200C, 0x200D})


def is_invisible_char(ch: str) -> bool:
    """True for a zero-width, bidi-control, tag or supplementary variation-selector character."""
    cp = ord(ch)
    return (
        cp in ZERO_WIDTH or cp in BIDI_CONTROLS or cp in TAG_RANGE or cp in VARIATION_SELECTOR_RANGE
    )


def is_control_char(ch: str) -> bool:
    """True for C0/C1 control characters and DEL, except tab and newline."""
    cp = ord(ch)
    return (cp < 0x20 and ch not in "\t\n") or 0x7F <= cp <= 0x9F


def _joins_script(text: str, i: int) -> bool:
    """A ZWJ/ZWNJ between two non-ASCII letters, marks or symbols is normal writing.

    Persian and Indic scripts need ZWNJ between letters, and emoji sequences
    (family, flags with gender) need ZWJ; an attacker's joiner sits between
    ASCII letters or on its own.
    """
    if ord(text[i]) not in _JOINERS or i == 0 or i + 1 >= len(text):
        return False
    return _script_char(text[i - 1]) and _script_char(text[i + 1])


def _script_char(ch: str) -> bool:
    return ord(ch) > 0x7F and unicodedata.category(ch)[0] in "LMS"


def _is_hidden_at(text: str, i: int) -> bool:
    ch = text[i]
    if is_control_char(ch):
        # A CR that ends a CRLF line is a Windows newline, not hidden content.
        return not (ch == "\r" and text[i + 1 : i + 2] == "\n")
    return is_invisible_char(ch) and not _joins_script(text, i)


def _char_class(codepoints: list[int]) -> str:
    return "".join(re.escape(chr(cp)) for cp in sorted(codepoints))


# Character-class bodies (for ``re``) of exactly the characters the two predicates above accept:
# scanning with a regex first keeps long text fast, as most text holds none of them.
CONTROL_CLASS = _char_class([cp for cp in range(0xA0) if is_control_char(chr(cp))])
INVISIBLE_CLASS = (
    _char_class(sorted(ZERO_WIDTH | BIDI_CONTROLS))
    + f"{chr(TAG_RANGE[0])}-{chr(TAG_RANGE[-1])}"
    + f"{chr(VARIATION_SELECTOR_RANGE[0])}-{chr(VARIATION_SELECTOR_RANGE[-1])}"
)
CONTROL_CHARS = re.compile(f"[{CONTROL_CLASS}]")
INVISIBLE_CHARS = re.compile(f"[{INVISIBLE_CLASS}]")
# Every character that *might* be hidden; _is_hidden_at decides.
_MAYBE_HIDDEN = re.compile(f"[{CONTROL_CLASS}{INVISIBLE_CLASS}]")


def hidden_positions(text: str) -> list[int]:
    """Indexes of every hidden character (invisible, bidi, tag or stray control) in ``text``."""
    return [m.start() for m in _MAYBE_HIDDEN.finditer(text) if _is_hidden_at(text, m.start())]


def _replace_hidden(text: str, marker: Callable[[str], str]) -> str:
    def one(match: re.Match[str]) -> str:
        return marker(match.group()) if _is_hidden_at(text, match.start()) else match.group()

    return _MAYBE_HIDDEN.sub(one, text)


def strip_invisible(text: str) -> str:
    """Remove every hidden character; joiners inside normal script and CRLF are kept."""
    return _replace_hidden(text, lambda ch: "")


def visible_form(text: str) -> str:
    """Replace every hidden character with a visible ``<U+200B>``-style marker (for the UI)."""
    return _replace_hidden(text, lambda ch: f"<U+{ord(ch):04X}>")


# --------------------------------------------------------------------------- injection

_VERB = (
    r"(?:ignore|disregard|forget|override|overrule|bypass|circumvent|abandon|neglect"
    r"|set\s+aside|do\s+not\s+follow|don'?t\s+follow|stop\s+following|no\s+longer\s+follow)"
)
_QUALIFIER = (
    r"(?:previous|previously|prior|above|earlier|preceding|former|foregoing|original|initial"
    r"|system|developer|safety)"
)
_TARGET = (
    r"(?:instructions?|rules?|prompts?|directives?|directions?|guidelines?|guardrails?"
    r"|polic(?:y|ies)|constraints?|restrictions?|messages?|context|commands?|orders?"
    r"|programming|training|system\s+prompt|memor(?:y|ies))"
)
_DETERMINERS = r"(?:(?:all|any|every|each|the|of|your|my|their|these|those|its)\s+){0,3}"
_ROLE_WORDS = r"(?:system|assistant|developer|human)"

@functools.cache
def _injection_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    # Compiled on first use: most commands (context, the hook) never scan for injections.
    return tuple(
        (kind, re.compile(pattern, re.IGNORECASE | re.MULTILINE))
        for kind, pattern in (
            # "ignore all previous instructions", "disregard the system prompt"
            ("override", rf"\b{_VERB}\s+{_DETERMINERS}{_QUALIFIER}\s+(?:[\w-]+\s+)?{_TARGET}\b"),
            # "ignore all rules", "forget your instructions" (no word in between, so
            # "ignore all lint rules for tests/" stays a normal preference)
            (
                "override",
                (
                    rf"\b{_VERB}\s+(?:all|any|every|your)\s+(?:of\s+)?(?:the\s+|your\s+|my\s+)?"
                    r"(?:instructions|rules|guidelines|guardrails|directives|prompts|restrictions"
                    r"|constraints|programming)\b"
                ),
            ),
            (
                "override",
                r"\bforget\s+(?:everything|all)\s+(?:you|that|above|before|previously|else)\b",
            ),
            (
                "system-prompt",
                (
                    r"\b(?:reveal|print|show|output|repeat|leak|dump|display|disclose|ignore|override)"
                    r"\s+(?:[\w-]+\s+){0,3}?(?:system|initial|hidden)\s+(?:prompt|message|instructions?)\b"
                ),
            ),
            ("role-change", r"\byou\s+are\s+now\b"),
            (
                "role-change",
                r"\bpretend\s+(?:that\s+)?you\s+(?:are|have)\s+(?:no|not|an?\s+unrestricted)\b",
            ),
            ("role-change", r"\b(?:DAN|developer|god)\s+mode\s+(?:enabled|activated|on)\b"),
            (
                "new-instructions",
                (
                    r"^\W{0,6}(?:new|updated|real|actual|true|additional|hidden|secret|override)\s+"
                    r"(?:system\s+)?instructions?\s*:"
                ),
            ),
            ("new-instructions", r"\bnew\s+system\s+prompt\b"),
            (
                "concealment",
                (
                    r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|notify|alert)\s+(?:the\s+)?"
                    r"(?:user|human|reviewer|operator)\b"
                ),
            ),
            (
                "concealment",
                (
                    r"\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose)\s+(?:this|these|it|that)\b"
                    r"[^.\n]{0,40}?\b(?:user|human|reviewer|operator)\b"
                ),
            ),
            (
                "concealment",
                r"\bwithout\s+(?:telling|informing|notifying|alerting)\s+(?:the\s+)?(?:user|human|reviewer|operator)\b",
            ),
            # Any remote markdown image is fetched when rendered, so its URL can carry data out.
            ("exfiltration", r"!\[[^\]\n]{0,200}\]\(\s*<?\s*(?:https?:)?//"),
            ("exfiltration", r"<img\b[^>]{0,200}?\bsrc\s*=\s*[\"']?\s*(?:https?:)?//"),
            (
                "exfiltration",
                (
                    r"\]\(\s*<?\s*(?:https?:)?//[^\s)?]{1,300}\?[^\s)]{0,300}?"
                    r"(?:[{}$]|%7[bd]|(?<![a-z0-9+/_=-])[a-z0-9+/_=-]{40})"
                ),
            ),
            (
                "exfiltration",
                (
                    r"(?:https?:)?//[^\s<>\"')?]{1,300}\?[^\s<>\"')]{0,300}?"
                    r"(?:\{\{?\s*[\w.-]{1,40}\s*\}|\$\{|\$\(|<[A-Z_]{2,40}>)"
                ),
            ),
            ("forged-tag", r"\[\s*memory\s*:"),
            ("forged-tag", r"<\s*/?\s*memory(?:[-_][a-z]+)*\b"),
            ("role-marker", r"<\|[a-z0-9_]{1,30}\|>"),
            ("role-marker", r"\[/?INST\]|<</?SYS>>"),
            ("role-marker", rf"^[ \t>]*(?:#{{1,6}}[ \t]*)?{_ROLE_WORDS}[ \t]*:"),
            (
                "role-marker",
                r"<\s*/?\s*(?:system|system[-_]prompt|instructions|assistant|developer)\s*>",
            ),
        )
    )


@dataclass(frozen=True)
class Finding:
    """Why a flag was raised: the flag, a short kind, and the matched text (secrets redacted)."""

    flag: str
    kind: str
    excerpt: str


def injection_findings(text: str) -> list[Finding]:
    """Every injection pattern that matches ``text`` (after NFKC and removing hidden characters).

    NFKC first, so fullwidth ``ｉｇｎｏｒｅ`` reads as ``ignore``; hidden characters
    are removed so ``ig\u200bnore`` cannot split a keyword.
    """
    plain = unicodedata.normalize("NFKC", strip_invisible(text))
    found = []
    for kind, pattern in _injection_patterns():
        match = pattern.search(plain)
        if match:
            found.append(Finding(FLAG_INJECTION, kind, match.group(0)[:120]))
    return found


# --------------------------------------------------------------------------- secrets

_PLACEHOLDER = re.compile(
    r"^(?:<[^>]*>|\$\{?[A-Za-z_]\w*\}?|\{\{?[^}]*\}\}?|%\(?\w*\)?s|\*{3,}|[xX]{3,}|\.{3}|…"
    r"|\[REDACTED(?::[\w-]+)?\]|None|null|nil|true|false|(?i:redacted|example|placeholder"
    r"|changeme|secret|password|your[_-]?\w*|env\b.*|os\.environ.*|os\.getenv.*"
    r"|process\.env.*|getpass.*|keyring.*))$"
)
_PASSWORD_SYMBOLS = frozenset("!@#$%^&*?~+")
_SECRET_GROUPS = ("secret", "dq", "sq", "bare")


def _shannon_bits(token: str) -> float:
    counts = Counter(token)
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())


def looks_random(token: str) -> bool:
    """A long token that mixes character classes like a generated key, not like a word.

    Mixed case with digits (base64) needs high entropy; lowercase/digit tokens
    (hex) need a real share of digits, so ``use_pep8_naming`` is not a key.
    """
    if len(token) < 20:
        return False
    lower = any(c.islower() for c in token)
    upper = any(c.isupper() for c in token)
    digits = sum(c.isdigit() for c in token)
    if lower and upper and (digits or "+" in token or "/" in token):
        return _shannon_bits(token) >= 3.5
    return digits / len(token) >= 0.2 and (lower or upper) and _shannon_bits(token) >= 3.0


def _not_placeholder(value: str) -> bool:
    return not _PLACEHOLDER.match(value.strip())


def _password_value(match: re.Match[str]) -> bool:
    value = _span_text(match)
    if not _not_placeholder(value):
        return False
    if match.group("dq") or match.group("sq"):
        return True
    # A bare word after "password:" is usually prose or a type ("password: str").
    return any(c.isdigit() for c in value) or any(c in _PASSWORD_SYMBOLS for c in value)


def _token_value(match: re.Match[str]) -> bool:
    return _not_placeholder(_span_text(match)) and looks_random(_span_text(match))


def _has_digit(match: re.Match[str]) -> bool:
    return any(c.isdigit() for c in _span_text(match))


_ALWAYS: Callable[[re.Match[str]], bool] = lambda match: True
_KEY_PREFIX = r"(?<![A-Za-z0-9_-])"
@functools.cache
def _secret_patterns() -> tuple[tuple[str, re.Pattern[str], Callable[[re.Match[str]], bool]], ...]:
    # Compiled on first use, like the injection patterns.
    return tuple(
        (kind, re.compile(pattern), check)
        for kind, pattern, check in (
            (
                "private-key",
                (
                    r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
                    r"(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----|\Z)"
                ),
                _ALWAYS,
            ),
            ("anthropic-key", rf"{_KEY_PREFIX}sk-ant-[A-Za-z0-9_-]{{20,}}", _ALWAYS),
            (
                "openai-key",
                rf"{_KEY_PREFIX}sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{{20,}}",
                _has_digit,
            ),
            (
                "github-token",
                rf"{_KEY_PREFIX}(?:gh[pousr]_[A-Za-z0-9]{{30,}}|github_pat_[A-Za-z0-9_]{{22,}})",
                _ALWAYS,
            ),
            ("slack-token", rf"{_KEY_PREFIX}xox[abposr]-[A-Za-z0-9-]{{10,}}", _has_digit),
            ("aws-access-key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", _ALWAYS),
            ("google-api-key", rf"{_KEY_PREFIX}AIza[0-9A-Za-z_-]{{35}}", _ALWAYS),
            ("stripe-key", rf"{_KEY_PREFIX}(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{{16,}}", _ALWAYS),
            ("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", _ALWAYS),
            (
                "url-credentials",
                r"(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s/:@]{1,100}:(?P<secret>[^\s/@]{1,100})@",
                lambda m: _not_placeholder(_span_text(m)),
            ),
            ("bearer-token", r"\b[Bb]earer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)", _has_digit),
            (
                "password",
                (
                    r"(?i)\b(?:[a-z0-9]{1,30}[_-]){0,6}+(?:password|passwd|passphrase|pwd)s?\b[\"']?"
                    r"(?:\s*[:=]\s*|\s+is\s+)"
                    r"(?:\"(?P<dq>[^\"\n]{1,200})\"|'(?P<sq>[^'\n]{1,200})'|(?P<bare>[^\s\"',;)=][^\s\"',;)]{0,199}))"
                ),
                _password_value,
            ),
            (
                "token",
                (
                    r"(?i)\b(?:[a-z0-9]{1,30}[_-]){0,6}+(?:token|secret|key|apikey)s?\b[\"']?"
                    r"(?:\s*[:=]\s*|\s+is\s+|\s+)[\"']?(?P<secret>[A-Za-z0-9+/_.=-]{20,200})"
                ),
                _token_value,
            ),
        )
    )


@dataclass(frozen=True)
class SecretMatch:
    """One secret in a text: its kind and the span to redact."""

    kind: str
    start: int
    end: int


def _span(match: re.Match[str]) -> tuple[int, int]:
    for name in _SECRET_GROUPS:
        if name in match.re.groupindex and match.group(name) is not None:
            return match.span(name)
    return match.span()


def _span_text(match: re.Match[str]) -> str:
    start, end = _span(match)
    return match.string[start:end]


def _candidates(text: str) -> Iterator[SecretMatch]:
    for kind, pattern, check in _secret_patterns():
        for match in pattern.finditer(text):
            if check(match):
                yield SecretMatch(kind, *_span(match))


def find_secrets(text: str) -> list[SecretMatch]:
    """Non-overlapping secrets in ``text``, in order; the earliest (then longest) match wins."""
    ordered = sorted(_candidates(text), key=lambda m: (m.start, -(m.end - m.start)))
    kept: list[SecretMatch] = []
    for match in ordered:
        if not kept or match.start >= kept[-1].end:
            kept.append(match)
    return kept


def redact(text: str) -> str:
    """Replace each secret with ``[REDACTED:<kind>]``, keeping every other character."""
    parts, last = [], 0
    for match in find_secrets(text):
        parts.append(text[last : match.start])
        parts.append(f"[REDACTED:{match.kind}]")
        last = match.end
    parts.append(text[last:])
    return "".join(parts)


# --------------------------------------------------------------------------- scan


def findings(text: str) -> list[Finding]:
    """Everything ``scan`` found, with a reason each, for showing the reviewer why."""
    found: list[Finding] = []
    hidden = hidden_positions(text)
    if hidden:
        markers = "".join(f"<U+{ord(text[i]):04X}>" for i in hidden[:8])
        found.append(Finding(FLAG_HIDDEN_UNICODE, "hidden-characters", markers))
        found.append(Finding(FLAG_INJECTION, "hidden-characters", markers))
    found.extend(injection_findings(text))
    found.extend(Finding(FLAG_SECRET, m.kind, f"[REDACTED:{m.kind}]") for m in find_secrets(text))
    return found


def scan(text: str) -> frozenset[str]:
    """The set of flags (``FLAG_*``) that apply to ``text``; empty when nothing looks wrong."""
    return frozenset(finding.flag for finding in findings(text))
