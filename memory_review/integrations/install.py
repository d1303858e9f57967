"""``memory-review install|uninstall claude-code|codex|gemini``: our hooks, deny rules and auto-memory switch in a
Claude Code ``settings.json`` (ADR 0011, 0022); our hooks alone in Codex's ``hooks.json`` (ADR 0027) and
Gemini CLI's ``settings.json`` (ADR 0035), which take the same hook JSON.

Claude Code reads ``~/.claude/settings.json`` (user; ``$CLAUDE_CONFIG_DIR`` moves it),
``<project>/.claude/settings.json`` (project, shared) and ``<project>/.claude/settings.local.json``
(local, personal). What goes in is :mod:`claude_settings`' business; this module finds the
file, guards it and keeps the backup:

* A symlinked settings file (a dotfiles set-up) is edited at its target, so the link stays a
  link. A project or local file must resolve inside the project (and not into ``.git``); a
  user file inside the user's config dir or home, owned by the user. Anything else is refused
  before a byte is read, so outside content is never copied into the repository.
* Before the first change the file's bytes are copied to the *user store*
  (``<user store>/install-backups/``), never next to a project file where it would be committed.
  Hooks of ours already there with no backup of this machine's (a teammate's install, committed in a
  shared file) are recorded the same way: install keeps the bytes it found, even when it changes nothing.
* Uninstall takes out exactly what is ours; when what is left equals the backup with ours taken out,
  the backup's bytes are put back, so a round trip leaves the file byte-identical (a teammate's entries
  included). Otherwise the backup's own entries of ours go back where they stood, and the backup moves
  aside (``.kept``): a later install must not take it for its record. A file install created is removed again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import stat
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from memory_review.errors import MemoryReviewError, StorageError, UnsafePathError, ValidationError
from memory_review.events.durable import atomic_replace, remove_file
from memory_review.events.safe_fs import FileTooLarge, UnsafeFile, read_file_or
from memory_review.integrations.agents import (
    CODEX,
    CONTEXT_EVENTS,
    GEMINI,
    HOOK_EVENTS,
    agent_named,
)
from memory_review.integrations.claude_settings import (
    Wanted,
    deny_rules,
    has_our_hooks,
    is_ours,
    merge_settings,
    programs_for,
    put_back_hooks,
    reads_the_project_first,
    strip_settings,
)
from memory_review.paths import PROJECT_STORE_DIR

if TYPE_CHECKING:
    from memory_review.workspace import Workspace

SettingsScope = Literal["user", "project", "local"]
Agent = Literal["claude-code", "codex", "gemini"]
# Codex's hooks.json and Gemini CLI's settings.json take Claude Code's hook JSON (payload on stdin,
# hookSpecificOutput.additionalContext back): the same hook serves them, named `hook codex|gemini`.
CODEX_EVENTS = tuple(CODEX.events)
GEMINI_EVENTS = tuple(GEMINI.events)
HOOK_NAME = "memory-review"  # Gemini's `/hooks disable memory-review` names hooks by this
BACKUP_DIR = "install-backups"
CREATED = b"(no file was here: install created it, and uninstall deletes it)\n"
"""The backup of a file install created; no JSON, so no file install found reads the same."""
MAX_SETTINGS_BYTES = 4 * 1024 * 1024
# Claude Code's own limit per hook (seconds); ours stop earlier (claude_hooks deadlines).
TIMEOUTS = {event: (10 if event in CONTEXT_EVENTS else 30) for event in HOOK_EVENTS}


@dataclass(frozen=True)
class InstallResult:
    """What install/uninstall did to one settings file."""

    agent: str
    settings: str
    action: str  # installed | updated | unchanged | removed | restored | deleted | not-installed
    events: list[str] = field(default_factory=list)
    backup: str | None = None
    command: str | None = None
    store_created: bool = False
    edited: str | None = None  # the symlink's target, when the settings path is a link
    deny_rules: int = 0  # rules of ours in the file after install / taken out by uninstall
    auto_memory: str | None = None  # "off" | "kept" | "restored"
    auto_memory_folder: str | None = None  # Claude Code's existing auto memory of this project
    gitignore: str | None = None
    extractor: str | None = None  # the hooks' extractor, when install set it
    hooks_switch: str | None = None  # Gemini CLI: what its settings say of the hooks system (ADR 0041)


@dataclass(frozen=True)
class Target:
    """The settings path Claude Code reads, the file we edit (its symlink target) and where its backup goes."""

    path: Path
    real: Path
    backup: Path


def settings_path(
    scope: SettingsScope, root: Path, environ: dict[str, str] | None = None, agent: Agent = "claude-code"
) -> Path:
    """The settings file Claude Code (or Codex's hooks file, or Gemini CLI) reads for ``scope``."""
    if agent == "gemini":
        if scope == "local":
            raise ValidationError(
                "Gemini CLI has no local settings file; use --project (.gemini/settings.json) or --user"
            )
        return (gemini_home(environ) if scope == "user" else root / ".gemini") / "settings.json"
    if agent == "codex":
        if scope == "local":
            raise ValidationError("Codex has no local hooks file; use --project (.codex/hooks.json) or --user")
        return (codex_home(environ) if scope == "user" else root / ".codex") / "hooks.json"
    if scope == "user":
        return config_dir(environ) / "settings.json"
    name = "settings.local.json" if scope == "local" else "settings.json"
    return root / ".claude" / name


def config_dir(environ: dict[str, str] | None = None) -> Path:
    """Claude Code's user config dir: ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``."""
    env = os.environ if environ is None else environ
    base = Path(env["CLAUDE_CONFIG_DIR"]) if env.get("CLAUDE_CONFIG_DIR") else Path.home() / ".claude"
    return base.expanduser().absolute()


def codex_home(environ: dict[str, str] | None = None) -> Path:
    """Codex's home: ``$CODEX_HOME``, else ``~/.codex``."""
    env = os.environ if environ is None else environ
    base = Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else Path.home() / ".codex"
    return base.expanduser().absolute()


def gemini_home(environ: dict[str, str] | None = None) -> Path:
    """Gemini CLI's folder: ``$GEMINI_CLI_HOME/.gemini`` (its home override), else ``~/.gemini``."""
    env = os.environ if environ is None else environ
    base = Path(env["GEMINI_CLI_HOME"]) if env.get("GEMINI_CLI_HOME") else Path.home()
    return (base.expanduser() / ".gemini").absolute()


def user_config_dir(agent: Agent, environ: dict[str, str] | None = None) -> Path:
    """The agent's own folder, where a user settings file may live (or link from)."""
    return {"codex": codex_home, "gemini": gemini_home}.get(agent, config_dir)(environ)


def auto_memory_dir(root: Path, environ: dict[str, str] | None = None) -> Path:
    """Where Claude Code keeps its auto memory of ``root``: ``projects/<path, non-alphanumerics as ->/memory``."""
    return config_dir(environ) / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(root)) / "memory"


