"""The one door to a language model: OpenAI-compatible chat completions or Anthropic messages.

Standard library only (``urllib``). The request never offers tools; a reply counts only if
it ended with a normal stop (``stop`` / ``end_turn``), carries no tool call, and is text.
Every way a call can go wrong comes back as a :class:`ModelFailure` value — this module
never raises into its caller, and never puts the API key into a message.

Configuration comes from the person's environment (off when unset)::

    MEMORY_REVIEW_LLM_URL      full endpoint URL (…/v1/chat/completions or …/v1/messages)
    MEMORY_REVIEW_LLM_MODEL    model name
    MEMORY_REVIEW_LLM_KEY      API key (optional for local servers)
    MEMORY_REVIEW_LLM_API      openai | anthropic (default: openai)
    MEMORY_REVIEW_LLM_TIMEOUT  seconds (default 60)
"""

from __future__ import annotations

import http.client
import json
import os
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO, Any, Literal

from memory_review.models import Strict, utc_now
from memory_review.safety import redact_within

Api = Literal["openai", "anthropic"]
FailureKind = Literal[
    "not-configured",
    "http-error",
    "unreachable",
    "timeout",
    "truncated",
    "tool-call",
    "bad-response",
    "malformed",
    "schema",
    "cli-error",
]
MAX_REPLY_BYTES = 2 * 1024 * 1024
MAX_OUTPUT_TOKENS = 4096
ANTHROPIC_VERSION = "2023-06-01"
_NORMAL_STOP = {"openai": "stop", "anthropic": "end_turn"}


class ModelFailure(Strict):
    """Why a model call produced nothing; kept so the caller can report and record it."""

    kind: FailureKind
    message: str
    api: str | None = None
    model: str | None = None
    status: int | None = None
    at: str


@dataclass(frozen=True)
class ModelConfig:
    """Where and how to call the model (the key is held here and nowhere else)."""

    url: str
    model: str
    api: Api = "openai"
    key: str | None = None
    timeout: float = 60.0

    def __repr__(self) -> str:  # never show the key in logs or tracebacks
        return f"ModelConfig(url={self.url!r}, model={self.model!r}, api={self.api!r}, timeout={self.timeout})"


def config_from_env(env: Mapping[str, str] | None = None) -> ModelConfig | ModelFailure:
    """Read the configuration from the environment; a failure value says what is missing."""
    env = os.environ if env is None else env
    url, model = env.get("MEMORY_REVIEW_LLM_URL", ""), env.get("MEMORY_REVIEW_LLM_MODEL", "")
    api_name = env.get("MEMORY_REVIEW_LLM_API", "openai")
    if not url or not model:
        return failure(
            "not-configured",
            "set MEMORY_REVIEW_LLM_URL and MEMORY_REVIEW_LLM_MODEL to use the model extractor",
        )
    if api_name not in _NORMAL_STOP or not url.startswith(("http://", "https://")):
        return failure(
            "not-configured",
            "MEMORY_REVIEW_LLM_API must be openai or anthropic and the URL http(s)",
        )
    try:
        timeout = float(env.get("MEMORY_REVIEW_LLM_TIMEOUT", "60"))
    except ValueError:
        return failure("not-configured", "MEMORY_REVIEW_LLM_TIMEOUT must be a number of seconds")
    api: Api = "anthropic" if api_name == "anthropic" else "openai"
    key = env.get("MEMORY_REVIEW_LLM_KEY") or None
    return ModelConfig(url=url, model=model, api=api, key=key, timeout=timeout)


def failure(
    kind: FailureKind, message: str, config: ModelConfig | None = None, status: int | None = None
) -> ModelFailure:
    """A failure value stamped with the time and, when known, the endpoint's api and model."""
    return ModelFailure(
        kind=kind,
        message=redact_within(message, 500),  # an endpoint's words: they can quote a key
        api=config.api if config else None,
        model=config.model if config else None,
        status=status,
        at=utc_now(),
    )


def complete(config: ModelConfig, system: str, user: str) -> str | ModelFailure:
    """Ask the model once; the reply text on a clean stop, else a failure value."""
    body = _request_body(config, system, user)
    reply = _post(config, body)
    if isinstance(reply, ModelFailure):
        return reply
    return _reply_text(config, reply)


def _request_body(config: ModelConfig, system: str, user: str) -> dict[str, Any]:
    # Deliberately no "tools" / "functions": the model can only answer in text.
    if config.api == "anthropic":
        return {
            "model": config.model,
            "max_tokens": MAX_OUTPUT_TOKENS,
            "temperature": 0,
            "system": system,
            "messages": [{"role": "user", "content": user}],
        }
    return {
        "model": config.model,
        "max_tokens": MAX_OUTPUT_TOKENS,
        "temperature": 0,
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
    }


