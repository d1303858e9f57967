"""Identifiers and the paths built from them: memory slugs, candidate/session ids, store children.

Every id here ends up in a file name (``memory/<id>-<rev>.md``,
``candidates/<id>.json``, ``sessions/<id>.json``), so each check first refuses
anything that could change a path — separators, ``..``, percent-encoding, NUL,
control/bidi/zero-width/tag characters, text that NFKC folds into something else
(fullwidth ``．．／``), Windows device names, over-long keys — with
``UnsafePathError``, and only then matches the id's own pattern
(``ValidationError``). ``safe_child`` is the last line: whatever the id, the path
it builds must resolve inside the store, symlinks followed.
"""

from __future__ import annotations

import functools
import re
import secrets
import threading
import time
import unicodedata
from pathlib import Path, PurePosixPath, PureWindowsPath

from memory_review import safety
from memory_review.errors import UnsafePathError, ValidationError

SLUG_MAX = 64
SESSION_ID_MAX = 128
SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
SESSION_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
CANDIDATE_PREFIX = "cand_"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CANDIDATE_ID_RE = re.compile(r"^cand_[0-9A-HJKMNP-TV-Z]{26}$")

WINDOWS_DEVICE_NAMES = frozenset(
    {"con", "prn", "aux", "nul", "conin$", "conout$"} | {f"com{i}" for i in range(10)} | {f"lpt{i}" for i in range(10)}
)


def shown(value: str) -> str:
    """A name read from disk, fit for a message: repr (escapes invisible characters), cut to 80 chars.

    Never print a raw file name found in a store: it may hold a terminal escape or a shell snippet.
    """
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


_show = shown


def is_windows_device_name(name: str) -> bool:
    """True for ``con``, ``nul.txt``, ``COM1.json``, ``aux.``: names Windows opens as devices."""
    stem = name.split(".", 1)[0].rstrip(" ").lower()
    return stem in WINDOWS_DEVICE_NAMES


# NUL, tab, newline and every other control, invisible, bidi or tag character: none belongs in a file name.
_UNSAFE_CHAR = re.compile(f"[\t\n{safety.CONTROL_CLASS}{safety.INVISIBLE_CLASS}]")


def _char_problem(value: str) -> str | None:
    bad = _UNSAFE_CHAR.search(value)
    if bad is None:
        return None
    ch = bad.group()
    if ch == "\x00":
        return "contains a NUL byte"
    if safety.is_invisible_char(ch):
        return f"contains the invisible, bidi or tag character U+{ord(ch):04X}"
    return f"contains the control character U+{ord(ch):04X}"


def _path_problem(value: str, max_len: int) -> str | None:
    """Why ``value`` is unsafe as a file-name component, or None. Cheapest checks first."""
    if len(value) > max_len:
        return f"is {len(value)} characters long; at most {max_len} are allowed"
    problem = _char_problem(value)
    if problem:
        return problem
    folded = unicodedata.normalize("NFKC", value)
    if folded != value:
        return f"changes under Unicode NFKC normalisation (to {_show(folded)}); lookalike characters are not allowed"
    if "/" in value or "\\" in value:
        return "contains a path separator ('/' or '\\')"
    if ".." in value:
        return "contains '..'"
    if "%" in value:
        return "contains '%' (percent-encoded names are not accepted)"
    if is_windows_device_name(value):
        return "is a reserved Windows device name"
    return None


def _check(
    value: object,
    *,
    field: str,
    pattern: re.Pattern[str],
    max_len: int,
    rule: str,
    path: Path | str | None,
) -> str:
    if type(value) is str and _is_safe(value, pattern, max_len):
        return value  # checked before: an id is checked several times on its way through a commit or verify
    if not isinstance(value, str):
        raise ValidationError(f"must be a string, not {type(value).__name__}", path=path, field=field)
    if not value:
        raise ValidationError("is empty", path=path, field=field)
    problem = _path_problem(value, max_len)
    if problem:
        raise UnsafePathError(f"{_show(value)} {problem}", path=path, field=field)
    if not pattern.fullmatch(value):
        raise ValidationError(f"{_show(value)} is not valid: {rule}", path=path, field=field)
    return value


@functools.lru_cache(maxsize=1 << 14)
def _is_safe(value: str, pattern: re.Pattern[str], max_len: int) -> bool:
    """Whether :func:`_check` accepts ``value`` (a pure function of its arguments, so its answer is kept:
    an id meets this check about six times per memory in a ``verify``). A False sends the value through
    :func:`_check`'s own steps, which say what is wrong."""
    return bool(value) and _path_problem(value, max_len) is None and pattern.fullmatch(value) is not None


