"""The model extractor through an agent CLI the person already runs: ``claude -p``, ``codex exec``, ``gemini -p``.

Each CLI is started headless with JSON output, the prompt on stdin, and no way to act:

* ``claude -p --output-format json --tools "" --strict-mcp-config --max-turns 1 --no-session-persistence``
  (no built-in tools, none of the person's MCP servers); the reply object's ``result``, ``is_error``,
  ``subtype``, ``permission_denials`` and ``modelUsage`` are read;
* ``codex exec --json --sandbox read-only --skip-git-repo-check -`` (the prompt from stdin); its JSONL
  events are read: ``item.completed`` ``agent_message`` is the answer, ``turn.failed``/``error`` fail it;
* ``gemini --output-format json --approval-mode plan -p <instruction>`` (read-only plan mode; ``-p`` is
  appended to stdin); the object's ``response``, ``error`` and ``stats`` are read.

Whatever the flags, a reply that shows the agent used a tool (a denied permission, a command or file
item, a non-zero tool count) is refused as ``tool-call``. The child runs in an empty temporary folder
(no project files, no repository instructions), in its own process group, killed as a group at the
deadline; its output is read up to a cap. ``MEMORY_REVIEW_NESTED=1`` is set for it, so our own hooks,
if the person installed them user-wide, do nothing inside that session (no extraction loop).

Every failure is a :class:`ModelFailure` value; nothing here raises into the caller.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from typing import IO, Any

import orjson

from memory_review.extract.cli_config import CliConfig, json_object
from memory_review.extract.model_client import FailureKind, ModelFailure
from memory_review.models import utc_now

MAX_OUTPUT_BYTES = 4 * 1024 * 1024
MAX_STDERR_BYTES = 64 * 1024
NESTED_ENV = "MEMORY_REVIEW_NESTED"
GEMINI_INSTRUCTION = "Follow the instructions given above on standard input."
# Codex items that mean the agent acted rather than answered.
_CODEX_ACTIONS = frozenset({"command_execution", "file_change", "mcp_tool_call", "web_search", "collab_tool_call"})


@dataclass(frozen=True)
class CliReply:
    """The model's answer text and the model name the CLI reported (None when it reports none)."""

    text: str
    model: str | None


def ask(config: CliConfig, system: str, user: str) -> CliReply | ModelFailure:
    """Run the CLI once with the prompt on stdin; its answer, or a failure value."""
    argv, stdin = command_line(config, system, user)
    ran = run(argv, stdin, timeout=config.timeout)
    if isinstance(ran, ModelFailure):
        return _stamped(ran, config)
    stdout, stderr, code = ran
    parsed = PARSERS[config.agent](stdout, config)
    if code != 0 and not (isinstance(parsed, ModelFailure) and parsed.kind in ("cli-error", "tool-call")):
        # A failing exit without the CLI's own error report: the status and what it said are the message.
        parsed = _failure("cli-error", f"{config.agent} exited with status {code}{_said(stderr)}", config)
    return parsed


def command_line(config: CliConfig, system: str, user: str) -> tuple[list[str], bytes]:
    """The argv (no shell) and the bytes for stdin, per CLI."""
    model = ["--model", config.model] if config.model else []
    if config.agent == "claude":
        argv = [
            config.program,
            "-p",
            "--output-format",
            "json",
            "--tools",
            "",
            "--strict-mcp-config",
            "--max-turns",
            "1",
            "--no-session-persistence",
            *model,
            "--system-prompt",
            system,
        ]
        return argv, user.encode("utf-8")
    both = f"{system}\n\n{user}".encode()
    if config.agent == "codex":
        return [config.program, "exec", "--json", "--sandbox", "read-only", "--skip-git-repo-check", *model, "-"], both
    return [
        config.program,
        "--output-format",
        "json",
        "--approval-mode",
        "plan",
        *model,
        "-p",
        GEMINI_INSTRUCTION,
    ], both