def hook_command(agent: Agent = "claude-code") -> str:
    """How the agent should run the hook: by name when PATH finds this very install, else by full path.

    A bare name keeps a shared project settings file portable; a full path keeps a
    virtualenv install working when the agent's PATH does not include the venv.
    """
    args = agent_named(agent).hook_args
    here = _this_executable()
    on_path = shutil.which("memory-review")
    if on_path and (here is None or Path(on_path).resolve() == here):
        return shlex.join(["memory-review", *args])
    if here is not None:
        return shlex.join([str(here), *args])
    # -P: the agent runs hooks in the project, which `python -m` would put first on sys.path (a repository's own
    # secrets.py or memory_review/ would run in place of ours)
    return shlex.join([sys.executable, "-P", "-m", "memory_review.cli", *args])


def _this_executable() -> Path | None:
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    return script.resolve() if script is not None and script.name == "memory-review" else None


def wanted(command: str, *, keep_auto_memory: bool) -> Wanted:
    """Our part of the settings for a hook ``command``; the deny rules cover every way to run the tool."""
    executables = [str(p) for p in (_this_executable(), _which()) if p is not None]
    entries = {event: {"type": "command", "command": command, "timeout": TIMEOUTS[event]} for event in HOOK_EVENTS}
    rules = deny_rules(programs_for(command, extra=[shlex.quote(p) for p in executables]))
    return Wanted(hooks=entries, deny=rules, auto_memory_off=not keep_auto_memory)


