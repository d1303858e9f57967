"""The model extractor through an agent CLI the person already runs: ``claude -p``, ``codex exec``, ``gemini -p``.

Each CLI is started headless with JSON output, the prompt on stdin, and no way to act:

* ``claude -p --output-format json --tools "" --strict-mcp-config --max-turns 1 --no-session-persistence``
  (no built-in tools, none of the person's MCP servers); the reply object's ``result``, ``is_error``,
  ``subtype``, ``permission_denials`` and ``modelUsage`` are read;
* ``codex exec --json --sandbox read-only --skip-git-repo-check -`` (the prompt from stdin); its JSONL
  events are read: ``item.completed`` ``agent_message`` is the answer, ``turn.failed`` fails it;
* ``gemini --output-format json --approval-mode plan -p <instruction>`` (read-only plan mode; ``-p`` is
  appended to stdin), with ``GEMINI_CLI_TRUST_WORKSPACE=true``: Gemini CLI refuses to run headless in a
  folder it does not trust (exit 55; 0.61 and later) and, where it runs, drops ``plan`` to ``default`` there;
  the folder it runs in is the empty one below, so trusting it loads nothing. The object's ``response``,
  ``error`` and ``stats`` are read, from stdout, or from the end of stderr, where a fatal error (no login,
  no network) puts it.

Checked against the real CLIs (Claude Code 2.1.197, codex-cli 0.171.0, Gemini CLI 0.61.0), installed from
npm and run here without a login or a network (docs/adr/0051): each accepts these flags and fails in the
shape its parser expects. Codex reports a lost connection as ``error`` events ("Reconnecting... 2/5") and
goes on, so only ``turn.failed`` fails a turn; the last ``error`` names the cause of one that never completes.

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
from memory_review.safety import redact_within

MAX_OUTPUT_BYTES = 4 * 1024 * 1024
MAX_STDERR_BYTES = 64 * 1024
# Once the CLI has exited (or been stopped), how long its pipes may take to give what is left in them.
PIPE_GRACE = 2.0
NESTED_ENV = "MEMORY_REVIEW_NESTED"
GEMINI_INSTRUCTION = "Follow the instructions given above on standard input."
OBJECT_TRIES = 20
CHILD_ENV = {"gemini": {"GEMINI_CLI_TRUST_WORKSPACE": "true"}}
"""Set for that CLI's child only (see the module's docstring); the person's environment is kept otherwise."""
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
    ran = run(argv, stdin, timeout=config.timeout, env=CHILD_ENV.get(config.agent, {}))
    if isinstance(ran, ModelFailure):
        return _stamped(ran, config)
    stdout, stderr, code = ran
    if config.agent == "gemini" and not stdout.strip():
        stdout = _last_object(stderr) or stdout  # a fatal error's report goes to stderr, after any trace
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


def run(
    argv: list[str], stdin: bytes, *, timeout: float, env: dict[str, str] | None = None
) -> tuple[bytes, bytes, int] | ModelFailure:
    """Run ``argv`` in an empty folder, with ``env`` over the person's environment; (stdout, stderr, exit
    status), or a failure for no start, the deadline or too much output."""
    with tempfile.TemporaryDirectory(prefix="memory-review-cli-") as empty:
        try:
            child = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=empty,
                env={**os.environ, **(env or {}), NESTED_ENV: "1"},
                start_new_session=True,
            )
        except OSError as exc:
            return _failure("cli-error", f"cannot start {argv[0]}: {exc.strerror or exc}")
        return _collect(child, stdin, timeout)


def _collect(child: subprocess.Popen[bytes], stdin: bytes, timeout: float) -> tuple[bytes, bytes, int] | ModelFailure:
    """Feed, read and wait for ``child`` within ``timeout``. Its pipes are read on threads and the wait, not the
    reads, keeps the deadline: a descendant that left the CLI's group can hold them open for ever (session 37's
    review), and when the CLI has exited, what it wrote is in the pipes already."""
    stdout_read: list[bytes] = []
    stderr: list[bytes] = []
    too_much = threading.Event()

    def read_stdout() -> None:
        if _read_capped(child.stdout, MAX_OUTPUT_BYTES, stdout_read) is None:
            too_much.set()
            _kill(child)

    feeder = threading.Thread(target=_feed, args=(child.stdin, stdin), daemon=True)
    readers = [
        threading.Thread(target=read_stdout, daemon=True),
        threading.Thread(target=_drain, args=(child.stderr, stderr, MAX_STDERR_BYTES), daemon=True),
    ]
    for thread in (feeder, *readers):
        thread.start()
    try:
        code = child.wait(timeout=timeout)
        expired = False
    except subprocess.TimeoutExpired:
        expired = True
    finally:
        _kill(child)  # its group: anything it left behind goes too
    for thread in readers:
        thread.join(timeout=PIPE_GRACE)  # a reader still blocked is left, a daemon, with what it read kept
    if expired:
        code = child.wait()
        last = _last_words(b"".join(stdout_read), b"".join(stderr))
        return _failure("timeout", f"no answer within {timeout:g}s; the CLI was stopped{last}")
    if too_much.is_set():
        return _failure("bad-response", f"the CLI wrote more than {MAX_OUTPUT_BYTES} bytes; it was stopped")
    return b"".join(stdout_read), b"".join(stderr), code


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
    """Read ``pipe`` to its end keeping its last ``cap`` bytes in ``into``: a CLI's error report comes last, after
    any warnings (session 37's review: the first 64 KB of a long stderr hid Gemini's)."""
    kept = 0
    while pipe is not None and (chunk := _read_some(pipe)):
        into.append(chunk)
        kept += len(chunk)
        while kept - len(into[0]) >= cap:
            kept -= len(into.pop(0))
    if kept > cap:
        into[0] = into[0][kept - cap :]