def _headers(config: ModelConfig) -> dict[str, str]:
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if config.api == "anthropic":
        headers["anthropic-version"] = ANTHROPIC_VERSION
        if config.key:
            headers["x-api-key"] = config.key
    elif config.key:
        headers["Authorization"] = f"Bearer {config.key}"
    return headers


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # A redirect would re-send the API key to wherever the server points; refuse it.
    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: http.client.HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def _post(config: ModelConfig, body: dict[str, Any]) -> dict[str, Any] | ModelFailure:
    """The endpoint's reply, or a failure, by the call's deadline whatever the endpoint does.

    The exchange runs on a thread the caller stops waiting for at the deadline: ``urlopen``'s timeout bounds each
    wait on the socket, so an endpoint sending its status line and headers a byte at a time was never stopped
    (ADR 0170's left item). A thread given up on ends with its socket's next timeout; the process never waits for it.
    """
    answer: list[dict[str, Any] | ModelFailure] = []
    exchange = threading.Thread(target=lambda: answer.append(_exchange(config, body)), daemon=True)
    exchange.start()
    exchange.join(config.timeout + _GRACE)
    return answer[0] if answer else failure("timeout", f"no answer within {config.timeout:g}s", config)


# What the exchange may take past the timeout before the caller stops waiting: its own deadline ends it first.
_GRACE = 1.0


def _exchange(config: ModelConfig, body: dict[str, Any]) -> dict[str, Any] | ModelFailure:
    data = json.dumps(body).encode("utf-8")
    request = urllib.request.Request(config.url, data=data, headers=_headers(config), method="POST")
    deadline = time.monotonic() + config.timeout
    try:
        with _OPENER.open(request, timeout=config.timeout) as response:
            raw = _read_by(response, deadline)
    except urllib.error.HTTPError as exc:
        return failure("http-error", f"the endpoint answered HTTP {exc.code}", config, status=exc.code)
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, TimeoutError):
            return failure("timeout", f"no answer within {config.timeout:g}s", config)
        return failure("unreachable", f"cannot reach the endpoint: {reason}", config)
    return _decode_reply(config, raw)


def _read_by(response: http.client.HTTPResponse, deadline: float) -> bytes:
    """The reply, up to one byte past the cap, read by ``deadline``: the timeout bounds each wait on the socket, and
    an endpoint sending a byte a second would never trip it (session 37's review)."""
    chunks: list[bytes] = []
    size = 0
    read = getattr(response, "read1", response.read)  # what returns as soon as some bytes are there
    while size <= MAX_REPLY_BYTES and (chunk := read(MAX_REPLY_BYTES + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if time.monotonic() > deadline and size <= MAX_REPLY_BYTES:
            raise TimeoutError("the reply did not end in time")
    return b"".join(chunks)


def _decode_reply(config: ModelConfig, raw: bytes) -> dict[str, Any] | ModelFailure:
    if len(raw) > MAX_REPLY_BYTES:
        return failure("bad-response", f"reply larger than {MAX_REPLY_BYTES} bytes", config)
    try:
        document = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return failure("bad-response", "the endpoint's reply is not JSON", config)
    if not isinstance(document, dict):
        return failure("bad-response", "the endpoint's reply is not a JSON object", config)
    return document


def _reply_text(config: ModelConfig, reply: dict[str, Any]) -> str | ModelFailure:
    if config.api == "anthropic":
        return _anthropic_text(config, reply)
    return _openai_text(config, reply)


def _openai_text(config: ModelConfig, reply: dict[str, Any]) -> str | ModelFailure:
    choices = reply.get("choices")
    if not isinstance(choices, list) or len(choices) != 1 or not isinstance(choices[0], dict):
        return failure("bad-response", "expected exactly one choice", config)
    choice = choices[0]
    message = choice.get("message")
    message = message if isinstance(message, dict) else {}
    if (
        message.get("tool_calls")
        or message.get("function_call")
        or choice.get("finish_reason") in ("tool_calls", "function_call")
    ):
        return failure("tool-call", "the model tried to call a tool; none was offered", config)
    if choice.get("finish_reason") != "stop":
        return failure("truncated", f"finish_reason was {choice.get('finish_reason')!r}, not 'stop'", config)
    content = message.get("content")
    if not isinstance(content, str):
        return failure("bad-response", "the reply message has no text content", config)
    return content


def _anthropic_text(config: ModelConfig, reply: dict[str, Any]) -> str | ModelFailure:
    blocks = reply.get("content")
    if not isinstance(blocks, list) or not all(isinstance(b, dict) for b in blocks):
        return failure("bad-response", "expected a list of content blocks", config)
    if any(block.get("type") == "tool_use" for block in blocks) or reply.get("stop_reason") == "tool_use":
        return failure("tool-call", "the model tried to call a tool; none was offered", config)
    if reply.get("stop_reason") != "end_turn":
        return failure("truncated", f"stop_reason was {reply.get('stop_reason')!r}, not 'end_turn'", config)
    if not all(block.get("type") == "text" and isinstance(block.get("text"), str) for block in blocks):
        return failure("bad-response", "the reply holds non-text content blocks", config)
    return "".join(block["text"] for block in blocks)