def check_slug(value: str, *, field: str = "id", path: Path | str | None = None) -> str:
    """Return ``value`` if it is a safe memory id (``^[a-z0-9][a-z0-9_-]{0,63}$``).

    Raises UnsafePathError for path/lookalike attacks, ValidationError otherwise;
    ``path`` names the file the id came from, for the message.
    """
    rule = "use 1-64 lowercase letters, digits, '-' or '_', starting with a letter or digit"
    return _check(value, field=field, pattern=SLUG_RE, max_len=SLUG_MAX, rule=rule, path=path)


def check_session_id(value: str, *, field: str = "session_id", path: Path | str | None = None) -> str:
    """Return ``value`` if it is a safe session id: ``^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$``."""
    rule = "use 1-128 letters, digits, '.', '-' or '_', starting with a letter or digit"
    return _check(value, field=field, pattern=SESSION_ID_RE, max_len=SESSION_ID_MAX, rule=rule, path=path)


def check_candidate_id(value: str, *, field: str = "candidate", path: Path | str | None = None) -> str:
    """Return ``value`` if it is ``cand_`` + 26 Crockford base32 characters."""
    rule = "expected 'cand_' followed by 26 characters of Crockford base32 (0-9, A-Z without I L O U)"
    max_len = len(CANDIDATE_PREFIX) + 26
    return _check(value, field=field, pattern=CANDIDATE_ID_RE, max_len=max_len, rule=rule, path=path)


# --------------------------------------------------------------------------- new ids

_id_lock = threading.Lock()
_last_id: list[int] = [-1, 0]  # [ms, random part] of the last id this process made


def _encode_crockford(number: int, length: int) -> str:
    chars = []
    for _ in range(length):
        number, digit = divmod(number, 32)
        chars.append(CROCKFORD[digit])
    return "".join(reversed(chars))


def _next_random(ms: int) -> int:
    """80 random bits; within one millisecond, the last value + 1 so ids keep their order."""
    with _id_lock:
        if ms == _last_id[0] and _last_id[1] < (1 << 80) - 1:
            _last_id[1] += 1
        else:
            _last_id[0], _last_id[1] = ms, secrets.randbits(80)
        return _last_id[1]


def new_candidate_id(now: float | None = None) -> str:
    """A new ``cand_`` id: 48-bit Unix time in ms + 80 random bits, Crockford base32 (ULID-like).

    Ids sort by creation time; ids made by one process in the same millisecond
    still sort in the order they were made.
    """
    ms = int((time.time() if now is None else now) * 1000)
    if not 0 <= ms < 1 << 48:
        raise ValidationError(f"time {now!r} is outside the 48-bit millisecond range of candidate ids")
    return CANDIDATE_PREFIX + _encode_crockford((ms << 80) | _next_random(ms), 26)


def candidate_id_ms(value: str) -> int:
    """The Unix time in milliseconds encoded at the front of a candidate id."""
    check_candidate_id(value)
    number = 0
    for ch in value[len(CANDIDATE_PREFIX) :]:
        number = number * 32 + CROCKFORD.index(ch)
    return number >> 80


def new_origin_id() -> str:
    """A random 16-hex-character id for one store replica (the ``origin`` of its events)."""
    return secrets.token_hex(8)


# --------------------------------------------------------------------------- paths


def _part_problem(part: str) -> str | None:
    if not isinstance(part, str):
        return f"is a {type(part).__name__}, not a string"
    if not part:
        return "is empty"
    if "\x00" in part:
        return "contains a NUL byte"
    if "\\" in part:
        return "contains a backslash"
    if PurePosixPath(part).is_absolute() or PureWindowsPath(part).drive:
        return "is an absolute or drive path"
    if ".." in PurePosixPath(part).parts:
        return "contains a '..' component"
    return None


def safe_child(root: Path, *parts: str) -> Path:
    """``root`` joined with ``parts`` and resolved; UnsafePathError unless strictly inside root.

    Symlinks are followed (also dangling ones), so a link planted in the store
    that points outside it is refused. Parts may hold '/' (``"memory/x.md"``) but
    never '..', backslashes, NUL, or an absolute/drive path.
    """
    for part in parts:
        problem = _part_problem(part)
        if problem:
            raise UnsafePathError(f"path part {_show(str(part))} {problem}", path=root)
    base = Path(root).resolve()
    try:
        target = base.joinpath(*parts).resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise UnsafePathError(f"cannot resolve {'/'.join(parts)!r}: {exc}", path=root) from exc
    if target == base or not target.is_relative_to(base):
        raise UnsafePathError(f"{'/'.join(parts)!r} resolves to {str(target)!r}, outside the store", path=root)
    return target
