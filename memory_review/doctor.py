"""``memory-review doctor``: what a user needs to know when something is off, in one report.

Each check is read-only except what every command does (recovery rolls a store forward); the
report says which stores are where, whether the project store is trusted here, which Claude
Code settings files run our hooks and whether those still start an executable that exists
(and is this one), the hook failures of the last day, and everything ``verify`` finds.
"""

from __future__ import annotations

import importlib.util
import json
import os
import platform
import shlex
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from memory_review.errors import MemoryReviewError
from memory_review.events.safe_fs import read_file_or

if TYPE_CHECKING:
    from memory_review.workspace import Workspace

MAX_SETTINGS_BYTES = 1 << 20
HOOK_ERROR_WINDOW = timedelta(days=1)


@dataclass
class Check:
    """One line of the report: what was checked, whether it is fine, and what a person should know."""

    name: str
    ok: bool
    detail: str
    advice: str = ""


@dataclass
class DoctorReport:
    """Versions, then every check; ``ok`` when none found anything off. ``doctor --json`` is ``ok`` and
    then these fields, in order (``cli_render.to_json``)."""

    version: str
    python: str
    store_format: int
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)


def diagnose(ws: Workspace, *, environ: dict[str, str] | None = None, now: datetime | None = None) -> DoctorReport:
    """Run every check against ``ws``; a check that fails to run is reported, never raised."""
    from memory_review.version import store_format, tool_version

    env = os.environ if environ is None else environ
    report = DoctorReport(tool_version(), f"{platform.python_version()} ({sys.executable})", store_format())
    report.checks.append(_extras())
    checks = [
        ("stores", _stores),
        ("trust", _trust),
        ("claude-code", lambda w: _claude_code(w, env)),
        ("hook errors", lambda w: _hook_errors(w, now)),
        ("verify", _verify),
    ]
    for name, check in checks:
        try:
            report.checks.extend(check(ws))
        except MemoryReviewError as exc:  # one check that cannot run does not hide the others
            report.checks.append(Check(name, False, str(exc), exc.hint))
    return report


def _extras() -> Check:
    has_mcp = importlib.util.find_spec("mcp") is not None
    return Check(
        "mcp extra",
        True,
        "installed: `memory-review mcp` works" if has_mcp else "not installed: `memory-review mcp` needs it",
        "" if has_mcp else "install with the [mcp] extra",
    )


def _stores(ws: Workspace) -> list[Check]:
    user_dir, has_user = ws.store_dir("user"), ws.has_store("user")
    user = Check(
        "user store",
        True,
        f"{user_dir}" + ("" if has_user else " (not created yet)"),
        "" if has_user else "`memory-review init` creates it",
    )
    project = (
        Check("project store", True, f"{ws.store_dir('project')} (project {ws.root})")
        if ws.has_store("project")
        else Check("project store", True, f"none in {ws.root}", "`memory-review init` in the project creates it")
    )
    return [user, project]


def _trust(ws: Workspace) -> list[Check]:
    if not ws.has_store("project"):
        return []
    waiting = ws.foreign(scope="project")
    if not waiting:
        return [Check("trust", True, "every project memory was approved on this machine")]
    return [
        Check(
            "trust",
            False,
            f"{len(waiting)} project memories were not approved here (a cloned, copied or "
            "synced store): they are not injected",
            "review them with `memory-review trust` (moved the project? `trust --moved-from OLD`)",
        )
    ]


def _claude_code(ws: Workspace, env: Mapping[str, str]) -> list[Check]:
    """Our hooks in every agent's settings (Claude Code always reported; Codex and Gemini CLI when installed)."""
    checks = _agent_hooks(ws, env, "claude-code", ("user", "project", "local"))
    if not checks:
        checks.append(Check("claude-code", True, "no hooks installed", "`memory-review install claude-code` adds them"))
    for agent in ("codex", "gemini"):
        checks += _agent_hooks(ws, env, agent, ("user", "project"))
    return checks


