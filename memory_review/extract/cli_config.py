"""Which agent CLI runs the model extractor, and how: the person's environment, then their config, then PATH.

Only the *person's* settings can name the program: ``$MEMORY_REVIEW_<AGENT>_CLI``, else
``"extractors": {"<agent>": {"command": ...}}`` in ``<user store>/config.json``, else the CLI's
usual name on ``PATH``. A repository never does — nothing under a project store or a project's
settings is read here — because the program gets the person's own words and runs as them.

``<user store>/config.json`` (every key optional)::

    {"extractors": {"claude": {"command": "/opt/claude/bin/claude", "model": "sonnet", "timeout": 120}},
     "hooks": {"claude-code": {"extractor": "claude"}}}
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import orjson

from memory_review.errors import ValidationError
from memory_review.events.durable import atomic_replace
from memory_review.file_reads import read_store_file, storage_errors

AgentCli = Literal["claude", "codex", "gemini"]
AGENT_CLIS: tuple[AgentCli, ...] = ("claude", "codex", "gemini")
HookExtractor = Literal["heuristic", "claude", "codex", "gemini"]
"""What an agent's hooks extract with: the offline heuristic, or an agent CLI in the background."""
CONFIG_FILE = "config.json"
MAX_CONFIG_BYTES = 256 * 1024
DEFAULT_TIMEOUT = 180.0
MAX_TIMEOUT = 1800.0
TIMEOUT_ENV = "MEMORY_REVIEW_AGENT_CLI_TIMEOUT"


def command_env(agent: AgentCli) -> str:
    """The environment variable naming ``agent``'s program (``MEMORY_REVIEW_CLAUDE_CLI`` ...)."""
    return f"MEMORY_REVIEW_{agent.upper()}_CLI"


@dataclass(frozen=True)
class CliConfig:
    """How to run one agent CLI: the program found, an optional model, and the time it may take."""

    agent: AgentCli
    program: str
    model: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    found_by: str = "PATH"  # "environment" | "config" | "PATH", said in failures so a person can fix it


def read_config(user_store: Path) -> dict[str, Any]:
    """The person's ``config.json`` as a dict (empty when missing); ValidationError when it is damaged."""
    path = user_store / CONFIG_FILE
    data = read_store_file(path, MAX_CONFIG_BYTES)
    if data is None:
        return {}
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise ValidationError(f"not valid JSON: {exc}", path=path) from exc
    if not isinstance(document, dict):
        raise ValidationError("must hold a JSON object", path=path)
    return document


def resolve(agent: str, *, config: Mapping[str, Any], env: Mapping[str, str] | None = None) -> CliConfig:
    """The CLI to run for ``agent``; ValidationError says what is missing and how to set it."""
    if agent not in AGENT_CLIS:
        raise ValidationError(f"unknown agent CLI {agent!r}; use one of {', '.join(AGENT_CLIS)}")
    env = os.environ if env is None else env
    entry = _entry(config, agent)
    program, found_by = _program(agent, entry, env)
    return CliConfig(agent=agent, program=program, model=_model(entry), timeout=_timeout(entry, env), found_by=found_by)


def hook_extractor(config: Mapping[str, Any], agent: str) -> HookExtractor:
    """The extractor the person chose for ``agent``'s hooks (``heuristic`` unless configured)."""
    hooks = config.get("hooks")
    entry = hooks.get(agent) if isinstance(hooks, dict) else None
    chosen = entry.get("extractor") if isinstance(entry, dict) else None
    return chosen if chosen in AGENT_CLIS else "heuristic"


def set_hook_extractor(user_store: Path, agent: str, extractor: str) -> Path:
    """Record the person's choice of extractor for ``agent``'s hooks in ``config.json`` (other keys kept)."""
    if extractor not in ("heuristic", *AGENT_CLIS):
        raise ValidationError(f"unknown extractor {extractor!r}; use heuristic, {', '.join(AGENT_CLIS)}")
    config = read_config(user_store)
    hooks = json_object(config.get("hooks"))
    entry = json_object(hooks.get(agent))
    config["hooks"] = {**hooks, agent: {**entry, "extractor": extractor}}
    path = user_store / CONFIG_FILE
    with storage_errors(path):
        user_store.mkdir(parents=True, exist_ok=True)
        atomic_replace(path, orjson.dumps(config, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n")
    return path


def _entry(config: Mapping[str, Any], agent: AgentCli) -> dict[str, Any]:
    return json_object(json_object(config.get("extractors")).get(agent))


def json_object(value: Any) -> dict[str, Any]:
    """``value`` if it is a JSON object, else an empty one (a hand-edited file or a reply may hold anything)."""
    return value if isinstance(value, dict) else {}


def _program(agent: AgentCli, entry: dict[str, Any], env: Mapping[str, str]) -> tuple[str, str]:
    for value, found_by in ((env.get(command_env(agent)), "environment"), (entry.get("command"), "config")):
        if isinstance(value, str) and value:
            return _checked(value, agent, found_by), found_by
    found = shutil.which(agent, path=env.get("PATH"))
    if found is None:
        raise ValidationError(
            f"the {agent} CLI is not on PATH",
            hint=f"install it, or set {command_env(agent)} (or extractors.{agent}.command in the user store's "
            f"{CONFIG_FILE}) to its full path",
        )
    return found, "PATH"


def _checked(value: str, agent: AgentCli, found_by: str) -> str:
    # A full path to an executable file: no shell, no PATH search, nothing a word split could change.
    path = Path(value).expanduser()
    if not path.is_absolute() or not path.is_file() or not os.access(path, os.X_OK):
        raise ValidationError(
            f"the {agent} CLI set in the {found_by} ({value}) is not an executable file given by its full path"
        )
    return str(path)


def _model(entry: dict[str, Any]) -> str | None:
    model = entry.get("model")
    if model is None:
        return None
    if not isinstance(model, str) or not model or model.startswith("-") or len(model) > 200:
        raise ValidationError("extractors.<agent>.model must be a model name (not starting with '-')")
    return model


def _timeout(entry: dict[str, Any], env: Mapping[str, str]) -> float:
    raw = env.get(TIMEOUT_ENV) or entry.get("timeout")
    if raw is None:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(raw)
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"the agent CLI timeout must be a number of seconds, not {raw!r}") from exc
    if not 0 < seconds <= MAX_TIMEOUT:
        raise ValidationError(f"the agent CLI timeout must be between 0 and {MAX_TIMEOUT:g} seconds")
    return seconds
