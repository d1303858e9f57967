"""Transcript readers: every real Claude Code file, the other formats, detection and clear errors."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from memory_review.errors import NotFoundError, ValidationError
from memory_review.extract import sources
from memory_review.extract.readers import detect_format, read_transcript

WriteSession = Callable[..., Path]  # the conftest fixture writing a Claude Code session

# Verified by reading each file: how many turns are the person typing in the main
# conversation (not tool results, slash-command wrappers, caveats, skills or subagent prompts).
USER_TURNS = {
    "claude-code/daaain-claude-code-log/edge_cases.jsonl": 4,  # with edge_007's command arguments
    "claude-code/daaain-claude-code-log/representative_messages.jsonl": 4,
    "claude-code/daaain-claude-code-log/session_b.jsonl": 2,
    "claude-code/daaain-claude-code-log/todowrite_examples.jsonl": 2,
    "claude-code/kesslerio-attio-mcp-server/logs_chat.json": 4,
    "claude-code/marot-spotter/short.jsonl": 1,
    "claude-code/marot-spotter/subagent.jsonl": 2,  # with the words typed after /handgemacht:create-beads
    "claude-code/marot-spotter/tool_heavy.jsonl": 2,
    "claude-code/simonw-claude-code-transcripts/sample_session.json": 5,
    "claude-code/simonw-claude-code-transcripts/sample_session.jsonl": 2,
}


def real_transcripts(root: Path) -> list[Path]:
    """Every transcript file under the real data folder (licences and READMEs excluded)."""
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and p.suffix in (".json", ".jsonl", ".md", ".txt") and p.name != "README.md"
    )


def decoded_strings(path: Path) -> Iterator[str]:
    """Every string value in a JSON or JSON Lines file, after JSON decoding."""
    raw = path.read_bytes()
    try:
        documents: list[Any] = [orjson.loads(raw)]
    except orjson.JSONDecodeError:
        documents = [_loads_or_none(line) for line in raw.splitlines() if line.strip()]
    stack = documents
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)


def _loads_or_none(line: bytes) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return None


def test_every_real_transcript_parses_with_the_expected_user_turns(transcripts_dir: Path) -> None:
    files = real_transcripts(transcripts_dir)
    assert len(files) >= len(USER_TURNS)
    for path in files:
        transcript = read_transcript(path)
        assert transcript.format == "claude-code", path
        assert transcript.turns, path
        key = path.relative_to(transcripts_dir).as_posix()
        if key in USER_TURNS:
            assert len(transcript.user_turns()) == USER_TURNS[key], key


def test_user_turn_text_is_verbatim_from_the_file(transcripts_dir: Path) -> None:
    for path in real_transcripts(transcripts_dir):
        haystack = "\x00".join(decoded_strings(path))
        for turn in read_transcript(path).turns:
            if turn.source in ("user", "system"):
                for line in turn.text.splitlines():
                    assert line in haystack, (path.name, turn.turn_id, line[:80])


def test_tool_results_wrappers_and_meta_records_are_not_the_user(transcripts_dir: Path) -> None:
    edge = read_transcript(transcripts_dir / "claude-code/daaain-claude-code-log/edge_cases.jsonl")
    by_id = {turn.turn_id: turn for turn in edge.turns}
    assert by_id["edge_005"].source == "tool-output" and by_id["edge_005"].role == "tool"
    assert by_id["edge_006"].source == "system"  # "Caveat: The messages below were generated..."
    # <command-name> wrapper: the words typed after the command are the person's (session 32), the rest is not
    assert (by_id["edge_007"].source, by_id["edge_007"].text) == ("user", "--verbose --output /tmp/test.log")
    assert by_id["edge_008"].source == "system"  # <local-command-stdout>
    spotter = read_transcript(transcripts_dir / "claude-code/marot-spotter/subagent.jsonl")
    system_texts = [t.text for t in spotter.turns if t.source == "system"]
    assert any(text.startswith("Create beads") for text in system_texts)  # an isMeta skill body
    assert any(text.startswith("[Request interrupted") for text in system_texts)


def test_sidechain_prompts_were_written_by_the_agent(transcripts_dir: Path) -> None:
    transcript = read_transcript(transcripts_dir / "claude-code/kesslerio-attio-mcp-server/logs_chat.json")
    prompts = [t for t in transcript.turns if t.role == "user" and t.is_sidechain]
    assert len(prompts) == 7
    assert all(t.source == "assistant" and not t.is_user_speaking for t in prompts)
    assert transcript.session_id == "c7428042-d9a9-4e9e-a71c-4433a8d202c0"


def test_malformed_records_are_skipped_with_their_line_numbers(transcripts_dir: Path) -> None:
    transcript = read_transcript(transcripts_dir / "claude-code/daaain-claude-code-log/edge_cases.jsonl")
    assert [s.line for s in transcript.skipped] == [10, 11, 13, 14, 15, 16, 18]
    assert all(s.reason for s in transcript.skipped)
    ids = [t.turn_id for t in transcript.turns]
    assert len(ids) == len(set(ids))  # the file repeats uuids; turn ids stay unique


def test_array_and_loglines_documents_read_like_jsonl(transcripts_dir: Path, tmp_path: Path) -> None:
    jsonl = transcripts_dir / "claude-code/simonw-claude-code-transcripts/sample_session.jsonl"
    records = [orjson.loads(line) for line in jsonl.read_bytes().splitlines() if line.strip()]
    as_array = tmp_path / "array.json"
    as_array.write_bytes(orjson.dumps(records, option=orjson.OPT_INDENT_2))
    as_loglines = tmp_path / "loglines.json"
    as_loglines.write_bytes(orjson.dumps({"loglines": records}))
    expected = [(t.turn_id, t.role, t.source, t.text) for t in read_transcript(jsonl).turns]
    for path in (as_array, as_loglines):
        assert [(t.turn_id, t.role, t.source, t.text) for t in read_transcript(path).turns] == expected


def test_system_reminders_are_cut_out_of_user_text(claude_session: WriteSession) -> None:
    text = "Never commit secrets.\n<system-reminder>\nYou must obey.\n</system-reminder>\nThanks!"
    transcript = read_transcript(claude_session(("user", [{"type": "text", "text": text}])))
    assert transcript.turns[0].text == "Never commit secrets.\n\nThanks!"


def test_user_text_and_tool_result_in_one_record_are_separate_turns(
    claude_session: WriteSession,
) -> None:
    parts = [
        {"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": "ok"}]},
        {"type": "text", "text": "Also, always run ruff."},
        {"type": "image", "source": {"type": "base64", "data": "AAAA"}},
    ]
    turns = read_transcript(claude_session(("user", parts))).turns
    assert [(t.turn_id, t.source, t.text) for t in turns] == [
        ("u000", "tool-output", "ok"),
        ("u000.1", "user", "Also, always run ruff."),
    ]


def test_assistant_thinking_and_tool_calls_are_left_out(claude_session: WriteSession) -> None:
    parts = [
        {"type": "thinking", "thinking": "The user always wants X"},
        {"type": "text", "text": "Done."},
        {"type": "tool_use", "id": "t", "name": "Bash", "input": {"command": "ls"}},
    ]
    (turn,) = read_transcript(claude_session(("assistant", parts))).turns
    assert (turn.role, turn.source, turn.text) == ("assistant", "assistant", "Done.")


def test_generic_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "chat.log"
    rows = [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": "We use pytest here.", "id": "m1"},
        {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]},
        {"role": "tool", "content": "exit 0"},
        {"role": "alien", "content": "?"},
    ]
    path.write_bytes(b"\n".join(orjson.dumps(r) for r in rows))
    transcript = read_transcript(path)
    assert transcript.format == "jsonl" and transcript.session_id == "chat"
    assert [(t.turn_id, t.role, t.source) for t in transcript.turns] == [
        ("line-1", "system", "system"),
        ("m1", "user", "user"),
        ("line-3", "assistant", "assistant"),
        ("line-4", "tool", "tool-output"),
    ]
    assert [s.line for s in transcript.skipped] == [5]


AIDER = """
# aider chat started at 2024-05-01 10:00:00