def codex_wanted(command: str) -> Wanted:
    """Our part of a Codex ``hooks.json``: the hook on the events Codex has (no permissions, no auto memory)."""
    entries = {event: {"type": "command", "command": command, "timeout": TIMEOUTS[event]} for event in CODEX_EVENTS}
    return Wanted(hooks=entries, deny=(), auto_memory_off=False)


def gemini_wanted(command: str) -> Wanted:
    """Our part of a Gemini CLI ``settings.json``: the hook on its events, timeouts in milliseconds, named."""
    entries = {
        event: {
            "name": HOOK_NAME,
            "type": "command",
            "command": command,
            "timeout": TIMEOUTS[ours] * GEMINI.timeout_unit,
        }
        for event, ours in GEMINI.events.items()
    }
    return Wanted(hooks=entries, deny=(), auto_memory_off=False)


GEMINI_SWITCHES = (("hooksConfig", "enabled"), ("tools", "enableHooks"))
"""Where Gemini CLI versions have kept the hooks system's switch (the newer name first)."""


def gemini_hooks_switch(root: Path, environ: dict[str, str] | None = None) -> str:
    """What Gemini CLI's settings say of its hooks system, read, never written (ADR 0041).

    The switch has changed name between versions and is on by default in newer ones, so install does
    not guess a key to write (uninstall stays byte-identical); it reports the one it finds. The project
    file wins over the user's, as in Gemini's own precedence.
    """
    for scope in ("project", "user"):
        try:  # read as install would edit it: a link followed only where install would follow it
            target = locate(scope, root, backups=Path(BACKUP_DIR), environ=environ, agent="gemini")
            raw = _read(target.real)
            data = _parse(raw, target.path) if raw is not None else {}
        except MemoryReviewError as exc:
            return f"not known: {str(exc).split('; nothing was')[0]}"
        for section, key in GEMINI_SWITCHES:
            value = data.get(section, {}).get(key) if isinstance(data.get(section), dict) else None
            if isinstance(value, bool):
                return f"{'on' if value else 'OFF'}: {section}.{key} is {str(value).lower()} in {target.path}"
    return "not set in your settings"


def _wanted_for(agent: Agent, command: str, *, keep_auto_memory: bool) -> Wanted:
    if agent == "codex":
        return codex_wanted(command)
    if agent == "gemini":
        return gemini_wanted(command)
    return wanted(command, keep_auto_memory=keep_auto_memory)


def _which() -> Path | None:
    found = shutil.which("memory-review")
    return Path(found).resolve() if found else None


# --- install -----------------------------------------------------------------------------------


def install(
    ws: Workspace,
    *,
    scope: SettingsScope = "project",
    command: str | None = None,
    keep_auto_memory: bool = False,
    extractor: str | None = None,
    agent: Agent = "claude-code",
) -> InstallResult:
    """Install for ``scope``; a project/local install also creates the project store (the hooks act
    only where one exists) and keeps it out of the project's branches (``.gitignore``). ``extractor``
    records the person's choice of extractor for the hooks in their user store (ADR 0026)."""
    target = locate(scope, ws.root, backups=ws.store_dir("user") / BACKUP_DIR, agent=agent)
    if scope != "user":
        _check_store_place(ws.store_dir("project"))
    result = install_claude_code(target, command=command, keep_auto_memory=keep_auto_memory, agent=agent)
    if extractor is not None:
        from memory_review.extract.cli_config import set_hook_extractor

        set_hook_extractor(ws.store_dir("user"), agent, extractor)
        result = replace(result, extractor=extractor)
    folder = auto_memory_dir(ws.root)
    if agent == "claude-code":
        result = replace(result, auto_memory_folder=str(folder) if folder.is_dir() else None)
    if agent == "gemini":
        result = replace(result, hooks_switch=gemini_hooks_switch(ws.root))
    if scope == "user":
        return result
    created = ws.init(("project",))["project"]
    return replace(result, store_created=created, gitignore=ws.ignore_project_store())


def _check_store_place(folder: Path) -> None:
    # A repository can commit a file or a link where the project store goes: refused before the settings change, not
    # after (session 37's re-review)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise UnsafePathError(
            "is not a folder of its own, so no project store can be made; nothing was changed", path=folder
        )