# --- running the child, bounded --------------------------------------------------------------------


def run(argv: list[str], stdin: bytes, *, timeout: float) -> tuple[bytes, bytes, int] | ModelFailure:
    """Run ``argv`` in an empty folder; (stdout, stderr, exit status), or a failure for no start,
    the deadline or too much output."""
    with tempfile.TemporaryDirectory(prefix="memory-review-cli-") as empty:
        try:
            child = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=empty,
                env={**os.environ, NESTED_ENV: "1"},
                start_new_session=True,
            )
        except OSError as exc:
            return _failure("cli-error", f"cannot start {argv[0]}: {exc.strerror or exc}")
        return _collect(child, stdin, timeout)


def _collect(child: subprocess.Popen[bytes], stdin: bytes, timeout: float) -> tuple[bytes, bytes, int] | ModelFailure:
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        _kill(child)

    timer = threading.Timer(timeout, expire)
    timer.daemon = True
    stderr: list[bytes] = []
    helpers = [
        threading.Thread(target=_feed, args=(child.stdin, stdin), daemon=True),
        threading.Thread(target=_drain, args=(child.stderr, stderr, MAX_STDERR_BYTES), daemon=True),
    ]
    timer.start()
    for helper in helpers:
        helper.start()
    try:
        stdout = _read_capped(child.stdout, MAX_OUTPUT_BYTES)
        if stdout is None:
            _kill(child)
        code = child.wait()
    finally:
        timer.cancel()
        _kill(child)  # anything it left behind in its group goes too
        for helper in helpers:
            helper.join(timeout=5)
    if expired.is_set():
        return _failure("timeout", f"no answer within {timeout:g}s; the CLI was stopped")
    if stdout is None:
        return _failure("bad-response", f"the CLI wrote more than {MAX_OUTPUT_BYTES} bytes; it was stopped")
    return stdout, b"".join(stderr), code


def _feed(pipe: IO[bytes] | None, data: bytes) -> None:
    if pipe is None:
        return
    try:
        pipe.write(data)
    except OSError:
        pass  # the CLI exited without reading it all; its exit status says why
    finally:
        try:
            pipe.close()
        except OSError:
            pass


def _drain(pipe: IO[bytes] | None, into: list[bytes], cap: int) -> None:
    kept = 0
    while pipe is not None and (chunk := pipe.read(65536)):
        if kept < cap:
            into.append(chunk[: cap - kept])
            kept += len(into[-1])