> /usr/bin/aider --model gpt-4o  
> Aider v0.50.1  

#### add a fib function to maths.py  
#### and always use type hints  

Here is the change:

```python
def fib(n: int) -> int: ...
```

> Applied edit to maths.py  

#### /run pytest  

> 1 passed  

# aider chat started at 2024-05-02 09:30:12

#### /ask never use print for logging in this repo  

Understood.
"""


def test_aider_history(tmp_path: Path) -> None:
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(AIDER, encoding="utf-8")
    transcript = read_transcript(path)
    assert transcript.format == "aider"
    summary = [(t.role, t.source, t.session_id, t.text.splitlines()[0]) for t in transcript.turns]
    assert summary == [
        ("tool", "tool-output", "aider-2024-05-01-10-00-00", "/usr/bin/aider --model gpt-4o  "),
        ("user", "user", "aider-2024-05-01-10-00-00", "add a fib function to maths.py"),
        ("assistant", "assistant", "aider-2024-05-01-10-00-00", "Here is the change:"),
        ("tool", "tool-output", "aider-2024-05-01-10-00-00", "Applied edit to maths.py  "),
        ("user", "system", "aider-2024-05-01-10-00-00", "/run pytest"),
        ("tool", "tool-output", "aider-2024-05-01-10-00-00", "1 passed  "),
        (
            "user",
            "user",
            "aider-2024-05-02-09-30-12",
            "/ask never use print for logging in this repo",
        ),
        ("assistant", "assistant", "aider-2024-05-02-09-30-12", "Understood."),
    ]
    assert transcript.turns[1].text == "add a fib function to maths.py\nand always use type hints"
    assert transcript.turns[1].turn_id == "line-7" and transcript.turns[1].line == 7


def test_plain_text_is_one_user_turn_per_paragraph(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Always use pnpm.\nNot npm.\n\n\n记住：测试数据库在 5433 端口。\r\n", encoding="utf-8")
    transcript = read_transcript(path)
    assert transcript.format == "text"
    assert [(t.turn_id, t.source, t.text) for t in transcript.turns] == [
        ("line-1", "user", "Always use pnpm.\nNot npm."),
        ("line-5", "user", "记住：测试数据库在 5433 端口。"),
    ]


def test_detection_looks_at_content_not_names(tmp_path: Path, transcripts_dir: Path) -> None:
    source = transcripts_dir / "claude-code/marot-spotter/short.jsonl"
    disguised = tmp_path / "history.md"
    disguised.write_bytes(source.read_bytes())
    assert detect_format(disguised) == "claude-code"
    text = tmp_path / "data.jsonl"
    text.write_text("[draft] always use pnpm\n", encoding="utf-8")
    assert detect_format(text) == "text"


def test_forced_format_overrides_detection(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(orjson.dumps({"role": "user", "content": "hi"}) + b"\n")
    assert read_transcript(path, format="text").turns[0].text == '{"role":"user","content":"hi"}'
    assert read_transcript(path, session_id="sess_given").session_id == "sess_given"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty file"),
        (b"  \n\n", "empty file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
        (b"\xff\xfe\xfa bad", "not UTF-8"),
        (b'{"silly": "this"}\n{"also": 1}\n', "not a transcript"),
        (b"[1, 2, 3]", "not a transcript"),
        (b'{"name": "package", "version": "1.0"}', "not a transcript"),
    ],
)
def test_files_that_are_no_transcript_are_rejected_clearly(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "input.jsonl"
    path.write_bytes(content)
    with pytest.raises(ValidationError, match=message) as caught:
        read_transcript(path)
    assert caught.value.path == str(path)


def test_missing_file_directory_and_unknown_format(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError):
        read_transcript(tmp_path / "nope.jsonl")
    with pytest.raises(ValidationError, match="directory"):
        read_transcript(tmp_path, format="text")
    (tmp_path / "a.txt").write_text("hi", encoding="utf-8")
    with pytest.raises(ValidationError, match="unknown transcript format"):
        read_transcript(tmp_path / "a.txt", format="yaml")


def test_an_over_long_line_is_skipped_not_loaded(claude_session: WriteSession, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sources, "MAX_LINE_BYTES", 4096)
    path = claude_session(("user", "Never use tabs."), ("tool", "x" * 50_000), ("user", "Thanks."))
    transcript = read_transcript(path)
    assert [t.text for t in transcript.turns] == ["Never use tabs.", "Thanks."]
    assert [(s.line, "longer than" in s.reason) for s in transcript.skipped] == [(2, True)]


def test_session_ids_are_always_safe_store_keys(claude_session: WriteSession, tmp_path: Path) -> None:
    hostile = read_transcript(claude_session(("user", "hi"), session="../../etc/passwd"))
    assert hostile.session_id == "etc-passwd" and hostile.turns[0].session_id == "etc-passwd"
    text = tmp_path / ".aider notes (old).txt"
    text.write_text("Never use tabs.\n", encoding="utf-8")
    assert read_transcript(text).session_id == "aider-notes-old"
    assert read_transcript(text, session_id="sess_ok-1.2").session_id == "sess_ok-1.2"


@pytest.mark.parametrize("uuid", ["\x1f", "a\nb", "zero\u200bwidth", "x" * 5_000])
def test_turn_ids_evidence_cannot_carry_are_replaced_by_the_line(tmp_path: Path, uuid: str) -> None:
    # Found by the property test: a control character in a record's uuid made the
    # extraction fail later, when the evidence was validated.
    from memory_review.extract.heuristic import extract

    record = {"uuid": uuid, "type": "user", "message": {"role": "user", "content": "Never use tabs."}}
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(record) for _ in range(3)))
    transcript = read_transcript(path)
    assert [t.turn_id for t in transcript.turns] == ["line-1", "line-2", "line-3"]
    cited = {e.turn_id for finding in extract(transcript, include_untrusted=True) for e in finding.evidence}
    assert cited and cited <= {"line-1", "line-2", "line-3"}


def test_a_repeated_clean_turn_id_stays_unique(tmp_path: Path) -> None:
    record = {"uuid": "u1", "type": "user", "message": {"role": "user", "content": "Never use tabs."}}
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(record) for _ in range(3)))
    assert [t.turn_id for t in read_transcript(path).turns] == ["u1", "u1@2", "u1@3"]


def test_a_fifo_or_device_is_refused_without_blocking(tmp_path: Path) -> None:
    # A transcript path can come from a hook payload: a FIFO there must not hang the command or worker.
    fifo = tmp_path / "t.jsonl"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        with pytest.raises(ValidationError, match="not a regular file"):
            read_transcript(path)
