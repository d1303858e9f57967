"""Text an agent puts in the person's slot is not the person (the review of session 32), and the person's words are.

Gemini appends the files a prompt references with ``@path``; Codex puts a named skill's SKILL.md in a user message;
Claude Code logs the words typed after a command inside its ``<command-args>`` wrapper.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_review.errors import ValidationError
from memory_review.extract.heuristic import extract
from memory_review.extract.readers import read_transcript

FILE_TEXT = "Never commit directly to main.\n\nAlways use pnpm instead of npm."


def _gemini(path: Path, content: str) -> Path:
    messages = [{"id": "m1", "type": "user", "content": content}, {"id": "m2", "type": "gemini", "content": "ok"}]
    path.write_text(json.dumps({"sessionId": path.stem, "projectHash": "ab" * 32, "messages": messages}, indent=2))
    return path


def test_gemini_referenced_files_are_cut_out_of_the_persons_message(tmp_path: Path) -> None:
    content = (
        "@CONTRIBUTING.md fix the failing test\n--- Content from referenced files ---\nContent from @CONTRIBUTING.md:\n"
        f"{FILE_TEXT}\n--- End of content ---"
    )
    sessions = [read_transcript(_gemini(tmp_path / f"session-{n}.json", content)) for n in range(2)]
    [said] = sessions[0].user_turns()
    assert said.text == "@CONTRIBUTING.md fix the failing test"
    assert all(extract(session) == [] for session in sessions)


def test_a_gemini_message_of_only_a_referenced_file_keeps_the_reference(tmp_path: Path) -> None:
    content = f"@docs/BRIEF.md\n--- Content from referenced files ---\nContent from @docs/BRIEF.md:\n{FILE_TEXT}"
    [said] = read_transcript(_gemini(tmp_path / "session-x.json", content)).user_turns()
    assert said.text == "@docs/BRIEF.md"  # no end marker: the file runs to the end of the message


def _codex(path: Path, *texts: str) -> Path:
    records = [{"timestamp": "2025-11-01T10:00:00Z", "type": "session_meta", "payload": {"id": "019a", "cwd": "/p"}}]
    for text in texts:
        part = {"type": "input_text", "text": text}
        item = {"type": "message", "role": "user", "content": [part]}
        records.append({"timestamp": "2025-11-01T10:00:01Z", "type": "response_item", "payload": item})
    path.write_text("\n".join(json.dumps(record) for record in records) + "\n")
    return path


def test_a_codex_skill_in_the_users_slot_is_system_text(tmp_path: Path) -> None:
    skill = "<skill>\n<name>release</name>\n<path>/home/u/.codex/skills/release/SKILL.md</path>\n" + FILE_TEXT
    transcript = read_transcript(_codex(tmp_path / "rollout.jsonl", "$release cut 1.4.1", skill + "\n</skill>"))
    assert [t.text for t in transcript.user_turns()] == ["$release cut 1.4.1"]
    assert [t.source for t in transcript.turns if t.text.startswith("<skill>")] == ["system"]


def _claude(path: Path, text: str) -> Path:
    record = {
        "type": "user",
        "uuid": "u1",
        "sessionId": "s1",
        "timestamp": "2026-01-01T10:00:00Z",
        "message": {"role": "user", "content": text},
    }
    path.write_text(json.dumps(record) + "\n")
    return path


def test_the_words_typed_after_a_claude_code_command_are_the_persons(tmp_path: Path) -> None:
    text = (
        "<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n"
        "<command-args>From now on, always squash-merge pull requests.</command-args>"
    )
    transcript = read_transcript(_claude(tmp_path / "s.jsonl", text))
    [said] = transcript.user_turns()
    assert said.text == "From now on, always squash-merge pull requests."
    [found] = extract(transcript)
    assert found.evidence[0].quote == "From now on, always squash-merge pull requests."


def test_a_command_with_nothing_after_it_stays_system_text(tmp_path: Path) -> None:
    text = "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n"
    text += "<command-args> </command-args>"
    transcript = read_transcript(_claude(tmp_path / "s.jsonl", text))
    assert transcript.user_turns() == [] and [t.source for t in transcript.turns] == ["system"]


def _user_record(text_json: str) -> str:
    return (
        '{"type": "user", "uuid": "u1", "sessionId": "s1", "timestamp": "2026-01-01T10:00:00Z", '
        f'"message": {{"role": "user", "content": "{text_json}"}}}}'
    )


def test_a_lone_escaped_surrogate_costs_one_character_not_the_record(tmp_path: Path) -> None:
    # Text cut inside an emoji leaves half a surrogate pair, which orjson refuses: the record was skipped, and on the
    # first line the whole file was read as one turn of the person's (the review of session 32)
    path = tmp_path / "s.jsonl"
    summary = '{"type": "summary", "summary": "cut \\ud83d", "leafUuid": "u0"}\n'
    path.write_text(summary + _user_record("Always use pnpm \\ud83d") + "\n")
    transcript = read_transcript(path)
    assert transcript.format == "claude-code" and transcript.skipped == []
    assert [t.text for t in transcript.user_turns()] == ["Always use pnpm \ufffd"]
    pair = tmp_path / "pair.jsonl"
    pair.write_text(_user_record("ok \\ud83d\\ude00 and the text \\\\ud83d") + "\n")
    assert [t.text for t in read_transcript(pair).user_turns()] == ["ok \U0001f600 and the text \\ud83d"]
    # A backslash of the text, then a lone half: the old pattern took the escape's backslash for an escaped one
    after = tmp_path / "after.jsonl"
    after.write_text(_user_record("C:\\\\\\ud83d and \\\\\\\\\\udc00 end") + "\n")
    assert [t.text for t in read_transcript(after).user_turns()] == ["C:\\\ufffd and \\\\\ufffd end"]


def test_a_file_cut_mid_record_on_its_first_line_is_read_past_it(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text('{"type": "assistant", "uuid": "a0", "messa\n' + _user_record("Always use pnpm, never npm.") + "\n")
    transcript = read_transcript(path)
    assert transcript.format == "claude-code" and [s.line for s in transcript.skipped] == [1]
    assert [t.text for t in transcript.user_turns()] == ["Always use pnpm, never npm."]


def test_json_that_does_not_parse_is_refused_not_read_as_the_persons_text(tmp_path: Path) -> None:
    path = tmp_path / "session-x.json"
    path.write_text('{"sessionId": "x", "messages": [{"type": "user", "content": "hi"}, ' + "[" * 2000 + "]" * 2000)
    with pytest.raises(ValidationError, match="looks like JSON but does not parse"):
        read_transcript(path)


def _queued(path: Path, **attachment: object) -> Path:
    base = {"type": "user", "uuid": "u1", "sessionId": "s1", "timestamp": "2026-01-01T10:00:00Z"}
    records = [
        {**base, "message": {"role": "user", "content": "refactor the parser"}},
        {**base, "uuid": "a1", "type": "attachment", "attachment": {"type": "queued_command", **attachment}},
    ]
    path.write_text("\n".join(json.dumps(record) for record in records) + "\n")
    return path


def test_a_prompt_typed_while_claude_code_worked_is_the_persons(tmp_path: Path) -> None:
    # Claude Code 2.x logs it only as a queued_command attachment, with no user record: it was dropped
    rule = "From now on, never use print for logging"
    path = _queued(tmp_path / "s.jsonl", commandMode="prompt", origin={"kind": "human"}, prompt=rule)
    assert [t.text for t in read_transcript(path).user_turns()] == ["refactor the parser", rule]
    parts = _queued(tmp_path / "p.jsonl", commandMode="prompt", prompt=[{"type": "text", "text": rule}])
    assert [t.text for t in read_transcript(parts).user_turns()] == ["refactor the parser", rule]


def test_a_queued_message_from_elsewhere_is_not_the_persons(tmp_path: Path) -> None:
    for n, attachment in enumerate(
        [
            {"commandMode": "prompt", "origin": {"kind": "peer"}, "prompt": "Always push to main."},
            {"commandMode": "task-notification", "prompt": "<task-notification>done</task-notification>"},
            {"commandMode": "prompt", "isMeta": True, "prompt": "Always push to main."},
        ]
    ):
        path = _queued(tmp_path / f"s{n}.jsonl", **attachment)
        assert [t.text for t in read_transcript(path).user_turns()] == ["refactor the parser"]


def test_a_queued_prompt_that_cannot_be_read_is_listed_as_skipped(tmp_path: Path) -> None:
    path = _queued(tmp_path / "s.jsonl", commandMode="prompt", prompt=["not a content part"])
    transcript = read_transcript(path)
    assert [t.text for t in transcript.user_turns()] == ["refactor the parser"]
    assert [s.reason for s in transcript.skipped] == ["content part is not an object"]


@pytest.mark.parametrize("wrap", ["[{}]", '{{"sessionId": "s", "messages": [{}]}}'])
def test_a_json_document_of_too_many_records_is_refused_before_it_is_parsed(tmp_path: Path, wrap: str) -> None:
    # The review of session 32: a 100 MB array of small records took 1.7 GB to parse (the byte cap was 256 MB); one
    # at the cap would have needed about 4 GB, enough to kill a hook's worker. Counted on the bytes now, and said.
    from memory_review.extract.sources import MAX_DOCUMENT_NODES

    path = tmp_path / "session.json"
    path.write_text(wrap.format(",".join(["0"] * (MAX_DOCUMENT_NODES + 1))), encoding="utf-8")
    with pytest.raises(ValidationError, match="too many records to read whole") as caught:
        read_transcript(path)
    assert "JSON Lines" in caught.value.hint


def test_commas_inside_strings_do_not_count_as_records(tmp_path: Path) -> None:
    # The review of session 33: the first count took every comma, so a Gemini session whose one tool output held
    # millions of commas (a CSV) was refused; the strings are blanked before a document over the cap is refused.
    from memory_review.extract.sources import MAX_DOCUMENT_NODES

    session = {
        "sessionId": "s1",
        "projectHash": "h",
        "startTime": "2026-01-01T10:00:00Z",
        "messages": [
            {
                "id": "m1",
                "type": "user",
                "timestamp": "2026-01-01T10:00:01Z",
                "content": "From now on, always use pnpm.",
            },
            {
                "id": "m2",
                "type": "gemini",
                "timestamp": "2026-01-01T10:00:02Z",
                "content": "," * (MAX_DOCUMENT_NODES + 1),
            },
        ],
    }
    path = tmp_path / "session-2026-01-01T10-00-s1.json"
    path.write_text(json.dumps(session), encoding="utf-8")
    transcript = read_transcript(path)
    assert transcript.format == "gemini" and [t.text for t in transcript.user_turns()] == [
        "From now on, always use pnpm."
    ]


def test_a_referenced_file_holding_geminis_opening_line_is_cut_whole(tmp_path: Path) -> None:
    # The second review of session 33: cut from the innermost opening line, a file that itself holds Gemini's opening
    # line kept its text (its rules) in the person's prompt.
    text = (
        "Summarise @docs/gemini.md for me.\n--- Content from referenced files ---\nContent from @docs/gemini.md:\n"
        "From now on, never commit the .env file.\n\nGemini appends files like this:\n"
        "--- Content from referenced files ---\n…\n--- End of content ---"
    )
    session = {
        "sessionId": "s1",
        "projectHash": "h",
        "startTime": "2026-01-01T10:00:00Z",
        "messages": [{"id": "m1", "type": "user", "timestamp": "2026-01-01T10:00:01Z", "content": [{"text": text}]}],
    }
    path = tmp_path / "session-2026-01-01T10-00-s1.json"
    path.write_text(json.dumps(session), encoding="utf-8")
    assert [t.text for t in read_transcript(path).user_turns()] == ["Summarise @docs/gemini.md for me."]


def test_an_unclosed_string_of_escaped_quotes_is_counted_in_one_pass(tmp_path: Path) -> None:
    # The second review of session 33: the string-blanking pattern restarted at every escaped quote of a string that
    # never closes (a 12 MB file ran for days); it matches an unclosed string once, to the end.
    path = tmp_path / "session.json"
    path.write_bytes(b'["' + b'\\",' * 4_000_000)
    with pytest.raises(ValidationError, match="looks like JSON"):  # refused at once (an array cut short: session 37)
        read_transcript(path)


def test_a_later_line_of_millions_of_items_costs_one_record(tmp_path: Path) -> None:
    # The second review of session 33: only the first line was counted; a later one of 10 million items took 1 GB.
    from memory_review.extract.sources import MAX_DOCUMENT_NODES

    first = {"type": "user", "uuid": "u1", "sessionId": "s", "message": {"role": "user", "content": "Always use pnpm."}}
    huge = '{"type": "progress", "uuid": "p1", "data": [' + ",".join(["0"] * (MAX_DOCUMENT_NODES + 1)) + "]}"
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(first) + "\n" + huge + "\n", encoding="utf-8")
    transcript = read_transcript(path)
    assert [t.text for t in transcript.user_turns()] == ["Always use pnpm."]
    assert any("too many to read" in skipped.reason for skipped in transcript.skipped)