def uninstall(ws: Workspace, *, scope: SettingsScope = "project", agent: Agent = "claude-code") -> InstallResult:
    """Take out exactly what ``install`` added for ``scope`` (stores and memory are left alone)."""
    result = uninstall_claude_code(locate(scope, ws.root, backups=ws.store_dir("user") / BACKUP_DIR, agent=agent))
    return replace(result, agent=agent)


def install_claude_code(
    target: Target, *, command: str | None = None, keep_auto_memory: bool = False, agent: Agent = "claude-code"
) -> InstallResult:
    """Merge our part into the settings file of ``target`` (created if missing)."""
    command = command or hook_command(agent)
    _check_command(command, agent)
    original = _read(target.real)
    data = _parse(original, target.real) if original is not None else {}
    first = not has_our_hooks(data)
    saved = _read(target.backup)
    # Ours already there and no record of this machine's: a teammate's install, committed in a shared file. What
    # install found is recorded as for a first install, so uninstall gives it back rather than deleting it.
    record = first or saved is None
    before = data if record else (_backup_data(saved) or {})
    want = _wanted_for(agent, command, keep_auto_memory=keep_auto_memory)
    merged = merge_settings(data, want, before=before)
    auto_memory = None if agent != "claude-code" else "kept" if keep_auto_memory else "off"
    result = InstallResult(
        agent,
        str(target.path),
        "unchanged",
        list(want.hooks),
        command=command,
        edited=str(target.real) if target.real != target.path else None,
        deny_rules=len(want.deny),
        auto_memory=auto_memory,
    )
    if merged == data and not record:
        return result
    text = _dump(merged, original, target.real) if merged != data else None
    if record:  # the bytes found, or the mark of a file install creates (deleted by uninstall, not set to a backup)
        _write_backup(target.backup, CREATED if original is None else original)
    if text is not None:
        _write(target.real, text)
    kept = original if record else saved
    return replace(
        result,
        action="installed" if first else "updated" if text is not None else "unchanged",
        backup=str(target.backup) if kept not in (None, CREATED) else None,
    )


def _check_command(command: str, agent: Agent) -> None:
    """Refuse a hook command that install and uninstall would not know as theirs: they find their entries by the
    command's shape, and a wrapper's would be added again by each install and never removed."""
    args = agent_named(agent).hook_args
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise ValidationError(f"--command cannot be split into words ({exc})", field="command") from exc
    if tuple(words[-2:]) != args or not is_ours({"type": "command", "command": command}):
        raise ValidationError(
            f"--command must run memory-review by its own path and end in {' '.join(args)!r}: install and "
            "uninstall know their entries by that shape",
            field="command",
            hint="a wrapper (uvx, env, global options) goes in a script named memory-review; "
            f"or use PYTHON -P -m memory_review {' '.join(args)}",
        )
    if reads_the_project_first(command):
        raise ValidationError(
            "--command would run code from the project the agent works in: a relative path is the project's own "
            "file, and `python -m` without -P puts the project first on sys.path",
            field="command",
            hint=f"name memory-review by its full path, or use PYTHON -P -m memory_review {' '.join(args)}",
        )


# --- uninstall ---------------------------------------------------------------------------------


def uninstall_claude_code(target: Target) -> InstallResult:
    """Take our part out of ``target``; byte-identical to the backup when nothing else changed."""
    original = _read(target.real)
    result = InstallResult(
        "claude-code",
        str(target.path),
        "not-installed",
        edited=str(target.real) if target.real != target.path else None,
    )
    if original is None:
        return result
    data = _parse(original, target.real)
    saved = _read(target.backup)
    before = _backup_data(saved)  # None: no backup, a file install created, or a backup that no longer parses
    stripped, found = strip_settings(data, before=before)
    if not found.found:
        return result
    result = replace(
        result, events=found.events, deny_rules=len(found.rules), auto_memory="restored" if found.auto_memory else None
    )
    if saved is not None and before is not None and strip_settings(before, before=before)[0] == stripped:
        _write(target.real, saved)  # what install found, a teammate's hooks of ours included
        _remove(target.backup)
        return replace(result, action="restored")
    if saved in (None, CREATED) and stripped == {}:
        _remove(target.real)  # install created it, and nothing else was added since
        if saved is not None:
            _remove(target.backup)
        return replace(result, action="deleted")
    put_back_hooks(stripped, before or {})  # edited since: a teammate's entries still go back, as they were
    _write(target.real, _dump(stripped, original, target.real))
    return replace(result, action="removed", backup=_set_aside(target.backup, saved))