def _agent_hooks(ws: Workspace, env: Mapping[str, str], agent: str, scopes: tuple[str, ...]) -> list[Check]:
    from memory_review.integrations.claude_settings import reads_the_project_first
    from memory_review.integrations.install import settings_path

    checks = []
    for scope in scopes:
        path = settings_path(scope, ws.root, dict(env), agent)  # type: ignore[arg-type]
        commands = _our_commands(path)
        if commands is None:
            continue
        if isinstance(commands, str):
            checks.append(Check(f"{agent} ({scope})", False, f"{path}: {commands}"))
            continue
        broken = [c for c in commands if _runs(c) is None]
        unsafe = [c for c in commands if reads_the_project_first(c)]
        if unsafe:
            checks.append(
                Check(
                    f"{agent} ({scope})",
                    False,
                    f"{path}: the hook runs `{unsafe[0]}`, which imports from the project it runs in",
                    f"run `memory-review install {agent} --{scope}` again (it writes `python -P`)",
                )
            )
        elif broken:
            checks.append(
                Check(
                    f"{agent} ({scope})",
                    False,
                    f"{path}: the hook runs `{broken[0]}`, which no longer exists",
                    f"run `memory-review install {agent} --{scope}` again",
                )
            )
        else:
            others = [c for c in commands if not _is_this(_runs(c))]
            note = f" (`{others[0]}` is another install than this one)" if others else ""
            checks.append(Check(f"{agent} ({scope})", True, f"{path}: hooks installed{note}"))
    return checks


def _our_commands(path: Path) -> list[str] | str | None:
    """Our hook commands in a settings file; None when there are none, a reason when it cannot be read."""
    from memory_review.integrations.claude_settings import our_hook_commands

    try:
        data = read_file_or(path, MAX_SETTINGS_BYTES)
    except OSError as exc:
        return f"cannot read it ({exc.strerror or exc})"
    if data is None:
        return None
    try:
        settings = json.loads(data)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError; nesting past ~1,000 is the other
        return "not valid JSON (Claude Code will not read it either)"
    return (our_hook_commands(settings) if isinstance(settings, dict) else []) or None


def _runs(command: str) -> Path | None:
    """The executable a hook command starts (resolved), or None when it does not exist."""
    program = shlex.split(command)[0]
    found = shutil.which(program) if os.sep not in program else (program if os.access(program, os.X_OK) else None)
    return Path(found).resolve() if found else None


def _is_this(program: Path | None) -> bool:
    here = [Path(p).resolve() for p in (sys.argv[0] if sys.argv else "", sys.executable) if p]
    return program is not None and (program in here or program.parent in {p.parent for p in here})


def _hook_errors(ws: Workspace, now: datetime | None) -> list[Check]:
    from memory_review.integrations.claude_hooks import hook_errors

    since = (now or datetime.now(UTC)) - HOOK_ERROR_WINDOW
    recent = [e for e in hook_errors(ws) if _when(e.ts) >= since]
    if not recent:
        return [Check("hook errors", True, "none in the last day")]
    last = recent[-1]
    return [
        Check(
            "hook errors",
            False,
            f"{len(recent)} in the last day; the last: {last.error}: {last.message}",
            "`memory-review hook errors` lists them",
        )
    ]


def _when(ts: str) -> datetime:
    try:
        return datetime.fromisoformat(ts.replace("Z", "+00:00"))
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)


def _verify(ws: Workspace) -> list[Check]:
    checks = []
    for report in ws.verify(repair=False):
        if not report.root or (report.scope == "project" and not ws.has_store("project")):
            continue
        counts = f"{report.events} events, {report.memories} memories, {report.pending} pending"
        if report.ok:
            checks.append(Check(f"verify ({report.scope})", True, f"ok ({counts})"))
        else:
            checks.append(
                Check(
                    f"verify ({report.scope})",
                    False,
                    f"{len(report.problems)} problem(s): {report.problems[0]}",
                    "`memory-review verify` shows them all",
                )
            )
    return checks