def _read_some(pipe: IO[bytes]) -> bytes:
    # What the pipe holds now, not a buffer's worth: a buffered read of 64 KB waits for it all or the end, and a
    # descendant holding the pipe open kept a finished answer in the buffer (session 37's re-review).
    try:
        return os.read(pipe.fileno(), 65536)
    except OSError:
        return b""


def _read_capped(pipe: IO[bytes] | None, cap: int, chunks: list[bytes]) -> bytes | None:
    """All of ``pipe`` up to ``cap`` bytes (kept in ``chunks`` as they come); None as soon as it holds more."""
    size = 0
    while pipe is not None and (chunk := _read_some(pipe)):
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
        # Not logged in, it says subtype "success" with is_error true: the subtype adds nothing then.
        kind = "" if reply.get("subtype") in ("success", None) else f" ({reply.get('subtype')})"
        return _failure("cli-error", f"claude reported an error{kind}: {why}", config)
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
    trouble: str | None = None  # the last "error" event: codex goes on after one (a reconnect)
    for line in stdout.splitlines():
        if not line.strip():
            continue
        event = _event(line)
        if event is None:
            return _failure("bad-response", "codex wrote a line that is not a JSON event", config)
        kind, item = event.get("type"), event.get("item")
        if kind == "turn.failed":
            return _failure("cli-error", f"codex reported an error: {_codex_error(event)}", config)
        if kind == "error":
            trouble = _codex_error(event)
        if isinstance(item, dict) and item.get("type") in _CODEX_ACTIONS:
            return _failure("tool-call", f"codex used a tool ({item.get('type')}); none was wanted", config)
        if kind == "item.completed" and isinstance(item, dict) and item.get("type") == "agent_message":
            answer = item.get("text") if isinstance(item.get("text"), str) else None
        completed = completed or kind == "turn.completed"
    if not completed:
        said = f"; it last reported: {trouble}" if trouble else ""
        return _failure("truncated", f"codex's turn never completed{said}", config)
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


def _last_object(text: bytes) -> bytes | None:
    """The JSON object that ends ``text``, if one does (it starts at the beginning of one of the last
    :data:`OBJECT_TRIES` lines that open with a brace)."""
    end = text.rstrip()
    if not end.endswith(b"}"):
        return None
    start, tries = len(end), 0
    while tries < OBJECT_TRIES and (start := end.rfind(b"{", 0, start)) >= 0:
        if start == 0 or end[start - 1 : start] == b"\n":
            tries += 1
            if _event(end[start:]) is not None:
                return end[start:]
    return None


def _last_words(stdout: bytes, stderr: bytes) -> str:
    """What a stopped CLI said last, for the timeout's message: codex's last ``error`` event, else stderr's
    last line."""
    for line in reversed(stdout.splitlines()[-50:]):
        event = _event(line) if line.strip() else None
        if event is not None and event.get("type") == "error":
            return f"; it last reported: {_codex_error(event)}"
    said = _said(stderr)
    return f"; it last said{said}" if said else ""


def _said(stderr: bytes) -> str:
    text = stderr.decode("utf-8", "replace").strip()
    return f": {redact_within(text.splitlines()[-1], 300)}" if text else ""


def _failure(kind: FailureKind, message: str, config: CliConfig | None = None) -> ModelFailure:
    return ModelFailure(
        kind=kind,
        message=redact_within(message, 500),  # another program's words: they can quote a key
        api=f"{config.agent}-cli" if config else None,
        model=config.model if config else None,
        at=utc_now(),
    )


def _stamped(failure: ModelFailure, config: CliConfig) -> ModelFailure:
    return failure.model_copy(update={"api": f"{config.agent}-cli", "model": config.model})