def _set_aside(backup: Path, saved: bytes | None) -> str | None:
    """Keep the person's pre-install copy, out of the way of the next install (which would take it for its record
    of a later install, and a teammate's entries committed since for its own); where it went."""
    if saved is None:
        return None
    kept = backup.with_suffix(".kept") if saved != CREATED else None
    if kept is not None:
        _write_backup(kept, saved)
    _remove(backup)
    return str(kept) if kept is not None else None


# --- where: the file to edit, guarded --------------------------------------------------------------


def locate(
    scope: SettingsScope,
    root: Path,
    *,
    backups: Path,
    environ: dict[str, str] | None = None,
    agent: Agent = "claude-code",
) -> Target:
    """The settings file of ``scope``, its real target (checked) and its backup in the user store."""
    path = settings_path(scope, root, environ, agent)
    try:
        real = path.resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise UnsafePathError(f"cannot be resolved ({exc}); nothing was changed", path=path) from exc
    if scope == "user":
        _check_user_target(path, real, user_config_dir(agent, environ))
    else:
        _check_project_target(path, real, root.resolve())
    key = hashlib.sha256(str(real).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return Target(path=path, real=real, backup=backups / f"{real.name}.{key}.bak")


def _check_project_target(path: Path, real: Path, root: Path) -> None:
    # The repository decides what `.claude/` holds: a link out of it must not aim our read or write elsewhere.
    if not real.is_relative_to(root):
        raise UnsafePathError(
            f"resolves outside the project ({real}); nothing was read or changed",
            path=path,
            hint="replace the link by a file, or use --user for your own settings",
        )
    for inside in (".git", PROJECT_STORE_DIR):
        if real.is_relative_to(root / inside):
            raise UnsafePathError(f"resolves into the project's {inside} ({real}); nothing was changed", path=path)
    if real != path and real.suffix != ".json":  # a link to .gitignore or a source file is no settings file
        raise UnsafePathError(f"links to {real}, which is no JSON file; nothing was changed", path=path)
    _check_kind(path, real)


def _check_user_target(path: Path, real: Path, config: Path) -> None:
    # The person's own link (dotfiles): followed anywhere in their own config dir or home, if theirs.
    allowed = (config.resolve(), Path.home().resolve())
    if not any(real.is_relative_to(base) for base in allowed):
        raise UnsafePathError(f"resolves outside your config dir and home ({real}); nothing was changed", path=path)
    _check_kind(path, real)
    owner = _owner(real) if real.exists() else _owner(real.parent) if real.parent.exists() else os.getuid()
    if owner != os.getuid():
        raise UnsafePathError(f"{real} belongs to another user; nothing was changed", path=path)


def _check_kind(path: Path, real: Path) -> None:
    try:
        info = real.lstat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _refused("read", path, exc) from exc
    if not stat.S_ISREG(info.st_mode):
        raise ValidationError(f"{real} is not a regular file; nothing was changed", path=path)


def _owner(path: Path) -> int:
    try:
        return path.stat().st_uid
    except OSError as exc:
        raise _refused("read", path, exc) from exc


def _refused(doing: str, path: Path, exc: OSError) -> StorageError:
    """The disk's refusal as one line that names the file (``StorageError`` prints its message alone)."""
    return StorageError(f"{path}: cannot {doing}: {exc.strerror or exc}", path=path, errno=exc.errno)


# --- files ---------------------------------------------------------------------------------------


def _read(path: Path) -> bytes | None:
    """The file's bytes (None when missing); never through a link, never blocking on a FIFO."""
    try:
        return read_file_or(path, MAX_SETTINGS_BYTES)
    except FileTooLarge as exc:
        raise ValidationError(f"larger than {MAX_SETTINGS_BYTES} bytes; nothing was changed", path=path) from exc
    except UnsafeFile as exc:
        raise ValidationError(f"{exc.reason.partition(';')[0]}; nothing was changed", path=path) from exc
    except OSError as exc:
        raise _refused("read", path, exc) from exc


def _parse(raw: bytes, path: Path) -> dict[str, Any]:
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw.decode("utf-8-sig"), parse_float=_finite)
    # ValueError: a decode error, or an integer past Python's 4,300 digits; RecursionError: nesting past ~1,000
    except (ValueError, RecursionError) as exc:
        raise ValidationError(
            f"not valid JSON ({str(exc)[:200]}); nothing was changed", path=path, hint=_comments_hint(raw)
        ) from exc
    if not isinstance(data, dict):
        raise ValidationError("a settings file must hold a JSON object; nothing was changed", path=path)
    return data


