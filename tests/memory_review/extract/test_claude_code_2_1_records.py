"""A Claude Code 2.1.197 session as it wrote it here, running our hooks (docs/adr/0051), trimmed: what a
hook added (our own block among it) and the CLI's listings are no one's words, and are not skips either."""

from __future__ import annotations

import json
from pathlib import Path

from memory_review.extract.readers import read_transcript

SESSION = "ff03f6a5-fed9-4197-85a8-5e7f7d356016"
BLOCK = "<memory-review-context>\n[memory:project:convention] Lint with ruff (id=lint-ruff)\n</memory-review-context>"
RECORDS = [
    {
        "type": "queue-operation",
        "operation": "enqueue",
        "timestamp": "2026-12-02T16:51:35.547Z",
        "sessionId": SESSION,
        "content": "how do we run ruff?\n",
    },
    {"type": "queue-operation", "operation": "dequeue", "timestamp": "2026-12-02T16:51:35.548Z", "sessionId": SESSION},
    {
        "parentUuid": None,
        "isSidechain": False,
        "type": "attachment",
        "uuid": "e593d10c",
        "sessionId": SESSION,
        "attachment": {
            "type": "hook_success",
            "hookName": "SessionStart:startup",
            "hookEvent": "SessionStart",
            "toolUseID": "493bba48",
        },
    },
    {
        "parentUuid": "e593d10c",
        "isSidechain": False,
        "type": "attachment",
        "uuid": "a6bbe9e9",
        "sessionId": SESSION,
        "attachment": {
            "type": "hook_additional_context",
            "content": [BLOCK],
            "hookName": "SessionStart",
            "toolUseID": "SessionStart",
            "hookEvent": "SessionStart",
        },
    },
    {
        "parentUuid": "a6bbe9e9",
        "isSidechain": False,
        "promptId": "4fe6c0b0",
        "type": "user",
        "uuid": "32c9cae4",
        "sessionId": SESSION,
        "message": {"role": "user", "content": "how do we run ruff?\n"},
        "timestamp": "2026-12-02T16:51:35.600Z",
    },
    {
        "parentUuid": "32c9cae4",
        "isSidechain": False,
        "type": "attachment",
        "uuid": "cc296550",
        "sessionId": SESSION,
        "attachment": {"type": "deferred_tools_delta", "addedNames": ["CronCreate", "CronDelete"]},
    },
    {
        "parentUuid": "cc296550",
        "isSidechain": False,
        "type": "attachment",
        "uuid": "aab2b993",
        "sessionId": SESSION,
        "attachment": {
            "type": "hook_additional_context",
            "content": [BLOCK],
            "hookName": "UserPromptSubmit",
            "toolUseID": "UserPromptSubmit",
            "hookEvent": "UserPromptSubmit",
        },
    },
    {"type": "last-prompt", "lastPrompt": "how do we run ruff?", "leafUuid": "a858e021", "sessionId": SESSION},
]


def test_hook_attachments_and_listings_are_bookkeeping(tmp_path: Path) -> None:
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in RECORDS), encoding="utf-8")
    transcript = read_transcript(path)
    assert transcript.format == "claude-code" and transcript.session_id == SESSION
    assert [turn.text.strip() for turn in transcript.user_turns()] == ["how do we run ruff?"]
    assert all("memory-review-context" not in turn.text for turn in transcript.turns)
    assert transcript.skipped == []