def _read_capped(pipe: IO[bytes] | None, cap: int) -> bytes | None:
    """All of ``pipe`` up to ``cap`` bytes; None as soon as it holds more."""
    chunks, size = [], 0
    while pipe is not None and (chunk := pipe.read(65536)):
        size += len(chunk)
        if size > cap:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _kill(child: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(child.pid, signal.SIGKILL)  # its own session: the group is the CLI and what it started
    except (ProcessLookupError, PermissionError):
        pass


# --- each CLI's documented JSON --------------------------------------------------------------------


def parse_claude(stdout: bytes, config: CliConfig) -> CliReply | ModelFailure:
    """``claude -p --output-format json``: one result object."""
    reply = _object(stdout, config)
    if isinstance(reply, ModelFailure):
        return reply
    if reply.get("permission_denials"):
        return _failure("tool-call", "claude tried to use a tool; none was allowed", config)
    if reply.get("is_error") is not False or reply.get("subtype") != "success":
        why = reply.get("result") if isinstance(reply.get("result"), str) else reply.get("subtype")
        return _failure("cli-error", f"claude reported an error ({reply.get('subtype')!r}): {why}", config)
    if not isinstance(reply.get("result"), str):
        return _failure("bad-response", "claude's reply has no text result", config)
    return CliReply(text=reply["result"], model=_busiest(reply.get("modelUsage"), "outputTokens") or config.model)


def parse_gemini(stdout: bytes, config: CliConfig) -> CliReply | ModelFailure:
    """``gemini --output-format json``: ``{response, stats, error}``."""
    reply = _object(stdout, config)
    if isinstance(reply, ModelFailure):
        return reply
    error = reply.get("error")
    if error:
        message = error.get("message") if isinstance(error, dict) else error
        return _failure("cli-error", f"gemini reported an error: {message}", config)
    stats = json_object(reply.get("stats"))
    if json_object(stats.get("tools")).get("totalCalls"):
        return _failure("tool-call", "gemini used a tool; none was wanted", config)
    if not isinstance(reply.get("response"), str):
        return _failure("bad-response", "gemini's reply has no text response", config)
    models = json_object(stats.get("models"))
    model = _busiest({k: v.get("tokens") for k, v in models.items() if isinstance(v, dict)} or None, "candidates")
    return CliReply(text=reply["response"], model=model or config.model)


def parse_codex(stdout: bytes, config: CliConfig) -> CliReply | ModelFailure:
    """``codex exec --json``: one event per line; the last agent message of a completed turn."""
    answer: str | None = None
    completed = False
    for line in stdout.splitlines():
        if not line.strip():
            continue
        event = _event(line)
        if event is None:
            return _failure("bad-response", "codex wrote a line that is not a JSON event", config)
        kind, item = event.get("type"), event.get("item")
        if kind in ("turn.failed", "error"):
            return _failure("cli-error", f"codex reported an error: {_codex_error(event)}", config)
        if isinstance(item, dict) and item.get("type") in _CODEX_ACTIONS:
            return _failure("tool-call", f"codex used a tool ({item.get('type')}); none was wanted", config)
        if kind == "item.completed" and isinstance(item, dict) and item.get("type") == "agent_message":
            answer = item.get("text") if isinstance(item.get("text"), str) else None
        completed = completed or kind == "turn.completed"
    if not completed:
        return _failure("truncated", "codex's turn never completed", config)
    if answer is None:
        return _failure("bad-response", "codex completed without an agent message", config)
    return CliReply(text=answer, model=config.model)


PARSERS = {"claude": parse_claude, "codex": parse_codex, "gemini": parse_gemini}


def _object(stdout: bytes, config: CliConfig) -> dict[str, Any] | ModelFailure:
    try:
        reply = orjson.loads(stdout)
    except orjson.JSONDecodeError:
        return _failure("bad-response", f"{config.agent}'s output is not one JSON document", config)
    if not isinstance(reply, dict):
        return _failure("bad-response", f"{config.agent}'s output is not a JSON object", config)
    return reply


def _event(line: bytes) -> dict[str, Any] | None:
    try:
        event = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    return event if isinstance(event, dict) else None


def _codex_error(event: dict[str, Any]) -> str:
    error = event.get("error")
    message = error.get("message") if isinstance(error, dict) else event.get("message")
    return str(message)


def _busiest(usage: Any, tokens_key: str) -> str | None:
    """The model that wrote the most (a CLI may also call a small model for a title)."""
    if not isinstance(usage, dict) or not usage:
        return None

    def written(name: str) -> float:
        counts = usage[name]
        value = counts.get(tokens_key) if isinstance(counts, dict) else None
        return float(value) if isinstance(value, (int, float)) else 0.0

    best = max(sorted(usage), key=written)
    return best if isinstance(best, str) and best else None


def _said(stderr: bytes) -> str:
    text = stderr.decode("utf-8", "replace").strip()
    return f": {text.splitlines()[-1][:300]}" if text else ""


def _failure(kind: FailureKind, message: str, config: CliConfig | None = None) -> ModelFailure:
    return ModelFailure(
        kind=kind,
        message=message[:500],
        api=f"{config.agent}-cli" if config else None,
        model=config.model if config else None,
        at=utc_now(),
    )


def _stamped(failure: ModelFailure, config: CliConfig) -> ModelFailure:
    return failure.model_copy(update={"api": f"{config.agent}-cli", "model": config.model})