def _finite(text: str) -> float:
    # 1e400 reads as infinity and would be written back as Infinity, which no agent parses (session 37's re-review)
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:40]} is too large to write back")
    return value


def _comments_hint(raw: bytes) -> str:
    # Gemini CLI reads its settings.json with comments stripped; a rewrite by json would drop them.
    # Only a file of everyday size is looked at: a hint is not worth a slow pass over four hostile megabytes
    if len(raw) <= MAX_HINTED_BYTES and _without_comments(raw.decode("utf-8-sig", "replace")) is not None:
        return "the file has // or /* comments, which JSON has not; move them out of it, then run this again"
    return ""


MAX_HINTED_BYTES = 256 * 1024
_PLAIN = re.compile(r'[^"/]+')


def _without_comments(text: str) -> str | None:
    """``text`` without its ``//`` and ``/* */`` comments (outside strings), if it had any and is JSON without them.

    One pass, each character looked at once: a pattern for strings rescanned a line for every quote left open."""
    kept: list[str] = []
    position, size, comments = 0, len(text), False
    while position < size:
        if text.startswith("//", position) or text.startswith("/*", position):
            closing = "\n" if text[position + 1] == "/" else "*/"
            end = text.find(closing, position + 2)
            position = size if end < 0 else end + (0 if closing == "\n" else 2)
            comments = True
        elif text[position] == '"':
            end = position + 1
            while end < size and text[end] not in '"\n':
                end += 2 if text[end] == "\\" else 1
            end = min(end + 1, size)
            kept.append(text[position:end])
            position = end
        else:
            plain = _PLAIN.match(text, position)
            end = plain.end() if plain else position + 1
            kept.append(text[position:end])
            position = end
    if not comments:
        return None
    try:
        json.loads("".join(kept))
    except (ValueError, RecursionError):
        return None
    return "".join(kept)


def _backup_data(raw: bytes | None) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        return _parse(raw, Path("backup"))
    except ValidationError:
        return None  # a backup we cannot read is not restored; the removal still works


def _dump(data: dict[str, Any], original: bytes | None, path: Path) -> bytes:
    """JSON in the file's own indentation (2 spaces for a new file), ending in a newline; refused (before anything
    is written) when it cannot be UTF-8 or would pass the size install and uninstall read."""
    try:
        text = (json.dumps(data, indent=_indent_of(original), ensure_ascii=False) + "\n").encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate escape ("\\ud800") parses, and is no UTF-8
        raise ValidationError(
            f"holds a string that is no UTF-8 ({exc.reason}); nothing was changed", path=path
        ) from exc
    if len(text) > MAX_SETTINGS_BYTES:
        raise ValidationError(
            f"would grow past the {MAX_SETTINGS_BYTES} bytes uninstall reads; nothing was changed", path=path
        )
    return text


def _indent_of(original: bytes | None) -> int | str:
    for line in (original or b"").decode("utf-8", "replace").splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else len(lead)
    return 2


def _write_backup(path: Path, data: bytes) -> None:
    _write(path, data)
    try:
        os.chmod(path, 0o600)  # a settings file can hold tokens in "env"
    except OSError as exc:
        raise _refused("write", path, exc) from exc


def _write(path: Path, data: bytes) -> None:
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else None
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_replace(path, data)
        if mode is not None:
            os.chmod(path, mode)  # keep a private settings file private
    except OSError as exc:
        raise _refused("write", path, exc) from exc


def _remove(path: Path) -> None:
    try:
        remove_file(path)
    except OSError as exc:
        raise _refused("remove", path, exc) from exc
