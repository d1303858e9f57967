"""``memory-review install|uninstall claude-code``: our hooks in a Claude Code ``settings.json``.

Claude Code reads hooks from ``~/.claude/settings.json`` (user; ``$CLAUDE_CONFIG_DIR``
moves it), ``<project>/.claude/settings.json`` (project, shared) and
``<project>/.claude/settings.local.json`` (local, personal). For each event we
add one matcher group of our own::

    "Stop": [ ...their groups untouched..., {"hooks": [{"type": "command",
              "command": "memory-review hook claude-code", "timeout": 30}]} ]

Install is idempotent (an up-to-date file is not rewritten) and, before changing
a file that holds none of our hooks, copies it byte for byte to
``settings.json.memory-review.bak``. Uninstall removes exactly our hook entries
(and the groups, event lists and ``hooks`` object that only held them); when what
is left equals that backup, the backup's bytes are put back, so a round trip
leaves the file byte-identical. A file that install created is removed again.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from events.durable import atomic_replace, remove_file
from memory_review.errors import StorageError, ValidationError
from memory_review.integrations.claude_hooks import CONTEXT_EVENTS, HOOK_EVENTS

if TYPE_CHECKING:
    from memory_review.workspace import Workspace

SettingsScope = Literal["user", "project", "local"]
BACKUP_SUFFIX = ".memory-review.bak"
HOOK_ARGS = ("hook", "claude-code")
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


def settings_path(scope: SettingsScope, root: Path, environ: dict[str, str] | None = None) -> Path:
    """The settings file Claude Code reads for ``scope``."""
    env = os.environ if environ is None else environ
    if scope == "user":
        base = Path(env["CLAUDE_CONFIG_DIR"]) if env.get("CLAUDE_CONFIG_DIR") else Path.home() / ".claude"
        return base.expanduser() / "settings.json"
    name = "settings.local.json" if scope == "local" else "settings.json"
    return root / ".claude" / name


def hook_command() -> str:
    """How Claude Code should run the hook: by name when PATH finds this very install, else by full path.

    A bare name keeps a shared project settings file portable; a full path keeps a
    virtualenv install working when Claude Code's PATH does not include the venv.
    """
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    here = script.resolve() if script is not None and script.name == "memory-review" else None
    on_path = shutil.which("memory-review")
    if on_path and (here is None or Path(on_path).resolve() == here):
        return shlex.join(["memory-review", *HOOK_ARGS])
    if here is not None:
        return shlex.join([str(here), *HOOK_ARGS])
    return shlex.join([sys.executable, "-m", "memory_review.cli", *HOOK_ARGS])


def is_ours(entry: Any) -> bool:
    """Whether a hook entry runs ``memory-review hook claude-code`` (under any path)."""
    if not isinstance(entry, dict) or entry.get("type") != "command" or not isinstance(entry.get("command"), str):
        return False
    try:
        words = shlex.split(entry["command"])
    except ValueError:
        return False
    if tuple(words[-2:]) != HOOK_ARGS:
        return False
    program = words[:-2]
    return (len(program) == 1 and Path(program[0]).name == "memory-review") or program[-2:] == [
        "-m", "memory_review.cli"]


# --- install -----------------------------------------------------------------------------------


def install(ws: Workspace, *, scope: SettingsScope = "project", command: str | None = None) -> InstallResult:
    """Install the Claude Code hooks for ``scope``; a project/local install also creates the project store
    (the hooks act only where one exists)."""
    result = install_claude_code(settings_path(scope, ws.root), command=command)
    if scope == "user":
        return result
    return replace(result, store_created=ws.project.init())


def uninstall(ws: Workspace, *, scope: SettingsScope = "project") -> InstallResult:
    """Remove exactly the hooks ``install`` added for ``scope`` (stores and memory are left alone)."""
    return uninstall_claude_code(settings_path(scope, ws.root))


def install_claude_code(path: Path, *, command: str | None = None) -> InstallResult:
    """Merge our hooks into the settings file at ``path`` (created if missing)."""
    command = command or hook_command()
    original = _read(path)
    data = _parse(original, path) if original is not None else {}
    merged, changed = merge_hooks(data, command)
    if not changed:
        return InstallResult("claude-code", str(path), "unchanged", list(HOOK_EVENTS), command=command)
    pristine = not any(True for _ in _our_entries(data))
    backup = _backup(path, original) if pristine and original is not None else _existing_backup(path)
    _write(path, _dump(merged, original))
    return InstallResult("claude-code", str(path), "installed" if pristine else "updated", list(HOOK_EVENTS),
                         backup=str(backup) if backup else None, command=command)


def merge_hooks(data: dict[str, Any], command: str) -> tuple[dict[str, Any], bool]:
    """``data`` with one up-to-date group of ours per event; whether anything changed."""
    merged = json.loads(json.dumps(data))  # deep copy that keeps key order
    hooks = merged.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ValidationError('"hooks" is not an object; fix the settings file first', field="hooks")
    for event in HOOK_EVENTS:
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise ValidationError(f'"hooks.{event}" is not a list; fix the settings file first', field=event)
        _merge_event(groups, _entry(event, command))
    return merged, merged != data


def _entry(event: str, command: str) -> dict[str, Any]:
    return {"type": "command", "command": command, "timeout": TIMEOUTS[event]}


def _merge_event(groups: list[Any], wanted: dict[str, Any]) -> None:
    ours = [(g, e) for g in groups if isinstance(g, dict) for e in _hook_list(g) if is_ours(e)]
    if not ours:
        groups.append({"hooks": [wanted]})
        return
    ours[0][1].update(wanted)  # a moved install or new timeouts: update ours in place
    for group, extra in ours[1:]:  # duplicates (e.g. copied by hand) would run the hook twice
        group["hooks"].remove(extra)
        if not group["hooks"]:
            groups.remove(group)


def _hook_list(group: dict[str, Any]) -> list[Any]:
    hooks = group.get("hooks")
    return hooks if isinstance(hooks, list) else []


# --- uninstall ---------------------------------------------------------------------------------


def uninstall_claude_code(path: Path) -> InstallResult:
    """Remove our hooks from ``path``; byte-identical to the backup when nothing else changed."""
    original = _read(path)
    if original is None:
        return InstallResult("claude-code", str(path), "not-installed")
    data = _parse(original, path)
    backup_path = path.with_name(path.name + BACKUP_SUFFIX)
    backup = _read(backup_path)
    stripped, removed = strip_hooks(data, before=_backup_data(backup))
    if not removed:
        return InstallResult("claude-code", str(path), "not-installed")
    if backup is not None and _same_data(backup, stripped):
        _write(path, backup)
        _remove(backup_path)
        return InstallResult("claude-code", str(path), "restored", removed)
    if backup is None and stripped == {}:
        _remove(path)  # install created it, and nothing else was added since
        return InstallResult("claude-code", str(path), "deleted", removed)
    _write(path, _dump(stripped, original))
    return InstallResult("claude-code", str(path), "removed", removed,
                         backup=str(backup_path) if backup is not None else None)


def strip_hooks(data: dict[str, Any], *, before: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[str]]:
    """``data`` without our hook entries; the events touched.

    A group, event list or ``hooks`` object that our removal leaves empty is dropped too,
    unless ``before`` (the settings as they were before install) already had it.
    """
    stripped = json.loads(json.dumps(data))
    hooks = stripped.get("hooks")
    if not isinstance(hooks, dict):
        return stripped, []
    had = before.get("hooks") if isinstance(before, dict) else None
    had_events = set(had) if isinstance(had, dict) else set()
    touched = [event for event, groups in list(hooks.items())
               if _strip_event(hooks, event, groups, keep_empty=event in had_events)]
    if touched and not hooks and not isinstance(had, dict):
        del stripped["hooks"]
    return stripped, touched


def _strip_event(hooks: dict[str, Any], event: str, groups: Any, *, keep_empty: bool) -> bool:
    if not isinstance(groups, list):
        return False
    found = False
    for group in [g for g in groups if isinstance(g, dict)]:
        kept = [e for e in _hook_list(group) if not is_ours(e)]
        if len(kept) != len(_hook_list(group)):
            found = True
            if kept:
                group["hooks"] = kept
            else:
                groups.remove(group)
    if found and not groups and not keep_empty:
        del hooks[event]
    return found


def _our_entries(data: dict[str, Any]):
    hooks = data.get("hooks")
    for groups in (hooks.values() if isinstance(hooks, dict) else ()):
        for group in (groups if isinstance(groups, list) else ()):
            if isinstance(group, dict):
                yield from (e for e in _hook_list(group) if is_ours(e))


# --- files ---------------------------------------------------------------------------------------


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StorageError(f"cannot read: {exc.strerror}", path=path, errno=exc.errno) from exc


def _parse(raw: bytes, path: Path) -> dict[str, Any]:
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValidationError(f"not valid JSON ({exc}); nothing was changed", path=path) from exc
    if not isinstance(data, dict):
        raise ValidationError("a settings file must hold a JSON object; nothing was changed", path=path)
    return data


def _backup_data(raw: bytes | None) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        return _parse(raw, Path("backup"))
    except ValidationError:
        return None  # a backup we cannot read is not restored; the removal still works


def _same_data(raw: bytes, data: dict[str, Any]) -> bool:
    return _backup_data(raw) == data


def _dump(data: dict[str, Any], original: bytes | None) -> bytes:
    """JSON in the file's own indentation (2 spaces for a new file), ending in a newline."""
    return (json.dumps(data, indent=_indent_of(original), ensure_ascii=False) + "\n").encode("utf-8")


def _indent_of(original: bytes | None) -> int | str:
    for line in (original or b"").decode("utf-8", "replace").splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else len(lead)
    return 2


def _backup(path: Path, original: bytes) -> Path:
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    _write(backup, original)
    return backup


def _existing_backup(path: Path) -> Path | None:
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    return backup if backup.exists() else None


def _write(path: Path, data: bytes) -> None:
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else None
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_replace(path, data)
        if mode is not None:
            os.chmod(path, mode)  # keep a private settings file private
    except OSError as exc:
        raise StorageError(f"cannot write: {exc.strerror}", path=path, errno=exc.errno) from exc


def _remove(path: Path) -> None:
    try:
        remove_file(path)
    except OSError as exc:
        raise StorageError(f"cannot remove: {exc.strerror}", path=path, errno=exc.errno) from exc
